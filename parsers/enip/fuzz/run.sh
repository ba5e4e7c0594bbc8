#!/usr/bin/env bash
# Build the enip fuzz target (fuzz_enip.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/enip/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" enip 8192 "$@"
