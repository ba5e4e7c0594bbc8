#!/usr/bin/env bash
# Build the POP3 parser fuzz target (fuzz_pop3.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/pop3/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" pop3 8192 "$@"
