#!/usr/bin/env bash
# Build the IMAP parser fuzz target (fuzz_imap.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/imap/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" imap 8192 "$@"
