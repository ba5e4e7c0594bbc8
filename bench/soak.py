#!/usr/bin/env python3
"""Soak benchmark (issue 17): osprey runs for a configurable duration on an endless capture
stream (`osprey -r FIFO`, packets stamped with the wall clock, written at a steady rate as a
live sensor would receive them; or, with --live, the same frames sent on a veth pair that
osprey captures with AF_PACKET, its kernel drops reported) of mixed benign and attack traffic, with a rule reload
(SIGUSR2) every --reload seconds. It samples resident memory and the control socket's
counters, and FAILS (exit 1) when memory grows without bound, when a packet written was not
processed, when a legitimate conversation's alert is missing, or when eve.json holds a
partial line.

Each round (--rounds-per-s a second) sends: --legit HTTP conversations whose request a rule
alerts on (LEGIT-MARKER-n, n unique), and the attacks of bench/attacks.py at a small scale with
fresh addresses each round: connections holding out-of-order data after a hole that never
fills, a burst of SYNs from distinct sources, incomplete overlapping IPv4 fragments, UDP that
makes a catastrophic regex backtrack. The memcaps are small (flow, reassembly: 16 MB by
default, --flow-memcap / --reassembly-memcap) so the attacks hit them for the whole run.

Memory verdict: after --warmup seconds, the peak RSS of the last quarter of the run must not
exceed the peak of the first half after warm-up by more than 10 % + 8 MB.

usage: bench/soak.py [--osprey build/bin/osprey] [--minutes 30] [--rounds-per-s 2]
                     [--scale 1.0] [--reload 30] [--sample 5] [--flow-memcap 16mb]
                     [--reassembly-memcap 16mb] [--live]
"""
import argparse
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attacks import ETH, RULES, ip4, tcp  # noqa: E402



