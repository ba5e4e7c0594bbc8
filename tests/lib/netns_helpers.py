"""Topologies for live and inline tests: network namespaces, veth pairs, and osprey running in
the background until it says it is ready.

Every name is unique per test process (pytest-xdist worker id + pid + a counter) and every
helper cleans up in a finally block, so tests run in parallel and a failed test leaves
nothing behind. Interface names stay within Linux's 15 characters.
"""
import itertools
import os
import select
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager

import pytest

from conftest import SAN_ENV, binary

_counter = itertools.count()


def unique(prefix):
    """A short name unique to this test process: prefix + worker + pid + counter (<= 15 chars)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw")[-2:]
    name = f"{prefix}{worker}{os.getpid() % 100000}{next(_counter)}"
    assert len(name) <= 15, name
    return name


def sh(*args, check=True, ns=None):
    """Run a command (in namespace ns when given); fail the test with its output on error."""
    cmd = (["ip", "netns", "exec", ns] if ns else []) + [str(a) for a in args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if check and proc.returncode != 0:
        pytest.fail(f"{cmd} exited {proc.returncode}: {proc.stderr}")
    return proc


def quiet_link(iface, ns=None):
    """Bring iface up without IPv6 (no router solicitations or DAD traffic in the captures)."""
    sh("sysctl", "-qw", f"net.ipv6.conf.{iface}.disable_ipv6=1", ns=ns, check=False)
    sh("ip", "link", "set", iface, "up", ns=ns)


@contextmanager
def netns():
    """A fresh network namespace (lo up), deleted afterwards."""
    name = unique("ons")
    sh("ip", "netns", "add", name)
    try:
        sh("ip", "link", "set", "lo", "up", ns=name)
        yield name
    finally:
        sh("ip", "netns", "del", name, check=False)


@contextmanager
def veth_pair(ns_a=None, ns_b=None):
    """A veth pair (a, b), each end moved into its namespace (None = this one) and up.
    Deleting one end removes both; a namespace going away takes its ends with it."""
    a, b = unique("ova"), unique("ovb")
    sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
    try:
        for end, ns in ((a, ns_a), (b, ns_b)):
            if ns:
                sh("ip", "link", "set", end, "netns", ns)
            quiet_link(end, ns)
        yield a, b
    finally:
        for end, ns in ((a, ns_a), (b, ns_b)):
            sh("ip", "link", "del", end, ns=ns, check=False)


def no_offloads(iface, ns=None):
    """Checksums filled in by the sender and no segmentation offload: frames captured on a
    veth are then what a wire would carry (and what osprey forwards inline)."""
    sh("ethtool", "-K", iface, "tx", "off", "tso", "off", "gso", "off", "gro", "off",
       ns=ns, check=False)


class Osprey:
    """osprey running in the background: waits for its "ready" line, stops with SIGTERM."""

    def __init__(self, args, ns=None, ready_timeout=60):
        cmd = (["ip", "netns", "exec", ns] if ns else []) + [binary("osprey"), *map(str, args)]
        self.cmd = cmd
        # stderr into a file: a pipe nobody reads until stop() would block osprey once full
        # (a ruleset with many rejected rules says so before "ready")
        self.err_file = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.err_file,
                                     text=True, env=dict(os.environ, **SAN_ENV))
        self.stdout_lines = []
        # read the pipe's descriptor, not the text wrapper: readline() after select() may
        # pull the ready line into the wrapper's buffer, where select() no longer sees it
        # (and communicate() in stop() would never return it)
        fd, pending = self.proc.stdout.fileno(), b""
        deadline = time.monotonic() + ready_timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                pytest.fail(f"{cmd}: no 'osprey: ready' line within {ready_timeout}s")
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:  # exited before being ready
                self.proc.wait(timeout=10)
                err = self.stderr_text()
                pytest.fail(f"{cmd} exited {self.proc.returncode} before ready:\n{err}")
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                self.stdout_lines.append(line.decode(errors="replace") + "\n")
                if line.startswith(b"osprey: ready"):
                    if pending:
                        self.stdout_lines.append(pending.decode(errors="replace"))
                    return

    def signal(self, sig):
        self.proc.send_signal(sig)

    def pause(self, timeout=10):
        """SIGSTOP, and wait until every thread has stopped (a signal is delivered
        asynchronously: a sleep is no proof on a loaded machine)."""
        self.proc.send_signal(signal.SIGSTOP)
        task = f"/proc/{self.proc.pid}/task"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            states = []
            for tid in os.listdir(task):
                try:
                    with open(f"{task}/{tid}/stat") as f:
                        states.append(f.read().rsplit(")", 1)[1].split()[0])
                except OSError:
                    pass  # a thread that just ended
            if states and all(st in "tT" for st in states):
                return
            time.sleep(0.01)
        pytest.fail(f"{self.cmd}: not stopped {timeout}s after SIGSTOP")

    def stop(self, timeout=60, expect_rc=0):
        """SIGTERM, wait; returns (stdout, stderr). Fails on a sanitizer report or a bad status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"{self.cmd}: did not stop within {timeout}s of SIGTERM")
        err = self.stderr_text()
        out = "".join(self.stdout_lines) + out
        rc = self.proc.returncode
        if rc in (86, 87) or "runtime error:" in err or "Sanitizer" in err:
            pytest.fail(f"sanitizer report from {self.cmd}:\n{err}")
        if expect_rc is not None and rc != expect_rc:
            pytest.fail(f"{self.cmd} exited {rc}:\nstdout:\n{out}\nstderr:\n{err}")
        return out, err

    def stderr_text(self):
        self.err_file.seek(0)
        return self.err_file.read()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@contextmanager
