#!/usr/bin/env bash
# Build the Kerberos 5 parser fuzz target (fuzz_krb5.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/krb5/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" krb5 4096 "$@"
