"""HTTP/1 request-line progress: the method, URI and protocol (http.method, http.uri,
http.uri.raw, http.protocol, http.request_line) are inspected as soon as the request line is
in, before the rest of the head (libhtp's REQUEST_LINE progress, as Suricata inspects them:
the parsers' http_request_line event); a rule that also needs a header waits for the head.
The Suricata 8 hook `http1:request_line` runs a rule there."""
from detect_helpers import Conv, detect, rule

LINE = b"GET /admin/login.php HTTP/1.1\r\n"
HEAD = b"Host: example.com\r\nUser-Agent: probe/1.0\r\n\r\n"


def split_request():
    """The request line in one segment, the headers in two more (each segment ACKed)."""
    c = Conv(sport=40200, dport=80).handshake()
    c.send(True, LINE)                     # packet 4 (5: its ACK)
    c.send(True, HEAD[:18])                # 6
    c.send(True, HEAD[18:])                # 8
    return c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").close().pkts


def alerts(tmp_path, rules, pkts=None, name="t"):
    # inline delivery (stream.inline: yes): the request line's packet is inspected as it
    # arrives; in Suricata's IDS mode (the default) the same progress shows with the packet
    # after each segment's ACK (test_request_line_progress_in_ids_mode)
    r = detect(tmp_path, pkts or split_request(), rules, "--set", "stream.inline=yes", name=name)
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def test_request_line_buffers_are_inspected_on_the_line_packet(tmp_path):
    rules = [rule('http.method; content:"GET";', sid=1, proto="http"),
             rule('http.uri; content:"/admin/";', sid=2, proto="http"),
             rule('http.protocol; content:"HTTP/1.1";', sid=3, proto="http"),
             rule('http.request_line; content:"GET /admin";', sid=4, proto="http"),
             rule('http.uri.raw; content:"login.php";', sid=5, proto="http"),
             rule('http.uri; content:"/admin/"; http.host; content:"example";', sid=6,
                  proto="http"),
             rule('http.user_agent; content:"probe";', sid=7, proto="http")]
    assert alerts(tmp_path, rules) == [(1, 4), (2, 4), (3, 4), (4, 4), (5, 4), (6, 8), (7, 8)]


def test_a_request_that_comes_whole_alerts_once_per_rule(tmp_path):
    c = Conv(sport=40201, dport=80).handshake().send(True, LINE + HEAD)
    pkts = c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").close().pkts
    rules = [rule('http.uri; content:"/admin/";', sid=2, proto="http"),
             rule('http.uri; content:"/admin/"; http.host; content:"example";', sid=6,
                  proto="http")]
    assert alerts(tmp_path, rules, pkts) == [(2, 4), (6, 4)]


def test_near_miss_a_line_without_its_end_is_not_inspected_yet(tmp_path):
    c = Conv(sport=40202, dport=80).handshake()
    c.send(True, b"GET /admin/login.php HT")          # 4: the line is not whole
    c.send(True, b"TP/1.1\r\n" + HEAD)                # 6
    pkts = c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").close().pkts
    assert alerts(tmp_path, [rule('http.uri; content:"/admin/";', sid=2, proto="http")],
                  pkts) == [(2, 6)]


def test_the_request_line_hook(tmp_path):
    rules = ['alert http1:request_line any any -> any any (msg:"h"; http.uri; '
             'content:"/admin/"; sid:9;)',
             'alert http1:request_line any any -> any any (msg:"h2"; sid:10;)']
    assert alerts(tmp_path, rules) == [(9, 4), (10, 4)]


def test_the_http_progress_hooks_run_once_per_transaction(tmp_path):
    c = Conv(sport=40203, dport=80).handshake().send(True, LINE + HEAD)
    c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n").send(False, b"abc")
    c.send(True, b"GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
    c.send(False, b"HTTP/1.1 404 NF\r\nContent-Length: 0\r\n\r\n")
    hooks = ["request_line", "request_headers", "request_complete", "response_headers",
             "response_complete"]
    rules = [f'alert http1:{h} any any -> any any (msg:"{h}"; sid:{i + 1};)'
             for i, h in enumerate(hooks)]
    rules.append('alert http1:response_headers any any -> any any (msg:"x"; '
                 'http.stat_code; content:"404"; sid:9;)')
    got = alerts(tmp_path, rules, c.close().pkts)
    assert sorted(s for s, _ in got) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 9]


def test_request_line_progress_in_ids_mode(tmp_path):
    """IDS mode (the default): the line (4) is parsed at its ACK (5) and its buffers are
    inspected with the client's next packet (6), before the head is complete (its last
    segment 8, ACKed by 9, inspected with the client's next packet)."""
    rules = [rule('http.uri; content:"/admin/";', sid=2, proto="http"),
             rule('http.user_agent; content:"probe";', sid=7, proto="http")]
    r = detect(tmp_path, split_request(), rules)
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)
    assert got[0] == (2, 6) and got[1][0] == 7 and got[1][1] > 9
