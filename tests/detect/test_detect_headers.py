"""Suricata's packet-header keywords: the header sticky buffers (ipv4.hdr … icmpv6.hdr),
tcp.flags, tcp.mss, tcp.wscale, icmpv6.mtu, vlan.id, vlan.layers, flow.pkts, flow.bytes,
flow.age and the rule protocols tcp-pkt, tcp-stream, ipv4, ipv6, icmpv4, icmpv6: a packet
built to match each, and a near miss."""
import pytest

from scapy.layers.inet import IP, TCP, UDP, ICMP, IPOption_NOP, IPOption_RR
from scapy.layers.inet6 import (IPv6, IPv6ExtHdrHopByHop, ICMPv6EchoRequest,
                                ICMPv6PacketTooBig)
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

from conftest import binary, eve_ip, run
from detect_helpers import CLI, SRV, Conv, detect, rule

V6C, V6S = "2001:db8::1", "2001:db8::2"


def syn(options=None, payload=b"", **kw):
    return IP(src=CLI, dst=SRV) / TCP(sport=40000, dport=80, flags="S", seq=1000,
                                      options=options or [], **kw) / Raw(payload)


def eth(pkts):
    """IPv4 and IPv6 packets in one capture: Ethernet frames."""
    return [Ether() / p for p in pkts]


def sids(tmp_path, pkts, rules, *args):
    return detect(tmp_path, pkts, rules, *args).sids


# ---- header sticky buffers ----

def test_ipv4_hdr_holds_the_header_with_its_options(tmp_path):
    # a 28-byte header: 20 fixed bytes, record route (07 07 04 01 02 03 04) and an EOL
    p = IP(src=CLI, dst=SRV, id=0x1234, options=[IPOption_RR(routers=["1.2.3.4"])]) / \
        UDP(sport=1, dport=2) / Raw(b"zz")
    hl = p.__class__(bytes(p)).ihl * 4
    assert hl == 28
    rules = [rule('ipv4.hdr; content:"|12 34|"; offset:4; depth:2;', sid=1, proto="ip"),
             rule('ipv4.hdr; content:"|07|"; offset:20; depth:1;', sid=2, proto="ip"),
             # the header ends before the UDP header and its payload
             rule('ipv4.hdr; content:"zz";', sid=3, proto="ip"),
             rule('ipv4.hdr; content:"|12 35|"; offset:4; depth:2;', sid=4, proto="ip"),
             rule('ipv4.hdr; content:"|01 02 03 04 00|"; endswith;', sid=5, proto="ip"),
             rule('ipv4.hdr; content:"|01 02 03 04|"; endswith;', sid=7, proto="ip"),
             # an IPv6 packet has no ipv4.hdr
             rule('ipv4.hdr; content:"|60|"; depth:1;', sid=6, proto="ip")]
    v6 = IPv6(src=V6C, dst=V6S) / UDP(sport=1, dport=2) / Raw(b"x")
    assert sids(tmp_path, eth([p, v6]), rules) == [1, 2, 5]


def test_ipv6_hdr_includes_the_extension_headers(tmp_path):
    p = IPv6(src=V6C, dst=V6S, hlim=64) / IPv6ExtHdrHopByHop() / UDP(sport=1, dport=2) / \
        Raw(b"payload")
    rules = [rule('ipv6.hdr; content:"|40|"; offset:7; depth:1;', sid=1, proto="ip"),
             # the hop-by-hop header (next header 17) closes the buffer: 48 bytes
             rule('ipv6.hdr; content:"|11 00|"; offset:40; endswith;', sid=2, proto="ip"),
             rule('ipv6.hdr; content:"|11 00 01 04 00 00 00 00|"; offset:40; depth:8;', sid=3,
                  proto="ip"),
             rule('ipv6.hdr; content:"payload";', sid=4, proto="ip"),
             rule('ipv6.hdr; content:"|41|"; offset:7; depth:1;', sid=5, proto="ip")]
    got = sids(tmp_path, [p], rules)
    raw = bytes(p)
    assert raw[40:48] == b"\x11\x00\x01\x04\x00\x00\x00\x00"  # scapy's padded hop-by-hop
    assert got == [1, 3]  # sid 2: endswith needs the buffer to end in 11 00; it ends in 00 00


