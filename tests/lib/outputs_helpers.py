"""Helpers of the output tests: run osprey -r on scapy traffic and read every output back."""
import glob
import json
import os
import subprocess
import time

import pytest
from scapy.utils import PcapWriter

from conftest import SAN_ENV, binary, run, stamp, write_pcap
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


class Feeder:
    """osprey -r reading a FIFO: the test writes packets while osprey runs."""

    def __init__(self, tmp_path, rules, *args):
        self.fifo = tmp_path / "in.pcap"
        os.mkfifo(self.fifo)
        rf = tmp_path / "r.rules"
        rf.write_text("\n".join(rules) + "\n")
        self.logdir = tmp_path / "log"
        self.logdir.mkdir()
        env = dict(os.environ, **SAN_ENV)
        self.proc = subprocess.Popen(
            [binary("osprey"), "-r", str(self.fifo), "-S", str(rf), "-l", str(self.logdir),
             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.w = PcapWriter(str(self.fifo), linktype=228, sync=True)  # raw IPv4
        self.t = 1_600_000_000.0

    def send(self, pkts):
        for p in pkts:
            p.time = self.t
            self.t += 0.001
            self.w.write(p)
        self.w.flush()

    def wait_for(self, cond, what, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            if cond():
                return
            time.sleep(0.05)
        pytest.fail(f"timed out waiting for {what}")

    def finish(self, rc=0):
        """rc: the exit status expected (1: an output lost records)."""
        self.w.close()
        out, err = self.proc.communicate(timeout=60)
        assert "Sanitizer" not in err and "runtime error" not in err, err
        assert self.proc.returncode == rc, err
        return out, err


__all__ = ["Out", "Feeder", "osprey_out", "u2json", "rule", "TEST_DATA"]
