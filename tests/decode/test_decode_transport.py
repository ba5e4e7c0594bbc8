"""Transport headers: TCP (flags, sequence numbers, MSS / window scale / SACK-permitted /
timestamps), UDP, ICMP and ICMPv6 — valid, truncated and with bad length fields."""
import pytest
from scapy.all import (ICMP, ICMPv6EchoReply, ICMPv6EchoRequest, ICMPv6ND_NS,
                       ICMPv6DestUnreach, IP, TCP, UDP, IPv6, Raw)

from decode_helpers import cut, eth, expect, expect_anomaly, patch, run1

A, B = "192.0.2.10", "192.0.2.20"


def v4(proto=None):
    return eth() / (IP(src=A, dst=B) if proto is None else IP(src=A, dst=B, proto=proto))


def v6():
    return eth() / IPv6(src="2001:db8::10", dst="2001:db8::20")


# ---- TCP -----------------------------------------------------------------------------------

SYN_OPTS = [("MSS", 1460), ("NOP", None), ("WScale", 7), ("SAckOK", b""),
            ("Timestamp", (123456, 0))]


def test_tcp_syn_with_options(trace):
    pkt = v4() / TCP(sport=50000, dport=80, flags="S", seq=1000, window=64240, options=SYN_OPTS)
    rec, t = run1(trace, pkt, "-k", "all")
    expect(rec, layers=["ethernet", "ipv4", "tcp"], proto="TCP", src_port=50000, dest_port=80,
           tcp_flags="S", tcp_seq=1000, tcp_ack=0, tcp_win=64240, tcp_mss=1460,
           tcp_wscale=7, tcp_tsval=123456, tcp_tsecr=0, payload_len=0)
    assert t.anomalies() == {}


def test_tcp_data_segment(trace):
    pkt = v6() / TCP(sport=443, dport=50000, flags="PA", seq=7, ack=9,
                     options=[("NOP", None), ("NOP", None), ("Timestamp", (5, 6)),
                              ("SAck", (100, 200))]) / b"0123456789"
    rec, t = run1(trace, pkt, "-k", "all")
    expect(rec, layers=["ethernet", "ipv6", "tcp"], tcp_flags="PA", tcp_seq=7, tcp_ack=9,
           tcp_tsval=5, tcp_tsecr=6, payload_len=10)
    assert "tcp_mss" not in rec and "tcp_wscale" not in rec
    assert t.anomalies() == {}


def test_tcp_all_flags(trace):
    rec, _ = run1(trace, v4() / TCP(flags="FSRPAUEC"))
    assert rec["tcp_flags"] == "FSRPAUEC"


@pytest.mark.parametrize("n", [0, 10, 19])
def test_tcp_truncated(trace, n):
    pkt = v4(6) / Raw(bytes(TCP(sport=1, dport=2))[:n])
    expect_anomaly(trace, pkt, "tcp.pkt_too_small", layers=["ethernet", "ipv4"])


def test_tcp_header_length(trace):
    expect_anomaly(trace, v4() / TCP(dataofs=4), "tcp.hlen_too_small",
                   layers=["ethernet", "ipv4"])
    # data offset 15 (60 bytes) in a 24-byte segment
    expect_anomaly(trace, v4() / TCP(dataofs=15) / b"abcd", "tcp.pkt_too_small")


@pytest.mark.parametrize("opts", [
    b"\x02\x03\x05\xb4",                       # MSS of length 3
    b"\x03\x02\x01\x01",                       # window scale of length 2
    b"\x04\x03\x00\x01",                       # SACK-permitted of length 3
    b"\x08\x09" + b"\0" * 7 + b"\x01",         # timestamps of length 9
    b"\x05\x06\0\0\0\0\x01\x01",               # SACK of length 6
    b"\x01\x01\x1e\x08",                       # option running past the header
    b"\x01\x01\x01\x1e",                       # kind without a length byte
    b"\x1e\x01\x00\x00",                       # length below 2
])
def test_tcp_bad_options(trace, opts):
    pkt = v4() / TCP(sport=1, dport=2, options=[("NOP", None)] * len(opts))
    pkt = patch(pkt, 14 + 20 + 20, opts)
    # noted, and the segment still decodes (ports, flags), its options not taken
    rec = expect_anomaly(trace, pkt, "tcp.opt_invalid_len", outcome="ip",
                         layers=["ethernet", "ipv4", "tcp"])
    expect(rec, anomaly="tcp.opt_invalid_len", src_port=1, dest_port=2, tcp_flags="S")


# ---- UDP -----------------------------------------------------------------------------------

def test_udp(trace):
    rec, t = run1(trace, v4() / UDP(sport=5353, dport=5353) / b"mdns", "-k", "all")
    expect(rec, layers=["ethernet", "ipv4", "udp"], proto="UDP", src_port=5353,
           dest_port=5353, payload_len=4)
    assert t.anomalies() == {}
    rec, _ = run1(trace, v4() / UDP(sport=1, dport=2))
    expect(rec, payload_len=0, src_port=1)


