#!/usr/bin/env bash
# Build the HTTP parser fuzz target (fuzz_http.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/http/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" http 4096 "$@"
