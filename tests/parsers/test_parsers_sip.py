"""SIP (parsers/sip/): requests and responses over UDP and TCP as transactions, end to end —
detection by the first line (not the port), the sip.* buffers per direction (compact header
forms, repeated headers), SDP's sdp.* buffers, the SIP frames, `alert sip`, the EVE sip record
and object (validated against Suricata's EVE schema), app-layer.protocols.sip.enabled (the
core's switch, test_parsers_modes.py),
osprey-trace --app."""
import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "eve-schema.json"

SDP = (b"v=0\r\n"
       b"o=alice 1 1 IN IP4 10.0.0.1\r\n"
       b"s=call\r\n"
       b"c=IN IP4 10.0.0.1\r\n"
       b"b=AS:64\r\n"
       b"t=0 0\r\n"
       b"a=sendrecv\r\n"
       b"m=audio 4000 RTP/AVP 0\r\n"
       b"i=voice\r\n"
       b"a=rtpmap:0 PCMU/8000\r\n")
INVITE = (b"INVITE sip:bob@example.com SIP/2.0\r\n"
          b"v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1\r\n"
          b"f: \"Alice\" <sip:alice@example.com>;tag=1\r\n"
          b"t: <sip:bob@example.com>\r\n"
          b"To: <sip:carol@example.com>\r\n"
          b"Call-ID: 1@10.0.0.1\r\n"
          b"CSeq: 1 INVITE\r\n"
          b"User-Agent: Phone 1.0\r\n"
          b"c: application/sdp\r\n"
          b"l: " + str(len(SDP)).encode() + b"\r\n"
          b"\r\n" + SDP)
OK = (b"SIP/2.0 200 OK\r\n"
      b"Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1\r\n"
      b"From: \"Alice\" <sip:alice@example.com>;tag=1\r\n"
      b"To: <sip:bob@example.com>;tag=2\r\n"
      b"Content-Length: 0\r\n"
      b"\r\n")


def sip_udp(sport=5060, dport=5060, msgs=((True, INVITE), (False, OK))):
    return [udp(m, sport=sport, dport=dport) if c else
            udp(m, src="10.0.0.2", dst="10.0.0.1", sport=dport, dport=sport) for c, m in msgs]


def sip_tcp(dport=5060, seg=None):
    return Conv(sport=40060, dport=dport).handshake().send(True, INVITE, seg=seg) \
        .send(False, OK).close().pkts


RULES = [
    ('flow:to_server; sip.method; content:"INVITE"; bsize:6;', True),
    ('flow:to_server; sip.uri; content:"sip:bob@example.com"; bsize:19;', True),
    ('flow:to_server; sip.request_line; content:"INVITE sip:bob@example.com SIP/2.0"; '
     'bsize:34;', True),
    ('flow:to_client; sip.stat_code; content:"200"; bsize:3;', True),
    ('flow:to_client; sip.stat_msg; content:"OK"; bsize:2;', True),
    ('flow:to_client; sip.response_line; content:"SIP/2.0 200 OK"; bsize:14;', True),
    ('flow:to_client; sip.protocol; content:"SIP/2.0"; bsize:7;', True),
    ('flow:to_server; sip.from; content:"Alice";', True),          # compact "f"
    ('flow:to_server; sip.to; content:"carol";', True),            # the second To
    ('flow:to_client; sip.to; content:"carol";', False),
    ('flow:to_server; sip.via; content:"z9hG4bK1";', True),
    ('flow:to_server; sip.user_agent; content:"Phone 1.0"; bsize:9;', True),
    ('flow:to_server; sip.content_type; content:"application/sdp";', True),
    ('flow:to_client; sip.content_length; content:"0"; bsize:1;', True),
    ('sip.method; content:"200";', False),
    ('sdp.origin; content:"alice 1 1 IN IP4 10.0.0.1"; bsize:25;', True),
    ('sdp.session_name; content:"call"; bsize:4;', True),
    ('sdp.bandwidth; content:"AS:64";', True),
    ('sdp.attribute; content:"rtpmap";', False),                   # the media's attribute
    ('sdp.media.media; content:"audio 4000";', True),
    ('sdp.media.media_info; content:"voice";', True),
    ('sdp.session_info; content:"x";', False),
    ('flow:to_server; frame:sip.request.line; content:"SIP/2.0|0d 0a|"; endswith;', True),
    ('flow:to_server; frame:request.headers; content:"v:"; startswith; '
     'content:"|0d 0a|"; endswith;', True),
    ('flow:to_server; frame:request.body; content:"v=0"; startswith;', True),
    ('flow:to_client; frame:response.body; content:"x";', False),  # Content-Length: 0
    ('flow:to_client; frame:pdu; content:"SIP/2.0 200 OK|0d 0a|"; startswith;', True),
]


