"""detect.stream-mpm: fast patterns on reassembled TCP data found by block-mode scans of the new
bytes ("block") or by one Hyperscan stream per flow side ("stream"). Both modes must raise
exactly the same alerts; each case runs in both and compares with the expected sids/packets."""
import pytest

from conftest import binary, run
from detect_helpers import Conv, rule
from detect_helpers import detect as _detect


def detect(*args, **kw):
    """Inline delivery (stream.inline: yes): these cases follow the stream matcher delivery by delivery,
    as each packet's bytes arrive; Suricata's IDS timing (the default) is
    test_stream_ack_delivery.py's."""
    return _detect(*args, "--set", "stream.inline=yes", **kw)

MODES = ["block", "stream"]


def alerts(tmp_path, mode, packets, rules):
    r = detect(tmp_path, packets, rules, "--set", f"detect.stream-mpm={mode}", name=mode)
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"], a["direction"]) for a in r.alerts)


def both(tmp_path, packets, rules):
    """Alerts of both modes; asserts they agree."""
    got = {m: alerts(tmp_path, m, packets, rules) for m in MODES}
    assert got["block"] == got["stream"]
    return got["stream"]


def conv(data, seg=None, order=None, client=True):
    c = Conv().handshake()
    c.send(client, data, seg=seg, order=order)
    return c.close().pkts


@pytest.mark.parametrize("mode", MODES)
def test_pattern_split_across_segments(tmp_path, mode):
    data = b"GET /" + b"x" * 20 + b"EVILPATTERN" + b"y" * 20
    # 7-byte segments: EVILPATTERN (offset 25..35) spans segments 3, 4 and 5
    got = alerts(tmp_path, mode, conv(data, seg=7), rule('content:"EVILPATTERN";'))
    assert [s for s, _, _ in got] == [1]
    # the alert comes with the segment completing the pattern: 3 handshake packets + 6th
    assert got[0][1] == 3 + 6


@pytest.mark.parametrize("mode", MODES)
def test_out_of_order_segments(tmp_path, mode):
    data = b"AAAAAAAA" + b"EVILPATT" + b"ERNBBBBB" + b"CCCCCCCC"
    # segment 2 (…ERN…) before segment 1 (EVILPATT): reassembly delivers them in order
    got = alerts(tmp_path, mode, conv(data, seg=8, order=[0, 2, 1, 3]),
                 rule('content:"EVILPATTERN";'))
    assert [s for s, _, _ in got] == [1]


@pytest.mark.parametrize("mode", MODES)
def test_split_near_miss_does_not_alert(tmp_path, mode):
    data = b"AAAAAAAA" + b"EVILPATT" + b"XRNBBBBB"
    assert alerts(tmp_path, mode, conv(data, seg=8), rule('content:"EVILPATTERN";')) == []


def test_other_contents_arriving_later_still_match(tmp_path):
    # the fast pattern is in the first data; the rule's other content arrives later
    c = Conv().handshake()
    c.send(True, b"LONGFASTPATTERN then ")
    c.send(True, b"more data with tail")
    pk = c.close().pkts
    got = both(tmp_path, pk, rule('content:"LONGFASTPATTERN"; content:"tail"; distance:0;'))
    assert [(s, n) for s, n, _ in got] == [(1, 6)]  # 3 + data, ack, data


def test_stream_offsets_and_relative_options_across_segments(tmp_path):
    data = b"HEADER01" + b"key=" + b"VALUE-" + b"12345" + b"\r\n"
    rules = [
        rule('content:"key=VALUE"; offset:8; depth:9;', sid=1),
        rule('content:"key=VALUE"; offset:9;', sid=2),
        rule('content:"key=VALUE"; content:"12345"; distance:1; within:5;', sid=3),
        rule('content:"key=VALUE"; pcre:"/^-\\d{5}/R";', sid=4),
        rule('content:"VALUE-"; content:!"99999";', sid=5),
    ]
    got = both(tmp_path, conv(data, seg=5), rules)
    assert sorted({s for s, _, _ in got}) == [1, 3, 4, 5]


def test_both_directions_and_one_alert_per_side(tmp_path):
    c = Conv().handshake()
    c.send(True, b"REQ SHAREDPATTERN one", seg=6)
    c.send(False, b"RSP SHAREDPATTERN two", seg=4)
    c.send(True, b"again SHAREDPATTERN", seg=3)
    got = both(tmp_path, c.close().pkts, rule('content:"SHAREDPATTERN";'))
    assert sorted(d for _, _, d in got) == ["to_client", "to_server"]


