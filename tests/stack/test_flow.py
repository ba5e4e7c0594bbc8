"""Flow table seen through osprey-trace: direction, counters, timeouts, memcap, tunnels."""
from scapy.all import GRE, ICMP, IP, TCP, UDP, Dot1Q, Ether, ICMPv6EchoReply, ICMPv6EchoRequest, IPv6, Raw

from conftest import eve_ip, stamp

C, S = "10.0.0.1", "10.0.0.2"


def eth(p):
    return Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p


def handshake_and_data(c=C, s=S, sport=40000, dport=80, wrap=eth, ip=IP):
    return [
        wrap(ip(src=c, dst=s) / TCP(sport=sport, dport=dport, flags="S", seq=100)),
        wrap(ip(src=s, dst=c) / TCP(sport=dport, dport=sport, flags="SA", seq=900, ack=101)),
        wrap(ip(src=c, dst=s) / TCP(sport=sport, dport=dport, flags="A", seq=101, ack=901)),
        wrap(ip(src=c, dst=s) / TCP(sport=sport, dport=dport, flags="PA", seq=101, ack=901) / b"hello"),
        wrap(ip(src=s, dst=c) / TCP(sport=dport, dport=sport, flags="PA", seq=901, ack=106) / b"world!"),
        wrap(ip(src=c, dst=s) / TCP(sport=sport, dport=dport, flags="FA", seq=106, ack=907)),
        wrap(ip(src=s, dst=c) / TCP(sport=dport, dport=sport, flags="FA", seq=907, ack=107)),
    ]


def test_tcp_conversation_counts_both_directions(trace):
    pkts = stamp(handshake_and_data())
    t = trace(pkts)
    assert len(t.flows) == 1
    f = t.flows[0]
    assert (f["src_ip"], f["src_port"], f["dest_ip"], f["dest_port"], f["proto"]) == (C, 40000, S, 80, "TCP")
    fl = f["flow"]
    to_server = [p for p in pkts if p[IP].src == C]
    to_client = [p for p in pkts if p[IP].src == S]
    assert fl["pkts_toserver"] == 4 and fl["pkts_toclient"] == 3
    assert fl["bytes_toserver"] == sum(len(p) for p in to_server)
    assert fl["bytes_toclient"] == sum(len(p) for p in to_client)
    assert fl["state"] == "closed"
    assert fl["reason"] == "shutdown"
    assert fl["start"] == "2020-09-13T12:26:40.000000+0000"
    assert fl["end"] == "2020-09-13T12:26:40.006000+0000"
    assert f["tcp"]["tcp_flags"] == "1b"          # FIN SYN PSH ACK
    assert f["tcp"]["tcp_flags_ts"] == "1b" and f["tcp"]["tcp_flags_tc"] == "1b"
    assert "encapsulation" not in f
    assert t.stats["flow"]["created"] == 1 and t.stats["flow"]["tcp"] == 1


def test_first_synack_makes_its_sender_the_server(trace):
    pkts = stamp(handshake_and_data()[1:])  # capture missed the SYN
    f = trace(pkts).flows[0]
    assert (f["src_ip"], f["src_port"], f["dest_ip"], f["dest_port"]) == (C, 40000, S, 80)
    assert f["flow"]["pkts_toserver"] == 3 and f["flow"]["pkts_toclient"] == 3


def test_midstream_first_sender_is_client(trace):
    pkts = stamp(handshake_and_data()[4:])  # starts with the server's data
    f = trace(pkts).flows[0]
    assert (f["src_ip"], f["src_port"]) == (S, 80)


def test_udp_and_distinct_flows(trace):
    pkts = stamp([
        eth(IP(src=C, dst=S) / UDP(sport=5000, dport=53) / b"q1"),
        eth(IP(src=S, dst=C) / UDP(sport=53, dport=5000) / b"r1"),
        eth(IP(src=C, dst=S) / UDP(sport=5001, dport=53) / b"q2"),
        # swapped ports with the same addresses is another conversation
        eth(IP(src=C, dst=S) / UDP(sport=53, dport=5000) / b"x"),
    ])
    t = trace(pkts)
    keys = sorted((f["src_ip"], f["src_port"], f["dest_ip"], f["dest_port"],
                   f["flow"]["pkts_toserver"], f["flow"]["pkts_toclient"], f["flow"]["state"]) for f in t.flows)
    assert keys == sorted([
        (C, 5000, S, 53, 1, 1, "established"),
        (C, 5001, S, 53, 1, 0, "new"),
        (C, 53, S, 5000, 1, 0, "new"),
    ])
    assert t.stats["flow"]["udp"] == 3


