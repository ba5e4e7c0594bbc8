#!/usr/bin/env python3
"""Forwarding rate and added latency through `osprey --dpdk` (net_af_packet ports on veths),
with no rules and with ET Open, against a plain kernel bridge between the same veths.

    sudo bench/inline_dpdk.py [--build build-rel] [--seconds 3] [--payload 64]
                              [--rules FILE ...] [--lcore 1]

Topology, made anew for each mode: namespace A (10.88.0.1) — veth — namespace M — veth —
namespace B (10.88.0.2). M joins its two veth ends with a Linux bridge, or runs osprey with
one net_af_packet port on each (copy-mode ips, one worker on --lcore). Latency: 1000 pings A→B
(ICMP through the bridge or osprey both ways), min/avg/p99 round trip. Rate: UDP datagrams
of --payload bytes sent from A as fast as one core can for --seconds; what B receives per
second is the forwarding rate (loss = what did not arrive). Root only; prints a table.
"""
import argparse
import glob
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def sh(*args, ns=None, check=True):
    cmd = (["ip", "netns", "exec", ns] if ns else []) + [str(a) for a in args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {p.stderr.strip()}")
    return p.stdout


class Topology:
    def __init__(self, tag):
        self.ns = {k: f"obd{k}{tag}" for k in "amb"}
        self.ifs = {"a0": f"obda0{tag}", "m0": f"obdm0{tag}", "m1": f"obdm1{tag}",
                    "b0": f"obdb0{tag}"}

    def __enter__(self):
        ns, i = self.ns, self.ifs
        for n in ns.values():
            sh("ip", "netns", "add", n)
            sh("ip", "link", "set", "lo", "up", ns=n)
        for x, y, nx, ny in ((i["a0"], i["m0"], ns["a"], ns["m"]),
                             (i["b0"], i["m1"], ns["b"], ns["m"])):
            sh("ip", "link", "add", x, "type", "veth", "peer", "name", y)
            sh("ip", "link", "set", x, "netns", nx)
            sh("ip", "link", "set", y, "netns", ny)
        for name, n in ((i["a0"], ns["a"]), (i["m0"], ns["m"]), (i["m1"], ns["m"]),
                        (i["b0"], ns["b"])):
            sh("sysctl", "-qw", f"net.ipv6.conf.{name}.disable_ipv6=1", ns=n, check=False)
            # checksums and segments as on a wire: osprey forwards frames, not skbs
            sh("ethtool", "-K", name, "tx", "off", "tso", "off", "gso", "off", "gro", "off",
               ns=n, check=False)
            sh("ip", "link", "set", name, "up", ns=n)
        sh("ip", "addr", "add", "10.88.0.1/24", "dev", i["a0"], ns=ns["a"])
        sh("ip", "addr", "add", "10.88.0.2/24", "dev", i["b0"], ns=ns["b"])
        return self

    def __exit__(self, *exc):
        for n in self.ns.values():
            sh("ip", "netns", "del", n, check=False)

    def bridge(self):
        m = self.ns["m"]
        sh("ip", "link", "add", "br0", "type", "bridge", ns=m)
        for name in (self.ifs["m0"], self.ifs["m1"]):
            sh("ip", "link", "set", name, "master", "br0", ns=m)
        sh("ip", "link", "set", "br0", "up", ns=m)


def start_osprey(args, topo, rules, tmp):
    prefix = f"obd{os.getpid()}"
    rules_args = []
    for r in rules:
        rules_args += ["-S", r]
    if not rules:
        empty = os.path.join(tmp, "none.rules")
        open(empty, "w").close()
        rules_args = ["-S", empty]
    eal = ["--no-huge", "--no-pci", "-m", "512", f"--file-prefix={prefix}", "-l", str(args.lcore),
           "--no-telemetry", "--log-level=lib.eal:error",
           f"--vdev=net_af_packet0,iface={topo.ifs['m0']}",
           f"--vdev=net_af_packet1,iface={topo.ifs['m1']}"]
    cmd = ["ip", "netns", "exec", topo.ns["m"], os.path.join(args.build, "bin", "osprey"),
           "--dpdk", "-k", "none", "-l", tmp, *rules_args,
           "--set", "dpdk.eal-args=[" + ",".join(eal) + "]",
           "--set", "dpdk.interfaces=[net_af_packet0:net_af_packet1]"]
    out = open(os.path.join(tmp, "osprey.out"), "w+")
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline:
        out.seek(0)
        if "osprey: ready" in out.read():
            return proc, out, prefix
        if proc.poll() is not None:
            sys.exit(f"osprey exited {proc.returncode} before ready")
        time.sleep(0.1)
    proc.kill()
    sys.exit("osprey not ready after 300 s")


def stop_osprey(proc, out, prefix):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)
    subprocess.run(["rm", "-rf", f"/var/run/dpdk/{prefix}"])
    out.seek(0)
    return out.read()