class Stream:
    """The write end of the capture pipe: frames stamped with the wall clock."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY)
        os.write(self.fd, struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        self.buf, self.frames = [], 0

    def add(self, l3, step=0.0):
        t = time.time()
        frame = ETH + b"\x08\x00" + l3
        self.buf.append(struct.pack("<IIII", int(t), int((t % 1) * 1e6), len(frame),
                                    len(frame)) + frame)

    def flush(self):
        data = b"".join(self.buf)
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]
        self.frames += len(self.buf)
        self.buf = []

    def close(self):
        self.flush()
        os.close(self.fd)


class LiveStream:
    """The same frames sent on one end of a veth pair (--live): osprey captures the other
    end with AF_PACKET, as a live sensor on a link."""

    def __init__(self, iface):
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.sock.bind((iface, 0))
        self.buf, self.frames, self.fragments = [], 0, 0

    def add(self, l3, step=0.0):
        self.buf.append(ETH + b"\x08\x00" + l3)
        # an IPv4 fragment (MF or an offset): the kernel's fanout defrag holds it until its
        # datagram is whole, and the attack's never are, so the capture never sees it
        self.fragments += bool(struct.unpack("!H", l3[6:8])[0] & 0x3FFF)

    def flush(self):
        for frame in self.buf:
            self.sock.send(frame)
        self.frames += len(self.buf)
        self.buf = []

    def close(self):
        self.flush()
        self.sock.close()


def veth_up(a, b):
    """A veth pair a <-> b, up, with IPv6 off (so the only frames on it are ours). A round's
    burst of frames goes through the receiving CPU's backlog queue (netdev_max_backlog, 1000
    by default): raised, so that the link does not drop what the capture should see."""
    subprocess.run(["sysctl", "-qw", "net.core.netdev_max_backlog=100000"], check=True)
    subprocess.run(["ip", "link", "del", a], stderr=subprocess.DEVNULL)
    subprocess.run(["ip", "link", "add", a, "type", "veth", "peer", "name", b], check=True)
    for i in (a, b):
        subprocess.run(["sysctl", "-qw", f"net.ipv6.conf.{i}.disable_ipv6=1"], check=True)
        subprocess.run(["ip", "link", "set", i, "up"], check=True)


def legit(s, n):
    c, sv, sp = [10, 9, n >> 8 & 255, n & 255], [10, 8, 0, 2], 20000 + n % 40000
    req = b"GET /LEGIT-MARKER-%d HTTP/1.1\r\nHost: example.com\r\n\r\n" % n
    resp = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    for pkt in (tcp(c, sv, sp, 80, 100, 0, 0x02), tcp(sv, c, 80, sp, 900, 101, 0x12),
                tcp(c, sv, sp, 80, 101, 901, 0x10), tcp(c, sv, sp, 80, 101, 901, 0x18, req),
                tcp(sv, c, 80, sp, 901, 101 + len(req), 0x18, resp),
                tcp(c, sv, sp, 80, 101 + len(req), 901 + len(resp), 0x11),
                tcp(sv, c, 80, sp, 901 + len(resp), 102 + len(req), 0x11),
                tcp(c, sv, sp, 80, 102 + len(req), 902 + len(resp), 0x10)):
        s.add(pkt)


def attack_round(s, r, scale, rng):
    rr = [r >> 16 & 255, r >> 8 & 255, r & 255]
    for i in range(int(10 * scale)):  # held out-of-order data after a hole
        c, sv, sp = [11, rr[1], rr[2], i], [10, 0, 0, 80], 1024 + (r * 7 + i) % 60000
        s.add(tcp(c, sv, sp, 80, 1000, 0, 0x02))
        s.add(tcp(sv, c, 80, sp, 5000, 1001, 0x12))
        s.add(tcp(c, sv, sp, 80, 1001, 5001, 0x10))
        order = list(range(1, 30))
        rng.shuffle(order)
        for j in order:
            s.add(tcp(c, sv, sp, 80, 1001 + 40 * j, 5001, 0x10, b"A" * 40))
    base = (r * int(1000 * scale)) & 0xFFFFFF
    for i in range(int(1000 * scale)):  # SYN flood, one flow each
        src = list(struct.pack("!I", 0x10000000 + ((base + i) & 0xFFFFFF)))
        s.add(tcp(src, [10, 0, 0, 1], 1024 + i % 60000, 80, i, 0, 0x02))
    for i in range(int(100 * scale)):  # overlapping fragments, last one never comes
        src, ident = [12, rr[1], rr[2], i], (r * 131 + i) & 0xFFFF
        body = bytes([i & 255]) * 64
        for frag in (0x2000, 0x2000 | 4, 0x2000 | 16):
            s.add(ip4(src, [10, 0, 0, 53], 17, body, ident=ident, frag=frag))
    for i in range(int(50 * scale)):  # catastrophic regex
        payload = b"a" * 40 + b"!"
        udp = struct.pack("!HHHH", 5000 + i, 9999, 8 + len(payload), 0) + payload
        s.add(ip4([15, rr[1], rr[2], i], [10, 0, 0, 99], 17, udp))


def ctl_stats(path):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(path)
        f = s.makefile("rwb")
        f.write(b"stats\n")
        f.flush()
        ans = json.loads(f.readline())
        s.close()
        return ans.get("message", {})
    except (OSError, ValueError):
        return {}


def rss_kb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--osprey", default="build/bin/osprey")
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--rounds-per-s", type=float, default=2)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--legit", type=int, default=4)
    ap.add_argument("--reload", type=float, default=30)
    ap.add_argument("--sample", type=float, default=5)
    ap.add_argument("--warmup", type=float, default=60)
    ap.add_argument("--flow-memcap", default="16mb")
    ap.add_argument("--reassembly-memcap", default="16mb")
    ap.add_argument("--live", action="store_true",
                    help="capture live with AF_PACKET on a veth pair instead of -r FIFO")
    a = ap.parse_args()
    caps = ["--set", f"flow.memcap={a.flow_memcap}", "--set",
            f"stream.reassembly.memcap={a.reassembly_memcap}"]
    tmp = tempfile.mkdtemp(prefix="osprey-soak-")
    fifo, logs, rules = (os.path.join(tmp, n) for n in ("stream.pcap", "log", "soak.rules"))
    sock = os.path.join(tmp, "ctl.sock")
    os.mkfifo(fifo)
    os.mkdir(logs)
    open(rules, "w").write(RULES)
    err = open(os.path.join(tmp, "osprey.err"), "w")
    veth = ("osoak0", "osoak1")
    if a.live:
        veth_up(*veth)
    source = ["-i", veth[1]] if a.live else ["-r", fifo]
    proc = subprocess.Popen([a.osprey, "--runmode", "single", "-k", "none", *source, "-S",
                             rules, "-l", logs, "--set", "unix-command.enabled=yes", "--set",
                             f"unix-command.filename={sock}", *caps],
                            stdout=err, stderr=subprocess.STDOUT)
    if a.live:  # the socket answers once the capture is up
        deadline = time.monotonic() + 60
        while not os.path.exists(sock) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        time.sleep(1)
    s = LiveStream(veth[0]) if a.live else Stream(fifo)
    rng = random.Random(1)
    t0 = time.monotonic()
    end = t0 + a.minutes * 60
    next_round, next_reload, next_sample = t0, t0 + a.reload, t0
    r = n_legit = reloads = 0
    samples = []  # (seconds, rss KiB, packets processed, frames written)
    print(f"soak: {a.minutes} min, {a.rounds_per_s} rounds/s, logs in {logs}", flush=True)
    while time.monotonic() < end and proc.poll() is None:
        now = time.monotonic()
        if now >= next_round:
            for _ in range(a.legit):
                legit(s, n_legit)
                n_legit += 1
            attack_round(s, r, a.scale, rng)
            s.flush()
            r += 1
            next_round += 1 / a.rounds_per_s
        if now >= next_reload:  # a rule reload: the same rules plus one that changes
            open(rules, "w").write(RULES + f'alert udp any any -> any 7 (msg:"reload {reloads}"; '
                                           f'content:"r{reloads}"; sid:{100 + reloads % 2};)\n')
            proc.send_signal(signal.SIGUSR2)
            reloads += 1
            next_reload += a.reload
        if now >= next_sample:
            st = ctl_stats(sock)
            samples.append((now - t0, rss_kb(proc.pid), st.get("total", {}).get("packets"),
                            s.frames))
            if len(samples) % max(1, int(60 / a.sample)) == 1:
                x = samples[-1]
                print(f"  {x[0]:7.0f} s  RSS {x[1] / 1024:7.1f} MB  processed {x[2]}  "
                      f"written {x[3]}  alerts {st.get('total', {}).get('alerts')}", flush=True)
            next_sample += a.sample
        time.sleep(max(0.0, min(next_round, next_sample) - time.monotonic()))
    written = s.frames
    s.close()
    if a.live:  # a live capture ends on SIGTERM (after draining the ring)
        time.sleep(2)
        proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = "timeout"
    err.close()
    fails = []
    if rc != 0:
        fails.append(f"osprey exit {rc}: {open(err.name).read()[-2000:]}")
    urls, stats, partial = set(), {}, 0
    with open(os.path.join(logs, "eve.json"), "rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                partial += 1
                continue
            d = json.loads(line)
            if d.get("event_type") == "alert" and d["alert"]["signature_id"] == 1:
                urls.add(d.get("http", {}).get("url"))
            elif d.get("event_type") == "stats":
                stats = d["stats"]
    processed = stats.get("decoder", {}).get("pkts")
    cap = stats.get("capture", {})
    drops = cap.get("kernel_drops", 0)
    link_drops = 0
    if a.live:
        out = subprocess.run(["ip", "-s", "-j", "link", "show", veth[1]], capture_output=True,
                             text=True).stdout
        link_drops = json.loads(out)[0]["stats64"]["rx"]["dropped"] if out else 0
        subprocess.run(["ip", "link", "del", veth[0]], stderr=subprocess.DEVNULL)
    if partial:
        fails.append(f"{partial} partial lines in eve.json")
    held = s.fragments if a.live else 0  # held by the kernel's defrag (LiveStream.add)
    if processed != written and not (a.live and processed is not None and
                                     processed + drops + held >= written):
        fails.append(f"processed {processed} of {written} packets written")
    if a.live:
        print(f"soak: live on a veth: kernel packets {cap.get('kernel_packets')}, kernel drops "
              f"{drops}, dropped by the link {link_drops}, incomplete fragments the kernel's "
              f"fanout defrag held {held}, records written "
              f"{sum(1 for _ in open(os.path.join(logs, 'eve.json')))}")
    if len(urls) != n_legit:
        fails.append(f"legitimate alerts {len(urls)} of {n_legit}")
    warm = [x for x in samples if x[0] >= a.warmup]
    dur = samples[-1][0] if samples else 0
    first = [x[1] for x in warm if x[0] <= dur / 2]
    last = [x[1] for x in warm if x[0] >= dur * 3 / 4]
    if first and last and max(last) > max(first) * 1.10 + 8192:
        fails.append(f"memory grew: peak {max(first) / 1024:.1f} MB in the first half, "
                     f"{max(last) / 1024:.1f} MB in the last quarter")
    rss = [x[1] for x in samples]
    print(f"soak: {dur / 60:.1f} min, {r} rounds, {written} packets written, {processed} "
          f"processed, {reloads} reloads; legitimate alerts {len(urls)}/{n_legit}; RSS "
          f"min/median/max after warm-up {min(first + last or rss) / 1024:.1f}/"
          f"{sorted(x[1] for x in warm)[len(warm) // 2] / 1024 if warm else 0:.1f}/"
          f"{max(rss or [0]) / 1024:.1f} MB (first half {max(first or [0]) / 1024:.1f}, "
          f"last quarter {max(last or [0]) / 1024:.1f})")
    shed = {k: v for k, v in stats.get("osprey", {}).get("tcp", {}).items()
            if "reclaim" in k or "memcap" in k}
    print(f"soak: flow memcap evictions {stats.get('flow', {}).get('memcap')}, "
          f"defrag memcap drops {stats.get('osprey', {}).get('defrag', {}).get('memcap_drops')}, "
          f"pcre gave up {stats.get('osprey', {}).get('detect', {}).get('pcre', {}).get('gave_up')}, "
          f"tcp {shed}")
    with open(os.path.join(tmp, "samples.tsv"), "w") as f:
        for x in samples:
            f.write("\t".join(str(v) for v in x) + "\n")
    print(f"soak: samples in {tmp}/samples.tsv")
    if fails:
        print("soak: FAIL: " + "; ".join(fails))
        sys.exit(1)
    print("soak: PASS")


if __name__ == "__main__":
    main()
