"""Stream rules inspect a sliding window of each side's stream (32 KiB before the new data),
while positions still count from the side's first byte: offsets and depths deep into a long
stream, matches across segments, and the 256 KiB inspection cap behave as with a copy of the
whole stream."""
import pytest

from detect_helpers import Conv, rule
from detect_helpers import detect as _detect


def detect(*args, **kw):
    """Inline delivery (stream.inline: yes): these cases follow the stream window delivery by delivery,
    as each packet's bytes arrive; Suricata's IDS timing (the default) is
    test_stream_ack_delivery.py's."""
    return _detect(*args, "--set", "stream.inline=yes", **kw)


def long_stream(marks, size=300_000, seg=1400):
    """A client stream of `size` filler bytes with each (offset, bytes) of marks written in."""
    data = bytearray(b"." * size)
    for off, b in marks:
        data[off:off + len(b)] = b
    c = Conv(dport=9000).handshake()
    for i in range(0, size, 28_000):  # the server acknowledges, as its 64 KiB window needs
        c.send(True, bytes(data[i:i + 28_000]), seg=seg)
    return c.close().pkts


# MARK at 60,000: when it arrives, the window no longer starts at the stream's first byte
@pytest.mark.parametrize("opts,hit", [
    ('content:"MARK"; offset:59000; depth:2000;', True),       # absolute, deep in the stream
    ('content:"MARK"; offset:60001;', False),                  # starts one byte too late
    ('content:"MARK"; depth:60003;', False),                   # ends one byte too early
    ('content:"MARK"; depth:60004;', True),
    ('content:"MARK"; content:"TAIL"; distance:100; within:10;', True),   # across segments
    ('content:"MARK"; content:"TAIL"; distance:0; within:100;', False),
    ('content:"MARK"; isdataat:20000,relative;', True),        # data that comes later
    ('content:"MARK"; pcre:"/^\\.{100}TAIL/R";', True),
    ('content:"MARK"; byte_test:1,=,46,0,relative;', True),    # the '.' after it
    ('content:"MARK"; byte_test:4,=,0x4d41524b,60000;', True), # absolute: MARK itself
    ('content:"MARK"; byte_test:4,=,0x4d41524b,59999;', False),
])
def test_positions_deep_in_a_long_stream(tmp_path, opts, hit):
    # only_stream: the stream chain alone (each packet's payload is inspected too otherwise,
    # with positions counted from the payload's start)
    pkts = long_stream([(60_000, b"MARK"), (60_104, b"TAIL")])
    r = detect(tmp_path, pkts, [rule(f"flow:to_server,only_stream; {opts}", sid=3)])
    assert r.sids == ([3] if hit else [])


def test_the_packet_chain_counts_from_the_payload(tmp_path):
    # MARK lies at 60,000 in the stream, at 60,000 % 1,400 = 1,200 in its packet
    pkts = long_stream([(60_000, b"MARK")])
    rules = [rule('flow:to_server; content:"MARK"; depth:1204;', sid=1),
             rule('flow:to_server; content:"MARK"; depth:1203;', sid=2),
             rule('flow:to_server; content:"MARK"; offset:59000; depth:2000;', sid=3)]
    assert detect(tmp_path, pkts, rules).sids == [1, 3]


def test_the_inspection_cap_still_holds(tmp_path):
    # 256 KiB into the stream, inspection stops: a mark past it is not seen
    pkts = long_stream([(100_000, b"EARLY"), (262_200, b"LATE!")])
    rules = [rule('flow:to_server; content:"EARLY";', sid=1),
             rule('flow:to_server; content:"LATE!";', sid=2)]
    assert detect(tmp_path, pkts, rules).sids == [1]


def test_each_side_alerts_once_on_the_stream_and_per_packet(tmp_path):
    pkts = long_stream([(40_000, b"MARK"), (200_000, b"MARK")])
    r = detect(tmp_path, pkts, [rule('flow:to_server,only_stream; content:"MARK";', sid=4),
                                rule('flow:to_server; content:"MARK";', sid=5)])
    assert [a["alert"]["signature_id"] for a in r.alerts] == [4, 5, 5]


def test_bytes_after_a_hole_are_inspected_when_the_flow_ends(tmp_path):
    # "VERY", 4 bytes never seen, "DATA"; the server acknowledges all 12 bytes and nobody
    # closes: at the flow's end the held bytes after the hole are reassembled and inspected,
    # on the flow-end pseudo packet (Suricata's "stream (flow timeout)"), numbered one past
    # the last frame
    c = Conv().handshake()
    c.raw(True, b"VERY", 0)
    c.raw(True, b"DATA", 8)
    c.seq[True] += 12
    c.pkts.append(c._pkt(False, "A"))
    r = detect(tmp_path, c.pkts, [rule('content:"DATA";', sid=3, proto="tcp-stream"),
                                  rule('content:"VERY";', sid=5, proto="tcp-stream")])
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)
    # VERY came in order: inspected on its own packet (4)
    assert got == [(3, 7), (5, 4)]


@pytest.mark.parametrize("flags,args,expect", [
    ("", ["--set", "stream.midstream=true"], [1, 4]),
    ("", [], [1, 4]),
    ("U", ["--set", "stream.midstream=true"], [1, 4]),
    ("PA", [], [1, 4]),  # a session not picked up for want of midstream: its packets still are
    ("A", [], [1, 4]),
])
def test_payload_of_a_tcp_packet_no_connection_takes_is_inspected(tmp_path, flags, args,
                                                                  expect):
    # a segment no TCP stack accepts (no ACK: no flags at all, or URG alone) starts no
    # connection, midstream or not, but Suricata still inspects the packet's payload: the TCP
    # payload rules' packet chains match, once; the stream-only rule, and a rule needing an
    # established session, do not. So is a mid-session ACK without midstream (IDS: the
    # midstream policy is ignore): no session, but its payload is inspected as a packet's.
    from scapy.layers.inet import IP, TCP
    pkt = IP(src="10.1.0.1", dst="10.1.0.2") / TCP(sport=80, dport=80, flags=flags) / b"hello"
    rules = [rule('content:"hello";', sid=1),
             rule('content:"hello";', sid=2, proto="tcp-stream"),
             rule('flow:established; content:"hello";', sid=3),
             rule('content:"hel"; content:"lo"; distance:0;', sid=4),
             rule('content:"bye";', sid=5)]
    r = detect(tmp_path, [pkt], rules, *args)
    assert sorted(a["alert"]["signature_id"] for a in r.alerts) == expect


def test_data_after_a_reset_is_inspected_as_a_packet(tmp_path):
    # after an accepted RST the connection is over: a later data segment is no stream data,
    # but its payload is still inspected by the packet chains
    c = Conv().handshake().send(True, b"first")
    c.pkts.append(c._pkt(True, "R"))
    c.raw(True, b"after the end", 0)
    r = detect(tmp_path, c.pkts, [rule('content:"after";', sid=1),
                                  rule('content:"after";', sid=2, proto="tcp-stream")])
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == [(1, 7)]
