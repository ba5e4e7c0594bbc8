"""The fast-pattern prefilter by protocol class and port, the header dispatcher's address index,
application payload patterns found by the stream matcher, and the on-disk database cache
(rules/compile/mpm_group.c, hdx_index.c, mpm_cache.c): each changes how much work a packet
costs, never which rules alert — the exact alerts are asserted, and the run summary's
prefilter line shows the work that was skipped."""
import re

from scapy.all import IP, UDP, Raw

from detect_helpers import CLI, SRV, Conv, detect, http_conv, rule, udp

CERBER = 'content:"e"; nocase; depth:1;'  # ET's one-byte pattern of a rule bound to two ports


def prefilter(r):
    m = re.search(r"prefilter: (\d+) scans of [\d.]+ MB, (\d+) patterns raised \((\d+) found "
                  r"at ports no rule of theirs takes\), (\d+) header checks, (\d+) passed",
                  r.proc.stdout)
    assert m, r.proc.stdout
    return dict(zip(["scans", "raised", "unwanted", "checks", "passed"], map(int, m.groups())))


def test_a_weak_port_bound_pattern_matches_only_on_its_ports(tmp_path):
    rules = [rule(CERBER, sid=1, proto="udp", hdr="any any -> any [6892,6893]")]
    pkts = [udp(b"e0a1b2c3", dport=6892), udp(b"e0a1b2c3", dport=53),
            udp(b"E0a1b2c3", dport=6893), udp(b"e0a1b2c3", sport=6892, dport=4000)]
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(1, 1), (1, 3)]
    # the pattern is looked for on 6892/6893 only: the DNS-port packet and the reply-looking
    # one raise nothing and cost no header check
    assert prefilter(r)["checks"] == 2



def test_both_databases_of_a_weak_port_are_one_pass(tmp_path):
    """On a port where weak port-bound patterns are wanted as well as the others, the bytes
    are scanned once, with one database holding both (not once with each)."""
    weak_anywhere = 'content:"e"; nocase;'  # no depth: not a head pattern (below)
    rules = [rule(weak_anywhere, sid=1, proto="udp", hdr="any any -> any [6892,6893]"),
             rule('content:"STRONG-PATTERN";', sid=7, proto="udp")]
    pkts = [udp(b"eSTRONG-PATTERN", dport=6892), udp(b"xSTRONG-PATTERN", dport=53)]
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(1, 1), (7, 1), (7, 2)]
    assert prefilter(r)["scans"] == 2  # one database pass per packet

def test_a_weak_pattern_on_nearly_every_port_leaves_the_narrow_ones_home(tmp_path):
    """A weak pattern whose rule takes nearly every port (`!80`, ET's `![139,445]` …) is kept
    in the class's database, not the weak one: the weak database would be scanned on nearly
    every flow, and the one-byte patterns of rules bound to one port with it, found everywhere
    and dropped. The wide rule still alerts only where its ports allow."""
    rules = [rule('content:"|03|";', sid=1, proto="udp", hdr="any any -> any 3389"),
             rule('content:"|7c 9e|";', sid=2, proto="udp", hdr="any any -> any !80")]
    pkts = [udp(b"\x03\x03\x7c\x9e", dport=53) for _ in range(3)] + \
        [udp(b"\x03\x7c", dport=80), udp(b"\x03\x7c\x9e", dport=3389)]
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(1, 5), (2, 1), (2, 2), (2, 3), (2, 5)]
    # |03| is looked for on 3389 only: never found where no rule of it takes the port (it
    # was on each DNS-port packet, when |7c 9e| made the weak database scanned there)
    assert prefilter(r)["unwanted"] == 0


def test_source_port_and_bidirectional_rules_keep_their_alerts(tmp_path):
    rules = [rule('content:"|00 01|";', sid=2, proto="udp", hdr="any 7000 -> any any"),
             rule('content:"|00 02|";', sid=3, proto="udp", hdr="any any <> any 7100"),
             rule('content:"|00 01|";', sid=4, proto="udp", hdr="any any -> any any")]
    pkts = [udp(b"\x00\x01", sport=7000, dport=9), udp(b"\x00\x01", sport=9, dport=7000),
            udp(b"\x00\x02", sport=7100, dport=9), udp(b"\x00\x02", sport=9, dport=7100),
            udp(b"\x00\x02", sport=9, dport=9)]
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(2, 1), (3, 3), (3, 4), (4, 1), (4, 2)]


