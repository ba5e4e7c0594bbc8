#!/usr/bin/env bash
# Build the shared DNS message decoder's fuzz target (fuzz_dns_wire.c) and run it:
# parsers/tests/fuzz_run.sh. Usage: parsers/dns_wire/fuzz/run.sh [SECONDS]   (default 60;
# inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" dns_wire 4096 "$@"
