"""--runmode workers: N worker threads fed by a reader that splits frames by a symmetric hash
of the innermost IP address pair. The alerts (sid, src, dst, pcap_cnt) and the summary's
packet/flow/alert counts must equal those of --runmode single."""
import re

import pytest
from scapy.layers.inet import IP, UDP, ICMP, GRE, fragment
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.layers.vxlan import VXLAN
from scapy.packet import Raw

from conftest import CORPUS, ROOT, stamp, write_pcap
from detect_helpers import Conv, detect, rule, udp

RULES = [
    rule('flow:to_server,established; content:"secret-request";', sid=1),
    rule('flow:to_client,established; content:"secret-answer";', sid=2),
    rule('content:"PING-";', sid=3, proto="udp"),
    rule('content:"frag-tail-marker";', sid=4, proto="udp"),
    rule('content:"icmp-frag";', sid=5, proto="icmp"),
    rule('flow:established; content:"inner";', sid=6),
    rule('content:"GET";', sid=7),
]

SUMMARY = re.compile(r"osprey: (\d+) packets, (\d+) flows, (\d+) alerts")


def interleave(convs):
    """Round-robin the packets of several conversations, so flows overlap in time."""
    out, lists = [], [list(c) for c in convs]
    while any(lists):
        for ls in lists:
            if ls:
                out.append(ls.pop(0))
    return out


def many_flows():
    convs = []
    for i in range(120):
        cli, srv = f"10.1.{i % 7}.{i + 1}", f"192.168.{i % 5}.{(i * 7) % 250 + 1}"
        c = Conv(src=cli, dst=srv, sport=30000 + i, dport=80 + i % 3).handshake()
        c.send(True, b"GET /x secret-request %d" % i, seg=7)
        c.send(False, b"HTTP/1.1 200 secret-answer %d" % i, seg=5)
        convs.append(c.close().pkts)
    for i in range(60):
        convs.append([udp(b"PING-%d" % i, src=f"172.16.{i}.1", dst="8.8.8.8", sport=1000 + i),
                      udp(b"PONG", src="8.8.8.8", dst=f"172.16.{i}.1", dport=1000 + i,
                          sport=53)])
    return interleave(convs)


def fragments():
    pkts = []
    for i in range(40):
        src, dst = f"10.9.{i}.1", f"10.8.{i % 3}.2"
        body = b"A" * 60 + b"frag-tail-marker %d" % i
        frags = fragment(IP(src=src, dst=dst, id=100 + i) / UDP(sport=2000 + i, dport=9999)
                         / Raw(body), fragsize=32)
        if i % 2:
            frags = frags[::-1]  # out of order
        pkts.append(frags)
        icmp = fragment(IP(src=dst, dst=src, id=500 + i) / ICMP() / Raw(b"B" * 40 + b"icmp-frag"),
                        fragsize=24)
        pkts.append(icmp)
        # the same hosts also talk unfragmented TCP
        pkts.append(Conv(src=src, dst=dst, sport=4000 + i, dport=22).handshake()
                    .send(True, b"secret-request").send(False, b"secret-answer").close().pkts)
    return interleave(pkts)


def tunnels():
    convs = []
    for i in range(30):
        outer_s, outer_d = f"198.51.100.{i % 4 + 1}", "203.0.113.9"
        gre = (lambda p, s=outer_s, d=outer_d: IP(src=s, dst=d) / GRE() / p)
        vx = (lambda p, s=outer_s, d=outer_d, i=i: IP(src=s, dst=d) / UDP(sport=50000 + i, dport=4789)
              / VXLAN(vni=i + 1) / Ether() / p)
        for k, wrap in enumerate((gre, vx)):
            c = Conv(src=f"10.20.{i}.{k + 1}", dst=f"10.30.{i % 6}.9", sport=5000 + i,
                     dport=8080, wrap=wrap).handshake()
            c.send(True, b"inner secret-request", seg=6).send(False, b"inner secret-answer")
            convs.append(c.close().pkts)
    for i in range(20):
        convs.append([IPv6(src=f"2001:db8::{i + 1}", dst="2001:db8:1::1") / UDP(sport=7, dport=7)
                      / Raw(b"PING-v6-%d" % i)])
    return interleave(convs)


def fragmented_tunnel():
    """A GRE tunnel whose outer datagrams are sometimes fragmented: the inner flow shows up
    only after defrag, so dispatch must not depend on the inner header."""
    convs = []
    for i in range(20):
        outer = lambda p, i=i: IP(src=f"10.200.{i}.3", dst="10.200.0.224", id=7000 + len(p)) / GRE() / p
        c = Conv(src=f"192.168.69.{i + 1}", dst="192.168.70.10", sport=49000 + i, dport=80,
                 wrap=outer).handshake()
        c.send(True, b"GET / secret-request " + b"x" * 300).send(False, b"secret-answer " + b"y" * 300)
        pkts = []
        for k, p in enumerate(c.close().pkts):
            pkts += fragment(p, fragsize=120) if len(p) > 200 and k % 2 else [p]
        convs.append(pkts)
    return interleave(convs)


