"""HTTP/2 (parsers/http2) end to end: detection by the client's preface (prior knowledge),
h2c (HTTP/1's 101 hands the flow over), the http.* buffers as Suricata maps them on HTTP/2
(`alert http` and rules naming no protocol run on both HTTP versions, `alert http1` on
HTTP/1 only), file.data on DATA, frame:http2.*, the http2.* frame keywords (once per
transaction and side; stream 0's frames each their own), Suricata's http2 app-layer events, and
the EVE http records with their http2 object (validated against Suricata's schema)."""
import json

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST, SETTINGS, PUSH, PING, GOAWAY, WINUPD, CONT = range(10)


def frame(ftype, flags, sid, payload=b""):
    return len(payload).to_bytes(3, "big") + bytes([ftype, flags]) + sid.to_bytes(4, "big") + \
        payload


def lit(name, value):
    """an HPACK literal field without indexing, no Huffman (names and values < 127 bytes)"""
    return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value


def settings(*pairs):
    return b"".join(i.to_bytes(2, "big") + v.to_bytes(4, "big") for i, v in pairs)


REQ = (b"\x82" + lit(b":path", b"/dl/payload.exe") + b"\x86" +        # GET, http
       lit(b":authority", b"files.example:8080") + lit(b"user-agent", b"nghttp2/1.0") +
       lit(b"cookie", b"SID=abc"))
RESP = b"\x88" + lit(b"content-type", b"application/octet-stream") + \
    lit(b"server", b"h2srv")
BODY = b"MZ\x90\x00 binary payload"


def exchange(extra_client=b"", extra_server=b"", req=REQ, resp=RESP, body=BODY):
    c = Conv(sport=41000, dport=8080).handshake()
    c.send(True, PREFACE + frame(SETTINGS, 0, 0, settings((3, 100), (4, 65535))))
    c.send(False, frame(SETTINGS, 0, 0, settings((3, 250))) + frame(SETTINGS, 1, 0))
    c.send(True, frame(SETTINGS, 1, 0) + frame(HEADERS, 0x25, 1, b"\x00\x00\x00\x00\xff" + req))
    c.send(False, frame(HEADERS, 4, 1, resp) + frame(DATA, 1, 1, body))
    if extra_client:
        c.send(True, extra_client)
    if extra_server:
        c.send(False, extra_server)
    c.send(True, frame(WINUPD, 0, 0, (34634).to_bytes(4, "big")) +
           frame(GOAWAY, 0, 0, b"\x00\x00\x00\x01\x00\x00\x00\x00"))
    return c.close().pkts


