#!/usr/bin/env python3
"""suricata_diff.py — compare Osprey's eve.json with Suricata's for the same capture.

    bench/compare/suricata_diff.py OSPREY_EVE SURICATA_EVE [--examples N] [--json]

Records are paired by flow (protocol + 5-tuple, the n-th flow with that tuple in start order,
so port reuse is told apart) and, inside a flow, by transaction:
  flow      one per flow;
  http      by tx_id;
  dns       by (type query|answer, id, rrname), n-th occurrence;
  tls       the flow's first tls record;
  alert     by signature_id, counts per flow;
  anomaly   by (type, event), counts per flow.
Paired records are compared field by field (nested keys dotted: flow.bytes_toserver); a key
one side has and the other lacks counts as a difference too. Keys that differ by design
(flow_id, pkt_src, timestamps and pcap_cnt of transaction records, Suricata-only extras listed
in IGNORED) are left out. The summary prints, per record type, how many were paired, seen on
one side only, and per field how many pairs differ, with examples.
Exit status: 0 when nothing differs, 1 otherwise, 2 on bad input.
"""
import argparse
import collections
import ipaddress
import json
import sys

# Keys not compared: identifiers that differ by construction, and what one engine writes and
# the other does not implement (Suricata's extras are reported once as "not compared").
IGNORED = {
    "*": {"flow_id", "pkt_src", "community_id", "parent_id", "in_iface", "vlan", "ether",
          "capture_file", "direction", "stream", "metadata", "packet", "packet_info", "payload",
          "payload_printable", "src_ip", "dest_ip"},
    "flow": {"tcp.ts_max_regions", "tcp.tc_max_regions", "flow.bypassed",
             "flow.wrong_thread", "flow.exception_policy", "flow.emergency", "flow.action"},
    "http": {"timestamp", "pcap_cnt"},
    "dns": {"timestamp", "pcap_cnt"},
    "tls": {"timestamp", "pcap_cnt", "tls.notbefore", "tls.notafter", "tls.from_proto",
            "tls.session_resumed", "tls.client", "tls.certificate", "tls.chain",
            "tls.client_alpns", "tls.server_alpns"},
}
TX_TYPES = ("http", "dns", "tls")


def load(path):
    recs = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                recs.append(json.loads(line))
            except ValueError as e:
                sys.exit(f"{path}:{n}: not JSON: {e}")
    return recs


def flatten(obj, prefix=""):
    out = {}
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def addr(a):
    """One spelling per address: Suricata writes IPv6 in full (2001:0db8:0000:…), Osprey as
    RFC 5952 (2001:db8::…)."""
    try:
        return str(ipaddress.ip_address(a))
    except ValueError:
        return a


def normalize_dns(r):
    """AAAA rdata in one spelling too (Suricata writes it in full)."""
    d = r.get("dns", {})
    for a in d.get("answers", []) + d.get("authorities", []):
        if a.get("rrtype") == "AAAA" and "rdata" in a:
            a["rdata"] = addr(a["rdata"])
    if "AAAA" in d.get("grouped", {}):
        d["grouped"]["AAAA"] = [addr(x) for x in d["grouped"]["AAAA"]]
    return r


def tuple_of(r):
    """ICMP flows have no ports: their type tells them apart instead."""
    sport = r.get("src_port", r.get("icmp_type"))
    return (r.get("proto"), addr(r.get("src_ip")), sport, addr(r.get("dest_ip")),
            r.get("dest_port"))


def fmt_tuple(t):
    proto, sip, sp, dip, dp = t[0]
    occ = f"#{t[1]}" if t[1] else ""
    return f"{proto} {sip}:{sp} -> {dip}:{dp}{occ}"


def flow_keys(recs):
    """flow_id -> (5-tuple, occurrence) for every flow record, in start order."""
    flows = sorted((r for r in recs if r.get("event_type") == "flow"),
                   key=lambda r: r.get("flow", {}).get("start", ""))
    seen = collections.Counter()
    ids = {}
    for r in flows:
        t = tuple_of(r)
        ids[r.get("flow_id")] = (t, seen[t])
        seen[t] += 1
    return ids


def flow_key_of(r, ids):
    """The flow a record belongs to; a record whose flow was never logged (no flow record)
    falls back to its 5-tuple, client first when it says which side is which."""
    k = ids.get(r.get("flow_id"))
    if k:
        return k
    return (tuple_of(r), 0)


def index(recs, ids):
    """{event_type: {pair key: record}} and {event_type: Counter} for counted types."""
    paired = collections.defaultdict(dict)
    counted = collections.defaultdict(collections.Counter)
    occ = collections.Counter()
    for r in recs:
        et = r.get("event_type")
        fk = flow_key_of(r, ids)
        if et == "flow":
            paired[et][fk] = r
        elif et == "http":
            paired[et][(fk, r.get("tx_id"))] = r
        elif et == "dns":
            d = normalize_dns(r).get("dns", {})
            base = (fk, d.get("type"), d.get("id"), d.get("rrname"))
            paired[et][base + (occ[base],)] = r
            occ[base] += 1
        elif et == "tls":
            paired[et].setdefault(fk, r)
        elif et == "alert":
            counted[et][(fk, r.get("alert", {}).get("signature_id"))] += 1
        elif et == "anomaly":
            a = r.get("anomaly", {})
            counted[et][(fk, a.get("type"), a.get("event"))] += 1
    return paired, counted