def test_a_strong_pattern_at_the_wrong_port_is_found_but_not_raised(tmp_path):
    rules = [rule('content:"LONGPATTERN-XYZ";', sid=5, proto="udp", hdr="any any -> any 1234")]
    r = detect(tmp_path, [udp(b"..LONGPATTERN-XYZ..", dport=80),
                          udp(b"..LONGPATTERN-XYZ..", dport=1234)], rules)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == [(5, 2)]
    pf = prefilter(r)
    assert pf["unwanted"] == 1 and pf["checks"] == 1 and pf["passed"] == 1


def test_ip_rules_see_every_protocol_class(tmp_path):
    rules = [rule('content:"SHARED-PAT";', sid=6, proto="ip")]
    pkts = [udp(b"xSHARED-PATx"), IP(dst="10.0.0.9") / Raw(b"SHARED-PAT"),
            *Conv(dport=9999).handshake().send(True, b"--SHARED-PAT--").close().pkts]
    r = detect(tmp_path, pkts, rules)
    assert sorted(a["pcap_cnt"] for a in r.alerts) == [1, 2, 6]


def test_reputation_lists_match_through_the_address_index(tmp_path):
    hosts = ",".join(f"198.51.100.{i}" for i in range(1, 60))
    rules = [rule("", sid=7, proto="ip", hdr=f"[{hosts}] any -> any any"),
             rule("", sid=8, proto="ip", hdr=f"any any -> [{hosts}] any"),
             rule("", sid=9, proto="ip", hdr=f"[203.0.113.7,203.0.113.9] any <> any 53"),
             rule("", sid=10, proto="udp", hdr="[192.0.2.0/24] any -> any any")]
    pkts = [udp(b"x", src="198.51.100.42", dst="10.0.0.2"),   # 7
            udp(b"x", src="10.0.0.2", dst="198.51.100.59"),   # 8
            udp(b"x", src="198.51.100.60", dst="10.0.0.3"),   # none: not in the list
            udp(b"x", src="10.0.0.4", dst="203.0.113.9", sport=5000, dport=53),   # 9
            udp(b"x", src="203.0.113.7", dst="10.0.0.5", sport=53, dport=5000),   # 9 (<>)
            udp(b"x", src="192.0.2.77", dst="10.0.0.6")]     # 10
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(7, 1), (8, 2), (9, 4), (9, 5), (10, 6)]


def test_broad_address_sets_shared_by_many_headers_each_keep_their_alerts(tmp_path):
    # headers on broad sets (not indexed: looked at for every flow direction) share each
    # set's search within a call; each header's own protocol, direction and ports still count
    rules = [rule("", sid=20, proto="udp", hdr="10.0.0.0/8 any -> !10.0.0.0/8 any"),
             rule("", sid=21, proto="udp", hdr="!10.0.0.0/8 any -> 10.0.0.0/8 any"),
             rule("", sid=22, proto="ip", hdr="10.0.0.0/8 any <> 172.16.0.0/12 any"),
             rule("", sid=23, proto="tcp", hdr="10.0.0.0/8 any -> !10.0.0.0/8 any"),
             rule("", sid=24, proto="udp", hdr="any any -> 10.0.0.0/8 53"),
             rule("", sid=25, proto="udp", hdr="!10.0.0.0/8 any -> !10.0.0.0/8 any")]
    pkts = [udp(b"x", src="10.0.0.1", dst="8.8.8.8", sport=5000, dport=53),      # 20
            udp(b"x", src="8.8.4.4", dst="10.0.0.1", sport=53, dport=5001),      # 21
            udp(b"x", src="172.16.5.5", dst="10.1.1.1", sport=5002, dport=53),   # 21 22 24
            udp(b"x", src="10.2.2.2", dst="172.20.0.1", sport=5003, dport=9),    # 20 22
            udp(b"x", src="192.0.2.1", dst="198.51.100.1", sport=5004, dport=9)]  # 25
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts) == \
        [(1, 20), (2, 21), (3, 21), (3, 22), (3, 24), (4, 20), (4, 22), (5, 25)]


