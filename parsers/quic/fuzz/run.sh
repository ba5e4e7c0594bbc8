#!/usr/bin/env bash
# Build the QUIC parser fuzz target (fuzz_quic.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/quic/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" quic 4096 "$@"
