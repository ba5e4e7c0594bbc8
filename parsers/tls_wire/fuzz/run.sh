#!/usr/bin/env bash
# Build the shared TLS hello reader's fuzz target (fuzz_tls_wire.c) and run it:
# parsers/tests/fuzz_run.sh. Usage: parsers/tls_wire/fuzz/run.sh [SECONDS]   (default 60;
# inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" tls_wire 4096 "$@"
