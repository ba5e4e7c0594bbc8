#!/usr/bin/env bash
# Build the rdp parser fuzz target (fuzz_rdp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/rdp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" rdp 4096 "$@"