def test_tcp_hdr_holds_the_options_and_relative_matches_stay_in_it(tmp_path):
    p = syn(options=[("MSS", 1460)], payload=b"\x02\x04")
    rules = [rule('tcp.hdr; content:"|00 50|"; offset:2; depth:2;', sid=1, proto="tcp-pkt"),
             rule('tcp.hdr; content:"|02 04 05 b4|"; offset:20; depth:4;', sid=2),
             rule('tcp.hdr; content:"|00 50|"; offset:2; depth:2; content:"|60 02|"; '
                  'distance:8; within:2;', sid=3),
             # the payload's 02 04 is not in the header: only the option at 20 is
             rule('tcp.hdr; content:"|02 04|"; offset:22;', sid=4),
             rule('tcp.hdr; content:"|02 04 05 b5|";', sid=5),
             # a UDP packet has no tcp.hdr
             rule('tcp.hdr; content:"|00 01|"; depth:2;', sid=6, proto="ip")]
    u = IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2) / Raw(b"x")
    assert sids(tmp_path, [p, u], rules) == [1, 2, 3]


def test_tcp_hdr_beside_a_payload_content_is_a_packet_rule(tmp_path):
    pkts = Conv().handshake().send(True, b"GET / HTTP/1.0\r\n\r\n").close().pkts
    rules = [rule('content:"GET"; tcp.hdr; content:"|00 50|"; offset:2; depth:2;', sid=1),
             rule('content:"GET"; tcp.hdr; content:"|00 51|"; offset:2; depth:2;', sid=2)]
    r = detect(tmp_path, pkts, rules)
    assert r.sids == [1]
    assert r.alerts[0]["pcap_cnt"] == 4  # the packet carrying GET


def test_udp_hdr_is_eight_bytes(tmp_path):
    p = IP(src=CLI, dst=SRV) / UDP(sport=1000, dport=53) / Raw(b"\x00\x08zz")
    rules = [rule('udp.hdr; content:"|00 0c|"; offset:4; depth:2;', sid=1, proto="udp"),
             rule('udp.hdr; content:"|03 e8 00 35|"; startswith;', sid=2, proto="udp"),
             rule('udp.hdr; content:"zz";', sid=3, proto="udp"),
             rule('udp.hdr; content:"|00 0d|"; offset:4; depth:2;', sid=4, proto="udp"),
             rule('udp.hdr; isdataat:8;', sid=5, proto="udp"),
             rule('udp.hdr; isdataat:!8;', sid=6, proto="udp")]
    assert sids(tmp_path, [p], rules) == [1, 2, 6]


def test_icmpv4_hdr(tmp_path):
    echo = IP(src=CLI, dst=SRV) / ICMP(type=8, id=7, seq=3) / Raw(b"ping")
    ts = IP(src=CLI, dst=SRV) / ICMP(type=13, id=1, seq=1, ts_ori=0x01020304) / Raw(b"pong")
    rules = [rule('icmpv4.hdr; content:"|08 00|"; depth:2; content:"|00 07 00 03|"; '
                  'distance:2; within:4; isdataat:!1,relative;', sid=1, proto="icmp"),
             rule('icmpv4.hdr; content:"ping";', sid=2, proto="icmp"),
             # a timestamp request's header holds its three timestamps: 20 bytes
             rule('icmpv4.hdr; content:"|0d 00|"; depth:2; content:"|01 02 03 04|"; '
                  'offset:8; depth:4;', sid=3, proto="icmp"),
             rule('icmpv4.hdr; content:"pong";', sid=4, proto="icmp")]
    assert sids(tmp_path, [echo, ts], rules) == [1, 3]


