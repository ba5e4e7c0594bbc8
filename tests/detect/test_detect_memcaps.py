"""Memcaps under attack (issue 17), seen from the alerts: an attacker fills
stream.reassembly.memcap with out-of-order data held after holes that are never filled, while
legitimate HTTP conversations start before, during and after it. The held data of idle holders
is reclaimed for new streams (libmon's stack/tcp/reasm_reclaim.c), so every legitimate request
is still inspected; the stats say what was reclaimed and the packet that needed it carries
stream-event reassembly_memcap_reclaim."""
import random

from detect_helpers import Conv, detect, rule

LEGIT = rule('http.uri; content:"LEGIT-MARKER-";', sid=1, proto="http")
RECLAIM = rule("stream-event:reassembly_memcap_reclaim;", sid=2)


def attacker(i, segs=8, size=1000):
    """A connection whose first data byte never comes: everything after it is held."""
    c = Conv(src=f"10.1.{i >> 8}.{i & 255}", dst="10.0.0.80", sport=1024 + i, dport=80)
    c.handshake()
    data = bytes([65 + i % 26]) * (segs * size)
    order = list(range(1, segs))
    random.Random(i).shuffle(order)
    c.send(True, data, seg=size, order=order)
    c.pkts.pop()  # no ACK: the server never got the first byte
    return c.pkts


def legit(n):
    c = Conv(src="10.9.9.1", dst="10.9.9.2", sport=20000 + n, dport=80).handshake()
    c.send(True, b"GET /LEGIT-MARKER-%d HTTP/1.1\r\nHost: example.com\r\n\r\n" % n)
    c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
    return c.close().pkts


def attack(parts=6, per_part=30):
    pkts, sent = [], 0
    for k in range(parts):
        pkts += legit(sent)
        sent += 1
        for i in range(k * per_part, (k + 1) * per_part):
            pkts += attacker(i)
    pkts += legit(sent)
    return pkts, sent + 1


def test_held_data_reclaimed_for_new_connections(tmp_path):
    pkts, sent = attack()
    # 180 holders of 8 KiB rings (about 1.6 MB) against a 1 MiB memcap
    res = detect(tmp_path, pkts, [LEGIT, RECLAIM], "--runmode", "single", "-k", "none",
                 "--set", "stream.reassembly.memcap=1mb")
    legit_alerts = {a["http"]["url"] for a in res.alerts if a["alert"]["signature_id"] == 1}
    assert legit_alerts == {"/LEGIT-MARKER-%d" % n for n in range(sent)}
    tcp = res.stats["osprey"]["tcp"]
    assert tcp["memcap_hits"] == 0
    assert tcp["reassembly_memcap_reclaims"] > 0
    assert tcp["reassembly_memcap_reclaimed"] >= tcp["reassembly_memcap_reclaims"] * 4096  # a 4 KiB ring at least
    assert res.stats["tcp"]["reassembly_memuse"] <= 1 << 20
    # one event per packet that took memory back
    assert 0 < sum(a["alert"]["signature_id"] == 2 for a in res.alerts) \
        <= tcp["reassembly_memcap_reclaims"]


def test_without_pressure_nothing_is_reclaimed(tmp_path):
    pkts, sent = attack(parts=2, per_part=5)
    res = detect(tmp_path, pkts, [LEGIT, RECLAIM], "--runmode", "single", "-k", "none")
    assert len([a for a in res.alerts if a["alert"]["signature_id"] == 1]) == sent
    assert res.stats["osprey"]["tcp"]["reassembly_memcap_reclaims"] == 0
    assert not [a for a in res.alerts if a["alert"]["signature_id"] == 2]


def syn_flood(n, first=0):
    """n pure SYNs from distinct sources, one flow each (a scapy template, addresses patched
    in: building 20,000 scapy packets one by one would take most of the test's time)."""
    from scapy.layers.inet import IP, TCP
    out = []
    for i in range(first, first + n):
        p = IP(src=f"16.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}", dst="10.0.0.1") / \
            TCP(sport=1024 + i % 60000, dport=80, flags="S", seq=i)
        out.append(p)
    return out


def test_flow_state_is_charged_to_flow_memcap(tmp_path):
    """Detection's and the parsers' per-flow state count against flow.memcap: under a SYN flood
    records + that state stay within it, the oldest flows making room, and a conversation
    after the flood is still inspected."""
    memcap = 2 << 20
    pkts = syn_flood(8000) + legit(0)
    res = detect(tmp_path, pkts, [LEGIT], "--runmode", "single", "-k", "none",
                 "--set", f"flow.memcap={memcap}", "--set", "flow.hash-size=1024",
                 "--set", "flow.prealloc=0", step=0.00001)
    assert [a["http"]["url"] for a in res.alerts] == ["/LEGIT-MARKER-0"]
    flow, mine = res.stats["flow"], res.stats["osprey"]["flow"]
    assert mine["state_memuse_peak"] > 8000 // 4 * 64  # detection + parser records
    assert mine["state_memuse"] == 0  # every flow ended at the end of the capture: all refunded
    # the table's records and slots only grow: their final size is their peak
    assert flow["memuse"] + mine["state_memuse_peak"] <= memcap + 1024
    assert flow["memcap"] > 0 and mine["state_evictions"] >= 0