@pytest.mark.parametrize("body,hit", RULES)
def test_sip_rules_udp_and_tcp(tmp_path, body, hit):
    r = rule(body, sid=1, proto="sip")
    assert detect(tmp_path, sip_udp(), [r], name="u").sids == ([1] if hit else []), "udp"
    assert detect(tmp_path, sip_tcp(seg=50), [r], name="t").sids == ([1] if hit else []), "tcp"


def test_sip_by_content_not_port(tmp_path):
    rules = [rule('sip.method; content:"INVITE";', sid=1, proto="sip")]
    assert detect(tmp_path, sip_udp(sport=40000, dport=7000), rules, name="u").sids == [1]
    assert detect(tmp_path, sip_tcp(dport=7000), rules, name="t").sids == [1]
    # a request sent to the client is not taken as one (Suricata reads each way as one kind)
    wrong = sip_udp(msgs=((True, INVITE), (False, INVITE.replace(b"bob", b"eve"))))
    rules = [rule('sip.uri; content:"eve";', sid=2, proto="sip")]
    assert detect(tmp_path, wrong, rules, name="w").sids == []
    # a method outside the list: SIP with port 5060 as a hint only
    ext = INVITE.replace(b"INVITE sip", b"FOOBAR sip", 1)
    rules = [rule('sip.method; content:"FOOBAR";', sid=4, proto="sip")]
    assert detect(tmp_path, sip_udp(msgs=((True, ext),)), rules, name="e1").sids == [4]
    assert detect(tmp_path, sip_udp(sport=40000, dport=7000, msgs=((True, ext),)), rules,
                  name="e2").sids == []
    # not SIP: no sip rules run
    other = [udp(b"INVITE sip:bob HTTP/1.1\r\n\r\n", sport=5060, dport=5060)]
    assert detect(tmp_path, other, [rule('content:"INVITE";', sid=3, proto="sip")],
                  name="o").sids == []


def test_sip_disabled(tmp_path):
    rules = [rule('sip.method; content:"INVITE";', sid=1, proto="sip")]
    r = detect(tmp_path, sip_udp(), rules, "--set", "app-layer.protocols.sip.enabled=no")
    assert r.sids == []