def test_icmpv6_hdr(tmp_path):
    p = IPv6(src=V6C, dst=V6S) / ICMPv6EchoRequest(id=0x0102, seq=5, data=b"abcd")
    v4 = IP(src=CLI, dst=SRV) / ICMP(type=128, id=0x0102, seq=5) / Raw(b"abcd")
    rules = [rule('icmpv6.hdr; content:"|80 00|"; depth:2; content:"|01 02 00 05|"; '
                  'endswith;', sid=1, proto="icmp"),
             rule('icmpv6.hdr; content:"abcd";', sid=2, proto="icmp")]
    r = detect(tmp_path, eth([p, v4]), rules)
    assert r.sids == [1]
    assert r.alerts[0]["src_ip"] == eve_ip(V6C)


# ---- tcp.flags, tcp.mss, tcp.wscale, icmpv6.mtu ----

@pytest.mark.parametrize("opt,count", [
    ("tcp.flags:S;", 1), ("tcp.flags:SA;", 1), ("tcp.flags:A+;", 9), ("tcp.flags:!A;", 1),
    ("tcp.flags:*SF;", 4), ("tcp.flags:S,12;", 1), ("tcp.flags:0;", 0),
])
def test_tcp_flags_is_flags(tmp_path, opt, count):
    from detect_helpers import http_conv
    assert len(detect(tmp_path, http_conv(), rule(opt)).alerts) == count


def test_tcp_mss_needs_the_option(tmp_path):
    pkts = [syn([("MSS", 500)]), syn([("MSS", 1460)]), syn(), syn([("MSS", 0)])]
    for p, sp in zip(pkts, (40001, 40002, 40004, 40003)):
        p[TCP].sport = sp
    rules = [rule("tcp.mss:<536;", sid=1), rule("tcp.mss:1460;", sid=2),
             rule("tcp.mss:400-600;", sid=3), rule("tcp.mss:!1460;", sid=4),
             rule("tcp.mss:0;", sid=5), rule("tcp.mss:!400-600;", sid=6)]
    r = detect(tmp_path, pkts, rules)
    hits = sorted((a["alert"]["signature_id"], a["src_port"]) for a in r.alerts)
    # no MSS option (40004): nothing matches, not even !1460; ranges exclude both ends
    assert hits == [(1, 40001), (1, 40003), (2, 40002), (3, 40001), (4, 40001), (4, 40003),
                    (5, 40003), (6, 40002), (6, 40003)]


def test_tcp_wscale(tmp_path):
    pkts = [syn([("WScale", 7)]), syn([("MSS", 1460)])]
    pkts[1][TCP].sport = 40009
    rules = [rule("tcp.wscale:7;", sid=1), rule("tcp.wscale:>7;", sid=2),
             rule("tcp.wscale:<=14;", sid=3)]
    r = detect(tmp_path, pkts, rules)
    assert sorted((a["alert"]["signature_id"], a["src_port"]) for a in r.alerts) == \
        [(1, 40000), (3, 40000)]


def test_icmpv6_mtu_of_packet_too_big(tmp_path):
    big = IPv6(src=V6S, dst=V6C) / ICMPv6PacketTooBig(mtu=1280) / Raw(b"\x60" + b"\x00" * 47)
    echo = IPv6(src=V6C, dst=V6S) / ICMPv6EchoRequest(id=1, seq=1)
    rules = [rule("icmpv6.mtu:<1500;", sid=1, proto="icmpv6"),
             rule("icmpv6.mtu:1280;", sid=2, proto="ip"),
             rule("icmpv6.mtu:>1280;", sid=3, proto="ip"),
             rule("icmpv6.mtu:!1500;", sid=4, proto="ip")]  # the echo has no MTU
    r = detect(tmp_path, eth([big, echo]), rules)
    assert r.sids == [1, 2, 4] and {a["src_ip"] for a in r.alerts} == {eve_ip(V6S)}


