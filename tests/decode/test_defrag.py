"""IP defragmentation seen through osprey-trace: fragment orders, the target-based overlap
policies (the Sturges/Novak pattern with Suricata's expected bytes), per-host policies,
IPv6, timeouts, memcap, limits and invalid fragments."""
import ipaddress
import itertools

import pytest
from scapy.all import (ICMP, IP, TCP, UDP, Ether, ICMPv6EchoRequest, IPv6, IPv6ExtHdrFragment,
                       IPv6ExtHdrHopByHop, Raw, fragment, raw)

from conftest import eve_ip, stamp

SRC4, DST4 = "10.0.0.1", "10.0.0.2"
SRC6, DST6 = "2001:db8::1", "2001:db8::2"


def eth(p):
    return Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p


def frag4(off, data, mf, ident=1, proto=17, src=SRC4, dst=DST4):
    """One IPv4 fragment: data at byte offset off of the datagram's payload."""
    return eth(IP(src=src, dst=dst, id=ident, proto=proto, flags="MF" if mf else 0,
                  frag=off // 8) / Raw(data))


def frag6(off, data, mf, ident=1, nh=17, src=SRC6, dst=DST6, hbh=False):
    ip = IPv6(src=src, dst=dst)
    fh = IPv6ExtHdrFragment(nh=nh, id=ident, offset=off // 8, m=int(mf))
    return eth((ip / IPv6ExtHdrHopByHop() / fh if hbh else ip / fh) / Raw(data))


def frag(v, off, data, mf, **kw):
    return frag4(off, data, mf, **kw) if v == 4 else frag6(off, data, mf, **kw)


def reassembled(t):
    return [p for p in t.packets if "reassembled" in p["flags"]]


def l4_header(v, proto, payload, dst, sport=1234, dport=5678):
    """The 8-byte UDP or ICMP echo header a datagram with this payload would carry, checksum
    included, so the reassembled datagram verifies only if the bytes are the expected ones."""
    if v == 4:
        l4 = UDP(sport=sport, dport=dport) / Raw(payload) if proto == "udp" else \
            ICMP(type=8, id=7, seq=1) / Raw(payload)
        return raw(IP(src=SRC4, dst=dst) / l4)[20:28]
    l4 = UDP(sport=sport, dport=dport) / Raw(payload) if proto == "udp" else \
        ICMPv6EchoRequest(id=7, seq=1, data=payload)
    return raw(IPv6(src=SRC6, dst=dst) / l4)[40:48]


# ---- every order -----------------------------------------------------------------------

@pytest.mark.parametrize("v", [4, 6])
def test_every_order_gives_the_same_datagram(trace, v):
    """All 24 orders of a 4-fragment UDP datagram, one datagram (IP id) per order."""
    payload = bytes(range(256))[:100]
    dst = DST4 if v == 4 else DST6
    whole = l4_header(v, "udp", payload, dst) + payload  # 108 bytes
    cuts = [(0, 32), (32, 64), (64, 96), (96, 108)]
    pkts = []
    orders = list(itertools.permutations(range(4)))
    for ident, order in enumerate(orders, start=1):
        for i in order:
            a, b = cuts[i]
            pkts.append(frag(v, a, whole[a:b], b != 108, ident=ident))
    t = trace(stamp(pkts), "--packets", "--hex")
    out = reassembled(t)
    assert len(out) == len(orders)
    for p in out:
        assert p["outcome"] == "ip"
        assert (p["proto"], p["src_port"], p["dest_port"]) == ("UDP", 1234, 5678)
        assert p["payload_hex"] == payload.hex()
    # every other fragment was held
    assert sum(p["outcome"] == "frag_held" for p in t.packets) == 3 * len(orders)
    df = t.stats["defrag"]
    assert df["fragments"] == 4 * len(orders)
    assert df["reassembled"] == len(orders)
    assert df["overlaps"] == 0 and df["trackers_active"] == 0 and df["memuse"] == 0
    assert t.anomalies() == {}


def test_scapy_fragment_and_flow_ports(trace):
    """scapy's own fragmentation of a TCP SYN (8-byte fragments, header split across them)
    and of a UDP datagram, reversed: the flow records carry the right ports."""
    syn = IP(src=SRC4, dst=DST4, id=99) / TCP(
        sport=40000, dport=80, flags="S", seq=1000,
        options=[("MSS", 1460), ("SAckOK", b""), ("Timestamp", (1, 0)), ("WScale", 7)])
    udp = IP(src=SRC4, dst="10.0.0.3", id=100) / UDP(sport=5353, dport=53) / Raw(b"q" * 300)
    pkts = [eth(f) for f in fragment(syn, fragsize=8)]
    pkts += [eth(f) for f in reversed(fragment(udp, fragsize=64))]
    t = trace(stamp(pkts), "--packets")
    out = reassembled(t)
    assert len(out) == 2
    assert out[0]["tcp_flags"] == "S" or "S" in out[0]["tcp_flags"]
    assert (out[0]["src_port"], out[0]["dest_port"]) == (40000, 80)
    assert out[0].get("tcp_mss") == 1460 and out[0].get("tcp_wscale") == 7
    assert (out[1]["src_port"], out[1]["dest_port"], out[1]["payload_len"]) == (5353, 53, 300)
    flows = {(f["proto"], f["src_port"], f["dest_port"]): f for f in t.flows}
    assert ("TCP", 40000, 80) in flows and ("UDP", 5353, 53) in flows
    assert flows[("TCP", 40000, 80)]["flow"]["pkts_toserver"] == 1
    assert flows[("UDP", 5353, 53)]["flow"]["pkts_toserver"] == 1
    assert t.stats["defrag"]["reassembled"] == 2


def test_ipv6_with_hop_by_hop_and_udp_flow(trace):
    """An unfragmentable Hop-by-Hop header stays in front of the reassembled payload."""
    payload = b"v6-" * 40
    whole = l4_header(6, "udp", payload, DST6, 4444, 53) + payload
    pkts = [frag6(48, whole[48:], False, ident=0x12345678, hbh=True),
            frag6(0, whole[:48], True, ident=0x12345678, hbh=True)]
    t = trace(stamp(pkts), "--packets", "--hex")
    (p,) = reassembled(t)
    assert p["layers"][:2] == ["ethernet", "ipv6"] and p["layers"][-1] == "udp"
    assert (p["src_port"], p["dest_port"]) == (4444, 53)
    assert p["payload_hex"] == payload.hex()
    assert [(f["src_ip"], f["src_port"], f["dest_port"], f["proto"]) for f in t.flows] == \
        [(eve_ip(SRC6), 4444, 53, "UDP")]


# ---- overlap policies: the Sturges/Novak pattern ----------------------------------------

# Suricata's DefragDoSturgesNovakTest: (offset, length, byte, more-fragments); the first 9
# do not overlap, each of the following 8 overlaps them with different data.
NOVAK = [(0, 24, "A", 1), (32, 16, "B", 1), (48, 24, "C", 1), (80, 8, "D", 1),
         (104, 16, "E", 1), (120, 24, "F", 1), (144, 16, "G", 1), (160, 16, "H", 1),
         (176, 8, "I", 1), (8, 32, "J", 1), (48, 24, "K", 1), (72, 24, "L", 1),
         (96, 24, "M", 1), (128, 8, "N", 1), (152, 8, "O", 1), (160, 8, "P", 1),
         (176, 16, "Q", 0)]

# What each policy keeps, one letter per 8 bytes (Suricata's DefragSturgesNovak*Test).
NOVAK_EXPECTED = {
    "first":   "AAAJBBCCCLDLMEEFFFGGHHIQ",
    "last":    "AJJJJBKKKLLLMMMFNFGOPHQQ",
    "bsd":     "AAAJJBCCCLLLMMMFFFGGHHIQ",
    "linux":   "AAAJJBKKKLLLMMMFFFGGPHQQ",
    "windows": "AAAJBBCCCLLLMEEFFFGGHHIQ",
    "solaris": "AAAJBBCCCLLLMMMFFFGGHHIQ",
}


def expected_bytes(policy):
    return b"".join(c.encode() * 8 for c in NOVAK_EXPECTED[policy])


def novak_packets(v, proto, policy, ident=1, dst=None):
    """The pattern shifted by 8 bytes behind a UDP or ICMP echo header sent as a fragment of
    its own, so the reassembled datagram decodes and its checksum holds for the expected
    bytes of this policy."""
    dst = dst or (DST4 if v == 4 else DST6)
    hdr = l4_header(v, proto, expected_bytes(policy), dst)
    kw = {"ident": ident, "dst": dst}
    if v == 4:
        kw["proto"] = 17 if proto == "udp" else 1
    else:
        kw["nh"] = 17 if proto == "udp" else 58
    pkts = [frag(v, 0, hdr, True, **kw)]
    for off, n, c, mf in NOVAK:
        pkts.append(frag(v, off + 8, c.encode() * n, mf, **kw))
    return pkts


@pytest.mark.parametrize("v,proto", [(4, "udp"), (4, "icmp"), (6, "udp"), (6, "icmp")])
@pytest.mark.parametrize("policy", sorted(NOVAK_EXPECTED))
def test_novak_pattern(trace, policy, v, proto):
    t = trace(stamp(novak_packets(v, proto, policy)), "--packets", "--hex",
              "--set", f"host-os-policy.default={policy}")
    (p,) = reassembled(t)
    assert p["pcap_cnt"] == 18 and p["outcome"] == "ip"
    assert "bad_l4_csum" not in p["flags"]
    assert bytes.fromhex(p["payload_hex"]).decode() == expected_bytes(policy).decode()
    assert t.anomalies() == {"ipfrag.overlap_different_data": 8}
    df = t.stats["defrag"]
    assert (df["fragments"], df["reassembled"], df["overlaps"]) == (18, 1, 8)
    assert df["trackers_active"] == 0 and df["memuse"] == 0


def test_host_os_policy_per_destination(trace):
    """Each datagram is reassembled the way its destination's OS does; OS names map the way
    Suricata maps them (macos → first, vista → windows, old-linux → linux, hpux10 → bsd)."""
    hosts = {"10.0.0.2": "bsd", "10.0.0.3": "windows", "10.0.0.4": "first",
             "10.9.0.5": "linux", "10.0.0.6": "windows", "10.0.0.7": "bsd", "10.0.0.8": "last"}
    v6hosts = {"2001:db8::2": "bsd", "2001:db8:1::9": "solaris"}
    pkts = []
    for i, (dst, pol) in enumerate(hosts.items()):
        pkts += novak_packets(4, "udp", pol, ident=10 + i, dst=dst)
    for i, (dst, pol) in enumerate(v6hosts.items()):
        pkts += novak_packets(6, "udp", pol, ident=20 + i, dst=dst)
    t = trace(stamp(pkts), "--packets", "--hex",
              "--set", "host-os-policy.default=bsd",
              "--set", "host-os-policy.windows=[10.0.0.3]",
              "--set", "host-os-policy.macos=[10.0.0.4]",
              "--set", "host-os-policy.old-linux=[10.9.0.0/16]",
              "--set", "host-os-policy.vista=[10.0.0.6]",
              "--set", "host-os-policy.hpux10=[10.0.0.7]",
              "--set", "host-os-policy.last=[10.0.0.8]",
              "--set", "host-os-policy.solaris=[2001:db8:1::/48]")
    out = {ipaddress.ip_address(p["dest_ip"]).compressed: p for p in reassembled(t)}
    assert set(out) == set(hosts) | set(v6hosts)
    for dst, pol in {**hosts, **v6hosts}.items():
        assert bytes.fromhex(out[dst]["payload_hex"]) == expected_bytes(pol), (dst, pol)


def test_duplicates_overlap_without_different_data(trace):
    payload = b"0123456789abcdef" * 4
    whole = l4_header(4, "udp", payload, DST4) + payload  # 72 bytes
    pkts = [frag4(0, whole[:32], True), frag4(16, whole[16:48], True),
            frag4(0, whole[:32], True), frag4(32, whole[32:], False)]
    t = trace(stamp(pkts), "--packets", "--hex")
    (p,) = reassembled(t)
    assert p["payload_hex"] == payload.hex()
    assert t.stats["defrag"]["overlaps"] == 3
    assert t.anomalies() == {}


# ---- timeouts, memcap, limits ------------------------------------------------------------

def three_fragments(v=4, ident=5, payload=b"t" * 40):
    whole = l4_header(v, "udp", payload, DST4 if v == 4 else DST6) + payload  # 48 bytes
    return [frag(v, 0, whole[:16], True, ident=ident), frag(v, 16, whole[16:32], True, ident=ident),
            frag(v, 32, whole[32:], False, ident=ident)]


@pytest.mark.parametrize("v", [4, 6])
def test_timeout_drops_incomplete_datagram(trace, v):
    late = three_fragments(v)
    late[0].time = 1_600_000_000.0
    late[1].time = late[2].time = 1_600_000_010.0   # 10 s later: past a 5 s timeout
    t = trace(late, "--packets", "--set", "defrag.timeout=5")
    assert reassembled(t) == []
    assert t.anomalies().get("ipfrag.timeout") == 1
    assert t.stats["defrag"]["timeouts"] == 1

    # within the timeout the same fragments complete
    soon = three_fragments(v)
    soon[0].time = 1_600_000_000.0
    soon[1].time = soon[2].time = 1_600_000_004.0
    t = trace(soon, "--packets", "--set", "defrag.timeout=5")
    assert len(reassembled(t)) == 1
    assert t.stats["defrag"]["timeouts"] == 0


def test_stale_fragments_do_not_complete_with_fresh_ones(trace):
    """A fragment from long ago must not fill the hole of a new datagram with the same id."""
    old = three_fragments(ident=9, payload=b"o" * 40)[1]
    new = three_fragments(ident=9, payload=b"n" * 40)
    old.time = 1_600_000_000.0
    new[0].time, new[2].time, new[1].time = 1_600_000_100.0, 1_600_000_100.1, 1_600_000_100.2
    t = trace([old, new[0], new[2], new[1]], "--packets", "--hex")  # default timeout 60 s
    (p,) = reassembled(t)
    assert p["pcap_cnt"] == 4 and p["payload_hex"] == (b"n" * 40).hex()
    assert t.anomalies() == {"ipfrag.timeout": 1}


def test_memcap_drops_fragments(trace):
    """20 datagrams of 2 fragments, all first fragments before any second: a small memcap
    holds only some; the rest are dropped and counted, and what completes is correct."""
    pkts, firsts, seconds = [], [], []
    for i in range(20):
        payload = bytes([65 + i]) * 1200
        whole = l4_header(4, "udp", payload, DST4, 1000 + i, 2000) + payload
        firsts.append(frag4(0, whole[:1000], True, ident=300 + i))
        seconds.append(frag4(1000, whole[1000:], False, ident=300 + i))
    pkts = stamp(firsts + seconds)

    t = trace(pkts, "--packets", "--hex")
    assert len(reassembled(t)) == 20 and t.stats["defrag"]["memcap_drops"] == 0

    t = trace(pkts, "--packets", "--hex", "--set", "defrag.memcap=12000")
    out = reassembled(t)
    df = t.stats["defrag"]
    assert 0 < len(out) < 20
    assert df["memcap_drops"] > 0 and t.anomalies()["ipfrag.memcap"] == df["memcap_drops"]
    assert df["memuse_peak"] <= 12000
    for p in out:
        assert p["payload_hex"] == (bytes([65 + p["src_port"] - 1000]) * 1200).hex()


def test_tracker_limit(trace):
    pkts = []
    for i in range(5):
        pkts.append(three_fragments(ident=400 + i)[0])
    pkts = stamp(pkts)
    t = trace(pkts, "--packets", "--set", "defrag.trackers=3")
    assert t.stats["defrag"]["memcap_drops"] == 2
    assert t.anomalies() == {"ipfrag.memcap": 2}


def test_a_large_datagram_of_small_fragments_by_default(trace):
    # 60000 bytes in 750 fragments of 80: the default per-datagram limit (8192) lets it
    # through, as Suricata does (it has no per-datagram limit)
    payload = b"z" * (750 * 80 - 8)
    whole = l4_header(4, "udp", payload, DST4) + payload
    pkts = [frag4(o, whole[o:o + 80], o + 80 < len(whole)) for o in range(0, len(whole), 80)]
    t = trace(stamp(pkts), "--packets")
    assert len(reassembled(t)) == 1
    assert t.anomalies() == {}


def test_max_frags_drops_the_datagram(trace):
    payload = b"m" * 56
    whole = l4_header(4, "udp", payload, DST4) + payload  # 64 bytes in 8 fragments
    pkts = [frag4(o, whole[o:o + 8], o != 56) for o in range(0, 64, 8)]
    t = trace(stamp(pkts), "--packets", "--set", "defrag.max-frags=4")
    assert reassembled(t) == []
    assert t.anomalies() == {"ipfrag.max_frags": 1}
    t = trace(stamp(pkts), "--packets", "--set", "defrag.max-frags=8")
    assert len(reassembled(t)) == 1


# ---- invalid fragments -------------------------------------------------------------------

@pytest.mark.parametrize("v", [4, 6])
@pytest.mark.parametrize("case,anomaly", [
    ("not_multiple_of_8", "ipfrag.invalid"),
    ("empty", "ipfrag.invalid"),
    ("too_large", "ipfrag.pkt_too_large"),
])
def test_invalid_fragment(trace, v, case, anomaly):
    if case == "not_multiple_of_8":
        p = frag(v, 0, b"x" * 12, True)
    elif case == "empty":
        p = frag(v, 8, b"", False)
    else:  # ping of death: ends past 64 KiB
        p = frag(v, 65528, b"x" * 100, False)
    t = trace(stamp([p]), "--packets")
    assert t.packets[0]["outcome"] == "invalid"
    assert t.packets[0].get("anomaly") == anomaly
    assert t.anomalies() == {anomaly: 1}


@pytest.mark.parametrize("v", [4, 6])
def test_conflicting_last_fragments(trace, v):
    frags = three_fragments(v, ident=77)
    liar = frag(v, 32, b"z" * 24, False, ident=77)  # another end for the same datagram
    t = trace(stamp([frags[2], liar, frags[0], frags[1]]), "--packets")
    assert t.packets[1]["outcome"] == "invalid"
    assert t.anomalies() == {"ipfrag.invalid": 1}
    assert len(reassembled(t)) == 1