def test_sip_eve_records(tmp_path):
    rules = ['alert sip any any -> any any (msg:"invite"; flow:to_server; sip.method; '
             'content:"INVITE"; sid:7;)']
    out = osprey_out(tmp_path, sip_udp(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,sip]")
    req, resp = out.of("sip")
    assert req["sip"] == {
        "method": "INVITE", "uri": "sip:bob@example.com", "version": "SIP/2.0",
        "request_line": "INVITE sip:bob@example.com SIP/2.0",
        "sdp": {"version": 0, "origin": "alice 1 1 IN IP4 10.0.0.1", "session_name": "call",
                "connection_data": "IN IP4 10.0.0.1", "bandwidths": ["AS:64"],
                "time_descriptions": [{"time": "0 0"}], "attributes": ["sendrecv"],
                "media_descriptions": [{"media": "audio 4000 RTP/AVP 0", "media_info": "voice",
                                        "attributes": ["rtpmap:0 PCMU/8000"]}]}}
    assert resp["sip"] == {"version": "SIP/2.0", "code": "200", "reason": "OK",
                           "response_line": "SIP/2.0 200 OK"}
    assert req["proto"] == "UDP" and req["src_port"] == 5060
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 7 and a["app_proto"] == "sip"
    assert a["sip"] == req["sip"]
    (f,) = out.of("flow")
    assert f["app_proto"] == "sip"
    v = Draft7Validator(json.loads(SCHEMA.read_text()))
    for rec in out.of("sip") + out.of("alert"):
        errors = [e.message for e in v.iter_errors(rec)]
        assert errors == [], errors
    tcp = osprey_out(tmp_path, sip_tcp(seg=7), rules, "--set",
                     "outputs.eve-log.types=[alert,sip]", name="tcp")
    assert [r["sip"].get("method", r["sip"].get("code")) for r in tcp.of("sip")] == \
        ["INVITE", "200"]
    assert all(r["proto"] == "TCP" for r in tcp.of("sip"))


def test_sip_trace(trace):
    a = app_trace(trace, sip_udp())
    assert [e["event"] for e in a.events] == ["app_detected", "sip_request", "sip_response"]
    req = a.bufs("sip_request")[0]
    assert req["sip.method"] == b"INVITE" and req["sip.to"] == [b"<sip:bob@example.com>", b"<sip:carol@example.com>"]
    assert a.bufs("sip_response")[0]["sip.stat_code"] == b"200"
    assert a.stats["flows"]["sip"] == 1 and a.stats["sip_messages"] == 2


# Snort 3's SIP keywords (the community rules' shapes): sip_method, sip_stat_code, sip_header
@pytest.mark.parametrize("body,hits", [
    ('content:"INVITE",nocase; sip_method:invite; service:sip;', 1),
    ("sip_method:options; service:sip;", 0),
    ("sip_method:options,invite; service:sip;", 1),
    ("sip_method:!invite; service:sip;", 0),         # the response has no method
    ("sip_method:!bye; service:sip;", 1),
    ('sip_stat_code:2; content:"SIP/2.0",nocase; service:sip;', 1),   # the 2xx class
    ("sip_stat_code:4; service:sip;", 0),
    ("sip_stat_code:180,200; service:sip;", 1),
    ('sip_header; content:"Call-ID: 1@10.0.0.1"; service:sip;', 1),
    ('sip_header; content:"INVITE sip:"; service:sip;', 0),        # the start line is not in it
    ('sip_header; content:"Content-Length: 0"; service:sip;', 1),   # the response's
])
def test_sip_snort3_keywords(tmp_path, body, hits):
    r = detect(tmp_path, sip_udp(), [rule(body, proto="udp")])
    assert r.sids == [1] * hits, body


def test_sip_snort3_keyword_errors(tmp_path):
    r = detect(tmp_path, sip_udp(), [rule("sip_method:frobnicate; service:sip;", sid=1,
                                          proto="udp"),
                                     rule("sip_method:!invite,bye; service:sip;", sid=2,
                                          proto="udp")], check=False)
    assert r.sids == []
    assert "unknown SIP method 'frobnicate'" in r.proc.stderr
    assert "a negated method must be the only one" in r.proc.stderr


def test_sip_tcp_gap_gives_the_flow_up(tmp_path):
    # Suricata's SIP over TCP does not accept gaps: a hole ends its app layer on the flow,
    # both ways, once the ACK that passes it is seen, and so does Osprey's. The client's
    # request after a lost one is not read (no rule, no record); the server's answers sent
    # before that moment are, and the stream's bytes are still inspected.
    bye = INVITE.replace(b"INVITE sip:", b"BYE sip:", 1).replace(b"INVITE\r\n", b"BYE\r\n")
    c = Conv(sport=40060, dport=5060).handshake()
    c.send(True, INVITE).send(False, OK)
    c.send(True, INVITE.replace(b"CSeq: 1", b"CSeq: 2"), order=[])    # never comes
    c.send(False, OK).send(True, bye)
    pkts = c.close().pkts
    rules = [rule('sip.method; content:"BYE";', sid=1, proto="sip"),
             rule('sip.method; content:"INVITE";', sid=2, proto="sip"),
             rule('sip.stat_code; content:"200";', sid=3, proto="sip"),
             rule('flow:to_server; content:"BYE sip:";', sid=4)]           # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [2, 3, 3, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[sip]", name="e")
    assert [("request_line" in r["sip"], "response_line" in r["sip"]) for r in out.of("sip")] \
        == [(True, False), (False, True), (False, True)]
    v = Draft7Validator(json.loads(SCHEMA.read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_sip_udp_lost_datagrams(tmp_path):
    # SIP's transactions are one message each way (Suricata's unidirectional ones): an
    # INVITE whose answer was lost is a record alone. A 200 whose request was lost, opening
    # a flow of its own, is that flow's first datagram: the flow is SIP (by content) but its
    # client side is read as requests only (as Suricata reads each way as one kind), so the
    # answer is no transaction
    pkts = sip_udp(msgs=((True, INVITE),)) + sip_udp(sport=5062, msgs=((False, OK),))
    rules = [rule('sip.method; content:"INVITE";', sid=1, proto="sip"),
             rule('sip.stat_code; content:"200";', sid=2, proto="sip")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,flow,sip]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1]
    assert [r["sip"]["method"] for r in out.of("sip")] == ["INVITE"]
    assert [f["app_proto"] for f in out.of("flow")] == ["sip", "sip"]
    v = Draft7Validator(json.loads(SCHEMA.read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_sip_headers_limit(tmp_path, trace):
    # SIP_HEADERS_MAX (64) header lines of a message are read; past them each is counted
    # (sip_headers_shed) and not read: a header after them is in none of the sip.* header
    # buffers (Snort 3's sip_header is the raw header block: every line is in it), and the
    # message is still a transaction
    extra = b"".join(b"X-Pad-%d: %d\r\n" % (i, i) for i in range(70))
    msg = INVITE.replace(b"\r\n", b"\r\n" + extra + b"User-Agent: hidden\r\n", 1)
    pkts = sip_udp(msgs=((True, msg),))
    rules = [rule('sip.method; content:"INVITE";', sid=1, proto="sip"),
             rule('sip_header; content:"X-Pad-63:"; service:sip;', sid=2, proto="udp"),
             rule('sip_header; content:"X-Pad-64:"; service:sip;', sid=3, proto="udp"),
             rule('sip.user_agent; content:"hidden";', sid=4, proto="sip")]
    assert detect(tmp_path, pkts, rules).sids == [1, 2, 3]
    a = app_trace(trace, pkts)
    # the 70 pads, the hidden one and the INVITE's own header lines, less the 64 kept
    own = len(INVITE.split(b"\r\n\r\n")[0].split(b"\r\n")) - 1
    assert a.stats["sip_headers_shed"] == 70 + 1 + own - 64
