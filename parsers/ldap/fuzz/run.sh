#!/usr/bin/env bash
# Build the LDAP parser fuzz target (fuzz_ldap.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/ldap/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" ldap 4096 "$@"
