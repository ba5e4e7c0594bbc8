"""http.request_header / http.response_header: Suricata's multi-buffers of one element per
header ("Name: value", no CRLF). A rule's contents, pcre and bsize on them hold within one
header; the fast pattern is looked for in each. Scapy conversations through `osprey -r`,
exact alerts for each match and near miss."""
import pytest

from detect_helpers import Conv, detect, rule

REQ = (b"GET /ws HTTP/1.1\r\nHost: example.com\r\nUser-Agent: Go-http-client/1.1\r\n"
       b"Connection: Upgrade\r\nSec-WebSocket-Key: abc123\r\n\r\n")
RESP = (b"HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Mon, 01 Jan 2024 00:00:00 GMT\r\n"
        b"Content-Length: 2\r\n\r\nok")


def http():
    return Conv(sport=40000, dport=80).handshake().send(True, REQ).send(False, RESP) \
        .close().pkts


@pytest.mark.parametrize("body,hit", [
    ('http.request_header; content:"Connection|3a 20|Upgrade";', True),
    ('http.request_header; content:"Connection|3a 20|Upgrade"; endswith;', True),
    ('http.request_header; content:"Host|3a 20|"; startswith;', True),
    ('http.request_header; content:"example.com"; startswith;', False),  # "Host: example.com"
    # one header at a time: no content spans two, no CRLF inside, each element's own ^ and $
    ('http.request_header; content:"Upgrade|0d 0a|";', False),
    ('http.request_header; content:"example.com"; content:"Upgrade";', False),
    ('http.request_header; content:"example.com"; http.request_header; content:"Upgrade";',
     True),                                       # two instances, two headers
    ('http.request_header; content:"Key|3a 20|"; pcre:"/^abc123$/R";', True),
    ('http.request_header; content:"Key|3a 20|"; pcre:"/^abc123\\x0d\\x0a/R";', False),
    ('http.request_header; bsize:25;', True),     # "Sec-WebSocket-Key: abc123"
    ('http.request_header; bsize:26;', False),
    ('http.request_header; to_lowercase; content:"user-agent|3a 20|go";', True),
    ('http.request_header; content:"Server|3a 20|";', False),          # a response header
    ('http.response_header; content:"Server|3a 20|nginx"; bsize:13;', True),
    ('http.response_header; content:"Date|3a 20|Mon"; startswith;', True),
    ('http.response_header; content:"nginx"; content:"Date";', False),
    ('http.response_header; content:"User-Agent";', False),           # a request header
])
def test_header_multibuffer(tmp_path, body, hit):
    r = detect(tmp_path, http(), [rule(f"flow:established; {body}", sid=9)]).sids
    assert r == ([9] if hit else [])


def test_fast_pattern_in_one_element_and_others_in_another(tmp_path):
    # the fast pattern and the rule's other buffer agree, and the header list holds alone
    rules = [rule('http.stat_code; content:"200"; fast_pattern; '
                  'http.response_header; content:"Server|3a 20|";', sid=2),
             rule('http.stat_code; content:"200"; '
                  'http.response_header; content:"nginx"; fast_pattern;', sid=3),
             rule('http.stat_code; content:"200"; '
                  'http.response_header; content:"apache"; fast_pattern;', sid=4)]
    assert detect(tmp_path, http(), rules).sids == [2, 3]