def test_long_stream_both_modes_agree(tmp_path):
    # 300 kB one way (over the 256 KiB inspected per side), acknowledged as it goes
    data = bytearray(b"z" * 300000)
    marks = {1: 1000, 2: 70000, 3: 140000, 4: 200000, 5: 262000, 6: 280000}
    for sid, pos in marks.items():
        data[pos:pos + 9] = b"MARK%05d" % sid
    rules = [rule('content:"MARK%05d";' % sid, sid=sid) for sid in marks]
    c = Conv().handshake()
    for i in range(0, len(data), 16384):
        c.send(True, bytes(data[i:i + 16384]), seg=1400)
    got = both(tmp_path, c.close().pkts, rules)
    # every mark inside the 256 KiB inspected per side alerts; the one past it does not
    assert sorted(s for s, _, _ in got) == [1, 2, 3, 4, 5]


def test_many_flows_with_many_patterns(tmp_path):
    pk = []
    for i in range(20):
        c = Conv(sport=41000 + i).handshake()
        c.send(True, b"prefix PATA%02d middle PATB%02d end" % (i, i), seg=5 + i % 7)
        pk += c.close().pkts
    rules = [rule('content:"PATA%02d"; content:"PATB%02d"; distance:0;' % (i, i), sid=100 + i)
             for i in range(0, 20, 2)]
    got = both(tmp_path, pk, rules)
    assert sorted(s for s, _, _ in got) == list(range(100, 120, 2))


def test_unknown_mode_is_refused(tmp_path):
    p = run([binary("osprey"), "--set", "detect.stream-mpm=bogus", "-T", "-S", "/dev/null"],
            check=False)
    assert p.returncode != 0


# Patterns of one byte repeated (a run: "AAAA…", |00 00 00 00|, |90 90 90|) are found by a
# scan for runs of one byte rather than by the side's Hyperscan stream, which would report them
# at every byte of a long run (mpm_runs.c); block mode keeps them in Hyperscan. Both must agree.
RUNS = (b"GET /" + b"A" * 15 + b"-" + b"A" * 20 + b" " + b"\x00\x00\x00" + b"." +
        b"\x90" * 5 + b"Aa" * 4 + b" end")


@pytest.mark.parametrize("mode", MODES)
def test_run_patterns_split_across_segments(tmp_path, mode):
    rules = [
        rule('content:"%s";' % ("A" * 16), sid=1),        # the second run holds it
        rule('content:"%s";' % ("A" * 21), sid=2),        # no run is that long
        rule('content:"|00 00 00 00|";', sid=3),          # three zeros only
        rule('content:"|00 00 00|";', sid=4),
        rule('content:"|90 90 90 90|"; nocase;', sid=5),
        rule('content:"%s"; content:"end"; distance:0;' % ("A" * 16), sid=6),
        rule('content:"aaaa"; nocase;', sid=7),           # "AaAaAaAa": a caseless letter run
        rule('content:"%s"; depth:20;' % ("A" * 16), sid=8),  # the first run is 15 long
    ]
    got = alerts(tmp_path, mode, conv(RUNS, seg=7), rules)
    # 7-byte segments after the 3 handshake packets (segment k is packet 4 + k): the 16th A of
    # the second run is byte 36 (segment 5), the third zero byte 44 (segment 6), the fourth
    # 0x90 byte 49 (segment 7), "end" ends at byte 62 (segment 8). sid 7 (caseless, without a
    # flow keyword) also matches each packet holding four letters a/A in a row on its own:
    # segments 1-5 (the A runs) and 7 ("AaAa" at 51-54)
    assert [(s, n) for s, n, _ in got] == [(1, 9), (4, 10), (5, 11), (6, 12)] + [
        (7, 4 + k) for k in (1, 2, 3, 4, 5, 7)]


@pytest.mark.parametrize("mode", MODES)
def test_run_growing_over_many_segments(tmp_path, mode):
    # a run of 44 B's sent one byte per segment: it holds the 44-byte pattern only at the last
    data = b"x" + b"B" * 44 + b"y"
    rules = [rule('content:"%s";' % ("B" * 44), sid=1), rule('content:"%s";' % ("B" * 45), sid=2)]
    got = alerts(tmp_path, mode, conv(data, seg=1), rules)
    assert [(s, n) for s, n, _ in got] == [(1, 3 + 45)]


def test_run_slid_out_of_the_window_is_not_raised(tmp_path):
    # a run at the start, then more than the 32 KiB inspection window before "TAIL": the first
    # rule's run is gone from the window when TAIL comes; a run just before TAIL still counts
    c = Conv().handshake()
    data = b"C" * 16 + b"z" * 40000 + b"D" * 16 + b"TAIL"
    for i in range(0, len(data), 8192):
        c.send(True, data[i:i + 8192], seg=1400)
    rules = [rule('content:"%s"; content:"TAIL"; distance:0;' % ("C" * 16), sid=1),
             rule('content:"%s"; content:"TAIL"; distance:0;' % ("D" * 16), sid=2)]
    got = both(tmp_path, c.close().pkts, rules)
    assert [s for s, _, _ in got] == [2]


