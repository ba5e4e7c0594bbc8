"""decode-event on what the decoders note without stopping: SCTP chunks, IPv4 options, IPv6
extension headers, ICMP types and codes, repeated TCP options (Suricata's decoder events).

One rule file names every such event; each case is one packet that shows exactly one (or the
few a single header shows together) next to a clean packet of the same kind, and the test
asserts the exact (event, packet) pairs — so a note raised on ordinary traffic fails too. The
packet stays valid: the last rule, on the protocol alone, alerts on both packets."""
import struct

import pytest

from scapy.layers.inet import IP, TCP, UDP, ICMP, IPOption_NOP
from scapy.layers.inet6 import (IPv6, IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt,
                                IPv6ExtHdrRouting, IPv6ExtHdrFragment, ICMPv6EchoRequest,
                                ICMPv6MLQuery, PadN, RouterAlert, HBHOptUnknown)
from scapy.layers.ipsec import AH
from scapy.packet import Raw

from detect_helpers import CLI, SRV, detect, rule

EVENTS = [
    "sctp.chunk_too_small", "sctp.chunk_len_invalid", "sctp.init_chunk_bundled",
    "sctp.init_with_non_zero_vtag", "sctp.data_with_zero_vtag", "sctp.too_many_chunks",
    "ipv4.icmpv6", "ipv6.icmpv4", "icmpv4.unknown_type", "icmpv4.unknown_code",
    "tcp.opt_duplicate", "ipv4.opt_unknown", "ipv4.opt_duplicate", "ipv6.exthdr_dupl_hh",
    "ipv6.exthdr_dupl_rh", "ipv6.exthdr_dupl_dh", "ipv6.exthdr_dupl_ah", "ipv6.rh_type_0",
    "ipv6.fh_non_zero_reserved_field", "ipv6.data_after_none_header",
    "ipv6.exthdr_ah_res_not_null", "ipv6.hopopts_unknown_opt", "ipv6.hopopts_only_padding",
    "ipv6.dstopts_unknown_opt", "ipv6.dstopts_only_padding", "icmpv6.unknown_code",
    "icmpv6.unassigned_type", "icmpv6.experimentation_type",
    "icmpv6.mld_message_with_invalid_hl", "icmpv4.ipv4_trunc_pkt", "icmpv4.ipv4_unknown_ver",
    "icmpv6.ipv6_trunc_pkt", "icmpv6.ipv6_unknown_version", "udp.pkt_too_small",
]
RULES = [rule(f"decode-event:{e};", sid=i + 1, proto="pkthdr") for i, e in enumerate(EVENTS)]
V6 = dict(src="2001:db8::1", dst="2001:db8::2")


def sctp(vtag, *chunks):
    body = b"".join(chunks)
    return IP(src=CLI, dst=SRV, proto=132) / Raw(struct.pack("!HHII", 5000, 38412, vtag, 0)
                                                 + body)


def chunk(ctype, data=b"", length=None):
    n = 4 + len(data) if length is None else length
    pad = b"\0" * (-(4 + len(data)) % 4)
    return struct.pack("!BBH", ctype, 0, n) + data + pad


def ipv4_opts(raw):
    p = IP(src=CLI, dst=SRV, options=[IPOption_NOP()] * len(raw)) / UDP(sport=1, dport=2)
    b = bytearray(bytes(p))
    b[20:20 + len(raw)] = raw
    return IP(bytes(b))


def echo6(*ext, hlim=64):
    p = IPv6(hlim=hlim, **V6)
    for e in ext:
        p = p / e
    return p / ICMPv6EchoRequest(id=1, seq=1)


def icmp6(type_, code, hlim=64, body=b""):
    return IPv6(nh=58, hlim=hlim, **V6) / Raw(struct.pack("!BBHI", type_, code, 0, 0) + body)


QUOTED4 = bytes(IP(src=SRV, dst=CLI) / UDP(sport=2, dport=1))  # an error's quoted datagram
QUOTED6 = bytes(IPv6(src="2001:db8::2", dst="2001:db8::1") / UDP(sport=2, dport=1))


def tcp_opts(opts):
    return IP(src=CLI, dst=SRV) / TCP(sport=1234, dport=80, flags="S", options=opts)


def fragment_reserved():
    p = IPv6(**V6) / IPv6ExtHdrFragment(id=1, offset=0, m=0) / ICMPv6EchoRequest()
    b = bytearray(bytes(p))
    b[41] = 7  # the fragment header's reserved byte
    return IPv6(bytes(b))