def test_broad_set_results_remembered_per_host_stay_exact_across_many_flows(tmp_path):
    """Which broad sets an address is in is remembered per worker from flow to flow
    (det_hdx_ipmemo): hosts that come back in either role, in more flows than the memo has
    entries, each flow's alerts as the rules say."""
    import ipaddress
    import random
    hdrs = {20: ("udp", "10.0.0.0/8", "!10.0.0.0/8"), 21: ("udp", "!10.0.0.0/8", "10.0.0.0/8"),
            22: ("ip", "10.0.0.0/8", "172.16.0.0/12"), 25: ("udp", "!10.0.0.0/8", "!172.16.0.0/12")}
    rules = [rule("", sid=s, proto=p, hdr=f"{a} any {'<>' if s == 22 else '->'} {b} any")
             for s, (p, a, b) in hdrs.items()]

    def inside(addr, spec):
        neg = spec.startswith("!")
        return (ipaddress.ip_address(addr) in ipaddress.ip_network(spec.lstrip("!"))) != neg

    rnd = random.Random(7)
    hosts = ([f"10.{i}.0.1" for i in range(120)] + [f"172.16.{i}.1" for i in range(120)] +
             [f"198.51.{i}.1" for i in range(120)])
    pkts, want = [], []
    for n in range(1, 701):
        src, dst = rnd.sample(hosts, 2)
        pkts.append(udp(b"x", src=src, dst=dst, sport=1024 + n, dport=2000 + n))
        for sid, (_, a, b) in hdrs.items():
            if (inside(src, a) and inside(dst, b)) or \
                    (sid == 22 and inside(dst, a) and inside(src, b)):
                want.append((n, sid))
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts) == sorted(want)
    assert len(want) > 500


def test_application_payload_patterns_come_from_the_stream_matcher(tmp_path):
    # an http rule's plain content, split over segments, and the same pattern in a stream rule
    rules = [rule('flow:to_server; content:"GET /evil-path";', sid=11, proto="http"),
             rule('flow:to_server; content:"GET /evil-path";', sid=12)]
    req = b"GET /evil-path HTTP/1.1\r\nHost: x\r\n\r\n"
    c = Conv().handshake().send(True, req, seg=7).send(False, b"HTTP/1.1 200 OK\r\n"
                                                              b"Content-Length: 0\r\n\r\n")
    r = detect(tmp_path, c.close().pkts, rules)
    assert r.sids == [11, 12]
    for mode in ["block", "stream"]:
        assert detect(tmp_path, http_conv(req=req), rules, "--set",
                      f"detect.stream-mpm={mode}", name=mode).sids == [11, 12]


def test_compiled_databases_are_cached_and_read_back(tmp_path):
    cache = tmp_path / "hs-cache"
    rules = [rule('content:"CACHED-PATTERN";', sid=13, proto="udp"),
             rule(CERBER, sid=14, proto="udp", hdr="any any -> any 6892")]
    pkts = [udp(b"CACHED-PATTERN"), udp(b"e1", dport=6892)]
    args = ["--set", f"detect.sgh-mpm-caching-path={cache}"]
    first = detect(tmp_path, pkts, rules, *args, name="first")
    files = sorted(p.name for p in cache.iterdir())
    assert files and all(re.fullmatch(r"[0-9a-f]{64}\.hs", f) for f in files)
    second = detect(tmp_path, pkts, rules, *args, name="second")
    assert first.sids == second.sids == [13, 14]
    assert sorted(p.name for p in cache.iterdir()) == files  # read back, nothing new
    for p in cache.iterdir():  # a damaged cache is compiled over, never trusted
        p.write_bytes(b"not a database")
    assert detect(tmp_path, pkts, rules, *args, name="third").sids == [13, 14]
    off = detect(tmp_path, pkts, rules, "--set", "detect.sgh-mpm-caching=no", "--set",
                 f"detect.sgh-mpm-caching-path={tmp_path / 'unused'}", name="off")
    assert off.sids == [13, 14] and not (tmp_path / "unused").exists()


