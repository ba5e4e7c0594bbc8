#!/usr/bin/env bash
# Build the rule-parser fuzz target with clang (libFuzzer + ASan + UBSan) and run it.
# Usage: rules/fuzz/run.sh [SECONDS]   (default 60). Exit status is libFuzzer's: non-zero on a
# crash, leak or sanitizer report (the reproducer is left in build-fuzz/). The corpus it grows
# lives in build-fuzz/fuzz-rules-corpus; seeds are rules/fuzz/seeds plus a sample of the
# shared rule corpus when it is present.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_TO_RUN=${1:-60}
BUILD=${OSPREY_FUZZ_BUILD:-build-fuzz}
CORPUS=${OSPREY_CORPUS:-../shared/corpus}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
      -DOSPREY_FUZZ=ON -DOSPREY_SANITIZE=ON >/dev/null
ninja -C "$BUILD" fuzz-rules >/dev/null
WORK="$BUILD/fuzz-rules-corpus"
mkdir -p "$WORK"
SEEDS=(rules/fuzz/seeds)
if [ -d "$CORPUS/rules" ]; then
  # One rule per seed file keeps inputs small: the first rules of each shared ruleset.
  SAMPLE="$BUILD/fuzz-rules-samples"
  mkdir -p "$SAMPLE"
  for f in "$CORPUS"/rules/*/*.rules; do
    head -c 20000 "$f" | grep -m 40 -E '^#? ?(alert|drop|pass|file_id)' |
      split -l 1 - "$SAMPLE/$(basename "$(dirname "$f")")-$(basename "$f" .rules)-" || true
  done
  SEEDS+=("$SAMPLE")
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# OSPREY_FUZZ_SEED: libFuzzer's -seed (tools/test.sh fixes it: one replayable sequence)
SEED_ARGS=()
[ -n "${OSPREY_FUZZ_SEED:-}" ] && SEED_ARGS=(-seed="$OSPREY_FUZZ_SEED")
"$BUILD/bin/fuzz-rules" "${SEED_ARGS[@]}" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$BUILD/" "$WORK" "${SEEDS[@]}"
