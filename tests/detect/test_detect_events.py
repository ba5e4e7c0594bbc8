"""decode-event, stream-event, app-layer-event: rules on the events Osprey raises.

A decoder event is the anomaly (or non-fatal note) libmon's decoder and defrag found on the
packet; the rule alerts once on that packet, whether or not the packet belongs to a flow (a
truncated packet or a held fragment has none). A stream event is what the TCP sender-side
update saw on the packet. An application-layer event is what the parsers found malformed in a
message; the rule alerts once per occurrence, on the packet that completed it. Names are
Suricata's; a name Osprey never raises rejects the rule with the reason, and the other rules
still load."""
import struct

import pytest

from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, TCP, UDP, ICMP
from scapy.layers.inet6 import IPv6, IPv6ExtHdrFragment, ICMPv6EchoRequest
from scapy.packet import Raw

from detect_helpers import CLI, SRV, Conv, detect, http_conv, rule, udp
from tls_hello_helpers import client_hello, record
from rules_helpers import check_text


def alerts(tmp_path, pkts, rules, *args):
    """(sid, pcap_cnt) of every alert."""
    r = detect(tmp_path, pkts, rules, *args)
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def dec(event, sid, proto="pkthdr"):
    return rule(f"decode-event:{event};", sid=sid, proto=proto)


# ---- decoder events --------------------------------------------------------------------

def test_truncated_ipv4_packet(tmp_path):
    good = IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2) / Raw(b"x" * 20)
    # the IPv4 total length says 200 bytes, 48 were captured: ipv4.trunc_pkt, no flow
    short = IP(src=CLI, dst=SRV, len=200) / UDP(sport=1, dport=2) / Raw(b"x" * 20)
    got = alerts(tmp_path, [good, short, good],
                 [dec("ipv4.trunc_pkt", 1), dec("ipv4.hlen_too_small", 2),
                  dec("ipv4.trunc_pkt", 3, proto="ip")])
    # its IPv4 header is not taken (as in Suricata): only pkthdr rules see the packet
    assert got == [(1, 2)]


def test_decoder_event_rule_keeps_its_header(tmp_path):
    # the IPv4 header decoded, the UDP one not: the addresses are the packet's
    bad_udp = IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2, len=4) / Raw(b"abcd")
    r_from_srv = rule("decode-event:udp.len_invalid;", sid=1, proto="pkthdr",
                      hdr=f"{SRV} any -> any any")
    r_from_cli = rule("decode-event:udp.len_invalid;", sid=2, proto="pkthdr",
                      hdr=f"{CLI} any -> any any")
    r_ip = rule("decode-event:udp.len_invalid;", sid=3, proto="ip", hdr=f"any any <> {CLI} any")
    assert alerts(tmp_path, [bad_udp], [r_from_srv, r_from_cli, r_ip]) == [(2, 1), (3, 1)]


def test_decoder_event_rules_alike_but_for_ports(tmp_path):
    """Headers that differ only in their ports share one address check (hdx_index.c's
    buckets), on packets without flow state too (a flow's first packet: its decoder events
    run before the flow's detection state exists); each keeps its own ports, and a `<>` one
    takes either way round."""
    # a SYN whose TCP-AO option is 3 bytes long: tcp.opt_invalid_len, ports 1234 -> 443
    syn = IP(src=CLI, dst=SRV) / TCP(sport=1234, dport=443, flags="S",
                                     options=[(29, b"\x61"), ("NOP", None)])
    rules = [rule("decode-event:tcp.opt_invalid_len;", sid=sid, proto="tcp", hdr=hdr)
             for sid, hdr in [(1, "any any -> any 443"), (2, "any any -> any 80"),
                              (3, "any 1234 -> any any"), (4, "any 443 <> any 1234"),
                              (5, f"{SRV} any -> any 443"), (6, "any 5 <> any 6")]]
    assert alerts(tmp_path, [syn], rules) == [(1, 1), (3, 1), (4, 1)]


def test_udp_length_and_tcp_header_events(tmp_path):
    bad_udp = IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2, len=4) / Raw(b"abcd")
    short_hlen = IP(src=CLI, dst=SRV) / TCP(sport=1, dport=2, dataofs=3, flags="S")
    got = alerts(tmp_path, [bad_udp, short_hlen],
                 [dec("udp.len_invalid", 1), dec("tcp.hlen_too_small", 2),
                  dec("tcp.pkt_too_small", 3)])
    assert got == [(1, 1), (2, 2)]


def test_ipv4_option_length_and_pointer_events(tmp_path):
    from scapy.layers.inet import IPOption_NOP
    def with_opts(raw):
        p = IP(src=CLI, dst=SRV, options=[IPOption_NOP()] * len(raw)) / UDP(sport=1, dport=2)
        b = bytearray(bytes(p))
        b[20:20 + len(raw)] = raw
        return IP(bytes(b))
    sec_len_2 = with_opts(b"\x82\x02\x00\x00")                   # Security of length 2
    rr_bad_ptr = with_opts(b"\x07\x07\x02\x00\x00\x00\x00\x00")  # RR pointer before slot 1
    got = alerts(tmp_path, [sec_len_2, rr_bad_ptr],
                 [dec("ipv4.opt_invalid_len", 1), dec("ipv4.opt_malformed", 2)])
    assert got == [(1, 1), (2, 2)]