# Fast patterns that only a stream's first bytes can serve (every rule taking them bounds them
# with depth: a stream's positions count from its first byte) are found by a bounded pass over
# a side's first bytes instead of by its Hyperscan stream (mpm_heads.c); block mode keeps them
# in its databases. Both must agree. One byte per segment: no packet holds a pattern alone, so
# what alerts is the stream's (byte k of the data is packet 4 + k).
HEAD = b"\x03\x00\x13\x0e" + b"hello XY there" + b"PQPQPQ"
HEAD_RULES = [
    rule('content:"|03 00 13|"; depth:3;', sid=1),         # bytes 0-2
    rule('content:"|00 13|"; depth:2;', sid=2),            # ends at 3: past its depth
    rule('content:"|00 13|"; offset:1; depth:2;', sid=3),  # ends at 3: within
    rule('content:"XY"; depth:8;', sid=4),                 # bytes 10-11: past
    rule('content:"XY";', sid=5),                          # the same pattern anywhere
    rule('content:"|13 0e|hello"; depth:9;', sid=6),       # bytes 2-8
    rule('content:"PQPQ"; depth:20;', sid=7),              # first ends at 22: past
    rule('content:"PQPQ"; depth:22;', sid=8),              # ends at 22: within
]


@pytest.mark.parametrize("mode", MODES)
def test_head_patterns_split_across_segments(tmp_path, mode):
    got = alerts(tmp_path, mode, conv(HEAD, seg=1), HEAD_RULES)
    assert [(s, n) for s, n, _ in got] == [(1, 6), (3, 6), (5, 15), (6, 12), (8, 25)]


def test_head_patterns_to_the_client(tmp_path):
    # the server's side has its own head pass (its group's database)
    got = both(tmp_path, conv(HEAD, seg=1, client=False), HEAD_RULES)
    assert sorted({s for s, _, _ in got}) == [1, 3, 5, 6, 8]
    assert all(d == "to_client" for _, _, d in got)


def test_head_pattern_later_in_the_stream_does_not_alert(tmp_path):
    # the bounded pattern again far into the stream (a second request): not at its start
    c = Conv().handshake()
    c.send(True, b"hello there, " * 40, seg=100)
    c.send(True, b"\x03\x00\x13 and more", seg=1)
    got = both(tmp_path, c.close().pkts, [rule('content:"|03 00 13|"; depth:3;', sid=1),
                                          rule('content:"|03 00 13|"; depth:600;', sid=2)])
    assert [s for s, _, _ in got] == [2]


def test_head_patterns_under_ack_delivery(tmp_path):
    # Suricata's IDS timing (the default): the same rules, the same alerts by sid
    r = _detect(tmp_path, conv(HEAD, seg=1), HEAD_RULES, name="ack")
    assert sorted({a["alert"]["signature_id"] for a in r.alerts}) == [1, 3, 5, 6, 8]


def test_application_rule_keeps_a_pattern_a_stream_rule_bounds(tmp_path):
    # an application rule's payload content (after pkt_data) is found through the stream
    # matcher: the same pattern with depth in a TCP rule must not make it a head pattern (the
    # request has it past byte 8)
    req = b"GET /index.html?q=XYZW HTTP/1.1\r\nHost: example.org\r\n\r\n"
    c = Conv().handshake()
    c.send(True, req, seg=3)  # XYZW (bytes 18-21) in no one packet: no packet twin matches
    c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    rules = [rule('http.method; content:"GET"; pkt_data; content:"XYZW";', sid=1, proto="http"),
             rule('content:"XYZW"; depth:8;', sid=2)]
    got = both(tmp_path, c.close().pkts, rules)
    assert [s for s, _, _ in got] == [1]


@pytest.mark.parametrize("mode", MODES)
def test_orphan_payload_one_pass(tmp_path, mode):
    # a mid-session ACK no connection takes (midstream off): its payload is the receiving
    # side's only bytes, scanned in stream mode by one block database of every stream pattern
    # (bounds, runs and port-bound ones included) instead of a stream opened for it
    from scapy.layers.inet import IP, TCP
    data = b"\x03\x00\x13 hello AAAAAAAA" + b"x" * 300 + b"\x03\x00\x13"
    pkt = IP(src="10.1.0.1", dst="10.1.0.2") / TCP(sport=40000, dport=80, flags="A") / data
    rules = [
        rule('content:"|03 00 13|"; depth:3;', sid=1),             # at the start
        rule('content:"|03 00 13|"; offset:4; depth:300;', sid=2),  # only at 322: past
        rule('content:"AAAAAAAA";', sid=3),                         # a run
        rule('content:"hello"; depth:5;', sid=4),                   # ends at 9: past
        rule('content:"lo A";', sid=5),
        rule('content:"|13 20|";', sid=6, hdr="any any -> any 8080"),  # weak, other port
        rule('content:"|13 20|";', sid=7, hdr="any any -> any 80"),
    ]
    got = alerts(tmp_path, mode, [pkt], rules)
    assert [(s, n) for s, n, _ in got] == [(1, 1), (3, 1), (5, 1), (7, 1)]
