#!/usr/bin/env bash
# Build the services fuzz target (fuzz_services.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/services/fuzz/run.sh [SECONDS]   (default 60; inputs up to 1024 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" services 1024 "$@"
