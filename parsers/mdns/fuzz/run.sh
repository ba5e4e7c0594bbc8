#!/usr/bin/env bash
# Build the mdns fuzz target (fuzz_mdns.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/mdns/fuzz/run.sh [SECONDS]   (default 60; inputs up to 2048 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" mdns 2048 "$@"
