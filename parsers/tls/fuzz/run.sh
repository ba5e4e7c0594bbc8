#!/usr/bin/env bash
# Build the TLS parser fuzz target (fuzz_tls.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/tls/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" tls 8192 "$@"
