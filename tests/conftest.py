"""Shared fixtures: where the binaries are, and running osprey-trace on scapy-built traffic.

Environment:
  OSPREY_BUILD   build directory whose bin/ holds the programs (default: ./build)
  OSPREY_CORPUS  corpus of real captures and rulesets (default: ../shared/corpus)
"""
import ipaddress
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The helper modules (tests/lib/*_helpers.py) are imported by bare name from any subfolder.
sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
BUILD = Path(os.environ.get("OSPREY_BUILD", ROOT / "build")).resolve()
BIN = BUILD / "bin"
CORPUS = Path(os.environ.get("OSPREY_CORPUS", ROOT.parent / "shared" / "corpus")).resolve()

# Sanitizer builds must fail loudly: any report makes the process exit non-zero.
SAN_ENV = {
    "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:exitcode=86",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=87",
}


def eve_ip(addr):
    """An address as Suricata's EVE (and so Osprey's) writes it: IPv6 whole, without "::"."""
    a = ipaddress.ip_address(addr)
    return a.exploded if a.version == 6 else str(a)


def binary(name):
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{path} not built (set OSPREY_BUILD to the build directory)")
    return str(path)


def run(args, check=True, **kw):
    env = dict(os.environ, **SAN_ENV)
    proc = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600, **kw)
    if proc.returncode in (86, 87) or "runtime error:" in proc.stderr or "Sanitizer" in proc.stderr:
        pytest.fail(f"sanitizer report from {args}:\n{proc.stderr}")
    if check and proc.returncode != 0:
        pytest.fail(f"{args} exited {proc.returncode}:\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


class Trace:
    """Parsed output of one osprey-trace run."""

    def __init__(self, proc):
        self.proc = proc
        self.records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
        self.flows = [r for r in self.records if r.get("event_type") == "flow"]
        self.packets = [r for r in self.records if r.get("event_type") == "packet"]
        stats = [r for r in self.records if r.get("event_type") == "stats"]
        self.stats = stats[-1]["stats"] if stats else None

    def anomalies(self):
        """{reason: count} of decoder anomalies that occurred (zero counts left out)."""
        return {k: v for k, v in self.stats["decoder"]["anomalies"].items() if v}


def write_pcap(path, packets, linktype=None):
    from scapy.utils import wrpcap
    if linktype is None:
        wrpcap(str(path), packets)
    else:
        wrpcap(str(path), packets, linktype=linktype)
    return path


@pytest.fixture
def trace(tmp_path):
    """trace(packets_or_path, *args, linktype=None, check=True) -> Trace.

    packets: a list of scapy packets (written to a pcap with increasing timestamps unless they
    carry their own .time) or the path of an existing capture."""
    counter = [0]

    def _trace(packets, *args, linktype=None, check=True):
        if isinstance(packets, (str, Path)):
            pcap = Path(packets)
        else:
            counter[0] += 1
            pcap = tmp_path / f"t{counter[0]}.pcap"
            write_pcap(pcap, packets, linktype)
        proc = run([binary("osprey-trace"), "-r", str(pcap), *args], check=check)
        return Trace(proc)

    return _trace


def stamp(packets, start=1_600_000_000.0, step=0.001):
    """Give packets increasing timestamps (scapy otherwise uses creation time)."""
    for i, p in enumerate(packets):
        p.time = start + i * step
    return packets