def test_empty_sack_is_no_invalid_option_length(tmp_path):
    conv = Conv().handshake()
    empty = conv.pkts[-1].copy()
    empty[TCP].options = [("NOP", None), ("NOP", None), ("SAck", b"")]  # kind 5, length 2
    bad = conv.pkts[-1].copy()
    bad[TCP].options = [(5, b"\x00")]  # SACK of length 3: no whole block
    got = alerts(tmp_path, conv.pkts + [empty, bad], [dec("tcp.opt_invalid_len", 1)])
    assert got == [(1, 5)]


def test_packet_rules_see_an_ip_packet_whose_transport_header_is_broken(tmp_path):
    # the TCP header says 24 bytes, 20 are in the datagram: tcp.pkt_too_small, no flow. The
    # IPv4 header is fine, so, as Suricata, the packet rules still see the packet by its
    # addresses and protocol; rules on its payload or on a flow do not match it
    short = IP(src=CLI, dst=SRV) / TCP(sport=1, dport=23, flags="S", dataofs=6)
    short = IP(bytes(short)[:40])
    got = alerts(tmp_path, [short],
                 [rule("", sid=1, proto="ip"), rule("", sid=2, proto="tcp"),
                  rule("", sid=3, proto="udp"), rule("", sid=4, proto="ip",
                                                     hdr=f"{SRV} any -> any any"),
                  rule("flow:to_server;", sid=5), rule('content:"x";', sid=6, proto="ip"),
                  dec("tcp.pkt_too_small", 7)])
    assert got == [(1, 1), (2, 1), (7, 1)]


def test_a_flowless_packet_goes_through_the_address_index(tmp_path):
    # reputation-list rules (host lists: filed in the dispatcher's address index) and broad
    # ones, on packets without a flow (no detection state to cache the headers in)
    def short(src):
        p = IP(src=src, dst=SRV) / TCP(sport=1, dport=23, flags="S", dataofs=6)
        return IP(bytes(p)[:40])
    rules = [rule("", sid=1, proto="ip", hdr=f"[10.9.9.9,{CLI},10.9.9.10] any -> any any"),
             rule("", sid=2, proto="ip", hdr="[10.9.9.11,10.9.9.12] any -> any any"),
             rule("", sid=3, proto="ip", hdr=f"any any -> [{SRV},10.9.9.13] any"),
             rule("", sid=4, proto="ip", hdr="any any -> any any")]
    assert alerts(tmp_path, [short(CLI), short("10.9.9.12")], rules) == \
        [(1, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2)]


def test_bad_tcp_option_length_still_a_tcp_packet(tmp_path):
    # a SYN whose TCP-AO option is 3 bytes long (at least 4): tcp.opt_invalid_len is raised,
    # and the segment still is TCP — its flow starts, its header is inspected (CVE-2019-12260)
    syn = IP(src=CLI, dst=SRV) / TCP(sport=1234, dport=443, flags="S",
                                     options=[(29, b"\x61"), ("NOP", None)])
    got = alerts(tmp_path, [syn],
                 [dec("tcp.opt_invalid_len", 1),
                  rule('flow:to_server; tcp.hdr; content:"|1d 03 61|"; offset:20; depth:3;',
                       sid=2)])
    assert got == [(1, 1), (2, 1)]


def frag6(ident, offset, m, data, src="2001:db8::1", dst="2001:db8::2"):
    return (IPv6(src=src, dst=dst) /
            IPv6ExtHdrFragment(id=ident, offset=offset, m=m, nh=58) / Raw(data))


def test_ipv6_fragment_overlap_any_data(tmp_path):
    whole = IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(id=1, seq=1,
                                                                          data=b"A" * 40)
    body = bytes(whole)[40:]  # 48 bytes, with the checksum
    first = frag6(7, 0, 1, body[:24])
    # bytes 16..31 again, the same as the first copy: an overlap all the same (as Suricata)
    overlap = frag6(7, 2, 1, body[16:32])
    last = frag6(7, 4, 0, body[32:])
    got = alerts(tmp_path, [first, overlap, last],
                 [dec("ipv6.frag_overlap", 1), dec("ipv4.frag_overlap", 2)])
    assert got == [(1, 2)]


def test_overlap_in_the_fragment_that_completes_a_datagram_with_a_bad_checksum(tmp_path):
    # the datagram defrag completes has a wrong ICMPv6 checksum: the decoder event of its last
    # fragment alerts, and the packet rules still see it (as Suricata's: bug-2736-02)
    whole = IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(
        id=1, seq=1, data=b"A" * 40, cksum=0x1234)
    body = bytes(whole)[40:]
    first = frag6(8, 0, 1, body[:24])
    last = frag6(8, 2, 0, body[16:])  # overlaps bytes 16..23
    got = alerts(tmp_path, [first, last],
                 [dec("ipv6.frag_overlap", 1), rule("itype:128;", sid=2, proto="icmp")],
                 "-k", "all")
    assert got == [(1, 2), (2, 2)]


def test_ipv4_fragment_overlap(tmp_path):
    payload = bytes(ICMP(type=8, id=1, seq=1) / Raw(b"B" * 40))
    f1 = IP(src=CLI, dst=SRV, id=9, flags="MF", frag=0, proto=1) / Raw(payload[:24])
    f2 = IP(src=CLI, dst=SRV, id=9, flags="MF", frag=2, proto=1) / Raw(payload[16:32])
    f3 = IP(src=CLI, dst=SRV, id=9, frag=4, proto=1) / Raw(payload[32:])
    got = alerts(tmp_path, [f1, f2, f3],
                 [dec("ipv6.frag_overlap", 1), dec("ipv4.frag_overlap", 2)])
    assert got == [(2, 2)]