@pytest.mark.parametrize("opt,hit", [
    ("tos:x10;", True), ("tos:X10;", True), ("tos:!x10;", False), ("tos:x1;", False),
    ("tos:!x1;", True), ('id:"99";', True), ('id:"98";', False), ("id:99;", True),
])
def test_suricata_tos_and_id_spellings(tmp_path, opt, hit):
    p = IP(src=CLI, dst=SRV, tos=0x10, id=99) / ICMP(type=8) / Raw(b"x")
    assert sids(tmp_path, [p], rule(opt, proto="icmp")) == ([1] if hit else [])


# ---- vlan.id, vlan.layers ----

def vlan_frames():
    ip = IP(src=CLI, dst=SRV) / ICMP(type=8) / Raw(b"x")
    three = Ether() / Dot1Q(vlan=200) / Dot1Q(vlan=300) / Dot1Q(vlan=400) / ip
    one = Ether() / Dot1Q(vlan=300) / ip
    none = Ether() / ip
    return [three, one, none]


@pytest.mark.parametrize("opt,hits", [
    ("vlan.id:200,0;", [1]), ("vlan.id:300;", [1, 2]), ("vlan.id:400,-1;", [1]),
    ("vlan.id:300,-1;", [2]), ("vlan.id:0x12C,1;", [1]), ("vlan.id:!200,1;", [1]),
    ("vlan.id:!200,0;", [2]), ("vlan.id:!500,all;", [1, 2]), ("vlan.id:100-600,2;", [1]),
    ("vlan.id:<400,1;", [1]), ("vlan.id:>100,all;", [1, 2]), ("vlan.id:>200,all;", [2]),
    ("vlan.id:300,2;", []), ("vlan.id:300,any;", [1, 2]), ("vlan.id:200; prefilter;", [1]),
    ("vlan.layers:3;", [1]), ("vlan.layers:>0;", [1, 2]), ("vlan.layers:!1;", [1, 3]),
    ("vlan.layers:0;", [3]),
])
def test_vlan(tmp_path, opt, hits):
    r = detect(tmp_path, vlan_frames(), rule(opt, proto="ip"))
    assert sorted(a["pcap_cnt"] for a in r.alerts) == hits


# ---- flow.pkts, flow.bytes, flow.age ----

def udp_flow(n_ts, n_tc, size=100):
    pkts = []
    for i in range(max(n_ts, n_tc)):
        if i < n_ts:
            pkts.append(IP(src=CLI, dst=SRV) / UDP(sport=1111, dport=2222) / Raw(b"a" * size))
        if i < n_tc:
            pkts.append(IP(src=SRV, dst=CLI) / UDP(sport=2222, dport=1111) / Raw(b"b" * size))
    return pkts


@pytest.mark.parametrize("opt,hits", [
    # packets 1, 3, 5 go to the server, 2 and 4 to the client; each packet sees the flow's
    # counters with itself counted: (to server, to client) = (1,0) (1,1) (2,1) (2,2) (3,2)
    ("flow.pkts:toserver,=3;", [5]), ("flow.pkts:toclient,2;", [4, 5]),
    ("flow.pkts:either,2;", [3, 4, 5]), ("flow.pkts:toserver,>1;", [3, 4, 5]),
    ("flow.pkts:toserver,1-3;", [3, 4]), ("flow.pkts:toclient,<2;", [1, 2, 3]),
    ("flow.pkts:toserver,!1-3;", [1, 2, 5]), ("flow.pkts:toserver,1<>3;", [3, 4]),
    ("flow.pkts_toserver:3;", [5]), ("flow.pkts_toclient:>=1;", [2, 3, 4, 5]),
    # each datagram is 20 + 8 + 100 = 128 bytes
    ("flow.bytes:toserver,256;", [3, 4]), ("flow.bytes:toclient,>128;", [4, 5]),
    ("flow.bytes:either,>=384;", [5]), ("flow.bytes_toserver:<200;", [1, 2]),
    ("flow.bytes_toclient:256;", [4, 5]),
    ("flow.pkts:toserver,=3; flow.bytes:toclient,256;", [5]),
])
def test_flow_counters_include_the_current_packet(tmp_path, opt, hits):
    r = detect(tmp_path, udp_flow(3, 2), rule(opt, proto="udp"))
    assert sorted(a["pcap_cnt"] for a in r.alerts) == hits


