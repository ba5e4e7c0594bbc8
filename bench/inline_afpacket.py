#!/usr/bin/env python3
"""Forwarding rate and added latency through `osprey --af-packet-inline`, with no rules and
with ET Open, against a plain kernel bridge between the same veths.

    sudo bench/inline_afpacket.py [--build build-rel] [--seconds 3] [--payload 64]
                                  [--threads 1] [--rules FILE ...]

Same topology and measurements as inline_dpdk.py (whose helpers it uses): namespace A — veth
— namespace M — veth — namespace B, M joining its two veth ends with a Linux bridge or with
osprey (AF_PACKET rings, af-packet.threads workers). Latency: 1000 pings A→B, min/avg/p99
round trip; rate: UDP datagrams of --payload bytes sent from A as fast as one core can for
--seconds, what B receives per second. Root only; prints a table.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

from inline_dpdk import HERE, ROOT, Topology, latency, rate


def start_osprey(args, topo, rules, tmp):
    rules_args = []
    for r in rules:
        rules_args += ["-S", r]
    if not rules:
        empty = os.path.join(tmp, "none.rules")
        open(empty, "w").close()
        rules_args = ["-S", empty]
    cmd = ["ip", "netns", "exec", topo.ns["m"], os.path.join(args.build, "bin", "osprey"),
           "--af-packet-inline", f"{topo.ifs['m0']}:{topo.ifs['m1']}", "-k", "none", "-l", tmp,
           *rules_args, "--set", f"af-packet.threads={args.threads}"]
    out = open(os.path.join(tmp, "osprey.out"), "w+")
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline:
        out.seek(0)
        if "osprey: ready" in out.read():
            return proc, out
        if proc.poll() is not None:
            sys.exit(f"osprey exited {proc.returncode} before ready")
        time.sleep(0.1)
    proc.kill()
    sys.exit("osprey not ready after 300 s")


def stop_osprey(proc, out):
    proc.terminate()
    proc.wait(timeout=120)
    out.seek(0)
    return out.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-rel"))
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--payload", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    corpus = os.environ.get("OSPREY_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--rules", nargs="*", default=sorted(glob.glob(
        os.path.join(corpus, "rules", "et-open-suricata-4.0-2019-04", "*.rules"))))
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("inline_afpacket.py: needs root (network namespaces)")
    with tempfile.TemporaryDirectory() as tmp:
        tool = os.path.join(tmp, "inline_udp")
        subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", tool,
                        os.path.join(HERE, "inline_dpdk.c")], check=True)
        rows = []
        for mode in ("kernel bridge", "osprey af-packet, no rules", "osprey af-packet, ET Open"):
            with Topology(os.getpid() % 10000) as topo:
                proc = None
                if mode == "kernel bridge":
                    topo.bridge()
                else:
                    proc, out = start_osprey(args, topo, args.rules if "ET" in mode else [], tmp)
                lat = latency(topo)
                offered, fwd, loss = rate(topo, tool, args.seconds, args.payload)
                if proc:
                    for line in stop_osprey(proc, out).splitlines():
                        if line.startswith(("osprey: inline", "osprey: worker")):
                            print(f"  [{mode}] {line}")
                rows.append((mode, lat, offered, fwd, loss))
        print(f"\n{'mode':28} {'rtt min/avg/p99 ms':>22} {'lost pings':>10} "
              f"{'offered pps':>12} {'forwarded pps':>14} {'loss':>6}")
        base = rows[0][1]
        for mode, lat, offered, fwd, loss in rows:
            rtt = f"{lat[0]:.3f}/{lat[1]:.3f}/{lat[2]:.3f}" if lat else "-"
            print(f"{mode:28} {rtt:>22} {lat[3] if lat else '-':>10} {offered:>12,.0f} "
                  f"{fwd:>14,.0f} {loss:>6.1%}")
        for mode, lat, *_ in rows[1:]:
            if lat and base:
                print(f"added latency ({mode}): {(lat[1] - base[1]) * 1000 / 2:.1f} us each way "
                      f"(average round trip {lat[1]:.3f} ms vs {base[1]:.3f} ms)")
        print(f"({args.payload}-byte UDP payloads for {args.seconds:g} s; ET Open: "
              f"{len(args.rules)} files; {args.threads} osprey worker(s); this machine's other "
              f"processes share its cores)")


if __name__ == "__main__":
    main()
