"""HTTP/1.x parser: exact buffers under each app event (osprey-trace --app), evasions
(segmentation, pipelining, chunked, gzip, encoded and dot-segment URIs, folded and repeated
headers), response framing, limits and their counters."""
import gzip
import zlib

import pytest

from parsers_helpers import Conv, app_trace, conversation

REQ = (b"GET /a/./b/../c//d%41?x=%42 HTTP/1.1\r\n"
       b"Host: WWW.Example.COM:8080\r\n"
       b"User-Agent: curl/8.0\r\n"
       b"Cookie: k=v\r\n"
       b"Referer: http://r.example/\r\n"
       b"Content-Type: text/plain\r\n"
       b"\r\n")

REQ_BUFS = {
    "http.method": b"GET",
    "http.uri": b"/a/c/dA?x=B",
    "http.uri.raw": b"/a/./b/../c//d%41?x=%42",
    "http.request_line": b"GET /a/./b/../c//d%41?x=%42 HTTP/1.1",
    "http.protocol": b"HTTP/1.1",
    "http.header": (b"Host: WWW.Example.COM:8080\r\nUser-Agent: curl/8.0\r\nCookie: k=v\r\n"
                    b"Referer: http://r.example/\r\nContent-Type: text/plain\r\n"),
    "http.header.raw": REQ[REQ.index(b"\r\n") + 2:],
    "http.cookie": b"k=v",
    "http.user_agent": b"curl/8.0",
    "http.host": b"www.example.com",
    "http.host.raw": b"WWW.Example.COM:8080",
    "http.referer": b"http://r.example/",
    "http.content_type": b"text/plain",
    "http.start": REQ,
}

RESP = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: s=1\r\nContent-Type: text/html\r\n\r\nhello"


def test_request_and_response_buffers_on_any_port(trace):
    a = app_trace(trace, conversation(REQ, RESP, dport=8080))
    # app_detected once the deciding bytes (the request) went through the parser, as
    # Suricata's detection sees a packet after its parse
    assert [e["event"] for e in a.events] == [
        "http_request", "app_detected", "http_response", "http_response_body"]
    assert a.of("app_detected")[0]["app_proto"] == "http"
    assert a.bufs("http_request") == [REQ_BUFS]
    assert a.bufs("http_response") == [{
        "http.stat_code": b"200", "http.stat_msg": b"OK",
        "http.response_line": b"HTTP/1.1 200 OK",
        "http.response_header": b"Content-Length: 5\r\nSet-Cookie: s=1\r\nContent-Type: text/html\r\n",
        "http.response_header.raw": b"Content-Length: 5\r\nSet-Cookie: s=1\r\nContent-Type: text/html\r\n\r\n",
        "http.response_cookie": b"s=1",
        "http.response_content_type": b"text/html",
        "http.uri": b"/a/c/dA?x=B",
    }]
    assert a.bufs("http_response_body") == [{"http.response_body": b"hello"}]
    assert a.of("http_response")[0]["status"] == 200
    assert a.flows[0]["app_proto"] == "http"
    assert a.stats["flows"]["http"] == 1
    assert a.stats["http_requests"] == 1 and a.stats["http_responses"] == 1


@pytest.mark.parametrize("seg", [1, 2, 7, 50])
def test_segmentation_does_not_change_buffers(trace, seg):
    a = app_trace(trace, conversation(REQ, RESP, seg=seg, rseg=seg))
    assert a.bufs("http_request") == [REQ_BUFS]
    assert a.bufs("http_response_body") == [{"http.response_body": b"hello"}]
    assert len(a.of("http_request")) == 1  # once per message, however many segments


