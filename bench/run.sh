#!/usr/bin/env bash
# Builds the optimised tree and prints every benchmark's figures.
# BENCH_PCAPS overrides the captures (default: the corpus benchmark captures).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${OSPREY_CORPUS:-../shared/corpus}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build >/dev/null
# shellcheck disable=SC2086
build/bin/bench-decode-flow ${BENCH_PCAPS:-$CORPUS/pcaps/benchmark/*.pcap}
