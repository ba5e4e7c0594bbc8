"""Checksums: IPv4 header, TCP, UDP, ICMP, ICMPv6 over IPv4 and IPv6, good and bad, with
`-k all`, `-k none` and the default (auto: validate, give up when more than 10% of the first
1000 checksummed packets are bad). A bad checksum is an anomaly but never stops decoding."""
import pytest
from scapy.all import (GRE, ICMP, ICMPv6EchoRequest, IP, TCP, UDP, VXLAN, Ether, IPv6,
                       IPv6ExtHdrFragment, fragment, fragment6)

from decode_helpers import eth, expect, run1

A4 = dict(src="192.0.2.1", dst="192.0.2.2")
A6 = dict(src="2001:db8::1", dst="2001:db8::2")

CASES = {
    # name: (packet with a bad checksum, anomaly, flag)
    "ipv4": (eth() / IP(chksum=0x1234, **A4) / UDP(sport=1, dport=2) / b"x",
             "ipv4.bad_checksum", "bad_ip_csum"),
    "tcp4": (eth() / IP(**A4) / TCP(chksum=0x1234) / b"x", "tcp.bad_checksum", "bad_l4_csum"),
    "udp4": (eth() / IP(**A4) / UDP(chksum=0x1234) / b"x", "udp.bad_checksum", "bad_l4_csum"),
    "icmp4": (eth() / IP(**A4) / ICMP(chksum=0x1234) / b"x", "icmpv4.bad_checksum",
              "bad_l4_csum"),
    "tcp6": (eth() / IPv6(**A6) / TCP(chksum=0x1234) / b"x", "tcp.bad_checksum",
             "bad_l4_csum"),
    "udp6": (eth() / IPv6(**A6) / UDP(chksum=0x1234) / b"x", "udp.bad_checksum",
             "bad_l4_csum"),
    "icmp6": (eth() / IPv6(**A6) / ICMPv6EchoRequest(cksum=0x1234), "icmpv6.bad_checksum",
              "bad_l4_csum"),
}


def good(pkt):
    """The same packet with scapy computing every checksum."""
    pkt = pkt.copy()
    for layer in (IP, TCP, UDP, ICMP):
        if layer in pkt:
            pkt[layer].chksum = None
    if ICMPv6EchoRequest in pkt:
        pkt[ICMPv6EchoRequest].cksum = None
    return Ether(bytes(pkt))


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("mode", [["-k", "all"], []], ids=["all", "auto"])
def test_bad_checksum_is_counted_and_decoding_goes_on(trace, name, mode):
    pkt, anomaly, flag = CASES[name]
    rec, t = run1(trace, pkt, *mode)
    assert rec["outcome"] == "ip"
    assert rec["anomaly"] == anomaly
    assert rec["flags"] == [flag]
    assert t.anomalies() == {anomaly: 1}
    assert rec["layers"][-1] in ("udp", "tcp", "icmp", "icmpv6")


@pytest.mark.parametrize("name", CASES)
def test_good_checksum(trace, name):
    rec, t = run1(trace, good(CASES[name][0]), "-k", "all")
    expect(rec, flags=[])
    assert t.anomalies() == {}


@pytest.mark.parametrize("name", CASES)
def test_no_validation(trace, name):
    rec, t = run1(trace, CASES[name][0], "-k", "none")
    expect(rec, flags=[])
    assert t.anomalies() == {}


def test_ip_and_transport_both_bad(trace):
    rec, t = run1(trace, eth() / IP(chksum=1, **A4) / TCP(chksum=1), "-k", "all")
    assert rec["outcome"] == "ip"
    assert rec["flags"] == ["bad_ip_csum", "bad_l4_csum"]
    assert t.anomalies() == {"ipv4.bad_checksum": 1, "tcp.bad_checksum": 1}


def test_udp_zero_checksum(trace):
    # "no checksum" over IPv4; mandatory over IPv6
    rec, t = run1(trace, eth() / IP(**A4) / UDP(chksum=0) / b"x", "-k", "all")
    expect(rec, flags=[])
    assert t.anomalies() == {}
    rec, t = run1(trace, eth() / IPv6(**A6) / UDP(chksum=0) / b"x", "-k", "all")
    expect(rec, flags=["bad_l4_csum"], anomaly="udp.bad_checksum")


def test_inner_checksums_are_validated(trace):
    inner = IP(src="10.0.0.1", dst="10.0.0.2") / TCP(chksum=0x4321)
    rec, t = run1(trace, eth() / IP(**A4) / GRE() / inner, "-k", "all")
    expect(rec, flags=["bad_l4_csum"], anomaly="tcp.bad_checksum", src_ip="10.0.0.1")
    rec, t = run1(trace, eth() / IP(**A4) / UDP(dport=4789) / VXLAN() / eth() /
                  IP(src="10.0.0.1", dst="10.0.0.2", chksum=7) / UDP(), "-k", "all")
    expect(rec, flags=["bad_ip_csum"], anomaly="ipv4.bad_checksum")


def test_fragments_checked_once_reassembled(trace):
    # a fragment's transport checksum covers the whole datagram: only that is checked
    dgram = IP(id=5, **A4) / UDP(sport=1, dport=2) / (b"a" * 100)
    frags = [eth() / f for f in fragment(dgram, fragsize=32)]
    t = trace(frags, "--packets", "-k", "all")
    assert t.anomalies() == {}
    assert t.packets[-1]["flags"] == ["fragment", "reassembled"]
    t = trace(frags, "--packets", "-k", "all", "--no-defrag")
    assert t.anomalies() == {}

    bad = IP(bytes(dgram))
    bad[UDP].chksum ^= 0xffff
    frags = [eth() / f for f in fragment(bad, fragsize=32)]
    t = trace(frags, "--packets", "-k", "all")
    assert t.anomalies() == {"udp.bad_checksum": 1}
    assert t.packets[-1]["flags"] == ["fragment", "reassembled", "bad_l4_csum"]

    dgram6 = IPv6(**A6) / IPv6ExtHdrFragment(id=9) / ICMPv6EchoRequest(cksum=0x1111,
                                                                       data=b"b" * 100)
    t = trace([eth() / f for f in fragment6(dgram6, 80)], "--packets", "-k", "all")
    assert t.anomalies() == {"icmpv6.bad_checksum": 1}


def test_auto_gives_up_on_mostly_bad_captures(trace):
    # 1000 checksummed packets, 20% bad: after them validation stops for the run
    bad = eth() / IP(**A4) / TCP(sport=1, dport=2, chksum=0x1234)
    good_pkt = good(bad)
    pkts = [bad if i % 5 == 0 else good_pkt for i in range(1000)] + [bad] * 50
    t = trace(pkts)
    assert t.anomalies() == {"tcp.bad_checksum": 200}
    t = trace(pkts, "-k", "all")
    assert t.anomalies() == {"tcp.bad_checksum": 250}


def test_auto_keeps_validating_mostly_good_captures(trace):
    bad = eth() / IP(**A4) / UDP(sport=1, dport=2, chksum=0x1234)
    good_pkt = good(bad)
    pkts = [bad if i % 20 == 0 else good_pkt for i in range(1000)] + [bad] * 10
    t = trace(pkts)
    assert t.anomalies() == {"udp.bad_checksum": 60}
