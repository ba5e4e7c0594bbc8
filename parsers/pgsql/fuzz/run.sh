#!/usr/bin/env bash
# Build the pgsql fuzz target (fuzz_pgsql.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/pgsql/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" pgsql 4096 "$@"