@pytest.mark.parametrize("opt,hits", [
    ("flow.age:>15;", [3, 4]), ("flow.age:0;", [1]), ("flow.age:10;", [2]),
    ("flow.age:<=10;", [1, 2]), ("flow.age:5-25;", [2, 3]),
])
def test_flow_age_in_seconds(tmp_path, opt, hits):
    # one packet every 10 seconds
    r = detect(tmp_path, udp_flow(4, 0), rule(opt, proto="udp"), step=10.0)
    assert sorted(a["pcap_cnt"] for a in r.alerts) == hits


# ---- rule protocols ----

def test_tcp_pkt_inspects_packets_only_and_tcp_stream_the_stream_only(tmp_path):
    # "abc" + "def" in two segments, then "xyz" alone
    pkts = Conv().handshake().send(True, b"abcdef", seg=3).send(True, b"xyz").close().pkts
    rules = [rule('content:"cde";', sid=1, proto="tcp-pkt"),
             rule('content:"cde";', sid=2, proto="tcp-stream"),
             rule('content:"xyz"; depth:3;', sid=3, proto="tcp-pkt"),   # from the payload
             rule('content:"xyz"; depth:3;', sid=4, proto="tcp-stream"),  # from the stream
             rule('content:"xyz"; offset:6; depth:3;', sid=5, proto="tcp-stream"),
             rule('content:"def";', sid=6, proto="tcp-pkt")]
    r = detect(tmp_path, pkts, rules)
    assert r.sids == [2, 3, 5, 6]


def test_tcp_pkt_sees_data_on_a_syn(tmp_path):
    # TCP Fast Open: data on the SYN
    p = syn(payload=b"hello fast open")
    rules = [rule('content:"fast open";', sid=1, proto="tcp-pkt"),
             rule('content:"slow open";', sid=2, proto="tcp-pkt")]
    assert sids(tmp_path, [p], rules) == [1]


def test_ip_version_protocols(tmp_path):
    pkts = [IP(src=CLI, dst=SRV) / ICMP(type=8) / Raw(b"v4"),
            IPv6(src=V6C, dst=V6S) / ICMPv6EchoRequest(data=b"v6"),
            IP(src=CLI, dst=SRV) / UDP(sport=1, dport=2) / Raw(b"u4"),
            IPv6(src=V6C, dst=V6S) / UDP(sport=1, dport=2) / Raw(b"u6")]
    rules = [rule("", sid=1, proto="ipv4"), rule("", sid=2, proto="ipv6"),
             rule("", sid=3, proto="icmpv4"), rule("", sid=4, proto="icmpv6"),
             rule("", sid=5, proto="icmp"), rule("", sid=6, proto="ip4"),
             rule("", sid=7, proto="ip6")]
    r = detect(tmp_path, eth(pkts), rules)
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)
    assert got == [(1, 1), (1, 3), (2, 2), (2, 4), (3, 1), (4, 2), (5, 1), (5, 2),
                   (6, 1), (6, 3), (7, 2), (7, 4)]


# ---- bad rules ----

