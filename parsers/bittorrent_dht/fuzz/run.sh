#!/usr/bin/env bash
# Build the bittorrent_dht fuzz target (fuzz_bittorrent_dht.c) and run it:
# parsers/tests/fuzz_run.sh.
# Usage: parsers/bittorrent_dht/fuzz/run.sh [SECONDS]   (default 60; inputs up to 1024 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" bittorrent_dht 1024 "$@"
