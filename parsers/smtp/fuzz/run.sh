#!/usr/bin/env bash
# Build the SMTP parser fuzz target with clang (libFuzzer + ASan + UBSan) and run it.
# Usage: parsers/smtp/fuzz/run.sh [SECONDS]   (default 60). Exit status is libFuzzer's: non-zero on
# a crash, leak or sanitizer report (the reproducer is left in build-fuzz/). The corpus it
# grows lives in build-fuzz/fuzz-smtp-corpus; the seeds are parsers/smtp/fuzz/seeds (records:
# direction byte, length byte, bytes; after a configuration byte; see fuzz_smtp.c).
set -euo pipefail
cd "$(dirname "$0")/../../.."
SECONDS_TO_RUN=${1:-60}
BUILD=${OSPREY_FUZZ_BUILD:-build-fuzz}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
      -DOSPREY_FUZZ=ON -DOSPREY_SANITIZE=ON >/dev/null
ninja -C "$BUILD" fuzz-smtp >/dev/null
WORK="$BUILD/fuzz-smtp-corpus"
mkdir -p "$WORK"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$BUILD/bin/fuzz-smtp" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$BUILD/" "$WORK" parsers/smtp/fuzz/seeds
