#!/usr/bin/env bash
# Build the dnp3 fuzz target (fuzz_dnp3.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/dnp3/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" dnp3 8192 "$@"
