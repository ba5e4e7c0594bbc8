#!/usr/bin/env bash
# Build the SMB parser fuzz target (fuzz_smb.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/smb/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" smb 8192 "$@"