def test_pipelined_requests_and_responses_pair_up(trace):
    reqs = b"".join(b"GET /%d HTTP/1.1\r\nHost: h\r\n\r\n" % i for i in range(3))
    resps = (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA"
             b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nBB"
             b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\n\r\n")
    a = app_trace(trace, conversation(reqs, resps))
    reqe = a.of("http_request")
    assert [e["buffers"]["http.uri"] for e in reqe] == ["/0", "/1", "/2"]
    assert [e["tx_id"] for e in reqe] == [0, 1, 2]
    resp = a.of("http_response")
    assert [(e["tx_id"], e["status"]) for e in resp] == [(0, 200), (1, 404), (2, 302)]
    # under a response its own request's buffers are current (pipelined pairs stay paired)
    assert [e["buffers"]["http.uri"] for e in resp] == ["/0", "/1", "/2"]
    assert [b["http.response_body"] for b in a.bufs("http_response_body")] == [b"A", b"BB"]


def test_chunked_request_body_and_gzip_chunked_response(trace):
    req = (b"POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
           b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n")
    body = b"<html>" + b"secret " * 50 + b"</html>"
    z = gzip.compress(body)
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(z[i:i + 100]), z[i:i + 100]) for i in range(0, len(z), 100))
    resp = (b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
            + chunks + b"0\r\n\r\n")
    a = app_trace(trace, conversation(req, resp, seg=3, rseg=1))
    assert a.bufs("http_request_body") == [{"http.request_body": b"hello world"}]
    assert a.bufs("http_response_body") == [{"http.response_body": body}]


@pytest.mark.parametrize("kind", ["zlib", "raw"])
def test_deflate_response(trace, kind):
    body = b"deflated " * 20
    if kind == "zlib":
        z = zlib.compress(body)
    else:
        c = zlib.compressobj(wbits=-15)
        z = c.compress(body) + c.flush()
    resp = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nContent-Length: %d\r\n\r\n%s" % (len(z), z)
    a = app_trace(trace, conversation(b"GET / HTTP/1.1\r\nHost: h\r\n\r\n", resp))
    assert a.bufs("http_response_body") == [{"http.response_body": body}]


@pytest.mark.parametrize("raw,norm", [
    (b"/%2e%2e/%2e%2e/etc/passwd", b"/etc/passwd"),
    (b"/a/b/../../../x", b"/x"),
    (b"//double//slash/", b"/double/slash/"),
    (b"/./a/./", b"/a/"),
    (b"/bad%zzescape%4", b"/bad%zzescape%4"),
    (b"http://Host.example:81/abs/path?q=%41", b"/abs/path?q=A"),
    (b"/x/..", b"/"),
])
def test_uri_normalization(trace, raw, norm):
    req = b"GET " + raw + b" HTTP/1.1\r\nHost: h\r\n\r\n"
    a = app_trace(trace, conversation(req))
    b = a.bufs("http_request")[0]
    assert b["http.uri.raw"] == raw
    assert b["http.uri"] == norm


def test_absolute_uri_gives_the_host(trace):
    req = b"GET http://Proxy.Example:3128/x HTTP/1.1\r\nHost: other\r\n\r\n"
    b = app_trace(trace, conversation(req)).bufs("http_request")[0]
    assert b["http.host"] == b"proxy.example"
    assert b["http.host.raw"] == b"other"


def test_folded_and_repeated_headers(trace):
    req = (b"GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: Mozilla\r\n\tevil/1.0\r\n"
           b"Cookie: a=1\r\nCookie: b=2\r\n\r\n")
    b = app_trace(trace, conversation(req)).bufs("http_request")[0]
    assert b["http.user_agent"] == b"Mozilla evil/1.0"
    assert b["http.cookie"] == b"a=1, b=2"
    assert b["http.header"] == b"Host: h\r\nUser-Agent: Mozilla evil/1.0\r\nCookie: a=1\r\nCookie: b=2\r\n"
    assert b["http.header.raw"] == req[len(b"GET / HTTP/1.1\r\n"):]


def test_response_without_length_ends_with_the_flow(trace):
    resp = b"HTTP/1.0 200 OK\r\nServer: x\r\n\r\nall the rest until close"
    a = app_trace(trace, conversation(b"GET / HTTP/1.0\r\n\r\n", resp, rseg=4))
    assert a.bufs("http_response_body") == [{"http.response_body": b"all the rest until close"}]


def test_head_response_and_interim_100_have_no_body(trace):
    reqs = b"HEAD /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok"
    resps = (b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
             b"HTTP/1.1 100 Continue\r\n\r\n"
             b"HTTP/1.1 201 Created\r\nContent-Length: 4\r\n\r\ndone")
    a = app_trace(trace, conversation(reqs, resps))
    assert [(e["tx_id"], e["status"]) for e in a.of("http_response")] == [(0, 200), (1, 201)]
    assert a.bufs("http_response_body") == [{"http.response_body": b"done"}]
    assert a.bufs("http_request_body") == [{"http.request_body": b"ok"}]


