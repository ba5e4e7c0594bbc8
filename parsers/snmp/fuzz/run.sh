#!/usr/bin/env bash
# Build the SNMP parser fuzz target (fuzz_snmp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/snmp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" snmp 4096 "$@"
