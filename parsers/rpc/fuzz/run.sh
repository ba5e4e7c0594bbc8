#!/usr/bin/env bash
# Build the ONC-RPC fuzz target (fuzz_rpc.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/rpc/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" rpc 4096 "$@"
