#!/usr/bin/env bash
# Build the ntp fuzz target (fuzz_ntp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/ntp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 1024 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" ntp 1024 "$@"