@pytest.mark.parametrize("body,proto,hits", [
    ('http.uri; content:"/dl/payload.exe"; bsize:15;', "http2", 1),
    ('http.uri; content:"/dl/payload.exe";', "http", 1),     # `alert http`: both versions
    ('http.uri; content:"/dl/payload.exe";', "tcp", 1),      # no protocol: both too
    ('http.uri; content:"/dl/payload.exe";', "http1", 0),    # HTTP/1 only
    ('http.method; content:"GET"; http.host; content:"files.example"; bsize:13;', "http2", 1),
    ('http.host.raw; content:"files.example:8080";', "http2", 1),
    ('http.user_agent; content:"nghttp2/";', "http", 1),
    ('http.cookie; content:"SID=abc";', "http2", 1),
    ('http.request_header; content:":authority: files.example"; startswith;', "http2", 1),
    ('http.request_header; content:"method: GET";', "http2", 1),
    ('flow:to_server; http.header; content:":path: /dl/payload.exe|0d 0a|";', "http2", 1),
    ('flow:to_client; http.header_names; content:"|0d 0a|:status|0d 0a|content-type|0d 0a|";'
     ' startswith;', "http2", 1),
    ('flow:to_client; http.header_names; strip_pseudo_headers; content:"|0d 0a|content-type";'
     ' startswith;', "http2", 1),
    ('http.stat_code; content:"200";', "http2", 1),
    ('http.response_header; content:"server: h2srv";', "http2", 1),
    ('file.data; content:"MZ"; startswith;', "http2", 1),
    ('http.response_body; content:"binary payload";', "http2", 1),
    ('http2.header_name; content:"user-agent"; bsize:10;', "http2", 1),
    ('flow:to_server; frame:http2.hdr; content:"|00 00 04 08 00 00 00 00 00|";', "http2", 1),
    ('http2.frametype:GOAWAY;', "http2", 1),
    ('http2.frametype:PING;', "http2", 0),
    ('http2.window:34634;', "http2", 1),
    ('http2.window:>40000;', "http2", 0),
    ('http2.errorcode:PROTOCOL_ERROR;', "http2", 0),   # the GOAWAY's code is NO_ERROR
    ('http2.errorcode:NO_ERROR;', "http2", 1),
    ('http2.settings:SETTINGS_MAX_CONCURRENT_STREAMS=100;', "http2", 1),
    ('http2.settings:SETTINGS_MAX_CONCURRENT_STREAMS>100;', "http2", 1),  # the server's 250
    ('http2.settings:SETTINGS_MAX_FRAME_SIZE;', "http2", 0),
    ('http2.priority:>250;', "http2", 1),
    ('app-layer-protocol:http2; content:"PRI * HTTP/2.0"; depth:14;', "tcp", 1),
])
def test_http2_rules(tmp_path, body, proto, hits):
    r = detect(tmp_path, exchange(), [rule(body, sid=1, proto=proto)])
    assert r.sids == [1] * hits, body


