#!/usr/bin/env python3
"""SYN flood benchmark (issue 17): `osprey -r` on captures of N pure SYNs from distinct
sources (one flow each, 100,000 per second of capture time), for each N given; prints CPU
seconds, packets per CPU second, peak memory and the flow table's counters, so that the
growth with N (linear or not) can be read off. A benchmark, not a test: it asserts nothing.
usage: bench/syn_flood.py [--osprey build/bin/osprey] [N ...]   (default 200000 1000000 2000000)"""
import argparse
import json
import os
import resource
import struct
import subprocess
import tempfile


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def write_capture(path, n):
    eth = bytes.fromhex("020000000002020000000001") + b"\x08\x00"
    with open(path, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(n):
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, i & 0xFFFF, 0, 64, 6, 0,
                             struct.pack("!I", 0x0B000000 + i), bytes([10, 0, 0, 1]))
            ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
            tcp = struct.pack("!HHIIBBHHH", 1024 + i % 60000, 80, i, 0, 0x50, 0x02, 65535, 0, 0)
            frame = eth + ip + tcp
            out.write(struct.pack("<IIII", 1000000 + i // 100000, i % 100000 * 10,
                                  len(frame), len(frame)) + frame)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--osprey", default="build/bin/osprey")
    ap.add_argument("n", nargs="*", type=int, default=[200000, 1000000, 2000000])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rules = os.path.join(tmp, "one.rules")
        with open(rules, "w") as f:
            f.write('alert tcp any any -> any 81 (msg:"not this port"; flags:S; sid:1;)\n')
        for n in a.n:
            pcap, logs = os.path.join(tmp, f"syn{n}.pcap"), os.path.join(tmp, f"out{n}")
            write_capture(pcap, n)
            os.mkdir(logs)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([a.osprey, "--runmode", "single", "-k", "none", "-r", pcap, "-S", rules,
                            "-l", logs], check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            stats = {}
            for line in open(os.path.join(logs, "eve.json")):
                if '"stats"' in line:
                    stats = json.loads(line).get("stats", stats)
            fl = stats.get("flow", {})
            print(f"{n:>9} SYNs: {cpu:6.2f} CPU s, {n / cpu / 1e3:7.1f} k packets/CPU s, "
                  f"peak RSS {after.ru_maxrss / 1024:6.0f} MB; flows {fl.get('total')}, "
                  f"memcap evictions {fl.get('memcap')}, flow.memuse {fl.get('memuse')}")
            os.unlink(pcap)


if __name__ == "__main__":
    main()
