"""flow, dsize and the rule header (addresses, ports, direction, protocol): match and near miss."""
import pytest

from scapy.layers.inet import IP, ICMP
from scapy.packet import Raw

from conftest import eve_ip

from detect_helpers import CLI, SRV, Conv, detect, http_conv, rule, udp


@pytest.mark.parametrize("flow,hit", [
    ("to_server", [1]), ("from_client", [1]), ("to_client", []), ("from_server", []),
    ("established,to_server", [1]), ("not_established", []), ("stateless", [1]),
    ("only_stream", [1]), ("no_stream", [1]),  # no_stream: the packet holding it matches
])
def test_flow_on_the_stream(tmp_path, flow, hit):
    # the request holds "GET": client to server, after the handshake
    r = detect(tmp_path, http_conv(), rule(f'flow:{flow}; content:"GET /";'))
    assert r.sids == hit


@pytest.mark.parametrize("flow,hit", [
    ("no_stream,to_server", [1]), ("no_stream,established", [1]),
    ("no_stream,to_client", []), ("no_stream,not_established", []),
])
def test_flow_no_stream_inspects_packets(tmp_path, flow, hit):
    r = detect(tmp_path, http_conv(), rule(f'flow:{flow}; content:"GET /";'))
    assert r.sids == hit


def test_flow_state_without_content_is_a_packet_rule(tmp_path):
    # SYN, SYN-ACK and the handshake's ACK are not established (as in Suricata, which sees the
    # state the packet finds: the server side is still SYN_RCVD); the other 7 of the 10 are
    rules = [rule("flow:not_established;", sid=1), rule("flow:established,to_client;", sid=2),
             rule("flow:established,to_server;", sid=3)]
    r = detect(tmp_path, http_conv(), rules)
    assert (r.sids.count(1), r.sids.count(2), r.sids.count(3)) == (3, 3, 4)


def test_udp_established_after_both_directions(tmp_path):
    pkts = [udp(b"q1"), udp(b"a1", src=SRV, dst=CLI, sport=53, dport=5353), udp(b"q2")]
    r = detect(tmp_path, pkts, [rule('flow:established,to_server; content:"q";', proto="udp"),
                                rule('flow:not_established; content:"q";', sid=2,
                                     proto="udp")])
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == [(2, 1), (1, 3)]


@pytest.mark.parametrize("dsize,hit", [
    ("5", True), ("!5", False), (">4", True), (">5", False), ("<6", True), ("<5", False),
    ("4<>6", True), ("5<>7", False), ("5<=>7", True),
])
def test_dsize(tmp_path, dsize, hit):
    r = detect(tmp_path, [udp(b"hello")], rule(f"dsize:{dsize};", proto="udp"))
    assert r.sids == ([1] if hit else [])


def test_dsize_with_content_on_tcp_inspects_the_packet(tmp_path):
    pkts = Conv().handshake().send(True, b"abcdef", seg=3).close().pkts
    r = detect(tmp_path, pkts, [rule('dsize:3; content:"def";', sid=1),
                                rule('dsize:3; content:"cde";', sid=2),
                                rule('dsize:6; content:"abc";', sid=3)])
    assert r.sids == [1]


@pytest.mark.parametrize("hdr,hit", [
    ("any any -> any any", True),
    ("10.0.0.1 any -> 10.0.0.2 53", True),
    ("10.0.0.2 any -> 10.0.0.1 any", False),
    ("10.0.0.2 any <> 10.0.0.1 any", True),
    ("10.0.0.0/24 5353 -> any any", True),
    ("!10.0.0.0/24 any -> any any", False),
    ("any any -> any [80,443]", False),
    ("any any -> any !80", True),
    ("$HOME_NET any -> any any", True),
    ("$EXTERNAL_NET any -> any any", False),
])
def test_header(tmp_path, hdr, hit):
    r = detect(tmp_path, [udp(b"hello")], rule('content:"ell";', proto="udp", hdr=hdr))
    assert r.sids == ([1] if hit else [])


def test_protocols(tmp_path):
    pkts = [udp(b"zz1"), IP(src=CLI, dst=SRV) / ICMP() / Raw(b"zz2")]
    rules = [rule('content:"zz";', sid=1, proto="udp"), rule('content:"zz";', sid=2,
                                                              proto="icmp"),
             rule('content:"zz";', sid=3, proto="ip"), rule('content:"zz";', sid=4,
                                                            proto="tcp")]
    r = detect(tmp_path, pkts, rules)
    assert r.sids == [1, 2, 3, 3]
    icmp = [a for a in r.alerts if a["alert"]["signature_id"] == 2][0]
    assert icmp["proto"] == "ICMP" and "src_port" not in icmp


def test_stream_header_uses_the_stream_direction(tmp_path):
    rules = [rule('content:"uid=0";', hdr="any 80 -> any any", sid=1),
             rule('content:"uid=0";', hdr="any any -> any 80", sid=2),
             rule('content:"uid=0";', hdr="any any <> any 80", sid=3)]
    r = detect(tmp_path, http_conv(), rules)
    assert r.sids == [1, 3]


def test_ipv6(tmp_path):
    from scapy.layers.inet6 import IPv6
    from scapy.layers.inet import UDP
    p = IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=1, dport=2) / Raw(b"six")
    r = detect(tmp_path, [p], [rule('content:"six";', proto="udp",
                                    hdr="2001:db8::/64 any -> any 2", sid=1),
                               rule('content:"six";', proto="udp",
                                    hdr="10.0.0.0/8 any -> any any", sid=2)])
    assert r.sids == [1]
    assert r.alerts[0]["src_ip"] == eve_ip("2001:db8::1")


