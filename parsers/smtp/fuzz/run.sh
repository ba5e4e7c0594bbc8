#!/usr/bin/env bash
# Build the SMTP parser fuzz target (fuzz_smtp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/smtp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" smtp 8192 "$@"
