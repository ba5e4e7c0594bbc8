#!/usr/bin/env bash
# Build the websocket parser fuzz target (fuzz_websocket.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/websocket/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" websocket 4096 "$@"