def test_ipv6_useless_and_duplicate_fragment_headers(tmp_path):
    echo = ICMPv6EchoRequest(id=1, seq=1, data=b"hi")
    atomic = (IPv6(src="2001:db8::1", dst="2001:db8::2") /
              IPv6ExtHdrFragment(id=1, offset=0, m=0) / echo)
    twice = (IPv6(src="2001:db8::1", dst="2001:db8::2") /
             IPv6ExtHdrFragment(id=2, offset=0, m=0) /
             IPv6ExtHdrFragment(id=3, offset=0, m=0) / echo)
    plain = IPv6(src="2001:db8::1", dst="2001:db8::2") / echo
    got = alerts(tmp_path, [atomic, twice, plain],
                 [dec("ipv6.exthdr_useless_fh", 1), dec("ipv6.exthdr_dupl_fh", 2)])
    # an atomic fragment header is useless; the packet with two has both events
    assert got == [(1, 1), (1, 2), (2, 2)]


def test_wrong_inner_version_in_an_ipv6_tunnel(tmp_path):
    # IPv6 next header 4 (IPv4) or 41 (IPv6) whose header has another version: the IPv6
    # decoder's own events (as Suricata), the packet invalid, its proto the outer next header
    v4 = bytearray(bytes(IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=2) / b"x"))
    v6 = bytearray(bytes(IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=1, dport=2) / b"x"))
    good4 = IPv6(src="fd01::1", dst="fd01::2", nh=4) / Raw(bytes(v4))
    v4[0] = 0x55
    v6[0] = 0x40
    bad4 = IPv6(src="fd01::1", dst="fd01::2", nh=4) / Raw(bytes(v4))
    bad6 = IPv6(src="fd01::1", dst="fd01::2", nh=41) / Raw(bytes(v6))
    short = IPv6(src="fd01::1", dst="fd01::2", nh=4) / Raw(bytes(v4[:12]))  # too short to say
    r = detect(tmp_path, [good4, bad4, bad6, short],
               [dec("ipv6.ipv4_in_ipv6_wrong_version", 1),
                dec("ipv6.ipv6_in_ipv6_wrong_version", 2),
                dec("ipv4.wrong_ip_version", 3), dec("ipv6.wrong_ip_version", 4),
                dec("ipv4.pkt_too_small", 5)])
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"], a["proto"], a["ip_v"])
                 for a in r.alerts)
    assert got == [(1, 2, "IP-in-IP", 6), (2, 3, "IPv6", 6), (5, 4, "IP-in-IP", 6)]


def test_sctp_rules_and_a_short_sctp_header(tmp_path):
    # `alert sctp` rules see SCTP packets with their ports; a header shorter than 12 bytes is
    # sctp.pkt_too_small, reported with the IP addresses, proto SCTP and ports 0
    sctp = IP(src=CLI, dst=SRV, proto=132) / Raw(b"\x00\x07\x00\x09" + b"\x00" * 8 + b"data")
    short = IP(src=CLI, dst=SRV, proto=132) / Raw(b"\x00\x07\x00")
    r = detect(tmp_path, [sctp, short],
               [rule("", sid=1, proto="sctp", hdr="any 7 -> any 9"),
                rule("", sid=2, proto="sctp", hdr="any 9 -> any 7"),
                rule('content:"data";', sid=3, proto="sctp"),
                dec("sctp.pkt_too_small", 4, proto="sctp"),
                rule("", sid=5, proto="udp")])
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"], a["proto"], a.get("src_port"),
                  a.get("dest_port")) for a in r.alerts)
    assert got == [(1, 1, "SCTP", 7, 9), (3, 1, "SCTP", 7, 9), (4, 2, "SCTP", 0, 0)]


def test_decoder_event_on_a_flow_packet_alerts_once(tmp_path):
    # an atomic fragment still decodes to a whole datagram: it belongs to a flow, runs
    # PKT_IN rules, and the decoder-event rule alerts once for it
    echo = ICMPv6EchoRequest(id=1, seq=1, data=b"hi")
    atomic = (IPv6(src="2001:db8::1", dst="2001:db8::2") /
              IPv6ExtHdrFragment(id=1, offset=0, m=0) / echo)
    got = alerts(tmp_path, [atomic, atomic],
                 [dec("ipv6.exthdr_useless_fh", 1), rule("itype:128;", sid=2, proto="icmp")])
    assert got == [(1, 1), (1, 2), (2, 1), (2, 2)]


# ---- stream events -----------------------------------------------------------------------

def stream(event, sid):
    return rule(f"stream-event:{event};", sid=sid)


def test_synack_in_the_wrong_direction(tmp_path):
    c = Conv()
    syn = c._pkt(True, "S")
    c.seq[True] += 1
    wrong = c._pkt(True, "SA")       # the client answers its own SYN
    right = c._pkt(False, "SA")
    got = alerts(tmp_path, [syn, wrong, right],
                 [stream("3whs_synack_in_wrong_direction", 1),
                  stream("est_syn_resend_diff_seq", 2)])
    assert got == [(1, 2)]


