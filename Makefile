# Rewind — the two commands a newcomer needs are `make demo` and `make test`.
# Each installs the missing system packages first (`make setup`).

SWIFT         ?= swift
APT_PACKAGES  := libwebsockets-dev libncurses-dev libsqlite3-dev tmux pkg-config python3-venv
BREW_PACKAGES := libwebsockets ncurses sqlite tmux pkg-config

.PHONY: setup build release test demo bench clean portable-check mcp-client

## setup: install the system libraries Rewind needs, only those missing (apt on Debian/Ubuntu; the brew line on macOS)
setup:
	@if [ "$$(uname -s)" = Darwin ]; then \
	    missing=""; for p in $(BREW_PACKAGES); do brew list --versions $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	    if [ -n "$$missing" ]; then echo "setup: run:  brew install$$missing" >&2; exit 1; fi; \
	elif command -v dpkg-query >/dev/null 2>&1; then \
	    missing=""; for p in $(APT_PACKAGES); do \
	        [ "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" = "install ok installed" ] || missing="$$missing $$p"; \
	    done; \
	    if [ -n "$$missing" ]; then \
	        echo "setup: installing$$missing" >&2; \
	        sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	        $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	    fi; \
	else \
	    echo "setup: not a Debian-family system; install these yourself: $(APT_PACKAGES)" >&2; \
	fi

## mcp-client: the official Python MCP SDK (`mcp` on PyPI, MCP_CLIENT_PACKAGE) in a private virtual environment,
## .build-venv/mcp, for the end-to-end tests of `rewind mcp` (McpServerTests); made once (python3 with its venv module).
MCP_VENV           := $(CURDIR)/.build-venv/mcp
MCP_CLIENT_PACKAGE ?= mcp==2.3.0
mcp-client: setup
	@if ! $(MCP_VENV)/bin/python -c 'import mcp' >/dev/null 2>&1; then \
	    echo "mcp-client: installing $(MCP_CLIENT_PACKAGE) into $(MCP_VENV)" >&2; \
	    rm -rf $(MCP_VENV) && python3 -m venv $(MCP_VENV) && $(MCP_VENV)/bin/pip install -q '$(MCP_CLIENT_PACKAGE)'; \
	fi

## build: debug build of every target
build: setup
	$(SWIFT) build

## release: optimised build of every target
release: setup
	$(SWIFT) build -c release

## What the tests run, and nothing more: the test bundle, the package's executables and the compiled-only integration
## snippets. (A plain `swift build --build-tests` also builds the executables of dependencies — the MCP SDK's demo
## servers, and swift-nio with them — which nothing here runs.) $(call build-for-tests,FLAGS)
TEST_PRODUCTS = RewindPackageTests rewind counter todo login stress reswift-style tca-style integration-recorder \
                integration-reswift integration-swiftrex
build-for-tests = for product in $(TEST_PRODUCTS); do $(SWIFT) build --product $$product $(1) || exit 1; done; \
                  $(SWIFT) build --target IntegrationTCA $(1)

## test: install what is missing, build, run the whole test suite (and the quick benchmarks once, so they cannot rot)
test: setup mcp-client
	@$(call build-for-tests,)
	.ci/with-failure-summary $(SWIFT) test --skip-build --skip SoakTests
	.ci/with-failure-summary $(SWIFT) test --skip-build --filter SoakTests
	$(MAKE) portable-check
	$(MAKE) bench QUICK=1

## portable-check: the configuration an iOS/tvOS/watchOS/macOS app builds, checked on any machine (about a minute
## from clean): RewindInspector's Apple-platform dependencies must not reach libwebsockets, and the module boundaries
## of docs/ARCHITECTURE.md hold (the session files and the timeline never reach the daemon; from the manifest), and
## REWIND_PORTABLE=1 builds Rewind, RewindWire and RewindInspector without RewindWebSocket (URLSession transport),
## links the portable tests without libwebsockets and runs them, in its own build folder .build-portable.
PORTABLE_TESTS = $(CURDIR)/.build-portable/debug/RewindPackageTests.xctest
portable-check: setup
	$(SWIFT) package dump-package | $(SWIFT) .ci/check-dependencies.swift
	REWIND_PORTABLE=1 $(SWIFT) build --build-tests --scratch-path .build-portable
	@if command -v ldd >/dev/null 2>&1 && ldd $(PORTABLE_TESTS) | grep -q libwebsockets; then \
	    echo "portable-check: the portable build links libwebsockets" >&2; exit 1; fi
	REWIND_PORTABLE=1 .ci/with-failure-summary $(SWIFT) test --skip-build --scratch-path .build-portable

## demo: install what is missing, build, and start the live demo (quit the timeline with q)
demo: setup
	$(SWIFT) build
	@samples/demo.sh