@pytest.mark.parametrize("n", [0, 7])
def test_udp_truncated(trace, n):
    expect_anomaly(trace, v4(17) / Raw(bytes(UDP())[:n]), "udp.pkt_too_small",
                   layers=["ethernet", "ipv4"])


@pytest.mark.parametrize("ulen", [0, 7, 11, 13, 400])
def test_udp_length_field(trace, ulen):
    # the datagram holds 12 bytes of UDP; any other length field is wrong
    expect_anomaly(trace, v4() / UDP(len=ulen) / b"abcd", "udp.len_invalid",
                   layers=["ethernet", "ipv4"])


def test_udp_length_field_ipv6(trace):
    expect_anomaly(trace, v6() / UDP(len=30) / b"abcd", "udp.len_invalid",
                   layers=["ethernet", "ipv6"])


# ---- ICMP ----------------------------------------------------------------------------------

def test_icmp_echo(trace):
    rec, t = run1(trace, v4() / ICMP(type=8, id=0x4242, seq=1) / b"abcdefgh", "-k", "all")
    expect(rec, layers=["ethernet", "ipv4", "icmp"], proto="ICMP", icmp_type=8, icmp_code=0,
           payload_len=8)
    assert "src_port" not in rec
    assert t.anomalies() == {}


def test_icmp_error_with_quoted_datagram(trace):
    quoted = IP(src=B, dst=A) / UDP(sport=1, dport=2)
    rec, t = run1(trace, v4() / ICMP(type=3, code=3) / quoted, "-k", "all")
    expect(rec, layers=["ethernet", "ipv4", "icmp"], icmp_type=3, icmp_code=3,
           payload_len=len(quoted))
    assert t.anomalies() == {}


@pytest.mark.parametrize("n", [0, 4, 7])
def test_icmp_truncated(trace, n):
    expect_anomaly(trace, v4(1) / Raw(bytes(ICMP())[:n]), "icmpv4.pkt_too_small",
                   layers=["ethernet", "ipv4"])


def test_icmpv6(trace):
    rec, t = run1(trace, v6() / ICMPv6EchoRequest(id=9, data=b"xyz"), "-k", "all")
    expect(rec, layers=["ethernet", "ipv6", "icmpv6"], proto="IPv6-ICMP", icmp_type=128,
           icmp_code=0, payload_len=3)
    assert t.anomalies() == {}
    rec, _ = run1(trace, v6() / ICMPv6EchoReply(id=9), "-k", "all")
    expect(rec, icmp_type=129, payload_len=0)
    rec, t = run1(trace, v6() / ICMPv6ND_NS(tgt="2001:db8::20"), "-k", "all")
    expect(rec, icmp_type=135, payload_len=16)
    assert t.anomalies() == {}
    rec, _ = run1(trace, v6() / ICMPv6DestUnreach(code=4) / IPv6() / UDP(), "-k", "all")
    expect(rec, icmp_type=1, icmp_code=4)


@pytest.mark.parametrize("n", [1, 4, 7])  # 0 bytes: test_decode_ip.py test_ipv6_zero_payload_length
def test_icmpv6_truncated(trace, n):
    pkt = eth() / IPv6(src="2001:db8::10", dst="2001:db8::20", nh=58) / \
        Raw(bytes(ICMPv6EchoRequest())[:n])
    expect_anomaly(trace, pkt, "icmpv6.pkt_too_small", layers=["ethernet", "ipv6"])


def test_transport_cut_by_capture(trace):
    # the capture is shorter than the IP datagram: reported at IP, never past the capture
    expect_anomaly(trace, cut(v4() / TCP() / (b"x" * 40), 14 + 20 + 10), "ipv4.trunc_pkt")
    expect_anomaly(trace, cut(v6() / UDP() / (b"x" * 40), 14 + 40 + 4), "ipv6.trunc_pkt")


# ---- SCTP ----------------------------------------------------------------------------------

def test_sctp_common_header(trace):
    # ports and verification tag (12 bytes); the chunks behind it are payload
    chunk = b"\x00\x03\x00\x08ping"  # a DATA-like chunk: type, flags, length, bytes
    pkt = v4(proto=132) / Raw(b"\x00\x07\x00\x09" + b"\x00\x00\x00\x01" + b"\x00" * 4 + chunk)
    rec, t = run1(trace, pkt, "-k", "none")
    expect(rec, layers=["ethernet", "ipv4", "sctp"], proto="SCTP", src_port=7, dest_port=9,
           payload_len=len(chunk))
    assert t.anomalies() == {}


@pytest.mark.parametrize("n", [1, 8, 11])
def test_sctp_truncated(trace, n):
    expect_anomaly(trace, v4(proto=132) / Raw(b"\x00" * n), "sctp.pkt_too_small",
                   layers=["ethernet", "ipv4"])