def test_syn_with_a_new_isn_in_an_established_connection(tmp_path):
    c = Conv().handshake().send(True, b"hello")
    c.pkts.append(c._pkt(True, "S", seq=777))
    c.pkts.append(c._pkt(False, "SA", seq=888))
    got = alerts(tmp_path, c.pkts,
                 [stream("est_syn_resend_diff_seq", 1),
                  stream("est_synack_resend_with_diff_seq", 2),
                  stream("3whs_synack_in_wrong_direction", 3)])
    # packets: 3 handshake, data, ack, then the SYN (6) and the SYN/ACK (7)
    assert got == [(1, 6), (2, 7)]


@pytest.mark.parametrize("syn_ts", [(500, 0), None])
def test_server_echoing_a_timestamp_the_syn_did_not_send(tmp_path, syn_ts):
    # a forged RST and FIN from the "server" before its SYN/ACK, echoing TSecr 100 where the
    # client's SYN sent TSval 500 (or no timestamp): pkt_invalid_timestamp, and the
    # connection ignores them — the real handshake and the data after it still count
    def ts(p, val, ecr):
        p[TCP].options = [("Timestamp", (val, ecr))]
        return p

    c = Conv()
    syn = c._pkt(True, "S")
    if syn_ts:
        ts(syn, *syn_ts)
    c.seq[True] += 1
    rst = ts(c._pkt(False, "RA", seq=0), 100, 100)
    fin = ts(c._pkt(False, "FA", seq=0), 100, 100)
    synack = c._pkt(False, "SA")
    if syn_ts:
        ts(synack, 900, 500)  # echoes the SYN's TSval: fine
    c.seq[False] += 1
    c.pkts = [syn, rst, fin, synack, c._pkt(True, "A")]
    c.send(True, b"hello")
    got = alerts(tmp_path, c.pkts, [stream("pkt_invalid_timestamp", 1),
                                    rule('content:"hello";', sid=2)])
    # "hello" (6), no protocol: Suricata's IDS mode inspects it at the flow's end (8)
    assert got == [(1, 2), (1, 3), (2, 8)]


@pytest.mark.parametrize("echo", [500, 600])
def test_synack_may_echo_the_first_or_the_retransmitted_syn(tmp_path, echo):
    c = Conv()
    syn = c._pkt(True, "S")
    syn[TCP].options = [("Timestamp", (500, 0))]
    again = c._pkt(True, "S")
    again[TCP].options = [("Timestamp", (600, 0))]
    c.seq[True] += 1
    synack = c._pkt(False, "SA")
    synack[TCP].options = [("Timestamp", (900, echo))]
    c.seq[False] += 1
    c.pkts = [syn, again, synack, c._pkt(True, "A")]
    c.send(True, b"hello")
    got = alerts(tmp_path, c.pkts, [stream("pkt_invalid_timestamp", 1),
                                    rule('content:"hello";', sid=2)])
    assert got == [(2, 7)]  # "hello" (5): at the flow's end (IDS mode, no protocol)


def test_syn_flood_in_one_handshake(tmp_path):
    # the client's SYN, then 12 SYNs with new ISNs (and one plain retransmission): the 11th
    # and 12th new ISNs are past the 10 a handshake takes (3whs_syn_flood); the SYN/ACK of
    # the latest SYN still completes the handshake
    c = Conv()
    syns = [c._pkt(True, "S", seq=100 + 1000 * i) for i in range(13)]
    syns.insert(5, c._pkt(True, "S", seq=100 + 1000 * 4))  # packet 6 repeats packet 5
    c.seq[True] = 100 + 1000 * 12 + 1
    synack = c._pkt(False, "SA")
    c.seq[False] += 1
    c.pkts = syns + [synack, c._pkt(True, "A")]
    c.send(True, b"hello")
    got = alerts(tmp_path, c.pkts, [stream("3whs_syn_flood", 1), rule('content:"hello";', sid=2)])
    assert got == [(1, 13), (1, 14), (2, 19)]  # "hello" (17): at the flow's end (IDS)


def test_stream_event_rule_with_other_options(tmp_path):
    c = Conv().handshake().send(True, b"hello")
    c.pkts.append(c._pkt(True, "S", seq=777))
    got = alerts(tmp_path, c.pkts,
                 [rule("stream-event:est_syn_resend_diff_seq; flags:S;", sid=1),
                  rule("stream-event:est_syn_resend_diff_seq; flags:A;", sid=2)])
    assert got == [(1, 6)]


def test_receiver_side_stream_events(tmp_path):
    # a hole the receiver acknowledged: given up at the next update of that stream
    c = Conv().handshake()
    c.raw(True, b"world", 10)          # packet 4: 10 bytes missing before it
    c.seq[True] += 15
    c.pkts.append(c._pkt(False, "A"))  # 5: the server acknowledges all 15
    c.send(True, b"more")              # 6, then its ACK 7
    rules = [stream("reassembly_seq_gap", 1), stream("reassembly_overlap_different_data", 2),
             stream("reassembly_depth_reached", 3)]
    assert alerts(tmp_path, c.pkts, rules) == [(1, 6)]
    # the same bytes sent again, different: packet 6
    c = Conv().handshake().send(True, b"hello world").raw(True, b"HELLO", -11)
    assert alerts(tmp_path, c.pkts, rules) == [(2, 6)]
    # the same bytes again, unchanged: no event
    c = Conv().handshake().send(True, b"hello world").raw(True, b"hello", -11)
    assert alerts(tmp_path, c.pkts, rules) == []