## bench: release builds of rewind, stress and rewind-bench (Benchmarks/), then every benchmark; rewrites BENCHMARKS.md (about 12 minutes
## on a 2-processor machine).
## QUICK=1: a smoke run (about 4 minutes, with the debug builds make test made) that writes bench-results/BENCHMARKS-quick.md instead.
bench: setup
	$(if $(QUICK),,$(SWIFT) build -c release --product rewind && $(SWIFT) build -c release --product stress)
	$(SWIFT) run -c release rewind-bench $(if $(QUICK),--quick --output bench-results/BENCHMARKS-quick.md,--output BENCHMARKS.md)

## fuzz: a long fuzzing pass (FUZZ_SECONDS, default 300) over the JSON parser, the protocol decoders and patch apply.
## Inputs that fail or hang are saved in Tests/FuzzTests/Corpus/; one that kills the process is saved as crash-*.bin.
## Then MEMO_FUZZ_SEQUENCES (default 5000) random edit sequences through the inspector's encoding memo, each checked
## against a full encoding (a failure names its seed: replay it with REWIND_MEMO_FUZZ_SEED), and DELIVERY_SCHEDULES
## (default 5000) seeded schedules of the delivery simulation (app, network and disk faults against both delivery
## state machines; a failure names its seed: replay it with REWIND_DELIVERY_SEED).
## (make test runs a short pass of each, under 15 s each.)
FUZZ_SECONDS ?= 300
MEMO_FUZZ_SEQUENCES ?= 5000
DELIVERY_SCHEDULES ?= 5000
FUZZ_LAST_INPUT := $(CURDIR)/.build/fuzz-last-input.bin
.PHONY: fuzz sanitize soak
fuzz: setup
	$(SWIFT) build --build-tests
	@rm -f $(FUZZ_LAST_INPUT)
	@REWIND_FUZZ_SECONDS=$(FUZZ_SECONDS) REWIND_FUZZ_LAST_INPUT=$(FUZZ_LAST_INPUT) \
	    $(SWIFT) test --skip-build --filter FuzzTests || { \
	    if [ -f $(FUZZ_LAST_INPUT) ]; then \
	        saved=Tests/FuzzTests/Corpus/crash-$$(date +%Y%m%d-%H%M%S).bin; cp $(FUZZ_LAST_INPUT) $$saved; \
	        echo "fuzz: the input that stopped the process is saved as $$saved" >&2; \
	    fi; exit 1; }
	REWIND_MEMO_FUZZ_SEQUENCES=$(MEMO_FUZZ_SEQUENCES) $(SWIFT) test --skip-build --filter StateEncodingMemoPropertyTests
	REWIND_DELIVERY_SCHEDULES=$(DELIVERY_SCHEDULES) REWIND_DELIVERY_BASE_SEED=$$(date +%s) \
	    $(SWIFT) test --skip-build --filter DeliverySimulationTests

## soak: ten apps stream into a real daemon for SOAK_SECONDS (default 240) while their connections are reset at
## random, slow viewers stop reading, hostile peers send garbage and the daemon restarts; then every session must
## account for every action and the daemon's memory must be back near its baseline. (make test runs it for 12 s, on
## its own after the rest of the suite: under the whole suite's parallel load some apps stop being recorded after a
## daemon kill and never reconnect — an open defect of issue 19, not yet diagnosed.)
SOAK_SECONDS ?= 240
soak: setup
	$(SWIFT) build --build-tests
	REWIND_SOAK_SECONDS=$(SOAK_SECONDS) REWIND_SOAK_REPORT=$(CURDIR)/Benchmarks/SOAK.md $(SWIFT) test --skip-build --filter SoakTests

## sanitize: the whole test suite under ThreadSanitizer, then under AddressSanitizer (build folders .build-tsan and
## .build-asan). Any report fails the run. Leak detection is off: the Swift runtime keeps global caches for good.
## The tests' time limits are stretched (REWIND_TEST_TIME_SCALE) by about as much as each sanitizer slows the code.
## The sanitizer prints its own report, so Swift's backtracer is off (entered on the sanitizer's abort, it can spin
## forever failing to suspend the sanitizer's threads), and each run is killed after SANITIZE_TIMEOUT regardless.
## Up to five tests that failed by their expectations alone (no sanitizer report, no crash) run once more on their own
## (.ci/rerun-failures-alone): the sanitizer's slowdown under the whole suite's load can starve a timed test of a core.
## Those that pass alone are named at the end of the output; a failure that repeats fails the run.
SANITIZE_TIMEOUT ?= 30m
SANITIZE_RUN      = SWIFT_BACKTRACE=enable=no timeout --kill-after=30s $(SANITIZE_TIMEOUT)
sanitize: setup mcp-client
	@$(call build-for-tests,--sanitize=thread --scratch-path .build-tsan)
	REWIND_TEST_TIME_SCALE=10 TSAN_OPTIONS=halt_on_error=1:abort_on_error=1 \
	    .ci/with-failure-summary .ci/rerun-failures-alone $(SANITIZE_RUN) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --skip SoakTests
	@$(call build-for-tests,--sanitize=address --scratch-path .build-asan)
	REWIND_TEST_TIME_SCALE=4 ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
	    .ci/with-failure-summary .ci/rerun-failures-alone $(SANITIZE_RUN) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --skip SoakTests

clean:
	rm -rf .build
