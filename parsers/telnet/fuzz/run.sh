#!/usr/bin/env bash
# Build the telnet parser fuzz target (fuzz_telnet.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/telnet/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" telnet 4096 "$@"
