#!/usr/bin/env bash
# Builds the optimised tree and prints every benchmark's figures.
# BENCH_PCAPS overrides the captures (default: the corpus benchmark captures; the standard
# 845 MB capture is made by ../shared/bench/make-bench-pcap.py OUT.pcap).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${OSPREY_CORPUS:-../shared/corpus}
PCAPS=${BENCH_PCAPS:-$CORPUS/pcaps/benchmark/*.pcap}
cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build-rel >/dev/null
echo "== decode + defrag + flow (foundation), and 1M concurrent flows"
# shellcheck disable=SC2086
build-rel/bin/bench-decode-flow $PCAPS
echo "== libmon end to end: no handler / packet count per flow / string search over streams"
# shellcheck disable=SC2086
build-rel/bin/bench-stack $PCAPS
echo "== shared invocation forests against a copy per flow (mOS Figure 12)"
build-rel/bin/bench-forest-share
if [ -x build-rel/bin/bench-rules-parse ]; then
  echo "== rule parsing: ET Open 2019"
  build-rel/bin/bench-rules-parse "$CORPUS"/rules/et-open-suricata-4.0-2019-04/*.rules
fi
