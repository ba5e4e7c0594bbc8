#!/usr/bin/env bash
# Installs what building and testing Osprey needs on Debian 12, skipping what is already there.
# Safe to run again. Needs root (or sudo) for apt-get.
set -euo pipefail

debs=(build-essential cmake ninja-build pkg-config
      libpcap-dev libyaml-dev libjansson-dev libhyperscan-dev libpcre2-dev
      libmaxminddb-dev zlib1g-dev dpdk-dev libdpdk-dev
      python3 python3-pip python3-venv clang libclang-rt-14-dev)
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
if ! "$PY" -c 'import pytest, scapy, xdist' 2>/dev/null; then
  echo "install-deps: installing pytest, pytest-xdist and scapy for $PY"
  "$PY" -m pip install -q pytest pytest-xdist scapy 2>/dev/null || "$PY" -m pip install -q --break-system-packages pytest pytest-xdist scapy
fi
