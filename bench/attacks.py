#!/usr/bin/env python3
"""Memcaps under attack (issue 17): `osprey -r` on captures that attack one memory budget each,
with a legitimate HTTP conversation (its request carries LEGIT-MARKER-n, which a rule alerts
on) sent before, during and after the attack. For each: CPU seconds, peak RSS, the counters
that say what was shed, and how many of the legitimate alerts survived. A benchmark, not a
test: it prints figures and asserts nothing. usage: bench/attacks.py [--osprey build/bin/osprey]
[--scale 1.0] [NAME ...]   (names: holes fragments bomb transactions regex syn)"""
import argparse
import gzip
import json
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile
import zlib

ETH = bytes.fromhex("020000000002020000000001")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def ip4(src, dst, proto, payload, ident=0, frag=0):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, frag, 64, proto, 0,
                    bytes(src), bytes(dst))
    return h[:10] + struct.pack("!H", csum(h)) + h[12:] + payload


def tcp(src, dst, sp, dp, seq, ack, flags, data=b""):
    h = struct.pack("!HHIIBBHHH", sp, dp, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 0x50, flags,
                    65535, 0, 0)
    pseudo = bytes(src) + bytes(dst) + struct.pack("!BBH", 0, 6, len(h) + len(data))
    h = h[:16] + struct.pack("!H", csum(pseudo + h + data)) + h[18:]
    return ip4(src, dst, 6, h + data)


class Capture:
    def __init__(self, path):
        self.f = open(path, "wb")
        self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        self.t = 1_600_000_000.0

    def add(self, l3, step=0.0001):
        self.t += step
        frame = ETH + b"\x08\x00" + l3
        sec = int(self.t)
        self.f.write(struct.pack("<IIII", sec, int((self.t - sec) * 1e6), len(frame), len(frame)))
        self.f.write(frame)

    def close(self):
        self.f.close()


def legit(cap, n):
    """One HTTP conversation whose request the rule alerts on (a fresh client port each)."""
    c, s, sp = [10, 9, 9, 1], [10, 9, 9, 2], 20000 + n
    req = b"GET /LEGIT-MARKER-%d HTTP/1.1\r\nHost: example.com\r\n\r\n" % n
    resp = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    for pkt in (tcp(c, s, sp, 80, 100, 0, 0x02), tcp(s, c, 80, sp, 900, 101, 0x12),
                tcp(c, s, sp, 80, 101, 901, 0x10), tcp(c, s, sp, 80, 101, 901, 0x18, req),
                tcp(s, c, 80, sp, 901, 101 + len(req), 0x18, resp),
                tcp(c, s, sp, 80, 101 + len(req), 901 + len(resp), 0x11),
                tcp(s, c, 80, sp, 901 + len(resp), 102 + len(req), 0x11),
                tcp(c, s, sp, 80, 102 + len(req), 902 + len(resp), 0x10)):
        cap.add(pkt)


def with_legit(cap, attack, parts=10):
    """The attack cut in parts, a legitimate conversation before each and after the last."""
    sent = 0
    for k in range(parts):
        legit(cap, sent)
        sent += 1
        attack(k, parts)
    legit(cap, sent)
    return sent + 1