def test_body_limit_and_zip_bomb_are_bounded(trace):
    bomb = gzip.compress(b"\0" * (4 << 20))
    resp = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s" % (len(bomb), bomb)
    resp += b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nend"
    reqs = b"GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"
    a = app_trace(trace, conversation(reqs, resp, rseg=1400),
                  "--set", "app-layer.protocols.http.response-body-limit=1000")
    bodies = a.bufs("http_response_body")
    assert bodies == [{"http.response_body": b"\0" * 1000}, {"http.response_body": b"end"}]
    assert a.stats["http_body_limit"] == 1
    assert [e["tx_id"] for e in a.of("http_response")] == [0, 1]  # framing went on


def test_header_limit(trace):
    req = b"GET / HTTP/1.1\r\nHost: h\r\nX-Long: " + b"A" * 300 + b"\r\n\r\n"
    a = app_trace(trace, conversation(req, seg=40),
                  "--set", "app-layer.protocols.http.header-limit=128")
    assert a.stats["http_header_limit"] == 1
    b = a.bufs("http_request")
    assert len(b) == 1 and b[0]["http.uri"] == b"/"
    assert len(b[0]["http.header.raw"]) == 128 - len(b"GET / HTTP/1.1\r\n")


def test_malformed_chunk_is_counted_not_fatal(trace):
    """A size line without a size: counted, and (as libhtp reads it) the rest of the message
    is the body as sent, until the connection closes."""
    resp = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnope\r\n"
    a = app_trace(trace, conversation(b"GET / HTTP/1.1\r\n\r\n", resp))
    assert a.stats["http_malformed"] == 1
    assert len(a.of("http_response")) == 1
    assert a.bufs("http_response_body") == [{"http.response_body": b"zz\r\nnope\r\n"}]