def icmp_echo(id_=7, seq=3, type_=8, ttl=64, tos=0, ipid=99):
    return IP(src=CLI, dst=SRV, ttl=ttl, tos=tos, id=ipid) / ICMP(type=type_, id=id_, seq=seq) \
        / Raw(b"ping")


@pytest.mark.parametrize("opt,hit", [
    ("itype:8;", True), ("itype:0;", False), ("itype:>5;", True), ("icode:0;", True),
    ("icode:1;", False), ("icmp_id:7;", True), ("icmp_id:8;", False), ("icmp_seq:3;", True),
    ("icmp_seq:!3;", False), ("ttl:64;", True), ("ttl:<64;", False), ("ttl:60-70;", True),
    ("tos:16;", True), ("tos:0;", False), ("id:99;", True), ("id:100;", False),
])
def test_ip_and_icmp_header_options(tmp_path, opt, hit):
    r = detect(tmp_path, [icmp_echo(tos=16)], rule(opt, proto="icmp"))
    assert r.sids == ([1] if hit else [])


@pytest.mark.parametrize("opt,count", [
    ("flags:S;", 1), ("flags:SA;", 1), ("flags:A;", 4), ("flags:A+;", 9), ("flags:S+;", 2),
    ("flags:*SF;", 4), ("flags:!A;", 1), ("flags:PA;", 2), ("flags:S,12;", 1),
    ("flags:0;", 0), ("window:65535;", 10), ("window:!65535;", 0), ("seq:1000;", 1),
    ("ack:1001;", 1),
    # Suricata's own spellings
    ("tcp.window:65535;", 10), ("tcp.window:!65535;", 0), ("tcp.seq:1000;", 1),
    ("tcp.ack:1001;", 1), ("tcp.seq:1001;", 2),  # the handshake ACK and the request
])
def test_tcp_header_options(tmp_path, opt, count):
    # SYN, SYN-ACK, ACK, PA, A, PA, A, FA, FA, A: scapy's window is 8192
    r = detect(tmp_path, http_conv(), rule(opt))
    assert len(r.alerts) == count


def test_header_options_make_tcp_content_rules_packet_rules(tmp_path):
    pkts = Conv().handshake().send(True, b"abcdef", seg=3).close().pkts
    r = detect(tmp_path, pkts, [rule('flags:PA; content:"cde";', sid=1),
                                rule('flags:PA; content:"def";', sid=2)])
    assert r.sids == [2]


@pytest.mark.parametrize("opt,sids", [
    ("ip_proto:17;", [1]), ("ip_proto:udp;", [1]), ("ip_proto:!17;", [2]),
    ("ip_proto:<10;", [2]), ("ip_proto:>10;", [1]), ("sameip;", [2]),
])
def test_ip_proto_and_sameip(tmp_path, opt, sids):
    pkts = [udp(b"u"), IP(src=CLI, dst=CLI) / ICMP() / Raw(b"i")]
    r = detect(tmp_path, pkts, rule(opt, proto="ip"))
    assert [a["pcap_cnt"] for a in r.alerts] == sids


@pytest.mark.parametrize("opt,expect", [
    # bytes each end sent by sequence numbers, SYN and FIN included: the client sends a SYN
    # then "hello" (6 at the request), the server a SYN-ACK (1) then "welcome" (8)
    ("stream_size:client,=,6;", [1]),
    ("stream_size:client,>,6;", []),
    ("stream_size:server,<,5;", [1]),          # the server has sent nothing but its SYN-ACK
    ("stream_size:both,<=,6;", [1]),
    ("stream_size:either,>,5;", [1]),
    ("stream_size:both,>,5;", []),
    ("stream_size:>=6,to_server;", [1]),       # Snort 3: the client's direction
])
def test_stream_size(tmp_path, opt, expect):
    c = Conv().handshake().send(True, b"hello").send(False, b"welcome").close()
    r = detect(tmp_path, c.pkts, rule(f'flow:to_server; dsize:>0; {opt}', sid=1))
    assert r.sids == expect


def test_packets_of_a_connection_never_picked_up_still_meet_the_packet_rules(tmp_path):
    # the capture starts at the SYN-ACK: with midstream off libmon tracks no connection, but
    # Suricata inspects every packet: header rules (flags) and 'ip' content rules fire
    from scapy.layers.inet import TCP
    from scapy.packet import Raw
    sa = IP(src=SRV, dst=CLI) / TCP(sport=80, dport=40000, flags="SA", seq=1, ack=1)
    data = IP(src=SRV, dst=CLI) / TCP(sport=80, dport=40000, flags="PA", seq=2, ack=1) / \
        Raw(b"uid=0(root)")
    rules = [rule("flags:SA;", sid=1), rule('content:"uid=0(root)";', sid=2, proto="ip"),
             rule("flow:established;", sid=3)]
    assert detect(tmp_path, [sa, data], rules).sids == [1, 2]
    # stream.midstream-policy pass-flow: such a session is not inspected at all
    r = detect(tmp_path, [sa, data], rules, "--set", "stream.midstream-policy=pass-flow",
               name="p")
    assert r.sids == []