def test_cache_files_unused_for_max_age_are_pruned(tmp_path):
    import os
    import time
    cache = tmp_path / "hs-cache"
    cache.mkdir()
    old, recent = cache / ("a" * 64 + ".hs"), cache / ("b" * 64 + ".hs")
    stale_tmp, foreign = cache / ("c" * 64 + ".hs.77.tmp"), cache / "notes.txt"
    for p in (old, recent, stale_tmp, foreign):
        p.write_bytes(b"x")
    ten_days = time.time() - 10 * 86400
    for p in (old, stale_tmp, foreign):
        os.utime(p, (ten_days, ten_days))
    rules = [rule('content:"PRUNE-PATTERN";', sid=15, proto="udp")]
    args = ["--set", f"detect.sgh-mpm-caching-path={cache}"]
    kept = detect(tmp_path, [udp(b"PRUNE-PATTERN")], rules, *args,
                  "--set", "detect.sgh-mpm-caching-max-age=0", name="kept")
    assert kept.sids == [15] and old.exists() and stale_tmp.exists()
    r = detect(tmp_path, [udp(b"PRUNE-PATTERN")], rules, *args, name="pruned")
    assert r.sids == [15]
    assert not old.exists() and not stale_tmp.exists()  # unused for 7 days (the default)
    assert recent.exists() and foreign.exists()          # recent; not a cache file
    made = [p for p in cache.iterdir() if p.suffix == ".hs" and p not in (recent,)]
    assert made  # this ruleset's own databases


def test_prefilter_and_window_counters_in_the_stats_record(tmp_path):
    import json
    rules = [rule('content:"LONGPATTERN-XYZ";', sid=16, proto="udp", hdr="any any -> any 1234")]
    r = detect(tmp_path, [udp(b"..LONGPATTERN-XYZ..", dport=80),
                          udp(b"..LONGPATTERN-XYZ..", dport=1234)], rules, name="st")
    recs = [json.loads(l) for l in (tmp_path / "st-log" / "eve.json").read_text().splitlines()]
    det = [x for x in recs if x["event_type"] == "stats"][-1]["stats"]["osprey"]["detect"]
    pf = det["prefilter"]
    assert (pf["scans"], pf["wrong_ports"], pf["header_checks"], pf["header_passed"]) == \
        (2, 1, 1, 1)
    assert det["memuse"] == 0 and "memuse_peak" in det
    assert r.sids == [16]


def stats_prefilter(tmp_path, name):
    import json
    recs = [json.loads(l) for l in (tmp_path / f"{name}-log" / "eve.json").read_text().splitlines()]
    return [x for x in recs if x["event_type"] == "stats"][-1]["stats"]["osprey"]["detect"][
        "prefilter"]


def test_patterns_bound_to_the_payload_head_are_looked_for_only_there(tmp_path):
    """A packet rule's fast pattern that can only serve it near the payload's start (an
    absolute depth, a dsize) carries that bound into the database (Hyperscan's max_offset):
    found past it, it is not raised; the alerts are exactly as before, and every packet is
    one pass over its payload."""
    rules = [rule('content:"|7f 9f|"; depth:2; dsize:<40;', sid=11, proto="udp"),
             rule('content:"HEADPAT"; offset:4; depth:8;', sid=12, proto="udp"),
             rule('content:"ANYWHERE-PAT";', sid=13, proto="udp")]
    pkts = [udp(b"\x7f\x9f" + b"x" * 10),        # 11
            udp(b"xx\x7f\x9f"),                  # past its depth
            udp(b"abcdHEADPATxxxx"),               # 12: ends at 11, within offset 4 + depth 8
            udp(b"x" * 300 + b"HEADPAT"),          # past the head
            udp(b"y" * 1000 + b"ANYWHERE-PAT"),    # 13
            udp(b"\x7f\x9f" + b"z" * 100)]        # dsize 102: not < 40
    r = detect(tmp_path, pkts, rules, name="hd")
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(11, 1), (12, 3), (13, 5)]
    pf = stats_prefilter(tmp_path, "hd")
    # one pass per packet over the whole payload; raised only where the bound allows: sid 11's
    # |7f 9f| at the start of packets 1 and 6 (2 ends past its depth), HEADPAT in packet 3
    # (4's is past offset 4 + depth 8 = 12), ANYWHERE-PAT in 5
    lens = [12, 4, 15, 307, 1012, 102]
    assert pf["scans"] == len(pkts)
    assert pf["bytes"] == sum(lens)
    assert pf["raised"] == 4


