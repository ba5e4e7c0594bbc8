#!/usr/bin/env bash
# Fresh machine to first results: install what is missing, build, make the demo capture and
# run Osprey on it. (Until detection lands, Osprey's job on a capture is osprey-trace's flow
# summary; this script then switches to `osprey -r` with the bundled rules.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
ninja -C build
python3 tools/make-demo-pcap.py build/demo.pcap
echo "== osprey-trace -r build/demo.pcap: one line per flow, then stats =="
build/bin/osprey-trace -r build/demo.pcap > build/demo.json
python3 tools/flow-summary.py build/demo.json
