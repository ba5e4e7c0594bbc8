#!/usr/bin/env bash
# Build the HTTP/2 parser fuzz target (fuzz_http2.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/http2/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" http2 4096 "$@"