def ignored(et, key):
    return key in IGNORED["*"] or key in IGNORED.get(et, ()) or key.split(".")[0] in IGNORED["*"]


def describe_key(et, k):
    if et == "flow" or et == "tls":
        return fmt_tuple(k)
    if et == "http":
        return f"{fmt_tuple(k[0])} tx {k[1]}"
    if et == "dns":
        return f"{fmt_tuple(k[0])} {k[1]} id {k[2]} {k[3]}" + (f" #{k[4]}" if k[4] else "")
    return str(k)


def compare(o_recs, s_recs):
    o_paired, o_counted = index(o_recs, flow_keys(o_recs))
    s_paired, s_counted = index(s_recs, flow_keys(s_recs))
    report = {}
    for et in ("flow",) + TX_TYPES:
        o, s = o_paired.get(et, {}), s_paired.get(et, {})
        both = [k for k in s if k in o]
        fields = collections.defaultdict(list)
        for k in both:
            fo = {a: b for a, b in flatten(o[k]).items() if not ignored(et, a)}
            fs = {a: b for a, b in flatten(s[k]).items() if not ignored(et, a)}
            for name in sorted(set(fo) | set(fs)):
                if fo.get(name, "<absent>") != fs.get(name, "<absent>"):
                    fields[name].append((describe_key(et, k), fo.get(name, "<absent>"),
                                         fs.get(name, "<absent>")))
        report[et] = {
            "osprey": len(o), "suricata": len(s), "paired": len(both),
            "only_osprey": [describe_key(et, k) for k in o if k not in s],
            "only_suricata": [describe_key(et, k) for k in s if k not in o],
            "fields": dict(fields),
        }
    for et in ("alert", "anomaly"):
        o, s = o_counted.get(et, collections.Counter()), s_counted.get(et, collections.Counter())
        by_name_o, by_name_s = collections.Counter(), collections.Counter()
        for k, n in o.items():
            by_name_o[k[1:]] += n
        for k, n in s.items():
            by_name_s[k[1:]] += n
        names = sorted(set(by_name_o) | set(by_name_s), key=str)
        report[et] = {
            "osprey": sum(o.values()), "suricata": sum(s.values()),
            "by_name": {" ".join(str(x) for x in n): [by_name_o[n], by_name_s[n]]
                        for n in names},
            "flows_differing": sum(1 for k in set(o) | set(s) if o[k] != s[k]),
        }
    return report


def differs(report):
    for et, r in report.items():
        if et in ("alert", "anomaly"):
            if r["flows_differing"]:
                return True
        elif r["only_osprey"] or r["only_suricata"] or r["fields"]:
            return True
    return False


def show(v):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 90 else s[:87] + "..."


def print_report(report, examples, out=sys.stdout):
    for et, r in report.items():
        if et in ("alert", "anomaly"):
            print(f"{et}: osprey {r['osprey']}, suricata {r['suricata']}, "
                  f"flows whose counts differ {r['flows_differing']}", file=out)
            for name, (no, ns) in r["by_name"].items():
                mark = "" if no == ns else "   <- differs"
                print(f"    {name:60s} osprey {no:5d}  suricata {ns:5d}{mark}", file=out)
            continue
        print(f"{et}: osprey {r['osprey']}, suricata {r['suricata']}, paired {r['paired']}, "
              f"only osprey {len(r['only_osprey'])}, only suricata {len(r['only_suricata'])}",
              file=out)
        for side in ("only_osprey", "only_suricata"):
            for d in r[side][:examples]:
                print(f"    {side.replace('_', ' ')}: {d}", file=out)
        for name, diffs in sorted(r["fields"].items(), key=lambda x: (-len(x[1]), x[0])):
            print(f"    {name:32s} differs in {len(diffs)}/{r['paired']}", file=out)
            for where, ov, sv in diffs[:examples]:
                print(f"        {where}: osprey {show(ov)}  suricata {show(sv)}", file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("osprey_eve")
    ap.add_argument("suricata_eve")
    ap.add_argument("--examples", type=int, default=3, help="examples printed per difference")
    ap.add_argument("--json", action="store_true", help="print the whole report as JSON")
    a = ap.parse_args(argv)
    try:
        report = compare(load(a.osprey_eve), load(a.suricata_eve))
    except OSError as e:
        print(f"suricata_diff: {e}", file=sys.stderr)
        return 2
    if a.json:
        json.dump(report, sys.stdout, indent=1, default=str)
        print()
    else:
        print_report(report, a.examples)
    return 1 if differs(report) else 0


if __name__ == "__main__":
    sys.exit(main())
