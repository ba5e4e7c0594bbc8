#!/usr/bin/env bash
# Build the modbus fuzz target (fuzz_modbus.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/modbus/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" modbus 4096 "$@"