def holes(cap, scale):
    """Connections that send small segments out of order after a hole never filled:
    reassembly holds them all (stream.reassembly.memcap)."""
    conns, segs = int(2000 * scale), 300

    def part(k, parts):
        for i in range(k * conns // parts, (k + 1) * conns // parts):
            c, s, sp = [11, i >> 16 & 255, i >> 8 & 255, i & 255], [10, 0, 0, 80], 1024 + i % 60000
            cap.add(tcp(c, s, sp, 80, 1000, 0, 0x02))
            cap.add(tcp(s, c, 80, sp, 5000, 1001, 0x12))
            cap.add(tcp(c, s, sp, 80, 1001, 5001, 0x10))
            order = list(range(1, segs))
            random.shuffle(order)  # out of order, and byte 0 never comes
            for j in order:
                cap.add(tcp(c, s, sp, 80, 1001 + 40 * j, 5001, 0x10, b"A" * 40))
    return part


def fragments(cap, scale):
    """Datagrams of overlapping IPv4 fragments whose last fragment never comes (defrag.memcap,
    trackers)."""
    n = int(60000 * scale)

    def part(k, parts):
        for i in range(k * n // parts, (k + 1) * n // parts):
            src, dst = [12, i >> 16 & 255, i >> 8 & 255, i & 255], [10, 0, 0, 53]
            body = bytes([i & 255]) * 64
            cap.add(ip4(src, dst, 17, body, ident=i & 0xFFFF, frag=0x2000))            # 0, MF
            cap.add(ip4(src, dst, 17, body, ident=i & 0xFFFF, frag=0x2000 | 4))        # 32: overlaps
            cap.add(ip4(src, dst, 17, body, ident=i & 0xFFFF, frag=0x2000 | 16))       # 128, MF
    return part


def http_response_flow(cap, port, headers, body, client=(13, 0, 0, 1)):
    c, s = list(client), [10, 0, 0, 80]
    req = b"GET /file HTTP/1.1\r\nHost: x\r\n\r\n"
    resp = b"HTTP/1.1 200 OK\r\n" + headers + b"Content-Length: %d\r\n\r\n" % len(body)
    cap.add(tcp(c, s, port, 80, 1, 0, 0x02))
    cap.add(tcp(s, c, 80, port, 1000, 2, 0x12))
    cap.add(tcp(c, s, port, 80, 2, 1001, 0x18, req))
    seq, data = 1001, resp + body
    for o in range(0, len(data), 1400):
        cap.add(tcp(s, c, 80, port, seq + o, 2 + len(req), 0x18, data[o:o + 1400]))
        cap.add(tcp(c, s, port, 80, 2 + len(req), seq + o + len(data[o:o + 1400]), 0x10))
    end = seq + len(data)
    cap.add(tcp(s, c, 80, port, end, 2 + len(req), 0x11))
    cap.add(tcp(c, s, port, 80, 2 + len(req), end + 1, 0x11))


def bomb(cap, scale):
    """HTTP responses that decompress far beyond their size: 100 MB of zeros gzipped, and the
    same gzipped twice (Content-Encoding: gzip, gzip) — the body limit and decompression
    layer limit bound them."""
    once = gzip.compress(b"\0" * int(100_000_000 * scale), 9)
    twice = gzip.compress(once, 9)

    def part(k, parts):
        if k == 0:
            http_response_flow(cap, 30000, b"Content-Encoding: gzip\r\n", once)
        elif k == 1:
            http_response_flow(cap, 30001, b"Content-Encoding: gzip, gzip\r\n", twice)
    return part


def transactions(cap, scale):
    """One connection that pipelines many requests and never gets an answer (max-tx)."""
    n = int(20000 * scale)
    c, s, sp = [14, 0, 0, 1], [10, 0, 0, 80], 40000
    state = {"seq": 101}

    def part(k, parts):
        if k == 0:
            cap.add(tcp(c, s, sp, 80, 100, 0, 0x02))
            cap.add(tcp(s, c, 80, sp, 900, 101, 0x12))
            cap.add(tcp(c, s, sp, 80, 101, 901, 0x10))
        for i in range(k * n // parts, (k + 1) * n // parts):
            req = b"GET /t%d HTTP/1.1\r\nHost: x\r\n\r\n" % i
            cap.add(tcp(c, s, sp, 80, state["seq"], 901, 0x18, req))
            state["seq"] += len(req)
            cap.add(tcp(s, c, 80, sp, 901, state["seq"], 0x10))
    return part


def regex(cap, scale):
    """UDP datagrams that make a catastrophic regular expression backtrack (pcre limits)."""
    n = int(20000 * scale)

    def part(k, parts):
        for i in range(k * n // parts, (k + 1) * n // parts):
            payload = b"a" * 40 + b"!"
            udp = struct.pack("!HHHH", 5000 + i % 1000, 9999, 8 + len(payload), 0) + payload
            cap.add(ip4([15, 0, i >> 8 & 255, i & 255], [10, 0, 0, 99], 17, udp))
    return part


def syn(cap, scale):
    """SYNs from distinct sources, one flow each (flow.memcap)."""
    n = int(300000 * scale)

    def part(k, parts):
        for i in range(k * n // parts, (k + 1) * n // parts):
            src = list(struct.pack("!I", 0x10000000 + i))
            cap.add(tcp(src, [10, 0, 0, 1], 1024 + i % 60000, 80, i, 0, 0x02), step=0.00001)
    return part


ATTACKS = {"holes": holes, "fragments": fragments, "bomb": bomb,
           "transactions": transactions, "regex": regex, "syn": syn}
# Budgets made small enough for the capture to exceed (the defaults hold these captures whole)
CAPS = {"holes": ["--set", "stream.reassembly.memcap=16mb"],
        "syn": ["--set", "flow.memcap=16mb"]}
RULES = """alert http any any -> any any (msg:"legit"; http.uri; content:"LEGIT-MARKER-"; sid:1;)
alert udp any any -> any 9999 (msg:"regex"; content:"aaa"; pcre:"/^(a+)+$/"; sid:2;)
alert http any any -> any any (msg:"body"; file.data; content:"never-there"; sid:3;)
"""
SHED = ("memcap", "shed", "drop", "limit", "gave_up", "truncated", "evict", "overflow", "max")


def counters(stats, prefix=""):
    for k, v in stats.items():
        name = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            yield from counters(v, name)
        elif isinstance(v, (int, float)) and v and any(w in name for w in SHED):
            yield name, v


def generate(tmp, scale, names):
    """Write the captures (in a process of their own: building a bomb takes memory that a
    child forked from this process would otherwise count as its own peak)."""
    random.seed(1)
    sent = {}
    for name in names:
        cap = Capture(os.path.join(tmp, name + ".pcap"))
        sent[name] = with_legit(cap, ATTACKS[name](cap, scale))
        cap.close()
    json.dump(sent, open(os.path.join(tmp, "sent.json"), "w"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--osprey", default="build/bin/osprey")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--generate", help=argparse.SUPPRESS)
    ap.add_argument("names", nargs="*", default=list(ATTACKS))
    a = ap.parse_args()
    if a.generate:
        return generate(a.generate, a.scale, a.names)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, __file__, "--generate", tmp, "--scale", str(a.scale),
                        *a.names], check=True)
        sent = json.load(open(os.path.join(tmp, "sent.json")))
        rules = os.path.join(tmp, "attack.rules")
        open(rules, "w").write(RULES)
        for name in a.names:
            pcap, logs = os.path.join(tmp, name + ".pcap"), os.path.join(tmp, name)
            os.mkdir(logs)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run([a.osprey, "--runmode", "single", "-k", "none", "-r", pcap,
                                   "-S", rules, "-l", logs, *CAPS.get(name, [])],
                                  capture_output=True, text=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            peak = next((l.split("peak memory ")[1].split(";")[0] for l in proc.stdout.splitlines()
                         if "peak memory" in l), "?")
            alerts, stats = set(), {}
            for line in open(os.path.join(logs, "eve.json")):
                d = json.loads(line)
                if d.get("event_type") == "alert" and d["alert"]["signature_id"] == 1:
                    alerts.add(d.get("http", {}).get("url"))
                elif d.get("event_type") == "stats":
                    stats = d["stats"]
            shed = ", ".join(f"{k} {v}" for k, v in counters(stats))
            caps = " ".join(CAPS.get(name, [])[1::2])
            print(f"{name:>12}: {os.path.getsize(pcap) / 1e6:6.1f} MB capture{' (' + caps + ')' if caps else ''}, exit {proc.returncode}, "
                  f"{cpu:5.2f} CPU s, peak {peak}; legitimate alerts {len(alerts)}/{sent[name]}; "
                  f"shed: {shed or 'nothing'}")


if __name__ == "__main__":
    main()
