#!/usr/bin/env bash
# Build the dhcp fuzz target (fuzz_dhcp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/dhcp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 1024 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" dhcp 1024 "$@"
