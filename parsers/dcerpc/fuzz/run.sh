#!/usr/bin/env bash
# Build the DCERPC parser fuzz target (fuzz_dcerpc.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/dcerpc/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" dcerpc 8192 "$@"
