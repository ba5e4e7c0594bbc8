"""ipv4-csum, tcpv4-csum, udpv4-csum … valid|invalid: the decoder's checksum verdict on a packet
of that IP version and protocol. With checksums not validated (-k none) every checksum is
valid, as Suricata's keywords answer for a packet whose checksum it ignores."""
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from detect_helpers import CLI, SRV, detect, rule

RULES = [rule("tcpv4-csum:invalid;", sid=1), rule("tcpv4-csum:valid;", sid=2),
         rule("ipv4-csum:invalid;", sid=3, proto="ip"),
         rule("udpv4-csum:invalid;", sid=4, proto="ip"),
         rule("tcpv6-csum:valid;", sid=5), rule("udpv6-csum:invalid;", sid=6, proto="udp")]


def pkts():
    return [Ether() / p for p in [IP(src=CLI, dst=SRV) / TCP(sport=1000, dport=80, flags="S", chksum=0x1234),
            IP(src=CLI, dst=SRV) / TCP(sport=1001, dport=80, flags="S"),
            IP(src=CLI, dst=SRV, chksum=0x4321) / TCP(sport=1002, dport=80, flags="S"),
            IP(src=CLI, dst=SRV) / UDP(sport=1003, dport=53, chksum=0x1111) / Raw(b"x"),
            IPv6(src="fd00::1", dst="fd00::2") / TCP(sport=1004, dport=80, flags="S"),
            IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=1005, dport=53, chksum=7) / Raw(b"y")]]


def pcap_sids(r):
    return sorted((a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts)


def test_checksum_keywords_follow_the_decoders_verdict(tmp_path):
    r = detect(tmp_path, pkts(), RULES, "-k", "all")
    assert pcap_sids(r) == [(1, 1), (2, 2), (3, 2), (3, 3), (4, 4), (5, 5), (6, 6)]


def test_without_validation_every_checksum_is_valid(tmp_path):
    r = detect(tmp_path, pkts(), RULES, "-k", "none")
    assert pcap_sids(r) == [(1, 2), (2, 2), (3, 2), (5, 5)]


def test_igmp_csum_is_still_refused(tmp_path):
    r = detect(tmp_path, pkts(), [rule("igmp-csum:valid;", sid=9, proto="ip"), RULES[1]])
    assert "sid 9: unsupported option igmp-csum" in r.proc.stderr
