"""Helpers of the output tests: run osprey -r on scapy traffic and read every output back."""
import glob
import json
import os
import subprocess

from conftest import binary, run, stamp, write_pcap
from detect_helpers import rule

TEST_DATA = os.environ.get("OSPREY_TEST_DATA", "/usr/local/share/osprey/test-data")


class Out:
    """Every output of one run: eve records by type, fast.log lines, unified2 files."""

    def __init__(self, proc, logdir):
        self.proc, self.logdir = proc, logdir
        eve = logdir / "eve.json"
        self.eve_text = eve.read_text() if eve.exists() else ""
        self.records = [json.loads(l) for l in self.eve_text.splitlines()]
        fast = logdir / "fast.log"
        self.fast = fast.read_text().splitlines() if fast.exists() else []
        self.u2_files = sorted(glob.glob(str(logdir / "unified2.alert.*")))

    def of(self, event_type):
        return [r for r in self.records if r["event_type"] == event_type]


def osprey_out(tmp_path, packets, rules, *args, name="t", check=True, keep_times=False):
    """keep_times: the packets carry their own .time (else 1 ms apart from 2020-09-13)."""
    pcap = tmp_path / f"{name}.pcap"
    write_pcap(pcap, packets if keep_times else stamp(packets))
    rf = tmp_path / f"{name}.rules"
    rf.write_text("\n".join(rules) + "\n")
    logdir = tmp_path / f"{name}-log"
    logdir.mkdir(exist_ok=True)
    proc = run([binary("osprey"), "-r", str(pcap), "-S", str(rf), "-l", str(logdir), *args],
               check=check)
    return Out(proc, logdir)


def u2json(files):
    """idstools' reader over unified2 files: its records, as it prints them."""
    proc = subprocess.run(["idstools-u2json", *files], capture_output=True, text=True,
                          check=True)
    return [json.loads(l) for l in proc.stdout.splitlines() if l.strip()]


__all__ = ["Out", "osprey_out", "u2json", "rule", "TEST_DATA"]
