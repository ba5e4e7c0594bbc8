#!/usr/bin/env bash
# Build the SSH parser fuzz target (fuzz_ssh.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/ssh/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" ssh 8192 "$@"
