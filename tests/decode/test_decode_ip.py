"""IPv4 (lengths, options, fragments) and IPv6 (extension headers, jumbograms, fragments):
valid traffic decoded field by field, every malformed or truncated header with its anomaly."""
import pytest
from scapy.all import (AH, ESP, ICMPv6EchoRequest, IP, IPOption_NOP, IPOption_RR,
                       IPOption_Router_Alert, IPv6, IPv6ExtHdrDestOpt, IPv6ExtHdrFragment,
                       IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, Jumbo, PadN, TCP, UDP, fragment,
                       fragment6)
from scapy.layers.inet6 import MIP6MH_BRR

from decode_helpers import cut, eth, expect, expect_anomaly, patch, run1

A4, B4 = "198.51.100.1", "198.51.100.2"
A6, B6 = "2001:db8::a", "2001:db8::b"


def v4(**kw):
    return eth() / IP(src=A4, dst=B4, **kw)


def v6(**kw):
    return eth() / IPv6(src=A6, dst=B6, **kw)


# ---- IPv4 ----------------------------------------------------------------------------------

def test_ipv4_fields(trace):
    rec, t = run1(trace, v4(ttl=33) / TCP(sport=40000, dport=443, flags="PA") / b"data")
    expect(rec, layers=["ethernet", "ipv4", "tcp"], src_ip=A4, dest_ip=B4, ttl=33, proto="TCP",
           src_port=40000, dest_port=443, payload_len=4, flags=[])
    assert t.anomalies() == {}


def test_ipv4_valid_options(trace):
    pkt = v4(options=[IPOption_NOP(), IPOption_RR(routers=["1.1.1.1", "2.2.2.2"]),
                      IPOption_Router_Alert()]) / UDP(sport=1, dport=2) / b"abc"
    rec, t = run1(trace, pkt)
    expect(rec, layers=["ethernet", "ipv4", "udp"], src_port=1, dest_port=2, payload_len=3)
    assert t.anomalies() == {}


def test_ipv4_unknown_protocol_payload(trace):
    rec, _ = run1(trace, v4(proto=103) / (b"\x00" * 12))  # PIM: no decoder
    expect(rec, layers=["ethernet", "ipv4"], proto="103", payload_len=12)
    assert "src_port" not in rec


@pytest.mark.parametrize("n", [14, 15, 33])
def test_ipv4_truncated(trace, n):
    expect_anomaly(trace, cut(v4() / UDP(), n), "ipv4.truncated", layers=["ethernet"])


def test_ipv4_wrong_version(trace):
    expect_anomaly(trace, v4(version=5) / UDP(), "ipv4.wrong_ip_version", layers=["ethernet"])


def test_ipv4_hlen_too_small(trace):
    expect_anomaly(trace, v4(ihl=4) / UDP(), "ipv4.hlen_too_small", layers=["ethernet"])


def test_ipv4_total_length_below_header(trace):
    expect_anomaly(trace, v4(len=19) / UDP(), "ipv4.iplen_smaller_than_hlen")
    # options make the header 24 bytes; a total length of 22 cannot hold it
    expect_anomaly(trace, v4(len=22, options=[IPOption_Router_Alert()]) / UDP(),
                   "ipv4.iplen_smaller_than_hlen")


def test_ipv4_total_length_over_capture(trace):
    expect_anomaly(trace, v4(len=200) / UDP() / b"x", "ipv4.trunc_pkt", layers=["ethernet"])
    # header length past what was captured
    expect_anomaly(trace, cut(v4(ihl=15) / (b"\0" * 40), 14 + 30), "ipv4.trunc_pkt")


@pytest.mark.parametrize("opts,reason", [
    (b"\x07\x06\x04\x00\x00\x00\x00\x00", "invalid_len"),  # record route: not 3 + 4n
    (b"\x07\x07\x02\x00\x00\x00\x00\x00", "malformed"),    # RR: pointer before the first slot
    (b"\x01\x01\x44\x0c\x05\x00\x00\x00", "invalid_len"),  # timestamp runs past the header
    (b"\x94\x03\x00\x00", "invalid_len"),                  # router alert of length 3
    (b"\x83\x01\x00\x00", "invalid_len"),                  # loose source route of length 1
    (b"\x82\x02\x00\x00", "invalid_len"),                  # security (RFC 1108) of length 2
    (b"\x01\x01\x01\x88", "malformed"),                    # stream id: length byte missing
])
def test_ipv4_malformed_options(trace, opts, reason):
    # room for the options made of NOPs, then the bad bytes written over them; a length that
    # cannot be is opt_invalid_len, a bad pointer or a missing length byte opt_malformed
    pkt = v4(options=[IPOption_NOP()] * len(opts)) / UDP(sport=1, dport=2)
    expect_anomaly(trace, patch(pkt, 14 + 20, opts), f"ipv4.opt_{reason}", layers=["ethernet"])


def frags4(payload_len=64, fragsize=24):
    pkt = IP(src=A4, dst=B4, id=99) / UDP(sport=5000, dport=6000) / (b"z" * payload_len)
    return [eth() / f for f in fragment(pkt, fragsize=fragsize)]


