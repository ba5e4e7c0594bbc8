#!/usr/bin/env bash
# Build the HTTP body decoder's fuzz target (fuzz_http_body.c) and run it:
# parsers/tests/fuzz_run.sh. Usage: parsers/http_body/fuzz/run.sh [SECONDS]   (default 60;
# inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" http_body 8192 "$@"