def latency(topo):
    sh("ping", "-c", "20", "-i", "0.01", "-q", "10.88.0.2", ns=topo.ns["a"])  # ARP, warm-up
    out = sh("ping", "-c", "1000", "-i", "0.002", "10.88.0.2", ns=topo.ns["a"])
    rtts = sorted(float(x) for x in re.findall(r"time=([\d.]+)", out))
    if not rtts:
        return None
    return rtts[0], sum(rtts) / len(rtts), rtts[int(len(rtts) * 0.99) - 1], 1000 - len(rtts)


def rate(topo, tool, seconds, payload):
    recv = subprocess.Popen(["ip", "netns", "exec", topo.ns["b"], tool, "recv", "9999", "1000"],
                            stdout=subprocess.PIPE, text=True)
    recv.stdout.readline()  # listening
    sent = sh(tool, "send", "10.88.0.2", "9999", seconds, payload, ns=topo.ns["a"])
    out = recv.communicate(timeout=60)[0]
    n_sent = int(re.search(r"sent (\d+)", sent).group(1))
    m = re.search(r"received (\d+) in ([\d.]+) s", out)
    got, secs = int(m.group(1)), float(m.group(2))
    return n_sent / seconds, got / secs if secs > 0 else 0.0, 1 - got / n_sent if n_sent else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-rel"))
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--payload", type=int, default=64)
    ap.add_argument("--lcore", type=int, default=1)
    corpus = os.environ.get("OSPREY_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--rules", nargs="*", default=sorted(glob.glob(
        os.path.join(corpus, "rules", "et-open-suricata-4.0-2019-04", "*.rules"))))
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("inline_dpdk.py: needs root (network namespaces)")
    with tempfile.TemporaryDirectory() as tmp:
        tool = os.path.join(tmp, "inline_dpdk")
        subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", tool,
                        os.path.join(HERE, "inline_dpdk.c")], check=True)
        rows = []
        for mode in ("kernel bridge", "osprey --dpdk, no rules", "osprey --dpdk, ET Open"):
            with Topology(os.getpid() % 10000) as topo:
                summary = ""
                if mode == "kernel bridge":
                    topo.bridge()
                    proc = None
                else:
                    rules = args.rules if "ET" in mode else []
                    proc, out, prefix = start_osprey(args, topo, rules, tmp)
                lat = latency(topo)
                offered, fwd, loss = rate(topo, tool, args.seconds, args.payload)
                if proc:
                    summary = stop_osprey(proc, out, prefix)
                rows.append((mode, lat, offered, fwd, loss))
                if summary:
                    for line in summary.splitlines():
                        if line.startswith("osprey: dpdk:"):
                            print(f"  [{mode}] {line}")
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
              f"{len(args.rules)} files; osprey on lcore {args.lcore}; this machine's other "
              f"processes share its cores)")


if __name__ == "__main__":
    main()