def test_ipv4_fragments_without_defrag(trace):
    fr = frags4()
    t = trace(fr, "--packets", "--no-defrag")
    assert len(t.packets) == len(fr) == 3
    for rec, f in zip(t.packets, fr):
        expect(rec, layers=["ethernet", "ipv4"], flags=["fragment"], proto="UDP",
               payload_len=len(f[IP].payload))
        assert "src_port" not in rec
    assert t.anomalies() == {}
    assert t.stats["decoder"]["outcomes"]["ip"] == 3


def test_ipv4_fragments_reassembled(trace):
    t = trace(frags4(), "--packets", "-k", "all")
    assert [r["outcome"] for r in t.packets] == ["frag_held", "frag_held", "ip"]
    expect(t.packets[2], layers=["ethernet", "ipv4", "udp"], flags=["fragment", "reassembled"],
           src_port=5000, dest_port=6000, payload_len=64)
    assert t.anomalies() == {}


def test_ipv4_fragments_out_of_order(trace):
    fr = frags4()
    t = trace([fr[2], fr[0], fr[1]], "--packets")
    assert [r["outcome"] for r in t.packets] == ["frag_held", "frag_held", "ip"]
    assert t.packets[2]["payload_len"] == 64


# ---- IPv6 ----------------------------------------------------------------------------------

def test_ipv6_fields(trace):
    rec, t = run1(trace, v6(hlim=7) / UDP(sport=53, dport=3333) / b"q")
    expect(rec, layers=["ethernet", "ipv6", "udp"], src_ip=A6, dest_ip=B6, ttl=7, proto="UDP",
           src_port=53, dest_port=3333, payload_len=1)
    assert t.anomalies() == {}


def test_ipv6_extension_chain(trace):
    pkt = (v6() / IPv6ExtHdrHopByHop(options=[PadN(optdata=b"\0\0\0\0")]) /
           IPv6ExtHdrRouting(addresses=["2001:db8::99"], segleft=0) /
           IPv6ExtHdrDestOpt() / UDP(sport=1, dport=2) / b"xy")
    rec, t = run1(trace, pkt)
    expect(rec, layers=["ethernet", "ipv6", "ipv6_ext", "ipv6_ext", "ipv6_ext", "udp"],
           proto="UDP", src_port=1, dest_port=2, payload_len=2)
    assert t.anomalies() == {}
    assert t.stats["decoder"]["layers"]["ipv6_ext"] == 3


def test_ipv6_ah_then_tcp(trace):
    # scapy gets the TCP checksum wrong behind AH; the pseudo header is the same without it
    csum = IPv6(bytes(IPv6(src=A6, dst=B6) / TCP(sport=1, dport=2)))[TCP].chksum
    pkt = (v6() / AH(nh=6, payloadlen=4, spi=1, seq=1, icv=b"\0" * 12) /
           TCP(sport=1, dport=2, chksum=csum))
    rec, t = run1(trace, pkt, "-k", "all")
    assert t.anomalies() == {}
    expect(rec, layers=["ethernet", "ipv6", "ipv6_ext", "tcp"], proto="TCP", src_port=1)


def test_ipv6_mobility_header(trace):
    rec, _ = run1(trace, v6() / MIP6MH_BRR())
    expect(rec, layers=["ethernet", "ipv6", "ipv6_ext"], proto="59")


def test_ipv6_esp_stops(trace):
    rec, _ = run1(trace, v6() / ESP(spi=7, seq=1, data=b"\x11" * 24))
    expect(rec, layers=["ethernet", "ipv6"], proto="ESP", payload_len=32, flags=[])
    assert "src_port" not in rec


def test_ipv6_no_next_header(trace):
    rec, t = run1(trace, v6(nh=59, plen=0))
    expect(rec, layers=["ethernet", "ipv6"], proto="59", payload_len=0)
    assert t.anomalies() == {}


@pytest.mark.parametrize("n", [14, 20, 53])
def test_ipv6_truncated(trace, n):
    expect_anomaly(trace, cut(v6() / UDP(), n), "ipv6.truncated", layers=["ethernet"])


def test_ipv6_wrong_version(trace):
    expect_anomaly(trace, patch(v6() / UDP(), 14, b"\x40"), "ipv6.wrong_ip_version",
                   layers=["ethernet"])


def test_ipv6_payload_length_over_capture(trace):
    expect_anomaly(trace, v6(plen=100) / UDP() / b"x", "ipv6.trunc_pkt", layers=["ethernet"])


def test_ipv6_zero_payload_length(trace):
    # the datagram is empty: its transport header is missing (as Suricata reports it)
    expect_anomaly(trace, v6(plen=0) / UDP() / b"x", "udp.pkt_too_small",
                   layers=["ethernet", "ipv6"])
    expect_anomaly(trace, v6(plen=0) / TCP() / b"x", "tcp.pkt_too_small",
                   layers=["ethernet", "ipv6"])
    # hop-by-hop options without a jumbo payload option: still a zero length that cannot be
    pkt = v6(plen=0) / IPv6ExtHdrHopByHop(nh=59) / b"x"
    expect_anomaly(trace, pkt, "ipv6.zero_len_payload", layers=["ethernet"])


