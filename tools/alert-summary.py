#!/usr/bin/env python3
"""Prints the alerts of an eve.json one per line, fast.log style:
TIME [gid:sid:rev] SIGNATURE [Classification: ...] [Priority: N] {PROTO} SRC:PORT -> DST:PORT"""
import json
import sys


def main(path):
    n = 0
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("event_type") != "alert":
                continue
            a = r["alert"]
            src = f"{r['src_ip']}:{r['src_port']}" if "src_port" in r else r["src_ip"]
            dst = f"{r['dest_ip']}:{r['dest_port']}" if "dest_port" in r else r["dest_ip"]
            print(f"{r['timestamp']}  [{a['gid']}:{a['signature_id']}:{a['rev']}] {a['signature']} "
                  f"[Classification: {a.get('category') or 'none'}] [Priority: {a['severity']}] "
                  f"{{{r['proto']}}} {src} -> {dst}")
            n += 1
    print(f"{n} alert(s)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "eve.json")
