#!/usr/bin/env bash
# Installs what building and testing Osprey needs on Debian 12, skipping what is already there.
# Safe to run again. Needs root (or sudo) for apt-get.
set -euo pipefail

debs=(build-essential cmake ninja-build pkg-config
      libpcap-dev libyaml-dev libjansson-dev libhyperscan-dev libpcre2-dev
      libmaxminddb-dev liblua5.4-dev zlib1g-dev liblzma-dev libssl-dev libmagic-dev libnghttp2-dev dpdk-dev libdpdk-dev
      libhiredis-dev librdkafka-dev redis-server  # EVE to Redis / Kafka; redis-server: tests
      libjemalloc-dev  # the osprey program's allocator (CMakeLists.txt OSPREY_JEMALLOC)
      python3 python3-pip python3-venv clang libclang-rt-14-dev
      iproute2 ethtool iputils-ping  # live/inline tests: netns, veth, offloads, ping
      suricata-update man-db  # tests/program: the suricata-update workflow, osprey(8) renders
      chromium)  # tests/program/test_report.py renders osprey-report's page headless
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Python test tools: use the interpreter the tests will run with.
PY=${PYTHON:-python3}
# cryptography: the TLS parser tests build real X.509 certificates; jsonschema: EVE records
# are validated against Suricata's EVE schema (tests/outputs/test_eve_schema.py).
if ! "$PY" -c 'import pytest, scapy, xdist, cryptography, jsonschema' 2>/dev/null; then
  echo "install-deps: installing pytest, pytest-xdist, scapy, cryptography and jsonschema for $PY"
  "$PY" -m pip install -q pytest pytest-xdist scapy cryptography jsonschema 2>/dev/null || "$PY" -m pip install -q --break-system-packages pytest pytest-xdist scapy cryptography jsonschema
fi

# Output tests (tests/outputs/test_outputs_*.py): idstools reads unified2 back (idstools-u2json);
# MaxMind's own test databases (shipped in the maxminddb source distribution) for GeoIP.
if ! command -v idstools-u2json >/dev/null 2>&1; then
  echo "install-deps: installing idstools for $PY"
  "$PY" -m pip install -q idstools 2>/dev/null || "$PY" -m pip install -q --break-system-packages idstools
fi
GEO_DIR=${OSPREY_TEST_DATA:-/usr/local/share/osprey/test-data}
if [ ! -f "$GEO_DIR/GeoIP2-City-Test.mmdb" ] || [ ! -f "$GEO_DIR/GeoLite2-ASN-Test.mmdb" ]; then
  echo "install-deps: MaxMind test databases into $GEO_DIR"
  tmp=$(mktemp -d)
  "$PY" -m pip download -q --no-binary :all: --no-deps maxminddb==3.2.0 -d "$tmp"
  tar xzf "$tmp"/maxminddb-3.2.0.tar.gz -C "$tmp"
  $SUDO mkdir -p "$GEO_DIR"
  $SUDO cp "$tmp"/maxminddb-3.2.0/tests/data/test-data/GeoIP2-City-Test.mmdb \
           "$tmp"/maxminddb-3.2.0/tests/data/test-data/GeoLite2-ASN-Test.mmdb "$GEO_DIR"/
  rm -rf "$tmp"
fi
