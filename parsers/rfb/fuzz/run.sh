#!/usr/bin/env bash
# Build the rfb parser fuzz target (fuzz_rfb.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/rfb/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" rfb 4096 "$@"
