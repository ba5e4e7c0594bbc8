#!/usr/bin/env python3
"""run_both.py — run Osprey and reference Suricata on the same captures and diff their EVE.

    bench/compare/run_both.py [--osprey build/bin/osprey] [--out /tmp/osprey-vs-suricata]
                              [--rules FILE] [--examples N] [--per-pcap] PCAP|DIR...

Both engines read each capture with checksum checks off (-k none), one thread, the same rules
(none by default), and write flow, http, dns, tls, alert and anomaly records; Suricata with
ja3/ja4 on. Then suricata_diff.py pairs the records. The summary says, per record type and
field, on how many captures and in how many records they differ; --per-pcap prints each
capture's own report too. Needs `suricata` on PATH (../shared/bench/install-reference-suricata.sh).
"""
import argparse
import collections
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import suricata_diff  # noqa: E402

SURICATA_SETS = [
    "app-layer.protocols.tls.ja3-fingerprints=yes",
    "app-layer.protocols.tls.ja4-fingerprints=yes",
]


def captures(args):
    for a in args:
        p = pathlib.Path(a)
        if p.is_dir():
            yield from sorted(x for x in p.iterdir() if x.suffix in (".pcap", ".pcapng"))
        else:
            yield p


def run(cmd, log):
    with open(log, "wb") as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=600).returncode


def run_pair(pcap, out, osprey, rules):
    od, sd = out / pcap.stem / "osprey", out / pcap.stem / "suricata"
    od.mkdir(parents=True, exist_ok=True)
    sd.mkdir(parents=True, exist_ok=True)
    for d in (od, sd):
        (d / "eve.json").unlink(missing_ok=True)
    run([osprey, "-r", str(pcap), "-l", str(od), "-k", "none", "-S", rules,
         "--set", "outputs.eve-log.types=[alert,anomaly,flow,http,dns,tls]"], od / "osprey.out")
    cmd = ["suricata", "-r", str(pcap), "-l", str(sd), "-k", "none", "-S", rules,
           "--runmode", "single"]
    for s in SURICATA_SETS:
        cmd += ["--set", s]
    run(cmd, sd / "suricata.out")
    return od / "eve.json", sd / "eve.json"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("captures", nargs="+")
    ap.add_argument("--osprey", default="build/bin/osprey")
    ap.add_argument("--out", default="/tmp/osprey-vs-suricata")
    ap.add_argument("--rules", default="/dev/null")
    ap.add_argument("--examples", type=int, default=2)
    ap.add_argument("--per-pcap", action="store_true")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    # field -> [captures, records]
    agg = collections.defaultdict(lambda: [0, 0, []])
    totals = collections.defaultdict(lambda: [0, 0, 0])
    for pcap in captures(a.captures):
        try:
            oe, se = run_pair(pcap, out, os.path.abspath(a.osprey), a.rules)
        except (OSError, subprocess.TimeoutExpired) as e:
            print(f"{pcap.name}: cannot run an engine: {e}")
            continue
        if not oe.exists() or not se.exists():
            print(f"{pcap.name}: an engine wrote no eve.json (see {oe.parent}, {se.parent})")
            continue
        rep = suricata_diff.compare(suricata_diff.load(oe), suricata_diff.load(se))
        if a.per_pcap:
            print(f"== {pcap.name}")
            suricata_diff.print_report(rep, a.examples)
        for et, r in rep.items():
            if et in ("alert", "anomaly"):
                for name, (no, ns) in r["by_name"].items():
                    if no != ns:
                        g = agg[(et, name)]
                        g[0] += 1
                        g[1] += abs(no - ns)
                        g[2].append(f"{pcap.name} osprey {no} suricata {ns}")
                continue
            t = totals[et]
            t[0] += r["paired"]
            t[1] += len(r["only_osprey"])
            t[2] += len(r["only_suricata"])
            for side in ("only_osprey", "only_suricata"):
                if r[side]:
                    g = agg[(et, side)]
                    g[0] += 1
                    g[1] += len(r[side])
                    g[2] += [f"{pcap.name}: {d}" for d in r[side][:1]]
            for name, diffs in r["fields"].items():
                g = agg[(et, name)]
                g[0] += 1
                g[1] += len(diffs)
                g[2] += [f"{pcap.name}: {w}: osprey {suricata_diff.show(o)} suricata "
                         f"{suricata_diff.show(s)}" for w, o, s in diffs[:1]]
    print("records: type  paired  only-osprey  only-suricata")
    for et, (p, oo, os_) in totals.items():
        print(f"    {et:8s} {p:6d} {oo:12d} {os_:14d}")
    print("differences: type field  captures  records")
    for (et, name), (caps, n, ex) in sorted(agg.items(), key=lambda x: (x[0][0], -x[1][0])):
        print(f"    {et:8s} {str(name):40s} {caps:4d} {n:6d}")
        for e in ex[:a.examples]:
            print(f"        {e}")
    return 1 if agg else 0


if __name__ == "__main__":
    sys.exit(main())
