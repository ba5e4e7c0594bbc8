"""The `frame` keyword on Suricata's HTTP/1 frames: frame:http1.request and
frame:http1.response (or `frame:request` in an `http1` rule) are the whole message, start line,
headers with their empty line, and body, inspected once the message is complete (also when it
has no body); frame:dns.pdu is each DNS message as sent. Frames of protocols Osprey does not frame yet leave their rule out, the others
load. Scapy conversations through `osprey -r`, exact alerts."""
import struct

import pytest
from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import IP, UDP

from detect_helpers import CLI, SRV, Conv, detect, rule

GET = b"GET / HTTP/1.1\r\nHost: www.testmyids.com\r\nAccept: */*\r\n\r\n"       # 56 bytes
POST = b"POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\nname=evil"
RESP = b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nuid=0(root)\n"


def http(req):
    return Conv(sport=40000, dport=80).handshake().send(True, req).send(False, RESP) \
        .close().pkts


@pytest.mark.parametrize("req,body,hit", [
    (GET, 'flow:to_server; frame:http1.request; content:"GET / HTTP/1.1|0d 0a|Host"; '
          'startswith; bsize:56;', True),
    (GET, 'flow:to_server; frame:http1.request; bsize:55;', False),
    (GET, 'frame:http1.request; content:"|0d 0a 0d 0a|"; endswith;', True),
    (GET, 'frame:http1.request; strip_whitespace; content:"GET/HTTP/1.1Host:www"; '
          'startswith;', True),
    (POST, 'frame:http1.request; content:"|0d 0a 0d 0a|name=evil"; endswith;', True),
    (POST, 'frame:http1.request; content:"name=good";', False),
    (GET, 'flow:to_client; frame:http1.response; content:"uid=0|28|root|29|";', True),
    (GET, 'frame:http1.response; content:"HTTP/1.1 200"; startswith;', True),
    (GET, 'frame:http1.response; content:"Host";', False),       # the request's
    (GET, 'frame:http1.request; content:"uid=0";', False),       # the response's
])
def test_http1_frames(tmp_path, req, body, hit):
    assert detect(tmp_path, http(req), [rule(body, sid=6, proto="http")]).sids == \
        ([6] if hit else [])


def test_short_frame_name_takes_the_rule_protocol(tmp_path):
    rules = [rule('flow:to_client; frame:response; content:"uid=0";', sid=1, proto="http1"),
             rule('flow:to_server; frame:request; content:"uid=0";', sid=2, proto="http1")]
    assert detect(tmp_path, http(GET), rules).sids == [1]


def test_frame_protocol_by_any_of_its_names(tmp_path):
    """the protocol part of a frame name is any name the parsers register for it: `http`
    and `http1` are one protocol (frame:http.request is frame:http1.request), in full or
    under the rule's protocol"""
    rules = [rule('flow:to_client; frame:http.response; content:"uid=0";', sid=1),
             rule('flow:to_client; frame:response; content:"uid=0";', sid=2, proto="http"),
             rule('flow:to_server; frame:http.request; content:"uid=0";', sid=3)]
    assert detect(tmp_path, http(GET), rules).sids == [1, 2]


QUERY = bytes(DNS(id=0x1234, rd=1, qd=[DNSQR(qname="evil.example")]))


@pytest.mark.parametrize("tcp", [False, True])
@pytest.mark.parametrize("body,hit", [
    # the message as sent: header first, names in wire form; over TCP without its length
    ('frame:dns.pdu; content:"|12 34 01 00|"; startswith;', True),
    ('frame:dns.pdu; content:"|04|evil|07|example|00|";', True),
    ('frame:dns.pdu; content:"evil.example";', False),
    ('frame:dns.pdu; bsize:30;', True),                          # 12 + 14 + 4
    ('frame:dns.pdu; content:"|00 1e 12 34|";', False),          # never the TCP length
])
def test_dns_pdu_frame(tmp_path, tcp, body, hit):
    if tcp:
        pkts = Conv(sport=40002, dport=53).handshake() \
            .send(True, struct.pack("!H", len(QUERY)) + QUERY).close().pkts
    else:
        pkts = [IP(src=CLI, dst=SRV) / UDP(sport=5353, dport=53) / QUERY]
    assert detect(tmp_path, pkts, [rule(body, sid=3, proto="dns")]).sids == \
        ([3] if hit else [])


def test_unframed_protocol_leaves_its_rule_out(tmp_path):
    rules = [rule('frame:tls.pdu; content:"x";', sid=7, proto="tls"),
             rule('frame:http1.request; content:"GET";', sid=8, proto="http")]
    r = detect(tmp_path, http(GET), rules, check=False)
    assert r.sids == [8]
    assert "sid 7" in r.proc.stderr
