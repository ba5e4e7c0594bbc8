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
    "icmpv6.mld_message_with_invalid_hl",
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


def icmp6(type_, code, hlim=64):
    return IPv6(nh=58, hlim=hlim, **V6) / Raw(struct.pack("!BBHI", type_, code, 0, 0))


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
    "icmpv4_ok": ([IP(src=CLI, dst=SRV) / ICMP(type=3, code=13)], []),
    "icmpv4_unknown_type": ([IP(src=CLI, dst=SRV) / ICMP(type=42)], ["icmpv4.unknown_type"]),
    "icmpv4_unknown_code": ([IP(src=CLI, dst=SRV) / ICMP(type=0, code=3)],
                            ["icmpv4.unknown_code"]),
    "icmpv4_unreachable_code_16": ([IP(src=CLI, dst=SRV) / ICMP(type=3, code=16)],
                                   ["icmpv4.unknown_code"]),
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
    "icmpv6_ok": ([icmp6(1, 4), icmp6(135, 0, hlim=255)], []),
    "icmpv6_unknown_code": ([icmp6(1, 9)], ["icmpv6.unknown_code"]),
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