def test_ipv6_exthdr_truncated(trace):
    # a routing header claiming 48 bytes in a 16-byte payload
    pkt = v6() / IPv6ExtHdrRouting(len=5, nh=59) / (b"\0" * 8)
    expect_anomaly(trace, pkt, "ipv6.exthdr_truncated", layers=["ethernet", "ipv6"])
    # the next-header / length pair itself missing
    expect_anomaly(trace, v6(nh=60, plen=1) / b"\x3b", "ipv6.exthdr_truncated")


def test_ipv6_exthdr_bad_option_length(trace):
    pkt = v6() / IPv6ExtHdrDestOpt(nh=59)  # 8 bytes: next header, length, PadN(4)
    expect_anomaly(trace, patch(pkt, 14 + 40, b"\x3b\x00\x01\x09"),
                   "ipv6.exthdr_invalid_optlen", layers=["ethernet", "ipv6"])


def test_ipv6_exthdr_too_many(trace):
    pkt = v6()
    for _ in range(9):
        pkt = pkt / IPv6ExtHdrDestOpt()
    pkt = pkt / UDP()
    expect_anomaly(trace, pkt, "ipv6.exthdr_too_many")


def test_ipv6_bad_jumbogram(trace):
    # a jumbo option needs payload length 0 ...
    pkt = v6() / IPv6ExtHdrHopByHop(options=[Jumbo(jumboplen=100000)]) / UDP()
    expect_anomaly(trace, pkt, "ipv6.bad_jumbogram", layers=["ethernet", "ipv6"])
    # ... and a length that does not fit 16 bits
    pkt = v6(plen=0) / IPv6ExtHdrHopByHop(options=[Jumbo(jumboplen=16)]) / UDP()
    expect_anomaly(trace, pkt, "ipv6.bad_jumbogram", layers=["ethernet"])


def test_ipv6_jumbogram_length_over_capture(trace):
    pkt = v6(plen=0) / IPv6ExtHdrHopByHop(options=[Jumbo(jumboplen=70000)]) / UDP()
    expect_anomaly(trace, pkt, "ipv6.trunc_pkt", layers=["ethernet"])


def frags6():
    pkt = (IPv6(src=A6, dst=B6) / IPv6ExtHdrFragment(id=0x1234) /
           ICMPv6EchoRequest(id=0x42, data=b"p" * 120))
    return [eth() / f for f in fragment6(pkt, 80)]


def test_ipv6_fragments_without_defrag(trace):
    fr = frags6()
    assert len(fr) > 1
    t = trace(fr, "--packets", "--no-defrag")
    for rec in t.packets:
        expect(rec, layers=["ethernet", "ipv6", "ipv6_ext"], flags=["fragment"],
               proto="IPv6-ICMP")
        assert "icmp_type" not in rec
    assert t.anomalies() == {}


def test_ipv6_fragments_reassembled(trace):
    fr = frags6()
    t = trace(fr, "--packets", "-k", "all")
    assert [r["outcome"] for r in t.packets] == ["frag_held"] * (len(fr) - 1) + ["ip"]
    expect(t.packets[-1], layers=["ethernet", "ipv6", "icmpv6"], flags=["fragment", "reassembled"],
           icmp_type=128, icmp_code=0, payload_len=120)
    assert t.anomalies() == {}


@pytest.mark.parametrize("nh", [6, 17, 58, 50])
def test_ipv6_nothing_left_behind_extension_headers(trace, nh):
    # an atomic fragment header (or options) naming TCP/UDP/ICMPv6/ESP, then under 2 bytes:
    # the extension header chain is cut short (Suricata's ipv6.trunc_exthdr), whatever the
    # upper layer; with no next header (59) that is fine
    for ext in (IPv6ExtHdrFragment(nh=nh, offset=0, m=0), IPv6ExtHdrDestOpt(nh=nh)):
        for tail in (b"", b"x"):
            expect_anomaly(trace, v6() / ext / tail, "ipv6.exthdr_truncated")
    rec, t = run1(trace, v6() / IPv6ExtHdrDestOpt(nh=59))
    expect(rec, layers=["ethernet", "ipv6", "ipv6_ext"])
    assert t.anomalies() == {}


def test_ipv6_atomic_fragment(trace):
    pkt = v6() / IPv6ExtHdrFragment(m=0, offset=0, id=5) / UDP(sport=7, dport=8) / b"a"
    rec, t = run1(trace, pkt)
    expect(rec, layers=["ethernet", "ipv6", "ipv6_ext", "udp"], flags=[], src_port=7,
           dest_port=8, payload_len=1)
    assert t.anomalies() == {}


def test_ipv6_fragment_header_truncated(trace):
    pkt = v6(nh=44, plen=4) / b"\x11\x00\x00\x01"
    expect_anomaly(trace, pkt, "ipv6.exthdr_truncated", layers=["ethernet", "ipv6"])