def test_depth_reached_once_per_direction(tmp_path):
    c = Conv().handshake().send(True, b"a" * 40).send(True, b"b" * 40).send(False, b"c" * 80)
    got = alerts(tmp_path, c.pkts, [stream("reassembly_depth_reached", 1)],
                 "--set", "stream.reassembly.depth=50")
    # packets: 3 handshake, 40 bytes (4), ACK, 40 more (6): past 50; ACK, the reply (8)
    assert got == [(1, 6), (1, 8)]


# ---- loading -----------------------------------------------------------------------------

def test_names_osprey_never_raises_reject_the_rule(tmp_path):
    text = "\n".join([
        dec("ipv4.trunc_pkt", 1),
        dec("dce.pkt_too_small", 2),
        rule("stream-event:wrong_thread;", sid=3),
        rule("app-layer-event:tls.heartbeat_message;", sid=4, proto="tls"),  # Suricata 8 neither
        rule("stream-event:3whs_synack_in_wrong_direction;", sid=5),
    ]) + "\n"
    proc, lines, summary = check_text(tmp_path, text)
    assert summary["accepted"] == 2
    assert lines == [
        "t.rules:2: sid 2: unsupported option decode-event: event 'dce.pkt_too_small' is not "
        "raised by Osprey",
        "t.rules:3: sid 3: unsupported option stream-event: event 'wrong_thread' is "
        "not raised by Osprey",
        "t.rules:4: sid 4: unsupported option app-layer-event: event "
        "'tls.heartbeat_message' is not raised by Osprey"]


def test_malformed_event_names_are_syntax_errors(tmp_path):
    text = "\n".join([
        dec("ipv4..trunc_pkt", 1),
        rule("app-layer-event:z_flag_set;", sid=2, proto="dns"),
        rule("stream-event:bad name;", sid=3),
        dec("ipv4.trunc_pkt", 4),
    ]) + "\n"
    proc, lines, summary = check_text(tmp_path, text)
    assert summary["accepted"] == 1 and summary["malformed"] == 3
    assert "empty part in event name" in lines[0]
    assert "expected PROTOCOL.EVENT, got 'z_flag_set'" in lines[1]
    assert "invalid character ' ' in event name" in lines[2]


def test_decoder_event_beside_payload_options_is_not_compiled(tmp_path):
    short = IP(src=CLI, dst=SRV, len=200) / UDP(sport=1, dport=2) / Raw(b"x" * 20)
    r = detect(tmp_path, [short],
               [rule('decode-event:ipv4.trunc_pkt; content:"x";', sid=1, proto="pkthdr"),
                dec("ipv4.trunc_pkt", 2)])
    assert sorted(a["alert"]["signature_id"] for a in r.alerts) == [2]
    assert "sid 1: not compiled" in r.proc.stderr
    assert "payload options beside a decoder event" in r.proc.stderr


# ---- application-layer events ------------------------------------------------------------

def app(event, sid, proto, body=""):
    return rule(f"{body}app-layer-event:{event};", sid=sid, proto=proto)


def dns_msg(**kw):
    return bytes(DNS(qd=DNSQR(qname="example.com"), **kw))


def test_dns_z_flag_and_direction_events(tmp_path):
    query = udp(dns_msg(id=1, rd=1))
    z_query = udp(dns_msg(id=2, rd=1, z=1))
    answer_to_server = udp(dns_msg(id=3, qr=1))  # a response sent to port 53
    got = alerts(tmp_path, [query, z_query, answer_to_server, query],
                 [app("dns.z_flag_set", 1, "dns"), app("dns.not_request", 2, "dns"),
                  app("dns.not_response", 3, "dns"), app("dns.malformed_data", 4, "dns")])
    assert got == [(1, 2), (2, 3)]


def test_dns_malformed_message_once_per_message(tmp_path):
    good = dns_msg(id=1, rd=1)
    # the header promises one answer that is not there
    bad = good[:6] + struct.pack(">H", 1) + good[8:]
    got = alerts(tmp_path, [udp(good), udp(bad), udp(bad)],
                 [app("dns.malformed_data", 1, "dns"),
                  app("dns.malformed_data", 2, "dns", body="flow:to_client; "),
                  app("dns.malformed_data", 3, "tls")])
    assert got == [(1, 2), (1, 3)]


def test_dns_invalid_authorities_and_additionals(tmp_path):
    """Questions and answers make the message: a later section that does not decode raises
    its own event (as Suricata), not dns.malformed_data, and the message still runs."""
    good = dns_msg(id=1, rd=1)
    # the header promises one authority (or one additional) record that is not there
    no_auth = good[:8] + struct.pack(">H", 1) + good[10:]
    no_add = good[:10] + struct.pack(">H", 1)
    no_add += good[12:]
    rules = [app("dns.malformed_data", 1, "dns"), app("dns.invalid_authorities", 2, "dns"),
             app("dns.invalid_additionals", 3, "dns"),
             rule('dns.query; content:"example.com"; bsize:11;', sid=4, proto="dns")]
    got = alerts(tmp_path, [udp(no_auth), udp(no_add), udp(good)], rules)
    assert got == [(2, 1), (3, 2), (4, 1), (4, 2), (4, 3)]


def tls_conv(server_bytes):
    hs, _ = client_hello()
    c = Conv(dport=443).handshake().send(True, record(hs)).send(False, server_bytes)
    return c.close().pkts