def test_icmp_echo_request_and_reply_share_a_flow(trace):
    pkts = stamp([
        eth(IP(src=C, dst=S) / ICMP(type=8, id=77, seq=1)),
        eth(IP(src=S, dst=C) / ICMP(type=0, id=77, seq=1)),
        eth(IP(src=C, dst=S) / ICMP(type=8, id=78, seq=1)),
    ])
    t = trace(pkts)
    assert len(t.flows) == 2
    pair = [f for f in t.flows if f["flow"]["pkts_toclient"] == 1][0]
    assert pair["proto"] == "ICMP"
    assert (pair["icmp_type"], pair["icmp_code"], pair["response_icmp_type"]) == (8, 0, 0)
    assert "src_port" not in pair


def test_icmpv6_echo_flow(trace):
    pkts = stamp([
        eth(IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(id=5)),
        eth(IPv6(src="2001:db8::2", dst="2001:db8::1") / ICMPv6EchoReply(id=5)),
    ])
    f = trace(pkts).flows[0]
    assert (f["src_ip"], f["dest_ip"], f["proto"]) == (eve_ip("2001:db8::1"), eve_ip("2001:db8::2"),
                                                 "IPv6-ICMP")
    assert (f["icmp_type"], f["response_icmp_type"]) == (128, 129)


def test_ipv6_tcp_flow(trace):
    pkts = stamp(handshake_and_data(c="2001:db8::a", s="2001:db8::b", ip=IPv6))
    f = trace(pkts).flows[0]
    assert (f["src_ip"], f["dest_ip"], f["dest_port"]) == (eve_ip("2001:db8::a"), eve_ip("2001:db8::b"), 80)
    assert f["flow"]["pkts_toserver"] == 4


def test_idle_timeout_ends_flow_before_capture_end(trace):
    pkts = [
        eth(IP(src=C, dst=S) / UDP(sport=1, dport=2)),
        eth(IP(src=C, dst=S) / UDP(sport=1, dport=2)),
        eth(IP(src="10.9.9.9", dst=S) / UDP(sport=3, dport=4)),
    ]
    pkts[0].time, pkts[1].time, pkts[2].time = 1000.0, 1004.0, 1020.0
    t = trace(pkts, "--set", "flow-timeouts.udp.new=10")
    first = t.flows[0]
    assert first["src_port"] == 1 and first["flow"]["reason"] == "timeout"
    assert first["flow"]["pkts_toserver"] == 2
    assert t.flows[1]["flow"]["reason"] == "shutdown"
    assert t.stats["flow"]["ended"] == {"timeout": 1, "evicted": 0, "shutdown": 1}


def test_idle_timeouts_run_on_after_time_jumps_back(trace):
    """Captures appended one after another (mergecap -a, N copies of one): time jumps back,
    and the flows of the later part still time out on the flows' idle clock instead of piling
    up until the end; their records keep the packets' own times."""
    pkts = [
        eth(IP(src=C, dst=S) / UDP(sport=1, dport=2)),            # first capture, t=5000 s
        eth(IP(src="10.1.1.1", dst=S) / UDP(sport=3, dport=4)),   # second, back to t=100 s
        eth(IP(src="10.2.2.2", dst=S) / UDP(sport=5, dport=6)),   # 50 s on: the first two idle
        eth(IP(src="10.3.3.3", dst=S) / UDP(sport=7, dport=8)),   # 5 s on
    ]
    for p, t in zip(pkts, (5000.0, 100.0, 150.0, 155.0)):
        p.time = t
    t = trace(pkts, "--set", "flow-timeouts.udp.new=10")
    by_port = {f["src_port"]: f["flow"] for f in t.flows}
    assert by_port[1]["reason"] == "timeout" and by_port[3]["reason"] == "timeout"
    assert by_port[5]["reason"] == "shutdown" and by_port[7]["reason"] == "shutdown"
    assert by_port[3]["start"] == "1970-01-01T00:01:40.000000+0000"
    assert t.stats["flow"]["ended"] == {"timeout": 2, "evicted": 0, "shutdown": 2}


