"""libmon's core seen through osprey-trace --events: phase order, flow ends, orphans, port
reuse, one-sided flows, timeouts."""
from scapy.all import IP, TCP, UDP, Ether

from conftest import stamp

C, S = "10.0.0.1", "10.0.0.2"


def seg(src, dst, sport, dport, flags, seq, ack, data=b""):
    return Ether() / IP(src=src, dst=dst) / TCP(sport=sport, dport=dport, flags=flags, seq=seq, ack=ack) / data


def session(sport=40000, isn=100):
    return [seg(C, S, sport, 80, "S", isn, 0), seg(S, C, 80, sport, "SA", 900, isn + 1),
            seg(C, S, sport, 80, "A", isn + 1, 901), seg(C, S, sport, 80, "FA", isn + 1, 901),
            seg(S, C, 80, sport, "FA", 901, isn + 2), seg(C, S, sport, 80, "A", isn + 2, 902)]


def events(t, name=None):
    ev = [r for r in t.records if r.get("event_type") == "mon_event"]
    return [e for e in ev if name is None or e["event"] == name]


def test_first_packet_phase_order(trace):
    t = trace(stamp(session()), "--events")
    first = [(e["event"], e["side"]) for e in events(t) if e["pcap_cnt"] == 1]
    # sender phase (client): PKT_IN, CONN_START, its state change; then the receiver's change
    assert first == [("PKT_IN", "client"), ("CONN_START", "client"),
                     ("TCP_STATE_CHANGE", "client"), ("TCP_STATE_CHANGE", "server")]


def test_conn_end_once_per_connection(trace):
    t = trace(stamp(session()), "--events")
    ends = events(t, "CONN_END")
    assert len(ends) == 1 and ends[0]["pcap_cnt"] == 6
    assert (ends[0]["client_state"], ends[0]["server_state"]) == ("TIME_WAIT", "CLOSED")


def test_syn_reusing_closed_ports_starts_a_new_flow(trace):
    pkts = stamp(session() + session(isn=5000))
    t = trace(pkts, "--events")
    assert len(t.flows) == 2
    first, second = sorted(t.flows, key=lambda f: f["flow_id"])
    assert first["flow"]["reason"] == "forced" and first["flow"]["pkts_toserver"] == 4
    assert second["flow"]["pkts_toserver"] == 4 and second["flow"]["pkts_toclient"] == 2
    assert [e["flow_id"] for e in events(t, "CONN_START")] == [first["flow_id"], second["flow_id"]]
    assert len(events(t, "CONN_END")) == 2


def test_orphans_counted_per_packet_and_no_conn_end(trace):
    # midstream is off: a conversation seen without its handshake is three orphan packets
    pkts = stamp([seg(C, S, 1234, 80, "PA", 10, 10, b"a"), seg(S, C, 80, 1234, "A", 10, 11),
                  seg(C, S, 1234, 80, "PA", 11, 10, b"b")])
    t = trace(pkts, "--events")
    assert [e["event"] for e in events(t)] == ["ORPHAN"] * 3
    assert t.stats["tcp"]["orphans"] == 3
    assert t.stats["events"]["raised"]["CONN_END"] == 0


def test_one_sided_and_timeout_events(trace):
    pkts = [Ether() / IP(src=C, dst=S) / UDP(sport=5, dport=6) for _ in range(3)]
    for i, p in enumerate(pkts):
        p.time = 1000 + i
    pkts.append(Ether() / IP(src="10.9.9.9", dst=S) / UDP(sport=7, dport=8))
    pkts[-1].time = 1100
    t = trace(pkts, "--events", "--set", "flow-timeouts.udp.new=30")
    first = [e["event"] for e in events(t) if e.get("flow_id") == 1]
    assert first == ["PKT_IN", "CONN_START", "PKT_IN", "PKT_IN", "ONE_SIDED", "TIMEOUT", "CONN_END"]


def test_one_sided_after_threshold(trace):
    pkts = stamp([Ether() / IP(src=C, dst=S) / UDP(sport=5, dport=6) for _ in range(4)])
    t = trace(pkts, "--events", "--set", "stream.one-sided-packets=3")
    one = events(t, "ONE_SIDED")
    assert len(one) == 1 and one[0]["pcap_cnt"] == 3