def osprey_running(args, ns=None):
    """Context manager over Osprey: always stopped (killed if need be) on the way out."""
    o = Osprey(args, ns=ns)
    try:
        yield o
    finally:
        o.kill()


def read_eve(logdir, event_type="alert"):
    import json
    path = os.path.join(logdir, "eve.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return [r for r in recs if event_type is None or r.get("event_type") == event_type]


def summary_counts(stdout, prefix="osprey: inline:"):
    """The numbers of a summary line, in order."""
    import re
    for line in stdout.splitlines():
        if line.startswith(prefix):
            return [int(x) for x in re.findall(r"(\d+) ", line.split(":", 2)[2])]
    pytest.fail(f"no '{prefix}' line in:\n{stdout}")


class Wire:
    """Raw frames on one interface of this namespace: send() puts a frame out of it, and a
    background reader keeps every frame that ARRIVES on it (what we send is ignored), with
    VLAN tags the kernel stripped put back, so frames compare byte for byte."""

    ETH_P_ALL, SOL_PACKET, PACKET_AUXDATA, PACKET_IGNORE_OUTGOING = 3, 263, 8, 23

    def __init__(self, iface):
        import socket
        import threading
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(self.ETH_P_ALL))
        self.sock.setsockopt(self.SOL_PACKET, self.PACKET_AUXDATA, 1)
        self.sock.setsockopt(self.SOL_PACKET, self.PACKET_IGNORE_OUTGOING, 1)
        self.sock.bind((iface, 0))
        self.sock.settimeout(0.1)
        self.frames = []
        self._stop = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        import socket
        import struct
        while not self._stop:
            try:
                data, anc, _, _ = self.sock.recvmsg(65600, socket.CMSG_SPACE(32))
            except (socket.timeout, OSError):
                continue
            for level, kind, cdata in anc:
                if level == self.SOL_PACKET and kind == self.PACKET_AUXDATA and len(cdata) >= 20:
                    status, _, _, _, _, tci, tpid = struct.unpack("IIIHHHH", cdata[:20])
                    if status & 0x10:  # TP_STATUS_VLAN_VALID: put the tag back
                        tpid = tpid if status & 0x40 else 0x8100
                        data = data[:12] + struct.pack("!HH", tpid, tci) + data[12:]
            self.frames.append(bytes(data))

    def send(self, frame):
        self.sock.send(bytes(frame))

    def wait(self, count, timeout=5.0):
        """Wait until at least count frames arrived (or timeout); returns the frames."""
        deadline = time.monotonic() + timeout
        while len(self.frames) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.frames)

    def close(self):
        self._stop = True
        self._thread.join(timeout=5)
        self.sock.close()