def test_a_pattern_one_rule_bounds_and_another_does_not_is_looked_for_everywhere(tmp_path):
    rules = [rule('content:"SHAREDPAT"; depth:9;', sid=14, proto="udp"),
             rule('content:"SHAREDPAT";', sid=15, proto="udp")]
    r = detect(tmp_path, [udp(b"SHAREDPAT"), udp(b"." * 500 + b"SHAREDPAT")], rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(14, 1), (15, 1), (15, 2)]


def test_patterns_are_looked_for_only_in_their_rules_flow_direction(tmp_path):
    """Per protocol class and flow direction a database of its own (mpm_group.c): a
    `flow:to_server` rule's pattern is not raised in what the server sends, a `to_client`
    one's not in requests, one without direction in both — for stream rules, TCP packet
    rules (dsize) and UDP packet rules. Each pattern below occurs in both directions; the
    alerts are exactly those of the rules' directions, and the patterns of the other
    direction cost no header check."""
    rules = [rule('flow:to_server; content:"REQ-ONLY-PAT";', sid=21),
             rule('flow:to_client; content:"RSP-ONLY-PAT";', sid=22),
             rule('content:"BOTH-WAYS-PAT";', sid=23),
             rule('flow:established,to_client; dsize:<100; content:"PKT-TC-PAT";', sid=24),
             rule('flow:to_server; content:"UDP-TS-PAT";', sid=25, proto="udp")]
    every = b"..REQ-ONLY-PAT..RSP-ONLY-PAT..BOTH-WAYS-PAT..PKT-TC-PAT.."
    c = Conv(dport=8000).handshake().send(True, every).send(False, every).close()
    pkts = [*c.pkts, udp(b"xUDP-TS-PATx", sport=40000, dport=9000),
            udp(b"yUDP-TS-PATy", src=SRV, dst=CLI, sport=9000, dport=40000)]
    # inline delivery: each payload is scanned as it arrives, once (in Suricata's IDS mode the
    # stream's bytes wait for their ACK and a chunk, these for the flow's end)
    r = detect(tmp_path, pkts, rules, "--set", "stream.inline=yes")
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)
    assert got == [(21, 4), (22, 6), (23, 4), (23, 6), (24, 6), (25, 11)], got
    # raised: REQ-ONLY, BOTH-WAYS in the request stream (the TCP packet rule's pattern is not
    # raised there: its rule is to_client); RSP-ONLY, BOTH-WAYS in the response stream and
    # PKT-TC in the response packet; UDP-TS in the UDP request only
    pf = prefilter(r)
    assert (pf["raised"], pf["checks"], pf["passed"]) == (6, 6, 6), pf



def test_a_tcp_payload_is_one_pass_for_packet_rules_and_arrival_twins(tmp_path):
    """Under ack delivery a connection packet's payload is inspected on arrival for the stream
    rules Suricata runs on packets (a content with a depth) and for the packet rules (dsize):
    one database holds both sets of patterns per TCP group, weak port-bound ones included on
    their ports, so the payload is scanned once, not once per matcher."""
    rules = [rule('content:"HELLO"; depth:5;', sid=1),           # arrival twin (pkt_required)
             rule('dsize:>5; content:"PKT-RULE";', sid=2),         # packet rule
             rule('dsize:>5; content:"x";', sid=3, hdr="any any -> any 7777"),  # weak, port-bound
             rule('content:"never-there";', sid=4)]                # stream only
    c = Conv(sport=40001, dport=7777).handshake()
    pkts = c.send(True, b"HELLO PKT-RULE x").send(False, b"ok").close().pkts
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
        [(1, 4), (2, 4), (3, 4)]
    # two payloads, one pass each on arrival; then each side's stream chunk once, and its
    # first bytes once for HELLO, which its depth leaves to the head pass (mpm_heads.c)
    assert prefilter(r)["scans"] == 6