def test_server_speaks_first_and_non_http_fails(trace):
    a = app_trace(trace, conversation(b"", b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"))
    assert a.flows[0]["app_proto"] == "http"
    assert a.bufs("http_response_body") == [{"http.response_body": b"hi"}]
    # (EHLO would be SMTP, on any port: parsers/smtp/)
    b = app_trace(trace, conversation(b"HELLO mail.example\r\n", b"250 ok\r\n", dport=80))
    assert b.flows[0]["app_proto"] == "failed"
    assert b.of("http_request") == []
    assert b.stats["flows"]["failed"] == 1


def test_gzip_error_is_counted(trace):
    """Not gzip, nor deflate, nor zlib: counted, and the body is kept as sent (browsers and
    libhtp show it so)."""
    resp = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\nnotgzip!!!"
    a = app_trace(trace, conversation(b"GET / HTTP/1.1\r\n\r\n", resp))
    assert a.stats["http_gzip_errors"] == 1
    assert a.bufs("http_response_body") == [{"http.response_body": b"notgzip!!!"}]


def test_http09_request_and_empty_folded_value(trace):
    a = app_trace(trace, conversation(b"GET /old.html\r\n", b"<html>old</html>"))
    b = a.bufs("http_request")
    assert b[0]["http.request_line"] == b"GET /old.html"
    assert b[0]["http.uri"] == b"/old.html" and "http.protocol" not in b[0]
    req = b"POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding:\r\n chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
    b = app_trace(trace, conversation(req)).bufs
    assert b("http_request")[0]["http.header"] == b"Host: t\r\nTransfer-Encoding: chunked\r\n"
    assert b("http_request_body") == [{"http.request_body": b"abc"}]


def test_bad_limit_is_a_clear_error(trace):
    t = trace(conversation(REQ), "--app", "--set", "app-layer.protocols.http.header-limit=10",
              check=False)
    assert t.proc.returncode == 1
    assert "app-layer.protocols.http.header-limit" in t.proc.stderr


def test_upgrade_stops_http_and_garbage_is_not_a_request(trace):
    c = Conv().handshake()
    c.send(True, b"GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n")
    c.send(False, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x05hello")
    c.send(True, b"\x81\x85\x00\x00\x00\x00GET / HTTP/1.1\r\n\r\n\n\n")
    a = app_trace(trace, c.close().pkts)
    # no HTTP after the 101: the flow is WebSocket's (parsers/websocket), "GET /" a payload;
    # the switch decides the flow's protocol again (app_detected)
    assert [e["event"] for e in a.events] == ["http_request", "app_detected", "http_response",
                                              "app_detected", "websocket_frame_to_client",
                                              "websocket_frame_to_server"]
    assert a.of("http_response")[0]["status"] == 101
    a = app_trace(trace, c.pkts, "--set", "app-layer.protocols.websocket.enabled=no")
    assert [e["event"] for e in a.events] == ["http_request", "app_detected", "http_response"]
    b = app_trace(trace, conversation(b"GET / HTTP/1.1\r\n\r\n\x00\x01binary junk\r\n\r\nmore\r\n\r\n"))
    assert len(b.of("http_request")) == 1
    # lines after a request that name no method are more of its body (libhtp's
    # REQUEST_BODY_UNEXPECTED), not a malformed next request
    assert b.stats["http_malformed"] == 0
    assert b.bufs("http_request_body") == [{"http.request_body": b"\x00\x01binary junk\r\nmore\r\n"}]


def test_response_skips_a_line_that_is_no_status_line(trace):
    """A line that is no status line, followed by one starting with 'H', is skipped (counted)
    as libhtp skips it: the status line after it answers the first request."""
    reqs = b"GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"
    resps = b"<html>tail of the first body</html>\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno"
    a = app_trace(trace, conversation(reqs, resps))
    assert [(e["tx_id"], e["status"]) for e in a.of("http_response")] == [(0, 404)]
    assert a.bufs("http_response_body") == [{"http.response_body": b"no"}]
    assert a.stats["http_malformed"] == 1


def test_hole_in_the_response_stream(trace):
    """The segment holding the first response's head never arrives (the client acknowledges
    past it): the parser skips the hole, finds the next status line and pairs it right."""
    head1 = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
    data = head1 + b"hello" + b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno"
    c = Conv().handshake()
    c.send(True, b"GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
    seg = len(head1)
    nseg = (len(data) + seg - 1) // seg
    c.send(False, data, seg=seg, order=list(range(1, nseg)))
    a = app_trace(trace, c.close().pkts)
    assert [(e["tx_id"], e["status"]) for e in a.of("http_response")] == [(1, 404)]
    assert a.bufs("http_response_body") == [{"http.response_body": b"no"}]
    assert a.stats["http_malformed"] == 1


def test_more_single_header_buffers(trace):
    req = (b"POST /f HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nAccept-Encoding: gzip, br\r\n"
           b"Accept-Language: fr\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nhi")
    resp = b"HTTP/1.1 302 Found\r\nServer: nginx\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n"
    a = app_trace(trace, conversation(req, resp))
    b = a.bufs("http_request")[0]
    assert (b["http.accept"], b["http.accept_enc"], b["http.accept_lang"], b["http.connection"],
            b["http.content_len"]) == (b"*/*", b"gzip, br", b"fr", b"keep-alive", b"2")
    assert b["http.start"] == req[:-2]
    r = a.bufs("http_response")[0]
    assert (r["http.server"], r["http.location"]) == (b"nginx", b"/next")


def test_lf_only_response_head_ending_a_segment(tmp_path):
    """A response head with LF-only lines whose empty line is the segment's last byte: the
    body in the next segment is the body, not more headers (the head ends there)."""
    from detect_helpers import detect, rule
    rules = [rule('http.stat_code; content:"200"; http.response_header; content:"first";', sid=1,
                  proto="http"),
             rule('file_data; content:"see you later";', sid=2, proto="http")]

    def conv(parts):
        c = Conv().handshake().send(True, b"GET /when HTTP/1.1\r\nHost: x\r\n\r\n")
        for p in parts:
            c.send(False, p)
        return c.close().pkts
    head = b"HTTP/1.0 200 OK\nServer: custom\nX-first: secret\nContent-Length: 14\n\n"
    r = detect(tmp_path, conv([head, b"see you later!"]), rules, "-k", "none")
    assert sorted(r.sids) == [1, 2]
    # near miss: the same bytes in one segment
    r = detect(tmp_path, conv([head + b"see you later!"]), rules, "-k", "none", name="one")
    assert sorted(r.sids) == [1, 2]
