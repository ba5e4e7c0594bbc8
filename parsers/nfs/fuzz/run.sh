#!/usr/bin/env bash
# Build the NFS parser fuzz target (fuzz_nfs.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/nfs/fuzz/run.sh [SECONDS]   (default 60; inputs up to 8192 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" nfs 8192 "$@"