def key(alerts):
    # a flow-end packet (a timeout, the end of the input) is numbered after the last packet
    # its worker processed, which differs between run modes; in Suricata's IDS mode (the
    # default) what a flow still holds is inspected there, so such alerts are compared
    # without it (Suricata writes no pcap_cnt for its flow-timeout packets)
    return sorted((a["alert"]["signature_id"], a["src_ip"], a["dest_ip"],
                   0 if a["pkt_src"] == "stream (flow timeout)" else a["pcap_cnt"])
                  for a in alerts)


def summary(res):
    m = SUMMARY.search(res.proc.stdout)
    assert m, res.proc.stdout
    return tuple(int(x) for x in m.groups())


def compare(tmp_path, packets, rules, name):
    single = detect(tmp_path, packets, rules, "--runmode", "single", name=name)
    ref = key(single.alerts)
    for n in (2, 3):
        res = detect(tmp_path, packets, rules, "--runmode", "workers", "--set",
                     f"threading.workers={n}", name=name)
        assert key(res.alerts) == ref, f"{n} workers"
        assert summary(res) == summary(single), f"{n} workers"
        assert f"{n} workers" in res.proc.stdout
    return ref


@pytest.mark.parametrize("make", [many_flows, fragments, tunnels, fragmented_tunnel])
def test_workers_same_alerts_as_single(tmp_path, make):
    ref = compare(tmp_path, make(), RULES, make.__name__)
    assert ref, "the capture should raise alerts"


def test_default_worker_count_runs(tmp_path):
    res = detect(tmp_path, many_flows(), RULES, "--runmode", "workers")
    single = detect(tmp_path, many_flows(), RULES, name="s")
    assert key(res.alerts) == key(single.alerts)


def test_workers_over_a_directory_keep_global_pcap_cnt(tmp_path):
    d = tmp_path / "caps"
    d.mkdir()
    pk = stamp(many_flows())
    write_pcap(d / "a.pcap", pk[:500])
    write_pcap(d / "b.pcap", pk[500:])
    compare(tmp_path, d, RULES, "dir")


BENCH = sorted((CORPUS / "pcaps" / "benchmark").glob("*.pcap"))


@pytest.mark.skipif(not BENCH, reason="no benchmark captures in the corpus")
@pytest.mark.parametrize("pcap", BENCH, ids=lambda p: p.name)
def test_workers_corpus_benchmark(tmp_path, pcap):
    demo = ROOT / "etc" / "rules" / "osprey-demo.rules"
    rules = demo.read_text().splitlines() + [
        rule('content:"HTTP/1.";', sid=900001),
        rule('content:"User-Agent|3a|";', sid=900002),
        rule('content:"|00 01|";', sid=900003, proto="udp"),
        rule('flow:to_client; content:"200 OK";', sid=900004),
    ]
    single = detect(tmp_path, pcap, rules, "--runmode", "single", name="s")
    for n in (2, 3):
        res = detect(tmp_path, pcap, rules, "--runmode", "workers", "--set",
                     f"threading.workers={n}", name=f"w{n}")
        assert key(res.alerts) == key(single.alerts), f"{n} workers"
        s1, sn = summary(single), summary(res)
        # packets and alerts are equal; flows may differ by a few where the capture carries
        # one inner flow both bare and inside a GRE tunnel (an evasion test in the merged
        # capture): the outer address pairs differ, so those packets meet on two workers.
        assert sn[0] == s1[0] and sn[2] == s1[2], f"{n} workers"
        assert abs(sn[1] - s1[1]) <= 2, f"{n} workers"


def test_workers_small_ring_wraps_and_waits(tmp_path):
    # threading.ring-size=1mb: the 35 MB capture goes round each worker's ring of frames many
    # times, frames that would cross its end start at its start, and the reader waits for
    # room far more often than with the default; nothing is lost, reordered or read stale
    assert BENCH, f"no benchmark captures under {CORPUS}/pcaps/benchmark (OSPREY_CORPUS)"
    pcap = max(BENCH, key=lambda p: p.stat().st_size)
    assert pcap.stat().st_size > 8 * (1 << 20)
    rules = [rule('content:"HTTP/1.";', sid=900001),
             rule('flow:to_client; content:"200 OK";', sid=900004),
             rule('content:"|00 01|";', sid=900003, proto="udp")]
    single = detect(tmp_path, pcap, rules, "--runmode", "single", name="s")
    res = detect(tmp_path, pcap, rules, "--runmode", "workers", "--set", "threading.workers=2",
                 "--set", "threading.ring-size=1mb", name="ring")
    assert single.alerts and key(res.alerts) == key(single.alerts)
    s1, sn = summary(single), summary(res)
    assert sn[0] == s1[0] and sn[2] == s1[2]
    assert abs(sn[1] - s1[1]) <= 2  # (the GRE evasion flow: see the test above)


def test_thresholds_count_across_workers(tmp_path):
    # one source's SYNs on many ports land on both workers by flow hash; a by_src threshold
    # counts them together (one table for all workers, as Suricata's)
    from scapy.layers.inet import IP, TCP
    syns = [IP(src="10.9.0.1", dst="10.9.0.2") / TCP(sport=30000 + i, dport=22, flags="S")
            for i in range(12)]
    rules = [rule("flags:S; threshold:type threshold, track by_src, count 6, seconds 60;",
                  sid=1)]
    for mode in (["--runmode", "single"],
                 ["--runmode", "workers", "--set", "threading.workers=2"]):
        assert detect(tmp_path, syns, rules, *mode, name=mode[1]).sids == [1, 1]
