#!/usr/bin/env bash
# Build the ike fuzz target (fuzz_ike.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/ike/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" ike 4096 "$@"