def test_one_packet_stamped_years_back_does_not_end_its_conversation(trace):
    """A single packet far back in time between packets of one conversation (a broken
    clock in the capture): the idle clock returns to the conversation without a leap."""
    pkts = stamp(handshake_and_data())
    pkts[1].time = pkts[1].time - 20 * 365 * 86400
    t = trace(pkts)
    assert len(t.flows) == 1 and t.flows[0]["flow"]["reason"] == "shutdown"
    assert t.flows[0]["flow"]["pkts_toserver"] == 4


def test_same_tuple_after_timeout_is_a_new_flow(trace):
    pkts = [eth(IP(src=C, dst=S) / UDP(sport=1, dport=2)) for _ in range(3)]
    pkts[0].time, pkts[1].time, pkts[2].time = 1000.0, 1100.0, 1200.0
    t = trace(pkts, "--set", "flow-timeouts.udp.new=30")
    assert [f["flow"]["pkts_toserver"] for f in t.flows] == [1, 1, 1]
    assert len({f["flow_id"] for f in t.flows}) == 3


def test_memcap_evicts_least_recently_seen(trace):
    # a memcap with room for the hash slots (8 bytes, one and a half per record rounded up to
    # a power of two: 8192) and the chunk table plus one chunk of 4096 records minus index 0
    n = 4200
    pkts = stamp([eth(IP(src=f"10.{i >> 8 & 255}.{i & 255}.1", dst=S) / UDP(sport=7, dport=9))
                  for i in range(n)], step=0.0001)
    record = trace(pkts[:1]).stats["memory"]["bytes_per_flow"]
    t = trace(pkts, "--set", "flow.hash-size=1024", "--set", "flow.prealloc=0",
              "--set", f"flow.memcap={8192 * 8 + 8 + 4096 * record}")
    st = t.stats["flow"]
    assert st["max_flows"] == 4095
    assert st["memcap_hits"] == n - 4095
    assert st["ended"]["evicted"] == n - 4095
    evicted = [f for f in t.flows if f["flow"]["reason"] == "forced"]
    assert [f["src_ip"] for f in evicted[:2]] == ["10.0.0.1", "10.0.1.1"]
    assert len(t.flows) == n


def test_tunnelled_flow_uses_innermost_tuple(trace):
    outer = lambda p: eth(IP(src="192.0.2.1", dst="192.0.2.2") / GRE() / p)
    pkts = stamp(handshake_and_data(wrap=outer))
    t = trace(pkts)
    assert len(t.flows) == 1
    f = t.flows[0]
    assert (f["src_ip"], f["dest_ip"], f["dest_port"]) == (C, S, 80)
    assert f["encapsulation"] == ["gre"]


def test_vlan_encapsulation_reported(trace):
    wrap = lambda p: Ether() / Dot1Q(vlan=10) / Dot1Q(vlan=20) / p
    t = trace(stamp(handshake_and_data(wrap=wrap)), "--packets")
    # a stack of tags is one encapsulation; the packets carry each tag
    assert t.flows[0]["encapsulation"] == ["vlan"]
    assert t.packets[0]["vlan"] == [10, 20]


def test_non_ip_frames_make_no_flow(trace):
    from scapy.all import ARP
    t = trace(stamp([Ether() / ARP(), Ether() / ARP(op=2)]))
    assert t.flows == []
    assert t.stats["decoder"]["outcomes"]["non_ip"] == 2
    assert t.stats["flow"]["created"] == 0


def test_stats_report_memory_per_flow(trace):
    t = trace(stamp(handshake_and_data()))
    mem = t.stats["memory"]
    assert mem["bytes_per_flow"] <= 264  # a TCP flow's record incl. both ends' state and its idle-clock stamp
    assert mem["flow_table"] > 0
