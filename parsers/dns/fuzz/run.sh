#!/usr/bin/env bash
# Build the DNS parser fuzz target (fuzz_dns.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/dns/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" dns 8192 "$@"
