"""Fast patterns that are one byte repeated (|00 00 00 00 00|, "AAAA", |90 90 90|) in packet and
application buffers: their databases leave them out and a scan for runs of one byte finds them
(rules/compile/mpm_runs.c), with the bounds Hyperscan would apply and one report per buffer.
The stream kind's cases are in test_detect_stream_mpm.py."""
import json

from detect_helpers import Conv, detect, http_conv, rule, udp


def alerts(r):
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def raised(tmp_path, name):
    recs = [json.loads(l) for l in (tmp_path / f"{name}-log" / "eve.json").read_text().splitlines()]
    return [x for x in recs if x["event_type"] == "stats"][-1]["stats"]["osprey"]["detect"][
        "prefilter"]["raised"]


def test_packet_run_patterns_within_their_bounds(tmp_path):
    rules = [rule('content:"|00 00 00 00 00|"; depth:10;', sid=1, proto="udp"),
             rule('content:"|90 90 90|";', sid=2, proto="udp"),
             rule('content:"CCCCCCCCCCCCCCCCCCCC"; dsize:<300;', sid=3, proto="udp")]
    pkts = [udp(b"abcde" + b"\x00" * 5 + b"z"),     # 1: five zeros ending at 10
            udp(b"abcdef" + b"\x00" * 5),            # ending at 11: past depth 10
            udp(b"\x00" * 500),                      # 1: the run starts at 0
            udp(b"ab" + b"\x00" * 4 + b"c" + b"\x00" * 4),  # two runs of four: none of five
            udp(b"x" * 900 + b"\x90" * 3),           # 2: unbounded, at the end
            udp(b"\x90\x90-\x90\x90"),               # two runs of two
            udp(b"y" * 250 + b"C" * 20),             # 3: ends at 270, dsize 270 < 300
            udp(b"y" * 250 + b"C" * 60)]             # dsize 310: no
    r = detect(tmp_path, pkts, rules, name="pk")
    assert alerts(r) == [(1, 1), (1, 3), (2, 5), (3, 7)]
    # raised once per packet however long the run (packet 3's 500 zeros hold it 496 times):
    # packets 1, 3, 5, 7 and 8 (its C's end within 299, the bound dsize:<300 gives; the rule's
    # dsize then fails)
    assert raised(tmp_path, "pk") == 5


def test_application_buffer_run_patterns(tmp_path):
    body = b"hdr" + b"\x00" * 40 + b"tail"
    resp = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    rules = [rule('flow:to_client; file_data; content:"|00 00 00|";', sid=1),
             rule('flow:to_client; file_data; content:"|00 00 00 00 00 00 00 00|"; '
                  'content:"tail"; distance:0;', sid=2),
             rule('http.uri; content:"AAAA";', sid=3),
             rule('http.uri; content:"BBBB";', sid=4)]
    pk = http_conv(req=b"GET /xAAAAAAAy?q=BBB HTTP/1.1\r\nHost: x\r\n\r\n", resp=resp)
    r = detect(tmp_path, pk, rules, name="app")
    sids = sorted(s for s, _ in alerts(r))
    assert sids == [1, 2, 3]
    # a body without three zeros in a row, split over segments around two zeros
    body2 = b"a\x00\x00b" * 50
    resp2 = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body2) + body2
    c = Conv().handshake().send(True, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    c.send(False, resp2, seg=7)
    r = detect(tmp_path, c.close().pkts, rules[:1], name="app2")
    assert alerts(r) == []
