#!/usr/bin/env bash
# The live demo: starts the `login` and `todo` samples in demo mode in the background, streaming into the
# `rewind` timeline that runs in the foreground. Quitting the timeline (q) stops the samples.
#
# Environment: REWIND_DEMO_PORT (default 7723), REWIND_DEMO_DATA (default ~/.rewind/sessions), REWIND_DEMO_BIN
# (the built executables; default: `swift build --show-bin-path`).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${REWIND_DEMO_BIN:-$(swift build --show-bin-path)}
port=${REWIND_DEMO_PORT:-7723}
data=${REWIND_DEMO_DATA:-$HOME/.rewind/sessions}
work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-demo.XXXXXX")

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

export REWIND_URL="ws://127.0.0.1:$port"
"$bin/login" --demo >"$work/login.log" 2>&1 &
pids+=($!)
"$bin/todo" --demo --file "$work/todos.json" >"$work/todo.log" 2>&1 &
pids+=($!)

"$bin/rewind" --port "$port" --data "$data" "$@"
