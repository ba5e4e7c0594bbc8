"""Suricata 8's transactional rules (`=>`): one rule on the request and the response of the
same HTTP transaction, checked when the response arrives; a sticky buffer both messages have
(http.connection, http.header, file.data …) takes `to_client` / `to_server` to pick the side
(the request's without one). Scapy conversations through `osprey -r`, exact alerts."""
import pytest

from detect_helpers import Conv, detect, rule

REQ = b"GET /download HTTP/1.1\r\nHost: example.com\r\nConnection: keep-alive\r\n\r\n"
RESP = (b"HTTP/1.1 200 OK\r\nServer: Apache\r\nConnection: close\r\n"
        b"Content-Length: 5\r\n\r\nhello")


def http():
    return Conv(sport=40000, dport=80).handshake().send(True, REQ).send(False, RESP) \
        .close().pkts


def tx(body, sid=4):
    return rule(body, sid=sid, proto="http", hdr="any any => any any")


@pytest.mark.parametrize("body,hit", [
    ('http.uri; content:"/download"; http.stat_code; content:"200";', True),
    ('http.uri; content:"/download"; http.stat_code; content:"404";', False),
    ('http.uri; content:"/upload"; http.stat_code; content:"200";', False),
    ('http.uri; content:"down"; http.server; content:"Apache"; fast_pattern;', True),
    ('http.uri; content:"up"; http.server; content:"Apache"; fast_pattern;', False),
    # the side of a two-sided buffer: the request's unless to_client
    ('http.uri; content:"/download"; http.connection; content:"keep-alive";', True),
    ('http.uri; content:"/download"; http.connection; content:"close";', False),
    ('http.uri; content:"/download"; http.connection: to_client; content:"close";', True),
    ('http.uri; content:"/download"; http.connection: to_client; content:"keep";', False),
    ('http.connection: to_server; content:"keep"; http.stat_code; content:"200";', True),
    ('http.connection: to_client; content:"close"; http.connection: to_server; '
     'content:"keep";', True),
    ('http.connection: to_client; content:"keep"; http.uri; content:"/download";', False),
    ('http.stat_code; content:"200"; file.data: to_client; content:"hello";', True),
])
def test_transactional_rule(tmp_path, body, hit):
    r = detect(tmp_path, http(), [tx(body)])
    assert r.sids == ([4] if hit else [])


def test_one_alert_per_transaction_and_the_arrow_kept(tmp_path):
    # a one-directional rule on the same buffers never sees both messages' sides at once
    rules = [tx('http.uri; content:"/download"; http.stat_code; content:"200";', sid=1),
             rule('flow:to_server; http.connection; content:"close";', sid=2, proto="http")]
    assert detect(tmp_path, http(), rules).sids == [1]


@pytest.mark.parametrize("bad", ['http.uri: to_both; content:"x";',
                                 'http.uri: request; content:"x";'])
def test_side_argument_checked(tmp_path, bad):
    r = detect(tmp_path, http(), [tx(bad, sid=9), tx('http.uri; content:"/download";', sid=3)],
               check=False)
    assert r.sids == [3]
    assert "sid 9" in r.proc.stderr
