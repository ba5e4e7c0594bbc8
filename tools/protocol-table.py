#!/usr/bin/env python3
"""Write parsers/README.md's "Every protocol, buffer and record" tables from the build.

Reads `osprey --list-app-layer-protos=csv` (the parsers' registry: each protocol, its other
names, transports and EVE record type) and `osprey --list-buffers` (every buffer rules can
name, its direction and the event it is current under), and replaces the lines between the
protocol-table markers of parsers/README.md. Run it after adding a protocol or a buffer:

    python3 tools/protocol-table.py                  # build/bin/osprey, parsers/README.md
    python3 tools/protocol-table.py --stdout         # print the block instead of writing it
    python3 tools/protocol-table.py --osprey build-asan/bin/osprey

tests/program/test_protocol_table.py fails when parsers/README.md differs from what this prints.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- protocol-table begin -->"
END = "<!-- protocol-table end -->"


def rows(osprey, arg):
    out = subprocess.run([osprey, arg], capture_output=True, text=True, check=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def names(bufs, direction):
    seen = []
    for b in bufs:
        if b["direction"] == direction and b["buffer"] not in seen:
            seen.append(b["buffer"])
    return ", ".join(f"`{n}`" for n in seen) or "—"


def block(osprey):
    protos = rows(osprey, "--list-app-layer-protos=csv")
    buffers = rows(osprey, "--list-buffers")
    by_proto = {}
    for b in buffers:
        by_proto.setdefault(b["protocol"], []).append(b)
    out = [f"{len(protos)} protocols, {len(buffers)} buffers (a name with bytes in both "
           "directions counts twice), "
           f"{sum(1 for p in protos if p['eve_record'])} write EVE records.", "",
           "| protocol | other names | transport | EVE record | buffers to server | "
           "buffers to client |", "| --- | --- | --- | --- | --- | --- |"]
    for p in protos:
        bufs = by_proto.get(p["protocol"], [])
        other = ", ".join(f"`{a}`" for a in p["aliases"].split("|") if a) or "—"
        record = f"`{p['eve_record']}`" if p["eve_record"] else "—"
        out.append(f"| `{p['protocol']}` | {other} | {p['transport'].replace('|', ', ')} | "
                   f"{record} | {names(bufs, 'to_server')} | {names(bufs, 'to_client')} |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--osprey", default=os.path.join(ROOT, "build", "bin", "osprey"))
    ap.add_argument("--page", default=os.path.join(ROOT, "parsers", "README.md"))
    ap.add_argument("--stdout", action="store_true")
    a = ap.parse_args()
    lines = block(a.osprey)
    if a.stdout:
        print("\n".join(lines))
        return 0
    page = open(a.page).read().split("\n")
    if page.count(BEGIN) != 1 or page.count(END) != 1:
        sys.exit(f"{a.page}: needs one {BEGIN} line and one {END} line")
    i, j = page.index(BEGIN), page.index(END)
    open(a.page, "w").write("\n".join(page[:i + 1] + lines + page[j:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