DATA = chunk(0, b"\0" * 12 + b"data")
INIT = chunk(1, b"\0" * 16)
CASES = {
    # SCTP: the chunks behind the common header
    "sctp_ok": ([sctp(7, DATA, chunk(3, b"\0" * 12))], []),
    "sctp_chunk_too_small": ([sctp(7, DATA) / Raw(b"\0\0")], ["sctp.chunk_too_small"]),
    "sctp_chunk_len_invalid": ([sctp(7, chunk(0, b"abcd", length=400))],
                               ["sctp.chunk_len_invalid"]),
    "sctp_chunk_len_under_4": ([sctp(7, chunk(0, b"abcd", length=2))],
                               ["sctp.chunk_len_invalid"]),
    "sctp_init_alone": ([sctp(0, INIT)], []),
    "sctp_init_bundled": ([sctp(0, INIT, chunk(3, b"\0" * 12))], ["sctp.init_chunk_bundled"]),
    "sctp_init_with_vtag": ([sctp(9, INIT)], ["sctp.init_with_non_zero_vtag"]),
    "sctp_data_zero_vtag": ([sctp(0, DATA)], ["sctp.data_with_zero_vtag"]),
    "sctp_16_chunks": ([sctp(7, *[chunk(4, b"\0" * 4)] * 16)], []),
    "sctp_17_chunks": ([sctp(7, *[chunk(4, b"\0" * 4)] * 17)], ["sctp.too_many_chunks"]),
    # ICMP of the other IP version, ICMPv4 types and codes
    "ipv4_icmpv6": ([IP(src=CLI, dst=SRV, proto=58) / Raw(b"\x80\0\0\0\0\0\0\0")],
                    ["ipv4.icmpv6"]),
    "ipv6_icmpv4": ([IPv6(nh=1, **V6) / Raw(bytes(ICMP()))], ["ipv6.icmpv4"]),
    "icmpv4_ok": ([IP(src=CLI, dst=SRV) / ICMP(type=3, code=13) / Raw(QUOTED4),
                   IP(src=CLI, dst=SRV) / ICMP(type=8)], []),
    "icmpv4_quoted_truncated": ([IP(src=CLI, dst=SRV) / ICMP(type=11) / Raw(QUOTED4[:12])],
                                ["icmpv4.ipv4_trunc_pkt"]),
    "icmpv4_quoted_ipv6": ([IP(src=CLI, dst=SRV) / ICMP(type=3, code=3) / Raw(QUOTED6)],
                           ["icmpv4.ipv4_unknown_ver"]),
    "icmpv6_quoted_truncated": ([icmp6(3, 0, body=QUOTED6[:30])], ["icmpv6.ipv6_trunc_pkt"]),
    "icmpv6_quoted_ipv4": ([icmp6(1, 4, body=QUOTED4 + b"\0" * 20)],
                           ["icmpv6.ipv6_unknown_version"]),
    "icmpv4_unknown_type": ([IP(src=CLI, dst=SRV) / ICMP(type=42)], ["icmpv4.unknown_type"]),
    "icmpv4_unknown_code": ([IP(src=CLI, dst=SRV) / ICMP(type=0, code=3)],
                            ["icmpv4.unknown_code"]),
    "icmpv4_unreachable_code_16": ([IP(src=CLI, dst=SRV) / ICMP(type=3, code=16) /
                                    Raw(QUOTED4)],
                                   ["icmpv4.unknown_code"]),
    # a UDP length past the datagram (Suricata's own event) or short of it (len_invalid only)
    "udp_pkt_too_small": ([IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2, len=40) / Raw(b"ab")],
                          ["udp.pkt_too_small"]),
    "udp_len_short": ([IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2, len=9) / Raw(b"ab")], []),
    # TCP and IPv4 options
    "tcp_opts_ok": ([tcp_opts([("MSS", 1460), ("WScale", 7), ("SAckOK", b"")])], []),
    "tcp_opt_duplicate": ([tcp_opts([("MSS", 1460), ("MSS", 536)])], ["tcp.opt_duplicate"]),
    "ipv4_router_alert": ([ipv4_opts(b"\x94\x04\x00\x00")], []),
    "ipv4_opt_unknown": ([ipv4_opts(b"\x1e\x04\x00\x00")], ["ipv4.opt_unknown"]),
    "ipv4_opt_duplicate": ([ipv4_opts(b"\x94\x04\x00\x00\x94\x04\x00\x00")],
                           ["ipv4.opt_duplicate"]),
    # IPv6 extension headers
    "ipv6_mld_like_hbh": ([echo6(IPv6ExtHdrHopByHop(options=[RouterAlert()]))], []),
    "ipv6_dupl_hh": ([echo6(IPv6ExtHdrHopByHop(options=[RouterAlert()]),
                            IPv6ExtHdrHopByHop(options=[RouterAlert()]))],
                     ["ipv6.exthdr_dupl_hh"]),
    "ipv6_two_dstopts": ([echo6(IPv6ExtHdrDestOpt(options=[HBHOptUnknown(otype=0xc9,
                                                                          optdata=b"\0" * 16)]),
                                IPv6ExtHdrRouting(type=2, addresses=["2001:db8::3"]),
                                IPv6ExtHdrDestOpt(options=[HBHOptUnknown(otype=0xc9,
                                                                         optdata=b"\0" * 16)]))],
                         []),
    "ipv6_dupl_dh": ([echo6(*[IPv6ExtHdrDestOpt(options=[HBHOptUnknown(
        otype=0xc9, optdata=b"\0" * 16)])] * 3)], ["ipv6.exthdr_dupl_dh"]),
    "ipv6_dupl_rh": ([echo6(IPv6ExtHdrRouting(type=2, addresses=["2001:db8::3"]),
                            IPv6ExtHdrRouting(type=2, addresses=["2001:db8::3"]))],
                     ["ipv6.exthdr_dupl_rh"]),
    "ipv6_rh_type_0": ([echo6(IPv6ExtHdrRouting(type=0, addresses=["2001:db8::3"]))],
                       ["ipv6.rh_type_0"]),
    "ipv6_ah": ([echo6(AH(nh=58, payloadlen=4, spi=1, icv=b"\0" * 12))], []),
    "ipv6_dupl_ah": ([echo6(AH(nh=51, payloadlen=4, spi=1, icv=b"\0" * 12), AH(nh=58, payloadlen=4, spi=2, icv=b"\0" * 12))],
                     ["ipv6.exthdr_dupl_ah"]),
    "ipv6_ah_reserved": ([echo6(AH(nh=58, payloadlen=4, spi=1, reserved=5, icv=b"\0" * 12))],
                         ["ipv6.exthdr_ah_res_not_null"]),
    "ipv6_fh_reserved": ([fragment_reserved()],
                         ["ipv6.fh_non_zero_reserved_field", "ipv6.exthdr_useless_fh"]),
    "ipv6_none_empty": ([IPv6(nh=59, **V6)], []),
    "ipv6_data_after_none": ([IPv6(nh=59, **V6) / Raw(b"covert")],
                             ["ipv6.data_after_none_header"]),
    "ipv6_hopopts_unknown": ([echo6(IPv6ExtHdrHopByHop(options=[HBHOptUnknown(
        otype=0x1e, optdata=b"\0\0\0\0")]))], ["ipv6.hopopts_unknown_opt"]),
    "ipv6_hopopts_only_padding": ([echo6(IPv6ExtHdrHopByHop(options=[PadN(optdata=b"\0" * 4)]))],
                                  ["ipv6.hopopts_only_padding"]),
    "ipv6_dstopts_unknown": ([echo6(IPv6ExtHdrDestOpt(options=[HBHOptUnknown(
        otype=0x1e, optdata=b"\0\0\0\0")]))], ["ipv6.dstopts_unknown_opt"]),
    "ipv6_dstopts_only_padding": ([echo6(IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0" * 4)]))],
                                  ["ipv6.dstopts_only_padding"]),
    # ICMPv6 types and codes
    "icmpv6_ok": ([icmp6(1, 4, body=QUOTED6), icmp6(135, 0, hlim=255)], []),
    "icmpv6_unknown_code": ([icmp6(1, 9, body=QUOTED6)], ["icmpv6.unknown_code"]),
    "icmpv6_unassigned_type": ([icmp6(50, 0)], ["icmpv6.unassigned_type"]),
    "icmpv6_experimentation_type": ([icmp6(200, 0)], ["icmpv6.experimentation_type"]),
    "icmpv6_mld_hop_limit_1": ([IPv6(hlim=1, **V6) / ICMPv6MLQuery()], []),
    "icmpv6_mld_hop_limit_64": ([IPv6(hlim=64, **V6) / ICMPv6MLQuery()],
                                ["icmpv6.mld_message_with_invalid_hl"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_decoder_note(tmp_path, name):
    pkts, want = CASES[name]
    extra = rule("", sid=99, proto="pkthdr")  # the packets stay packets: seen by every rule
    r = detect(tmp_path, pkts, RULES + [extra], "-k", "none")
    got = sorted(EVENTS[a["alert"]["signature_id"] - 1] for a in r.alerts
                 if a["alert"]["signature_id"] != 99)
    known = [w for w in want if w in EVENTS]
    assert got == sorted(known)
    assert sorted(a["pcap_cnt"] for a in r.alerts if a["alert"]["signature_id"] == 99) == \
        list(range(1, len(pkts) + 1))


# ---- link layers and tunnels: which layer an anomaly is about, what nobody decodes --------

LINK_EVENTS = [
    "sll.pkt_too_small", "ltnull.pkt_too_small", "ltnull.unsupported_type",
    "chdlc.pkt_too_small", "vntag.header_too_small", "vntag.unknown_type",
    "ieee8021ah.header_too_small", "ethernet.unknown_ethertype", "vlan.unknown_type",
    "mpls.pkt_too_small", "mpls.bad_label_router_alert", "mpls.bad_label_implicit_null",
    "mpls.bad_label_reserved", "gre.version0_recur", "gre.version0_flags",
    "gre.version0_hdr_too_big", "gre.version1_chksum", "gre.version1_route",
    "gre.version1_ssr", "gre.version1_recur", "gre.version1_flags",
    "gre.version1_wrong_protocol", "gre.version1_no_key", "gre.version1_hdr_too_big",
    "pppoe.wrong_code", "ppp.ip4_pkt_too_small", "ppp.ip6_pkt_too_small",
    "ppp.vju_pkt_too_small",
]
LINK_RULES = [rule(f"decode-event:{e};", sid=i + 1, proto="pkthdr")
              for i, e in enumerate(LINK_EVENTS)]
DLT_LOOP, DLT_EN10MB, DLT_PPP, DLT_C_HDLC, DLT_SLL = 108, 1, 9, 104, 113  # (scapy takes a linktype 0 for none)
MAC = dict(src="00:00:00:00:00:01", dst="00:00:00:00:00:02")
V4 = bytes(IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2) / Raw(b"x" * 8))


def ether(etype, body):
    from scapy.layers.l2 import Ether
    return bytes(Ether(type=etype, **MAC)) + body


def mpls(*labels, tail=b""):
    from scapy.layers.l2 import Ether
    entries = b"".join(struct.pack("!I", (lab << 12) | ((i == len(labels) - 1) << 8) | 64)
                       for i, lab in enumerate(labels))
    return ether(0x8847, entries + tail)


def gre(flags, proto, body=b""):
    return bytes(IP(src=CLI, dst=SRV, proto=47) / Raw(struct.pack("!HH", flags, proto) + body))


LINK_CASES = {
    "sll_too_small": (DLT_SLL, b"\0" * 10, ["sll.pkt_too_small"]),
    "null_too_small": (DLT_LOOP, b"\0\2", ["ltnull.pkt_too_small"]),
    "null_ipv4": (DLT_LOOP, struct.pack("!I", 2) + V4, []),
    "null_unsupported": (DLT_LOOP, struct.pack("!I", 7) + b"\0" * 20,
                         ["ltnull.unsupported_type"]),
    "chdlc_too_small": (DLT_C_HDLC, b"\x0f\x00\x08", ["chdlc.pkt_too_small"]),
    "vntag_too_small": (DLT_EN10MB, ether(0x8926, b"\x80\x01\x00"),
                        ["vntag.header_too_small"]),
    "vntag_ipv4": (DLT_EN10MB, ether(0x8926, b"\0" * 4 + b"\x08\x00" + V4), []),
    "vntag_unknown_type": (DLT_EN10MB, ether(0x8926, b"\0" * 4 + b"\x88\xcc" + b"\0" * 20),
                           ["vntag.unknown_type"]),
    "pbb_too_small": (DLT_EN10MB, ether(0x88e7, b"\0" * 10), ["ieee8021ah.header_too_small"]),
    "lldp": (DLT_EN10MB, ether(0x88cc, b"\0" * 30), ["ethernet.unknown_ethertype"]),
    "arp_and_fabricpath_are_known": (DLT_EN10MB, ether(0x8903, b"\0" * 30), []),
    "llc_is_no_ethertype": (DLT_EN10MB, bytes.fromhex("0180c20000000000000000010026") +
                            b"\x42\x42\x03" + b"\0" * 35, []),
    "vlan_802_3_length": (DLT_EN10MB, ether(0x8100, b"\x00\x01\x00\x13" + b"\xaa\xaa\x03" +
                                            b"\0" * 40), []),
    "vlan_unknown_type": (DLT_EN10MB, ether(0x8100, b"\x00\x05\x88\xcc" + b"\0" * 30),
                          ["vlan.unknown_type", "ethernet.unknown_ethertype"]),
    "mpls_ipv4": (DLT_EN10MB, mpls(100, tail=V4), []),
    "mpls_too_small": (DLT_EN10MB, mpls(100), ["mpls.pkt_too_small"]),
    "mpls_router_alert": (DLT_EN10MB, mpls(1, tail=V4), ["mpls.bad_label_router_alert"]),
    "mpls_implicit_null": (DLT_EN10MB, mpls(3, 100, tail=V4),
                           ["mpls.bad_label_implicit_null"]),
    "mpls_reserved": (DLT_EN10MB, mpls(5, tail=V4), ["mpls.bad_label_reserved"]),
    "gre_v0_ipv4": (DLT_EN10MB, ether(0x0800, gre(0x0000, 0x0800, V4)), []),
    "gre_v0_recur": (DLT_EN10MB, ether(0x0800, gre(0x0100, 0x0800, V4)),
                     ["gre.version0_recur"]),
    "gre_v0_flags": (DLT_EN10MB, ether(0x0800, gre(0x0008, 0x0800, V4)),
                     ["gre.version0_flags"]),
    "gre_v0_hdr_too_big": (DLT_EN10MB, ether(0x0800, gre(0xb000, 0x0800, b"\0" * 4)),
                           ["gre.version0_hdr_too_big"]),
    "gre_v1_chksum": (DLT_EN10MB, ether(0x0800, gre(0xa001, 0x880b, b"\0" * 8)),
                      ["gre.version1_chksum"]),
    "gre_v1_route": (DLT_EN10MB, ether(0x0800, gre(0x6001, 0x880b, b"\0" * 8)),
                     ["gre.version1_route"]),
    "gre_v1_ssr": (DLT_EN10MB, ether(0x0800, gre(0x2801, 0x880b, b"\0" * 8)),
                   ["gre.version1_ssr"]),
    "gre_v1_recur": (DLT_EN10MB, ether(0x0800, gre(0x2101, 0x880b, b"\0" * 8)),
                     ["gre.version1_recur"]),
    "gre_v1_flags": (DLT_EN10MB, ether(0x0800, gre(0x2009, 0x880b, b"\0" * 8)),
                     ["gre.version1_flags"]),
    "gre_v1_wrong_protocol": (DLT_EN10MB, ether(0x0800, gre(0x2001, 0x0800, b"\0" * 8)),
                              ["gre.version1_wrong_protocol"]),
    "gre_v1_no_key": (DLT_EN10MB, ether(0x0800, gre(0x0001, 0x880b, b"\0" * 8)),
                      ["gre.version1_no_key"]),
    "gre_v1_hdr_too_big": (DLT_EN10MB, ether(0x0800, gre(0x3001, 0x880b, b"\0" * 4)),
                           ["gre.version1_hdr_too_big"]),
    "pppoe_wrong_code": (DLT_EN10MB, ether(0x8863, b"\x11\x42\x00\x00\x00\x00" + b"\0" * 40),
                         ["pppoe.wrong_code"]),
    "ppp_ipv4": (DLT_PPP, b"\xff\x03\x00\x21" + V4, []),
    "ppp_ip4_too_small": (DLT_PPP, b"\xff\x03\x00\x21" + V4[:10], ["ppp.ip4_pkt_too_small"]),
    "ppp_ip6_too_small": (DLT_PPP, b"\xff\x03\x00\x57" + b"\x60" + b"\0" * 20,
                          ["ppp.ip6_pkt_too_small"]),
    "ppp_vju_too_small": (DLT_PPP, b"\xff\x03\x00\x2f" + b"\x45" + b"\0" * 9,
                          ["ppp.vju_pkt_too_small"]),
}


@pytest.mark.parametrize("name", sorted(LINK_CASES))
def test_link_and_tunnel_note(tmp_path, name):
    from conftest import write_pcap
    linktype, frame, want = LINK_CASES[name]
    pcap = write_pcap(tmp_path / "l.pcap", [Raw(frame)], linktype)
    r = detect(tmp_path, pcap, LINK_RULES, "-k", "none")
    assert sorted(LINK_EVENTS[a["alert"]["signature_id"] - 1] for a in r.alerts) == sorted(want)
