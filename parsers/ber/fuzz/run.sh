#!/usr/bin/env bash
# Build the shared BER reader fuzz target (fuzz_ber.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/ber/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" ber 4096 "$@"
