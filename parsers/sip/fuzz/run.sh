#!/usr/bin/env bash
# Build the SIP parser fuzz target (fuzz_sip.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/sip/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" sip 4096 "$@"
