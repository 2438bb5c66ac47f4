# Rewind — the two commands a newcomer needs are `make demo` and `make test`.
# Each installs the missing system packages first (`make setup`).

SWIFT        ?= swift
APT_PACKAGES := libwebsockets-dev libncurses-dev libsqlite3-dev tmux pkg-config
BREW_PACKAGES := libwebsockets ncurses sqlite tmux pkg-config

.PHONY: setup build release test demo bench fuzz sanitize clean

## setup: install the system libraries Rewind links against (apt on Debian/Ubuntu; prints the brew line on macOS)
setup:
	@scripts/setup.sh

## build: debug build of every target
build: setup
	$(SWIFT) build

## release: optimised build of every target
release: setup
	$(SWIFT) build -c release

## test: install what is missing, build, run the whole test suite
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

## demo: install what is missing, build, and start the live demo
demo: setup
	$(SWIFT) build
	@scripts/demo.sh

clean:
	rm -rf .build
