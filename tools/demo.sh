#!/usr/bin/env bash
# Fresh machine to first alerts: install what is missing, build, make the demo capture and run
# Osprey on it with the bundled demo rules (etc/rules/osprey-demo.rules), then show the alerts
# it wrote to build/demo-logs/eve.json and the flows libmon saw.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
ninja -C build
python3 tools/make-demo-pcap.py build/demo.pcap
mkdir -p build/demo-logs
rm -f build/demo-logs/eve.json build/demo-logs/fast.log build/demo-logs/unified2.alert.*
echo "== osprey -r build/demo.pcap -S etc/rules/osprey-demo.rules -l build/demo-logs =="
build/bin/osprey -c etc/osprey.yaml -r build/demo.pcap -S etc/rules/osprey-demo.rules -l build/demo-logs
echo "== alerts (build/demo-logs/eve.json) =="
python3 tools/alert-summary.py build/demo-logs/eve.json
echo "== flows (osprey-trace) =="
build/bin/osprey-trace -r build/demo.pcap > build/demo-flows.json
python3 tools/flow-summary.py build/demo-flows.json
