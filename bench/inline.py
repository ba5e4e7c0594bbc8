#!/usr/bin/env python3
"""Forwarding rate and added latency through osprey inline (`--af-packet-inline` and/or
`--dpdk` with net_af_packet ports), with no rules and with ET Open, against a plain kernel
bridge between the same veths.

    sudo bench/inline.py [--mode afpacket|dpdk|both] [--build build-rel] [--seconds 3]
                         [--payload 64] [--threads 1] [--lcore 1] [--rules FILE ...]

Topology, made anew for each row: namespace A (10.88.0.1) — veth — namespace M — veth —
namespace B (10.88.0.2). M joins its two veth ends with a Linux bridge, or runs osprey on them
(AF_PACKET rings with af-packet.threads workers; or DPDK, copy-mode ips, one worker on
--lcore). Latency: 1000 pings A→B, min/avg/p99 round trip. Rate: UDP datagrams of --payload
bytes sent from A as fast as one core can for --seconds (udp_flood.c, compiled on the fly);
what B receives per second is the forwarding rate. Root only; prints a table.
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


def osprey_command(args, mode, topo, rules_args, tmp):
    """The command line for one mode, and the DPDK file prefix to clean up (or None)."""
    exe = os.path.join(args.build, "bin", "osprey")
    if mode == "afpacket":
        return [exe, "--af-packet-inline", f"{topo.ifs['m0']}:{topo.ifs['m1']}", "-k", "none",
                "-l", tmp, *rules_args, "--set", f"af-packet.threads={args.threads}"], None
    prefix = f"obd{os.getpid()}"
    eal = ["--no-huge", "--no-pci", "-m", "512", f"--file-prefix={prefix}", "-l", str(args.lcore),
           "--no-telemetry", "--log-level=lib.eal:error",
           f"--vdev=net_af_packet0,iface={topo.ifs['m0']}",
           f"--vdev=net_af_packet1,iface={topo.ifs['m1']}"]
    return [exe, "--dpdk", "-k", "none", "-l", tmp, *rules_args,
            "--set", "dpdk.eal-args=[" + ",".join(eal) + "]",
            "--set", "dpdk.interfaces=[net_af_packet0:net_af_packet1]"], prefix


def start_osprey(args, mode, topo, rules, tmp):
    if not rules:
        empty = os.path.join(tmp, "none.rules")
        open(empty, "w").close()
        rules = [empty]
    rules_args = [x for r in rules for x in ("-S", r)]
    cmd, prefix = osprey_command(args, mode, topo, rules_args, tmp)
    out = open(os.path.join(tmp, "osprey.out"), "w+")
    proc = subprocess.Popen(["ip", "netns", "exec", topo.ns["m"], *cmd], stdout=out,
                            stderr=subprocess.DEVNULL)
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
    if prefix:
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
    ap.add_argument("--mode", choices=("afpacket", "dpdk", "both"), default="both")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-rel"))
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--payload", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1, help="AF_PACKET workers")
    ap.add_argument("--lcore", type=int, default=1, help="DPDK worker lcore")
    corpus = os.environ.get("OSPREY_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--rules", nargs="*", default=sorted(glob.glob(
        os.path.join(corpus, "rules", "et-open-suricata-4.0-2019-04", "*.rules"))))
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("inline.py: needs root (network namespaces)")
    modes = ("afpacket", "dpdk") if args.mode == "both" else (args.mode,)
    rows_wanted = [("kernel bridge", None, False)]
    for m in modes:
        rows_wanted += [(f"osprey {m}, no rules", m, False), (f"osprey {m}, ET Open", m, True)]
    with tempfile.TemporaryDirectory() as tmp:
        tool = os.path.join(tmp, "udp_flood")
        subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", tool,
                        os.path.join(HERE, "udp_flood.c")], check=True)
        rows = []
        for label, mode, et in rows_wanted:
            with Topology(os.getpid() % 10000) as topo:
                proc = None
                if mode is None:
                    topo.bridge()
                else:
                    proc, out, prefix = start_osprey(args, mode, topo, args.rules if et else [],
                                                     tmp)
                lat = latency(topo)
                offered, fwd, loss = rate(topo, tool, args.seconds, args.payload)
                if proc:
                    for line in stop_osprey(proc, out, prefix).splitlines():
                        if line.startswith(("osprey: dpdk:", "osprey: inline", "osprey: worker")):
                            print(f"  [{label}] {line}")
                rows.append((label, lat, offered, fwd, loss))
        print(f"\n{'mode':28} {'rtt min/avg/p99 ms':>22} {'lost pings':>10} "
              f"{'offered pps':>12} {'forwarded pps':>14} {'loss':>6}")
        base = rows[0][1]
        for label, lat, offered, fwd, loss in rows:
            rtt = f"{lat[0]:.3f}/{lat[1]:.3f}/{lat[2]:.3f}" if lat else "-"
            print(f"{label:28} {rtt:>22} {lat[3] if lat else '-':>10} {offered:>12,.0f} "
                  f"{fwd:>14,.0f} {loss:>6.1%}")
        for label, lat, *_ in rows[1:]:
            if lat and base:
                print(f"added latency ({label}): {(lat[1] - base[1]) * 1000 / 2:.1f} us each way "
                      f"(average round trip {lat[1]:.3f} ms vs {base[1]:.3f} ms)")
        print(f"({args.payload}-byte UDP payloads for {args.seconds:g} s; ET Open: "
              f"{len(args.rules)} files; {args.threads} AF_PACKET worker(s), DPDK on lcore "
              f"{args.lcore}; this machine's other processes share its cores)")


if __name__ == "__main__":
    main()
