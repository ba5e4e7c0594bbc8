#!/usr/bin/env python3
"""Prints osprey-trace's JSON (from a file or stdin) as a readable flow table and stats."""
import json
import sys


def main(path):
    src = open(path) if path != "-" else sys.stdin
    records = [json.loads(line) for line in src if line.strip()]
    flows = [r for r in records if r.get("event_type") == "flow"]
    print(f"{'proto':<9} {'client':<28} {'server':<28} {'pkts c>s/s>c':>13} {'bytes c>s/s>c':>15}  encapsulation")
    for f in flows:
        cli = f"{f['src_ip']}:{f.get('src_port', f.get('icmp_type', ''))}"
        srv = f"{f['dest_ip']}:{f.get('dest_port', f.get('icmp_code', ''))}"
        fl = f["flow"]
        print(f"{f['proto']:<9} {cli:<28} {srv:<28} {fl['pkts_toserver']:>6}/{fl['pkts_toclient']:<6} "
              f"{fl['bytes_toserver']:>7}/{fl['bytes_toclient']:<7}  {','.join(f.get('encapsulation', [])) or '-'}")
    stats = [r for r in records if r.get("event_type") == "stats"]
    if stats:
        s = stats[-1]["stats"]
        d = s["decoder"]
        anomalies = {k: v for k, v in d["anomalies"].items() if v}
        print(f"\npackets {d['pkts']}  outcomes {d['outcomes']}  flows {s['flow']['created']}"
              f"  anomalies {anomalies or 'none'}  bytes/flow {s['memory']['bytes_per_flow']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "-")