def test_tls_handshake_message_of_no_known_type(tmp_path):
    bad = record(b"\x84\x00\x00\x04abcd")  # handshake type 132
    pkts = tls_conv(bad)
    got = alerts(tmp_path, pkts,
                 [app("tls.invalid_handshake_message", 1, "tls"),
                  app("tls.invalid_record_type", 2, "tls"),
                  app("tls.invalid_handshake_message", 3, "tls", body="flow:to_server; ")])
    # packets: 3 handshake, ClientHello (4), its ACK (5), the server's record (6), its ACK
    # (7): Suricata's IDS mode parses it at 7, inspects it with the server's next packet (9)
    assert got == [(1, 9)]


def test_tls_record_of_no_known_type_and_bad_version(tmp_path):
    got = alerts(tmp_path, tls_conv(bytes([0x30, 3, 3, 0, 1, 0])),
                 [app("tls.invalid_record_type", 1, "tls"),
                  app("tls.invalid_record_version", 2, "tls")])
    assert got == [(1, 9)]  # the server's record (6): parsed at its ACK, with the server's 9
    got = alerts(tmp_path, tls_conv(bytes([22, 9, 9, 0, 1, 0])),
                 [app("tls.invalid_record_type", 1, "tls"),
                  app("tls.invalid_record_version", 2, "tls")])
    assert got == [(2, 9)]


def test_tls_handshake_without_anomaly_raises_nothing(tmp_path):
    server_hello_done = record(b"\x0e\x00\x00\x00")
    got = alerts(tmp_path, tls_conv(server_hello_done),
                 [app("tls.invalid_handshake_message", 1, "tls"),
                  app("tls.invalid_record_type", 2, "tls")])
    assert got == []


def test_http_invalid_chunk_length(tmp_path):
    req = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    resp = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"
    c = Conv().handshake().send(True, req).send(False, resp).close()
    got = alerts(tmp_path, c.pkts,
                 [app("http.invalid_response_chunk_len", 1, "http"),
                  app("http.invalid_request_chunk_len", 2, "http")])
    # packets: 3 handshake, request (4), ACK (5), response (6), ACK (7): IDS mode parses the
    # response at 7 and inspects it with the server's next packet (9)
    assert got == [(1, 9)]


def test_http_content_length_repeated_with_another_value(tmp_path):
    rules = [app("http.duplicate_content_length_field_in_request", 1, "http",
                 body="flow:established,to_server; "),
             app("http.duplicate_content_length_field_in_response", 2, "http")]
    two = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc"
    same = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc"
    resp = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: x\r\n\r\nok"
    c = Conv().handshake().send(True, two).send(False, resp).close()
    # packets: 3 handshake, request (4), ACK, response (6): IDS mode parses each at its ACK
    # and inspects it with the next packet of its direction (7, 9)
    assert alerts(tmp_path, c.pkts, rules) == [(1, 7), (2, 9)]
    c = Conv().handshake().send(True, same).close()
    assert alerts(tmp_path, c.pkts, rules) == []


def test_app_layer_event_beside_buffers(tmp_path):
    """Beside buffers an app-layer-event asks whether the transaction raised it (Suricata's
    events are the transaction's): the rule runs under the buffers' event."""
    rules = [rule('dns.query; content:"example"; app-layer-event:dns.z_flag_set;', sid=1,
                  proto="dns"),
             app("dns.z_flag_set", 2, "dns"),
             rule('dns.query; content:"example"; app-layer-event:dns.name_too_long;', sid=3,
                  proto="dns")]
    r = detect(tmp_path, [udp(dns_msg(id=2, rd=1, z=1))], rules)
    assert sorted(a["alert"]["signature_id"] for a in r.alerts) == [1, 2]
    assert "beside application-layer buffers" not in r.proc.stderr
    # the next transaction did not raise it
    r = detect(tmp_path, [udp(dns_msg(id=2, rd=1, z=1)), udp(dns_msg(id=3, rd=1))], rules,
               name="two")
    assert sorted(a["alert"]["signature_id"] for a in r.alerts) == [1, 2]
    # a decoder event beside buffers stays refused
    r = detect(tmp_path, [udp(dns_msg(id=2, rd=1, z=1))],
               [rule('dns.query; content:"example"; decode-event:ipv4.trunc_pkt;', sid=4,
                     proto="dns")], name="dec")
    assert r.alerts == [] and "sid 4: not compiled" in r.proc.stderr


def test_http_request_transfer_encoding_and_authorization_events(tmp_path):
    rules = [app("http.invalid_transfer_encoding_value_in_request", 1, "http"),
             app("http.request_auth_unrecognized", 2, "http")]
    odd = (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n"
           b"Authorization: NTLM TlRMTVNTUAABAAAA\r\nContent-Length: 0\r\n\r\n")
    c = Conv().handshake().send(True, odd).close()
    # the request (4), its ACK (5): with the client's next packet (6), IDS mode
    assert alerts(tmp_path, c.pkts, rules) == [(1, 6), (2, 6)]
    fine = (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            b"Authorization: Basic dTpw\r\n\r\n0\r\n\r\n")
    c = Conv().handshake().send(True, fine).close()
    (tmp_path / "b").mkdir()
    assert alerts(tmp_path / "b", c.pkts, rules) == []


