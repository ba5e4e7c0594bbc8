#!/usr/bin/env bash
# Build one protocol's fuzz target (parsers/<proto>/fuzz/fuzz_<proto>.c) with clang (libFuzzer
# + ASan + UBSan) and run it; what every parsers/<proto>/fuzz/run.sh calls.
# Usage: parsers/tests/fuzz_run.sh PROTO MAX_LEN [SECONDS]   (default 60; PROTO is the folder,
# its target fuzz-PROTO with "_" as "-"). Exit status is
# libFuzzer's: non-zero on a crash, leak or sanitizer report (the reproducer is left in
# build-fuzz/). The corpus it grows lives in build-fuzz/fuzz-PROTO-corpus; the seeds are
# parsers/PROTO/fuzz/seeds (their format: the top of fuzz_PROTO.c).
set -euo pipefail
cd "$(dirname "$0")/../.."
PROTO=$1
MAX_LEN=$2
SECONDS_TO_RUN=${3:-60}
BUILD=${OSPREY_FUZZ_BUILD:-build-fuzz}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
      -DOSPREY_FUZZ=ON -DOSPREY_SANITIZE=ON >/dev/null
ninja -C "$BUILD" "fuzz-${PROTO//_/-}" >/dev/null
WORK="$BUILD/fuzz-$PROTO-corpus"
mkdir -p "$WORK"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# OSPREY_FUZZ_SEED: libFuzzer's -seed (tools/test.sh fixes it: one replayable sequence)
SEED_ARGS=()
[ -n "${OSPREY_FUZZ_SEED:-}" ] && SEED_ARGS=(-seed="$OSPREY_FUZZ_SEED")
"$BUILD/bin/fuzz-${PROTO//_/-}" "${SEED_ARGS[@]}" -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$BUILD/" "$WORK" "parsers/$PROTO/fuzz/seeds"
