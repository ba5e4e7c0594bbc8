#!/usr/bin/env bash
# Build one of the packet-path and configuration fuzz targets with clang (libFuzzer + ASan +
# UBSan) and run it: decode, defrag, flow (stack/fuzz/), pipeline (engine/fuzz/), config
# (common/config/fuzz/). The rule parser and the protocol parsers have their own run.sh
# (rules/fuzz/, parsers/<proto>/fuzz/). tools/fuzz/README.md: formats, campaigns, findings.
# Usage: tools/fuzz/run.sh TARGET [SECONDS [LIBFUZZER ARGS...]]   (default 60 seconds)
#        tools/fuzz/run.sh --list          the targets, one a line (tools/test.sh runs each)
# Exit status is libFuzzer's: non-zero on a crash, leak, timeout or sanitizer report (the
# reproducer is left in build-fuzz/). The corpus a run grows lives in build-fuzz/fuzz-TARGET-
# corpus; the committed seeds and regression inputs in the target's corpus/ dir run first on
# every run, then seeds cut from the shared corpus (tools/fuzz/make_seeds.py, made once).
set -euo pipefail
cd "$(dirname "$0")/../.."
TARGETS="decode defrag flow pipeline config"
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' $TARGETS
  exit 0
fi
T=${1:?usage: tools/fuzz/run.sh TARGET [SECONDS [LIBFUZZER ARGS...]]}
SECONDS_TO_RUN=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
case "$T" in
  decode) DIR=stack/fuzz/corpus/decode; MAX_LEN=1024 ;;
  defrag) DIR=stack/fuzz/corpus/defrag; MAX_LEN=2048 ;;
  flow) DIR=stack/fuzz/corpus/flow; MAX_LEN=8192 ;;
  pipeline) DIR=engine/fuzz/corpus; MAX_LEN=16384 ;;
  config) DIR=common/config/fuzz/corpus; MAX_LEN=4096 ;;
  *) echo "tools/fuzz/run.sh: unknown target '$T' (one of: $TARGETS)" >&2; exit 2 ;;
esac
BUILD=${OSPREY_FUZZ_BUILD:-build-fuzz}
CORPUS=${OSPREY_CORPUS:-../shared/corpus}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
      -DOSPREY_FUZZ=ON -DOSPREY_SANITIZE=ON >/dev/null
ninja -C "$BUILD" "fuzz-$T" >/dev/null
WORK="$BUILD/fuzz-$T-corpus"
SEEDS="$BUILD/fuzz-$T-seeds"
mkdir -p "$WORK"
if [ ! -d "$SEEDS" ]; then
  python3 tools/fuzz/make_seeds.py "$T" "$SEEDS.tmp" "$CORPUS" && mv "$SEEDS.tmp" "$SEEDS"
fi
if [ "$T" = pipeline ]; then
  python3 tools/fuzz/pipeline_rules.py "$BUILD/fuzz-pipeline.rules" "$CORPUS" >/dev/null
  export OSPREY_FUZZ_RULES="$BUILD/fuzz-pipeline.rules"
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# OSPREY_FUZZ_SEED: libFuzzer's -seed (tools/test.sh fixes it: one replayable sequence)
SEED_ARGS=()
[ -n "${OSPREY_FUZZ_SEED:-}" ] && SEED_ARGS=(-seed="$OSPREY_FUZZ_SEED")
"$BUILD/bin/fuzz-$T" "${SEED_ARGS[@]}" -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$BUILD/fuzz-$T-" "$@" "$WORK" "$DIR" "$SEEDS"