def test_http2_doh2_alias_and_http1_flows(tmp_path):
    # `alert doh2` is an HTTP/2 flow's; an HTTP/1 flow still runs `alert http` and `http1`
    rules = [rule('http.uri; content:"/dl/";', sid=1, proto="doh2"),
             rule('http.uri; content:"/index";', sid=2, proto="http"),
             rule('http.uri; content:"/index";', sid=3, proto="http1"),
             rule('http.uri; content:"/index";', sid=4, proto="http2")]
    h1 = Conv(sport=41001, dport=80).handshake().send(
        True, b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n").send(
        False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").close().pkts
    assert detect(tmp_path, exchange() + h1, rules).sids == [1, 2, 3]


def h2c():
    c = Conv(sport=41002, dport=80).handshake()
    c.send(True, b"GET /robots.txt HTTP/1.1\r\nHost: h2.example\r\nConnection: Upgrade, "
                 b"HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA"
                 b"\r\n\r\n")
    # the 101 and the server's first frames in one segment
    c.send(False, b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
                  b"Upgrade: h2c\r\n\r\n" + frame(SETTINGS, 0, 0, settings((3, 100))))
    c.send(True, PREFACE + frame(SETTINGS, 0, 0) + frame(SETTINGS, 1, 0))
    c.send(False, frame(HEADERS, 4, 1, b"\x88" + lit(b"content-type", b"text/plain")) +
           frame(DATA, 1, 1, b"User-agent: *\n"))
    c.send(True, frame(HEADERS, 5, 3, b"\x82\x86" + lit(b":path", b"/second") +
                       lit(b":authority", b"h2.example")))
    c.send(False, frame(HEADERS, 5, 3, b"\x8d"))  # :status 404
    return c.close().pkts


def test_h2c_upgrade(tmp_path):
    rules = [rule('http.stat_code; content:"101";', sid=1, proto="http1"),
             rule('flow:to_client; http.stat_code; content:"200";', sid=2, proto="http"),
             rule('file.data; content:"User-agent";', sid=3, proto="http2"),
             rule('http.uri; content:"/second";', sid=4, proto="http2"),
             rule('http.stat_code; content:"404";', sid=5, proto="http2"),
             rule('http2.settings:SETTINGS_MAX_CONCURRENT_STREAMS=100;', sid=6, proto="http2"),
             rule('http.uri; content:"/robots.txt";', sid=7, proto="http1")]
    assert detect(tmp_path, h2c(), rules).sids == [1, 2, 3, 4, 5, 6, 7]


def test_app_layer_protocol_original_and_final_on_h2c(tmp_path):
    # the upgrade decides the flow's protocol again: the detection-only rules look again;
    # original is HTTP/1 (the protocol before the change), final HTTP/2
    rules = [rule("app-layer-protocol:http1,original; app-layer-protocol:http2,final;", sid=1),
             rule("app-layer-protocol:http2,original;", sid=2),
             rule("app-layer-protocol:http1,either;", sid=3),
             rule("app-layer-protocol:http2;", sid=4)]
    # sid 3: HTTP/1 at the first decision, HTTP/1 as the original at the change
    assert detect(tmp_path, h2c(), rules).sids == [1, 3, 3, 4]


def events_rules():
    names = ["authority_host_mismatch", "userinfo_in_uri", "long_frame_data",
             "data_stream_zero", "invalid_frame_length", "invalid_header"]
    return [f'alert http2 any any -> any any (msg:"{n}"; app-layer-event:http2.{n}; '
            f'sid:{i};)' for i, n in enumerate(names, 1)]


def test_http2_events(tmp_path):
    assert detect(tmp_path, exchange(), events_rules()).sids == []
    bad = (lit(b":method", b"GET") + lit(b":path", b"/") +
           lit(b":authority", b"user:pw@a.example") + lit(b"host", b"b.example"))
    client = (frame(HEADERS, 5, 3, bad) + frame(DATA, 0, 0, b"x") +
              frame(PING, 0, 0, b"1234") + frame(HEADERS, 5, 5, b"\xff\xff\xff\xff\x7f"))
    server = frame(DATA, 0, 1, b"A" * 20000)  # past the default 16384 frame size
    assert detect(tmp_path, exchange(extra_client=client, extra_server=server),
                  events_rules(), name="b").sids == [1, 2, 3, 4, 5, 6]


def test_http2_eve_records(tmp_path):
    out = osprey_out(tmp_path, exchange(),
                     [rule('http.uri; content:"/dl/";', sid=9, proto="http2")],
                     "--set", "outputs.eve-log.types=[alert,http,flow]")
    recs = out.of("http")
    streams = [r["http"]["http2"]["stream_id"] for r in recs]
    assert streams == [0, 0, 0, 0, 1, 0, 0]  # settings ×4, the stream, window, goaway
    (s1,) = [r for r in recs if r["http"]["http2"]["stream_id"] == 1]
    assert s1["http"] == {
        "hostname": "files.example:8080", "url": "/dl/payload.exe",
        "http_user_agent": "nghttp2/1.0", "http_content_type": "application/octet-stream",
        "http_method": "GET", "status": 200, "length": len(BODY), "version": "2",
        "request_headers": [{"name": ":method", "value": "GET"},
                            {"name": ":path", "value": "/dl/payload.exe"},
                            {"name": ":scheme", "value": "http"},
                            {"name": ":authority", "value": "files.example:8080"},
                            {"name": "user-agent", "value": "nghttp2/1.0"},
                            {"name": "cookie", "value": "SID=abc"}],
        "response_headers": [{"name": ":status", "value": "200"},
                             {"name": "content-type", "value": "application/octet-stream"},
                             {"name": "server", "value": "h2srv"}],
        "http2": {"stream_id": 1, "request": {"priority": 255}}}
    assert s1["tx_id"] == 4
    first = recs[0]["http"]["http2"]
    assert first == {"stream_id": 0, "request": {"settings": [
        {"settings_id": "SETTINGSMAXCONCURRENTSTREAMS", "settings_value": 100},
        {"settings_id": "SETTINGSINITIALWINDOWSIZE", "settings_value": 65535}]}}
    assert recs[-1]["http"]["http2"] == {"stream_id": 0, "request": {"error_code": "NOERROR"}}
    (a,) = out.of("alert")
    assert a["app_proto"] == "http2" and a["http"]["url"] == "/dl/payload.exe"
    (f,) = out.of("flow")
    assert f["app_proto"] == "http2"
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in recs + [a]:
        assert not list(v.iter_errors(r)), r


def dns_query(name):
    q = b"".join(bytes([len(l)]) + l for l in name.split(b".")) + b"\x00\x00\x01\x00\x01"
    return b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00" + q


def doh(get=False):
    import base64
    msg = dns_query(b"www.gstatic.com")
    c = Conv(sport=41003, dport=443).handshake()
    c.send(True, PREFACE + frame(SETTINGS, 0, 0))
    if get:
        path = b"/dns-query?dns=" + base64.urlsafe_b64encode(msg).rstrip(b"=")
        c.send(True, frame(HEADERS, 5, 1, b"\x82\x86" + lit(b":path", path) +
                           lit(b":authority", b"dns.google")))
    else:
        c.send(True, frame(HEADERS, 4, 1, b"\x83\x86" + lit(b":path", b"/dns-query") +
                           lit(b":authority", b"dns.google") +
                           lit(b"content-type", b"application/dns-message")) +
               frame(DATA, 1, 1, msg))
    c.send(False, frame(HEADERS, 5, 1, b"\x88" + lit(b"content-type", b"text/plain")))
    return c.close().pkts


@pytest.mark.parametrize("get", [False, True])
def test_dns_over_http2(tmp_path, get):
    # the DNS message (a POST's DATA, a GET's ?dns=) decoded by the DNS folder: dns.query on
    # the HTTP/2 flow (`alert doh2`, `alert http2`, and `alert dns` rules on DNS buffers); an
    # `alert dns` rule without them stays DNS flows'
    rules = [rule('dns.query; content:"www.gstatic.com"; bsize:15;', sid=1, proto="doh2"),
             rule('dns.query; content:"www.gstatic.com";', sid=2, proto="http2"),
             rule('dns.query; content:"www.google.com";', sid=3, proto="doh2"),
             rule('http.request_header; content:"authority|3a 20|dns.google";', sid=4,
                  proto="doh2"),
             rule('dns.query; content:"gstatic";', sid=5, proto="dns"),
             rule('content:"PRI";', sid=6, proto="dns")]
    assert detect(tmp_path, doh(get), rules).sids == [1, 2, 4, 5]


def test_dns_over_http2_too_long(tmp_path):
    c = Conv(sport=41004, dport=443).handshake()
    c.send(True, PREFACE + frame(HEADERS, 4, 1, b"\x83\x86" + lit(b":path", b"/dns") +
                                 lit(b"content-type", b"application/dns-message")))
    for k in range(5):  # 5 × 16,000 bytes: past one UDP message
        c.send(True, frame(DATA, 1 if k == 4 else 0, 1, b"A" * 16000))
    rules = ['alert http2 any any -> any any (msg:"long"; flow:to_server; '
             'app-layer-event:http2.dns_request_too_long; sid:1;)']
    assert detect(tmp_path, c.close().pkts, rules).sids == [1]


def test_http2_server_push(tmp_path):
    # a PUSH_PROMISE carries the request of the stream it reserves (decoded with the server's
    # table): that stream is a transaction with the promised request and its response
    push = frame(PUSH, 4, 1, b"\x00\x00\x00\x02" + b"\x82\x86" + lit(b":path", b"/style.css") +
                 lit(b":authority", b"files.example"))
    pushed = frame(HEADERS, 4, 2, b"\x88" + lit(b"content-type", b"text/css")) + \
        frame(DATA, 1, 2, b"body{}")
    rules = [rule('http.uri; content:"/style.css";', sid=1, proto="http2"),
             rule('flow:to_client; file.data; content:"body{}";', sid=2, proto="http2"),
             rule('http.uri; content:"/style.css"; http.stat_code; content:"200";', sid=3,
                  proto="http")]
    out = osprey_out(tmp_path, exchange(extra_server=push + pushed), rules,
                     "--set", "outputs.eve-log.types=[alert,http]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2, 3]
    (p,) = [r for r in out.of("http") if r["http"]["http2"]["stream_id"] == 2]
    assert p["http"]["url"] == "/style.css" and p["http"]["status"] == 200


def test_h2c_flow_record(tmp_path):
    # the flow ends as http2; what it was before the 101 is app_proto_orig (Suricata's key)
    out = osprey_out(tmp_path, h2c(), [], "--set", "outputs.eve-log.types=[flow,http]")
    (f,) = out.of("flow")
    assert (f["app_proto"], f["app_proto_orig"]) == ("http2", "http")
    urls = [r["http"].get("url") for r in out.of("http")]
    assert urls[0] == "/robots.txt" and "/second" in urls  # HTTP/1's, then HTTP/2's
    (plain,) = osprey_out(tmp_path, exchange(), [], "--set", "outputs.eve-log.types=[flow]",
                          name="p").of("flow")
    assert plain["app_proto"] == "http2" and "app_proto_orig" not in plain


def test_shared_fast_patterns(tmp_path):
    # HTTP/2's http.uri patterns are a subsequence of HTTP/1's (sid 2 is HTTP/1's only): one
    # Hyperscan database serves both, each protocol raising its own rules only
    rules = [rule('http.uri; content:"/aaa";', sid=1, proto="http"),
             rule('http.uri; content:"/bbb";', sid=2, proto="http1"),
             rule('http.uri; content:"/ccc";', sid=3, proto="http")]
    h1 = Conv(sport=41005, dport=80).handshake()
    for p in (b"/bbb", b"/ccc"):
        h1.send(True, b"GET " + p + b" HTTP/1.1\r\nHost: x\r\n\r\n").send(
            False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    h2 = Conv(sport=41006, dport=80).handshake()
    h2.send(True, PREFACE + frame(HEADERS, 5, 1, b"\x82\x86" + lit(b":path", b"/aaa")) +
            frame(HEADERS, 5, 3, b"\x82\x86" + lit(b":path", b"/bbb")))
    r = detect(tmp_path, h1.close().pkts + h2.close().pkts, rules)
    assert [(a["alert"]["signature_id"], a["src_port"]) for a in r.alerts] == \
        [(2, 41005), (3, 41005), (1, 41006)]


def test_http2_gap_gives_the_flow_up(tmp_path):
    # Suricata's HTTP/2 does not accept gaps: a hole ends its app layer on the flow, both
    # ways, once the ACK that passes it is seen, and so does Osprey's. The client's second
    # request, after a lost frame, is not read (no rule, no transaction); the server's answer
    # to the first stream, acknowledged before, is; the stream's bytes are still inspected.
    c = Conv(sport=41000, dport=8080).handshake()
    c.send(True, PREFACE + frame(SETTINGS, 0, 0, settings((3, 100))))
    c.send(False, frame(SETTINGS, 0, 0) + frame(SETTINGS, 1, 0))
    c.send(True, frame(SETTINGS, 1, 0) + frame(HEADERS, 0x05, 1, REQ))
    c.send(True, frame(PING, 0, 0, b"\x00" * 8), order=[])          # never comes
    c.send(False, frame(HEADERS, 4, 1, RESP) + frame(DATA, 1, 1, BODY))
    c.send(True, frame(HEADERS, 0x05, 3, REQ.replace(b"payload.exe", b"second.exe")))
    pkts = c.close().pkts
    rules = [rule('http.uri; content:"/dl/second.exe";', sid=1, proto="http2"),
             rule('http.uri; content:"/dl/payload.exe";', sid=2, proto="http2"),
             rule('file.data; content:"MZ"; startswith;', sid=3, proto="http2"),
             rule('flow:to_server; content:"second.exe";', sid=4)]         # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [2, 3, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[http]", name="e")
    # (the connection's stream 0 — settings, pings — has records of its own, without a url)
    assert [r["http"]["url"] for r in out.of("http") if "url" in r["http"]] == \
        ["/dl/payload.exe"]
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def doh_first(get):
    # the preface and the DoH request in the client's first segment (as the suite's capture)
    pkts = doh(get)
    c = Conv(sport=41003, dport=443).handshake()
    c.send(True, b"".join(bytes(p["TCP"].payload) for p in pkts
                          if p["TCP"].sport == 41003 and len(p["TCP"].payload)))
    c.send(False, b"".join(bytes(p["TCP"].payload) for p in pkts
                           if p["TCP"].dport == 41003 and len(p["TCP"].payload)))
    return c.close().pkts


@pytest.mark.parametrize("get", [False, True])
@pytest.mark.parametrize("first", [True, False])
def test_doh2_flow_app_proto_and_legacy_equivalence(tmp_path, get, first):
    # once a stream carried a DNS message the flow is Suricata's doh2 (its app_proto in the
    # flow and alert records, HTTP/2 its original); legacy app-layer-protocol rules keep
    # AppProtoEquals: dns and http2 (and doh2) match it, !dns and tls do not. The
    # detection-only ones look once the deciding bytes were parsed: with the DoH request in
    # the first segment they see doh2 (suricata-verify app-layer-protocol-legacy-equivalence);
    # when it comes later, an HTTP/2 flow (a doh2 rule takes that too)
    rules = [rule("app-layer-protocol:dns;", sid=1),
             rule("app-layer-protocol:http2;", sid=2),
             rule("app-layer-protocol:!dns;", sid=3),
             rule("app-layer-protocol:tls;", sid=4),
             rule("app-layer-protocol:doh2;", sid=5),
             rule("app-layer-protocol:http2,original;", sid=6),
             rule('dns.query; content:"www.gstatic.com";', sid=8, proto="doh2"),
             rule('dns.query; content:"www.gstatic.com";', sid=9, proto="dns")]
    out = osprey_out(tmp_path, doh_first(get) if first else doh(get), rules,
                     "--set", "outputs.eve-log.types=[alert,flow]")
    sids = sorted(a["alert"]["signature_id"] for a in out.of("alert"))
    assert sids == ([1, 2, 5, 6, 8, 9] if first else [2, 3, 5, 6, 8, 9])
    assert {a["app_proto"] for a in out.of("alert") if a["alert"]["signature_id"] >= 8} == \
        {"doh2"}
    (f,) = out.of("flow")
    assert (f["app_proto"], f["app_proto_orig"]) == ("doh2", "http2")
    assert not {"app_proto_ts", "app_proto_tc"} & set(f)


def test_a_plain_http2_flow_is_not_doh2(tmp_path):
    # no DNS message: http2, which a doh2 rule still matches (Suricata's doh2 takes http2
    # flows) and a dns one does not
    rules = [rule("app-layer-protocol:dns;", sid=1),
             rule("app-layer-protocol:doh2;", sid=2),
             rule("app-layer-protocol:http2;", sid=3),
             rule("app-layer-protocol:!dns;", sid=4)]
    out = osprey_out(tmp_path, exchange(), rules, "--set", "outputs.eve-log.types=[alert,flow]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [2, 3, 4]
    (f,) = out.of("flow")
    assert f["app_proto"] == "http2" and "app_proto_orig" not in f


def test_firewall_app_layer_protocol_is_exact_on_doh2(tmp_path):
    # firewall rules compare exactly (no legacy widening): http2 and dns accept nothing of a
    # doh2 flow past the handshake (the default packet policy drops the rest), doh2 all of it
    got = {}
    for proto in ("http2", "dns", "doh2"):
        rules = ["accept:hook tcp:all any any <> any 443 (app-layer-protocol:unknown; sid:1;)",
                 f"accept:hook tcp:all any any <> any 443 (app-layer-protocol:{proto}; sid:2;)"]
        r = detect(tmp_path, doh_first(False), rules, "--simulate-ips", "-k", "none", name=proto)
        fw = r.stats["firewall"]
        got[proto] = (fw["accepted"], fw["blocked"], fw["drop_reason"]["default_packet_policy"])
    assert got == {"http2": (4, 6, 6), "dns": (4, 6, 6), "doh2": (10, 0, 0)}