def test_malformed_arguments_reject_their_rule_only(tmp_path):
    rf = tmp_path / "bad.rules"
    rf.write_text("\n".join([
        rule("vlan.id:5000;", sid=1, proto="ip"),
        rule("vlan.id:5,3;", sid=2, proto="ip"),
        rule("flow.pkts:sideways,=3;", sid=3, proto="ip"),
        rule("flow.pkts:5;", sid=4, proto="ip"),
        rule("tcp.mss:<=>5;", sid=5),
        rule("tcp.mss:70000;", sid=6),
        rule("flow.age:>20;", sid=7, proto="ip"),
        rule("tos:x1g;", sid=8, proto="ip"),
        rule("tos:x100;", sid=9, proto="ip"),
        rule("tcp.mss:500-501;", sid=10),
        rule("tcp.mss:!>5;", sid=11),
    ]) + "\n")
    proc = run([binary("osprey"), "-T", "-S", str(rf)], check=False)
    assert proc.returncode == 1
    lines = [l.replace(str(tmp_path) + "/", "") for l in proc.stdout.splitlines()
             if l.startswith(str(tmp_path))]
    assert lines == [
        "bad.rules:1: sid 1: vlan.id: value 5000 out of range 0..4095 (col 48)",
        "bad.rules:2: sid 2: vlan.id: layer 3 out of range 0..2 (col 50)",
        "bad.rules:3: sid 3: flow.pkts: unknown direction 'sideways' (expected one of: "
        "toserver, toclient, either) (col 50)",
        "bad.rules:4: sid 4: flow.pkts: expected 'toserver|toclient|either,COMPARISON' "
        "(col 50)",
        "bad.rules:5: sid 5: tcp.mss: '<=>' is not a Suricata range (A-B or A<>B) (col 49)",
        "bad.rules:6: sid 6: tcp.mss: value 70000 out of range 0..65535 (col 49)",
        "bad.rules:8: sid 8: tos: expected 'x' and one or two hex digits (col 46)",
        "bad.rules:9: sid 9: tos: expected 'x' and one or two hex digits (col 44)",
        "bad.rules:10: sid 10: tcp.mss: range 500-501 holds no value (both ends are excluded) "
        "(col 50)",
        "bad.rules:11: sid 11: tcp.mss: '!' before a range only (col 50)",
    ]
    assert "    accepted            1" in proc.stdout  # flow.age:>20 loads; the others do not


def test_what_header_buffers_do_not_take_is_not_compiled(tmp_path):
    rules = [rule('tcp.hdr; to_lowercase; content:"|00 50|";', sid=1),
             rule('udp.hdr; bsize:8;', sid=2, proto="udp"),
             rule('tcp.hdr; content:"|00 50|"; offset:2; depth:2;', sid=3)]
    r = detect(tmp_path, [syn()], rules)
    assert "sid 1: not compiled: content: a transform on a packet header" in \
        r.proc.stderr
    assert "sid 2: not compiled: bsize: a buffer length on a packet header" in r.proc.stderr
    assert r.sids == [3]  # the other rules still load and run


def test_byte_variables_stay_in_their_header_buffer(tmp_path):
    rules = [rule("tcp.hdr; byte_extract:1,12,doff; byte_test:1,=,doff,12;", sid=1),
             rule("tcp.hdr; byte_extract:1,12,doff; byte_test:1,>,doff,12;", sid=2),
             # defined in ipv4.hdr, used in tcp.hdr: two runs, the variable would be lost
             rule("ipv4.hdr; byte_extract:1,9,proto; tcp.hdr; byte_test:1,=,proto,13;", sid=3),
             # defined and unused elsewhere: fine
             rule("ipv4.hdr; byte_math:bytes 1, offset 1, oper <<, rvalue 2, result tos4; "
                  "tcp.hdr; byte_test:1,=,0x02,13;", sid=4)]
    r = detect(tmp_path, [syn()], rules)
    assert "sid 3: not compiled: byte_test: a byte variable used in another buffer than the " \
        "one that defines it" in r.proc.stderr
    assert r.sids == [1, 4]


def test_tcp_stream_without_stream_options_is_not_compiled(tmp_path):
    rules = [rule("flags:S;", sid=1, proto="tcp-stream"),
             rule('content:"x";', sid=2, proto="tcp-stream")]
    r = detect(tmp_path, [syn()], rules)
    assert "sid 1: not compiled: protocol tcp-stream: a tcp-stream rule without payload " \
        "options on the stream" in r.proc.stderr
    assert "sid 2" not in r.proc.stderr
