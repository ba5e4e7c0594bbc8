#!/usr/bin/env bash
# Build the TFTP fuzz target (fuzz_tftp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/tftp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" tftp 4096 "$@"
