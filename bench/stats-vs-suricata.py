#!/usr/bin/env python3
"""Compare the decoder, defrag, flow and stream counters of two EVE stats records: Osprey's
eve.json against Suricata's, both from `-r` on the same capture. Prints every counter both
name that differs by more than 1 %, then those only one of them has (non-zero).

usage: bench/stats-vs-suricata.py OSPREY_EVE SURICATA_EVE
(the counters behind the table in bench/README.md, "Decoder and stream counters")."""
import json
import sys

PREFIXES = ("decoder.", "tcp.", "defrag.", "flow.")


def last_stats(path):
    st = None
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("event_type") == "stats":
                st = r["stats"]
    if st is None:
        sys.exit(f"{path}: no stats record (stats in eve-log types?)")
    return st


def flat(d, pre=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flat(v, pre + k + "."))
        elif isinstance(v, (int, float)):
            out[pre + k] = v
    return out


def main(osp, suri):
    o, s = flat(last_stats(osp)), flat(last_stats(suri))
    keys = sorted(k for k in set(o) | set(s) if k.startswith(PREFIXES))
    print(f"{'counter':48s} {'osprey':>10s} {'suricata':>10s}")
    for k in keys:
        a, b = o.get(k), s.get(k)
        if a is None or b is None or a == b:
            continue
        if max(a, b) and abs(a - b) / max(a, b) > 0.01:
            print(f"{k:48s} {a:>10} {b:>10}")
    for who, mine, other in (("osprey", o, s), ("suricata", s, o)):
        only = [k for k in keys if k in mine and k not in other and mine[k]]
        print(f"only {who}: " + ", ".join(f"{k}={mine[k]}" for k in only))
    osp_only = {k: v for k, v in o.items() if k.startswith("osprey.") and v}
    print("osprey.* (libmon's own names): " + ", ".join(f"{k}={v}" for k, v in osp_only.items()
                                                       if k[7:].startswith(PREFIXES)))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
