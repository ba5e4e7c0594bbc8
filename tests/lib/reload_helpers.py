"""Helpers for the daemon/reload/control-socket suites: osprey reading a pcap stream from a
named pipe (`osprey -r FIFO`), so a test decides when each packet arrives, sends signals or
control-socket commands in between, and knows exactly which packets came before and after.

Nothing here is a test; test_reload_*.py and test_daemon_*.py use it.
"""
import errno
import json
import re
import os
import signal
import socket
import struct
import subprocess
import time

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from conftest import SAN_ENV, binary

BATCH = 32  # frames osprey reads from a capture at a time (MON_IO_BATCH)


def udp_frames(n, payloads, start_port=20000):
    """n Ethernet/IPv4/UDP frames, frame i carrying payloads[i % len(payloads)], each its own
    flow (source port start_port + i) from one of 7 clients (10.0.i%7.1: --runmode workers
    spreads them over its workers by address pair)."""
    return [bytes(Ether() / IP(src=f"10.0.{i % 7}.1", dst="10.0.0.2") /
                  UDP(sport=start_port + i, dport=9999) / payloads[i % len(payloads)])
            for i in range(n)]


def pcap_header():
    return struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)


def pcap_records(frames, first=0, t0=1_700_000_000):
    """Records for frames; frame k of the stream (first + i) is stamped k ms after t0."""
    out = b""
    for i, f in enumerate(frames, start=first):
        out += struct.pack("<IIII", t0 + i // 1000, (i % 1000) * 1000, len(f), len(f)) + f
    return out


def ctl(path, *commands, timeout=30):
    """Send commands (strings: plain lines; dicts: JSON) on one connection; the answers."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(str(path))
    f = s.makefile("rwb")
    answers = []
    for c in commands:
        line = json.dumps(c) if isinstance(c, dict) else c
        f.write(line.encode() + b"\n")
        f.flush()
        answers.append(json.loads(f.readline()))
    s.close()
    return answers


def wait_for(cond, timeout=60, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


class FifoOsprey:
    """osprey -r FIFO in the background. write() feeds frames; close() ends the stream and
    waits for the exit. Sanitizer reports go to files in tmp (the daemon has no stderr)."""

    def __init__(self, tmp_path, rules, *args, control=True, daemon=False, relative=False):
        """relative: run in tmp_path and name the capture, rules and log directory
        relative to it (what -D must cope with: it leaves its start directory)."""
        self.tmp = tmp_path
        self.fifo = tmp_path / "stream.pcap"
        os.mkfifo(self.fifo)
        self.logdir = tmp_path / "log"
        self.logdir.mkdir(exist_ok=True)
        self.rules = tmp_path / "rules.rules"
        self.rules.write_text(rules)
        self.sock = tmp_path / "ctl.sock"
        self.san_dir = tmp_path / "san"
        self.san_dir.mkdir(exist_ok=True)
        env = dict(os.environ, **SAN_ENV)
        env["ASAN_OPTIONS"] += f":log_path={self.san_dir}/asan"
        env["UBSAN_OPTIONS"] += f":log_path={self.san_dir}/ubsan"
        name = (lambda p: p.name) if relative else str
        cmd = [binary("osprey"), "-r", name(self.fifo), "-S", name(self.rules), "-l",
               name(self.logdir), *args]
        if control:
            cmd += ["--set", "unix-command.enabled=yes", "--set",
                    f"unix-command.filename={self.sock}"]
        if daemon:
            cmd.append("-D")
        self.cmd = cmd
        # files, not pipes: a large ruleset's diagnostics would fill a pipe nobody reads yet
        self.out_path, self.err_path = tmp_path / "osprey.out", tmp_path / "osprey.err"
        with open(self.out_path, "w") as out, open(self.err_path, "w") as err:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, env=env,
                                         cwd=tmp_path if relative else None)
        self.fd = None
        self.written = 0

    def open_stream(self, timeout=120):
        """Open the pipe's write end once osprey has opened its read end; write the header."""
        end = time.monotonic() + timeout
        while True:
            try:
                self.fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as e:
                if e.errno != errno.ENXIO:
                    raise
            if self.proc.poll() is not None and not self.daemon_running():
                pytest.fail(f"osprey exited {self.proc.returncode} before reading:\n"
                            f"{self.err_path.read_text()}")
            if time.monotonic() > end:
                pytest.fail("osprey never opened the capture pipe")
            time.sleep(0.05)
        os.set_blocking(self.fd, True)
        os.write(self.fd, pcap_header())

    def daemon_running(self):
        return "-D" in self.cmd

    def write(self, frames):
        if self.fd is None:
            self.open_stream()
        data = pcap_records(frames, first=self.written)
        os.write(self.fd, data)
        self.written += len(frames)

    def stats(self):
        return ctl(self.sock, "stats")[0]["message"]

    def wait_processed(self, n, timeout=60):
        wait_for(lambda: self.stats()["total"]["packets"] >= n, timeout,
                 f"{n} packets processed")

    def close(self, timeout=120):
        """End the stream; wait for osprey; (returncode, stdout, stderr)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"osprey did not exit:\n{self.err_path.read_text()}")
        out, err = self.out_path.read_text(), self.err_path.read_text()
        self.check_sanitizers(err)
        return self.proc.returncode, out, err

    def wait_parent(self, timeout=120):
        """-D: the starting process's (returncode, stderr) once it has returned."""
        self.proc.wait(timeout=timeout)
        return self.proc.returncode, self.err_path.read_text()

    def check_sanitizers(self, err=""):
        reports = [p.read_text() for p in self.san_dir.iterdir()]
        if reports or "runtime error:" in err or "Sanitizer" in err:
            pytest.fail("sanitizer report:\n" + "\n".join(reports) + err)

    def kill(self):
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        pid = getattr(self, "daemon_pid", None)  # set by tests that start osprey with -D
        if pid and not gone(pid):
            os.kill(pid, signal.SIGKILL)

    def alerts(self):
        eve = self.logdir / "eve.json"
        recs = [json.loads(l) for l in eve.read_text().splitlines()] if eve.exists() else []
        return [r for r in recs if r["event_type"] == "alert"]


def rule(sid, content, msg=None):
    return (f'alert udp any any -> any any (msg:"{msg or "r" + str(sid)}"; '
            f'content:"{content}"; sid:{sid}; rev:1;)')


def gone(pid):
    """True once pid has exited (a zombie waiting for init counts as exited)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return re.search(r"^State:\s+Z", f.read(), re.M) is not None
    except FileNotFoundError:
        return True


@pytest.fixture
def stream(tmp_path):
    """Factory of FifoOsprey runs; each one made (and its daemon, with -D) is killed at the
    end of the test."""
    made = []

    def _make(rules, *args, **kw):
        o = FifoOsprey(tmp_path, rules, *args, **kw)
        made.append(o)
        return o
    yield _make
    for o in made:
        o.kill()