def test_http_request_line_missing_protocol(tmp_path):
    """A request line without protocol followed by header lines is a request with headers
    (libhtp's probe: a ':' before a space), not HTTP/0.9: the event, and its headers are
    the request's."""
    rules = [app("http.request_line_missing_protocol", 1, "http"),
             rule('http.user_agent; content:"myscript"; bsize:8;', sid=2, proto="http")]
    odd = b"GET /\nFakeHeader\nHost: localhost\nUser-Agent: myscript\n\n"
    c = Conv().handshake().send(True, odd).send(False, b"<html>hi</html>").close()
    # the request (4), its ACK (5), the server's data (6), the client's ACK (7): IDS mode
    assert alerts(tmp_path, c.pkts, rules) == [(1, 7), (2, 7)]
    # near misses: HTTP/0.9 (nothing, or another request, after the line), and HTTP/1.0
    for i, req in enumerate([b"GET /\r\n", b"GET /a\nGET /b\n",
                             b"GET / HTTP/1.0\nUser-Agent: myscript\n\n"]):
        c = Conv().handshake().send(True, req).close()
        (tmp_path / str(i)).mkdir()
        got = alerts(tmp_path / str(i), c.pkts, rules)
        assert got == ([(2, 6)] if i == 2 else [])  # the request (4): with 6 (IDS mode)


def test_http_request_field_too_long(tmp_path):
    """A request head line past libhtp's field limit (18,000 bytes) raises the event once, on
    the packet that crossed the limit, wherever the line is cut into segments."""
    rules = [app("http.request_field_too_long", 1, "http"),
             rule('http.method; content:"GET";', sid=2, proto="http")]
    # the line "X-Long: xxx…" starts at byte 16: its 18,001st byte is byte 18,016, in the
    # 19th 1000-byte segment (packet 3 + 19 = 22)
    req = b"GET / HTTP/1.1\r\nX-Long: " + b"x" * 20000 + b"\r\nY: " + b"y" * 20000 + b"\r\n\r\n"
    c = Conv().handshake().send(True, req, seg=1000).close()
    got = alerts(tmp_path, c.pkts, rules)
    # IDS mode: the segments are parsed at their ACK (45), inspected with the client's 46
    assert (1, 46) in got and [s for s, _ in got].count(1) == 1
    # near miss: a line of 17,998 bytes
    ok = b"GET / HTTP/1.1\r\nX-Long: " + b"x" * 17990 + b"\r\n\r\n"
    c = Conv().handshake().send(True, ok, seg=1000).close()
    (tmp_path / "b").mkdir()
    assert [s for s, _ in alerts(tmp_path / "b", c.pkts, rules)] == [2]


def certificate_message(*certs):
    """A Certificate handshake message holding the given DER blobs (as bytes, unchecked)."""
    body = b"".join(len(c).to_bytes(3, "big") + c for c in certs)
    return record(b"\x0b" + (len(body) + 3).to_bytes(3, "big") + len(body).to_bytes(3, "big")
                  + body)


@pytest.mark.parametrize("cert,expect", [
    # a DER element whose header is cut short (its long-form length bytes missing)
    (b"\x30\x82\x01", [(1, 9)]),  # the server's record (6): parsed at 7, with its 9 (IDS)
    # a DER element whose contents are shorter than its length: an invalid certificate
    (b"\x30\x82\x01\x00" + b"\x30\x03\x02\x01", [(2, 9)]),
])
def test_tls_certificate_length_and_decoding_events(tmp_path, cert, expect):
    rules = [app("tls.certificate_invalid_length", 1, "tls"),
             app("tls.invalid_certificate", 2, "tls")]
    assert alerts(tmp_path, tls_conv(certificate_message(cert)), rules) == expect


def test_tls_certificate_longer_than_its_message(tmp_path):
    msg = certificate_message(b"\x30\x03\x02\x01\x01")
    # the certificate says 0x000500 bytes where 5 follow
    hs = bytearray(msg[5:])
    hs[7:10] = (0x500).to_bytes(3, "big")
    got = alerts(tmp_path, tls_conv(record(bytes(hs))),
                 [app("tls.certificate_invalid_length", 1, "tls"),
                  app("tls.invalid_certificate", 2, "tls")])
    assert got == [(1, 9)]  # parsed at the ACK (7), with the server's next packet (IDS)


def test_http_too_many_encoding_layers(tmp_path):
    """A Content-Encoding list longer than the decompression layer limit (2 by default; every
    listed coding counts, identity too, as libhtp counts them) raises
    http.too_many_encoding_layers; a list within the limit does not."""
    import gzip as gz
    body = gz.compress(gz.compress(b"hello"))
    rules = [rule("app-layer-event:http.too_many_encoding_layers;", sid=1, proto="http")]

    def resp(ce):
        return (b"HTTP/1.1 200 OK\r\nContent-Encoding: " + ce + b"\r\nContent-Length: "
                + str(len(body)).encode() + b"\r\n\r\n" + body)
    r = detect(tmp_path, http_conv(resp=resp(b"identity, gzip, gzip")), rules)
    assert [a["alert"]["signature_id"] for a in r.alerts] == [1]
    r = detect(tmp_path, http_conv(resp=resp(b"gzip, gzip")), rules, name="two")
    assert r.alerts == []


