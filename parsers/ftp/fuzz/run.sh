#!/usr/bin/env bash
# Build the FTP parser fuzz target (fuzz_ftp.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/ftp/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" ftp 4096 "$@"
