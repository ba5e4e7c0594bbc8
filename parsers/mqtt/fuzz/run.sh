#!/usr/bin/env bash
# Build the MQTT parser fuzz target (fuzz_mqtt.c) and run it: parsers/tests/fuzz_run.sh.
# Usage: parsers/mqtt/fuzz/run.sh [SECONDS]   (default 60; inputs up to 4096 bytes).
exec "$(dirname "$0")/../../tests/fuzz_run.sh" mqtt 4096 "$@"