def test_suspected_rst_inject(tmp_path):
    """An acceptable RST followed by more from its sender (Suricata's suspected RST injection,
    the Great Firewall's forged resets): the stream event on that packet, once; a RST whose
    sender stays quiet, or the other endpoint's packets after it, raise nothing."""
    rules = [stream("suspected_rst_inject", 1)]
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "RA"))                # 4: the client's RST, in window
    c.send(True, b"GET /ultrasurf HTTP/1.1\r\nHost: x\r\n\r\n")  # 5: and its request
    c.send(True, b"more")                            # 7: once per RST
    assert alerts(tmp_path, c.pkts, rules) == [(1, 5)]
    # the server's RST, then only the client talks: nothing
    c = Conv().handshake()
    c.pkts.append(c._pkt(False, "RA"))
    c.pkts.append(c._pkt(True, "A"))
    (tmp_path / "b").mkdir()
    assert alerts(tmp_path / "b", c.pkts, rules) == []
    # a RST out of the window is ignored, so nothing after it is suspicious
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "RA", seq=c.seq[True] + 10_000_000))
    c.send(True, b"GET / HTTP/1.1\r\n\r\n")
    (tmp_path / "c").mkdir()
    assert alerts(tmp_path / "c", c.pkts, rules) == []


def test_http_request_body_unexpected(tmp_path):
    """After a request, lines in the same segment naming no method are more of its body
    (libhtp's REQUEST_BODY_UNEXPECTED): the event, and http.request_body holds them; with
    the body's rule (suricata-verify http-request-invalid) both at once."""
    rules = [app("http.request_body_unexpected", 1, "http"),
             rule('flow:established,to_server; content:"login=foo&password=bar"; '
                  'http_client_body; app-layer-event:http.request_body_unexpected;', sid=2,
                  proto="http"),
             rule('http.request_body; content:"login=foo"; bsize:25;', sid=3, proto="http")]
    head = b"POST /index.html HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"
    c = Conv().handshake().send(True, head + b"login=foo&password=bar3\r\n").close()
    # the request (4), its ACK (5), with the client's next packet (6): IDS mode
    assert alerts(tmp_path, c.pkts, rules) == [(1, 6), (2, 6), (3, 6)]
    # the body announced by Content-Length and a CRLF after it: no event; a next request
    # after the form data: the event once, the request read
    ok = (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 22\r\n\r\nlogin=foo&password=bar\r\n"
          b"GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
    c = Conv().handshake().send(True, ok).close()
    (tmp_path / "b").mkdir()
    assert alerts(tmp_path / "b", c.pkts, rules + [rule('http.uri; content:"/next";', sid=4,
                                                         proto="http")]) == [(4, 6)]  # IDS
    two = head + b"a=1\r\nb=2\r\nGET /n HTTP/1.1\r\nHost: x\r\n\r\n"
    c = Conv().handshake().send(True, two).close()
    (tmp_path / "c").mkdir()
    assert alerts(tmp_path / "c", c.pkts, [app("http.request_body_unexpected", 1, "http"),
                                           rule('http.uri; content:"/n";', sid=5,
                                                proto="http")]) == [(1, 6), (5, 6)]
    # the form data in its own segment: the next request's line (libhtp's chunk rule)
    c = Conv().handshake().send(True, head).send(True, b"login=foo\r\n").close()
    (tmp_path / "d").mkdir()
    assert alerts(tmp_path / "d", c.pkts, [app("http.request_body_unexpected", 1, "http")]) == []


def test_http_failed_protocol_change(tmp_path):
    """SMTP's STARTTLS is a protocol change: detection runs again (TLS expected). HTTP came
    instead, and its first transaction's 101 to h2c asks for a second change: refused, the
    event (suricata-verify protocol-change-failed-event); on a plain HTTP flow the same 101
    switches to HTTP/2 without it."""
    rules = [app("http.failed_protocol_change", 1, "http"),
             rule("app-layer-protocol:http2;", sid=2, proto="tcp")]
    c = Conv(dport=25).handshake()
    c.send(False, b"220 mx ESMTP\r\n")
    c.send(True, b"EHLO a\r\n")
    c.send(False, b"250 mx\r\n")
    c.send(True, b"STARTTLS\r\n")
    c.send(False, b"220 Go ahead\r\n")
    c.send(False, b"HTTP/1.1 101 Switching\r\nUpgrade: h2c\r\n\r\n")
    c.send(False, b"\x00")
    got = alerts(tmp_path, c.close().pkts, rules)
    assert [s for s, _ in got] == [1]
    c = Conv().handshake()
    c.send(True, b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n")
    c.send(False, b"HTTP/1.1 101 Switching\r\nUpgrade: h2c\r\n\r\n")
    (tmp_path / "b").mkdir()
    got = alerts(tmp_path / "b", c.close().pkts, rules)
    assert [s for s, _ in got] == [2]


def test_starttls_still_becomes_tls(tmp_path):
    """The change's expected protocol: a ClientHello after STARTTLS is TLS, as before."""
    hs, _ = client_hello()
    c = Conv(dport=25).handshake()
    c.send(False, b"220 mx ESMTP\r\n")
    c.send(True, b"STARTTLS\r\n")
    c.send(False, b"220 Go ahead\r\n")
    c.send(True, record(hs))
    got = alerts(tmp_path, c.close().pkts,
                 [rule('tls.sni; content:"example.com"; nocase;', sid=1, proto="tls"),
                  rule("app-layer-protocol:tls;", sid=2, proto="tcp")])
    assert [s for s, _ in got] == [1, 2]
