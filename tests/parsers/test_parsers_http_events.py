"""HTTP/1's app-layer events from libhtp's warnings (Suricata's http-events.rules) end to end:
request lines (leading whitespace, non-space delimiters, no protocol and an unknown method),
request and response headers (a name twice, a line without colon, a name that is no token,
folding with nothing to fold into), the host names (missing, ambiguous, invalid), lengths
and transfer codings, status lines, interim and unmatched responses. Each case asserts the
exact Suricata rule that alerts and the packet it alerts on; a near miss beside each."""
import pytest

from detect_helpers import Conv, detect

SIDS = {
    "request_field_missing_colon": 2221002, "invalid_transfer_encoding_value_in_request": 2221005,
    "invalid_content_length_field_in_request": 2221007,
    "invalid_content_length_field_in_response": 2221008, "100_continue_already_seen": 2221009,
    "unable_to_match_response_to_request": 2221010, "request_header_invalid": 2221013,
    "missing_host_header": 2221014, "host_header_ambiguous": 2221015,
    "invalid_request_field_folding": 2221016, "invalid_response_field_folding": 2221017,
    "response_field_missing_colon": 2221020,
    "response_header_invalid": 2221021, "request_uri_host_invalid": 2221027,
    "request_header_host_invalid": 2221028, "uri_delim_non_compliant": 2221029,
    "method_delim_non_compliant": 2221030, "request_line_leading_whitespace": 2221031,
    "request_header_repetition": 2221035, "response_header_repetition": 2221036,
    "response_abnormal_transfer_encoding": 2221038, "response_chunked_old_proto": 2221039,
    "response_invalid_protocol": 2221040, "response_invalid_status": 2221041,
    "request_line_incomplete": 2221042, "request_line_invalid": 2221044,
}
RULES = [f'alert http any any -> any any (msg:"SURICATA HTTP {n}"; flow:established; '
         f'app-layer-event:http.{n}; sid:{s}; rev:1;)' for n, s in SIDS.items()]
GOOD = b"GET / HTTP/1.1\r\nHost: www.example.com\r\n\r\n"
OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


def run(tmp_path, flights):
    c = Conv().handshake()
    for client, data in flights:
        c.send(client, data)
    r = detect(tmp_path, c.close().pkts, RULES)
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def ev(*names, pkt):
    return sorted((SIDS[n], pkt) for n in names)


# the request after a first one and its answer (probes need a method first): packet 8, which
# Suricata's IDS model parses at its ACK and inspects with the client's next packet (10)
@pytest.mark.parametrize("req,want", [
    (GOOD, []),
    (b" GET / HTTP/1.1\r\nHost: x\r\n\r\n", ev("request_line_leading_whitespace", pkt=10)),
    (b"GET\t/ HTTP/1.1\r\nHost: x\r\n\r\n", ev("method_delim_non_compliant", pkt=10)),
    (b"GET /a\tHTTP/1.1\r\nHost: x\r\n\r\n", ev("uri_delim_non_compliant", pkt=10)),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nx-a: 2\r\n\r\n",
     ev("request_header_repetition", pkt=10)),
    (b"GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", ev("request_field_missing_colon", pkt=10)),
    (b"GET / HTTP/1.1\r\nHost: x\r\nBad(Name): 1\r\n\r\n", ev("request_header_invalid", pkt=10)),
    (b"GET / HTTP/1.1\r\n Folded: 1\r\nHost: x\r\n\r\n", ev("invalid_request_field_folding", pkt=10)),
    (b"GET / HTTP/1.1\r\n\r\n", ev("missing_host_header", pkt=10)),
    (b"GET / HTTP/1.0\r\n\r\n", []),                          # HTTP/1.0 needs no Host
    (b"GET http://a.example/ HTTP/1.1\r\nHost: b.example\r\n\r\n",
     ev("host_header_ambiguous", pkt=10)),
    (b"GET http://a.example/ HTTP/1.1\r\nHost: A.Example\r\n\r\n", []),
    (b"GET http://a.example:81/ HTTP/1.1\r\nHost: a.example:82\r\n\r\n",
     ev("host_header_ambiguous", pkt=10)),
    (b"GET / HTTP/1.1\r\nHost: a..example\r\n\r\n", ev("request_header_host_invalid", pkt=10)),
    (b"GET / HTTP/1.1\r\nHost: a.example:99999\r\n\r\n", ev("request_header_host_invalid", pkt=10)),
    (b"GET http://a!b/ HTTP/1.1\r\nHost: a!b\r\n\r\n",
     ev("request_uri_host_invalid", "request_header_host_invalid", pkt=10)),
    (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
     ev("invalid_content_length_field_in_request", pkt=10)),
    (b"POST / HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     ev("invalid_transfer_encoding_value_in_request", pkt=10)),   # chunked below HTTP/1.1
    (b"FOO /\r\n", ev("request_line_invalid", pkt=10)),
    (b"GET /\r\n", []),                                       # HTTP/0.9, a known method
])
def test_http_request_events(tmp_path, req, want):
    assert run(tmp_path, [(True, GOOD), (False, OK), (True, req)]) == want


# the answer to one request: packet 6 (parsed at its ACK, inspected with the server's next: 9)
@pytest.mark.parametrize("resp,want", [
    (OK, []),
    (b"HTTP/1.1 200 OK\r\nX-A: 1\r\nX-A: 2\r\nContent-Length: 0\r\n\r\n",
     ev("response_header_repetition", pkt=9)),
    (b"HTTP/1.1 200 OK\r\nBad(Name): 1\r\nContent-Length: 0\r\n\r\n",
     ev("response_header_invalid", pkt=9)),
    (b"HTTP/1.1 200 OK\r\n Folded: 1\r\nContent-Length: 0\r\n\r\n",
     ev("invalid_response_field_folding", pkt=9)),
    (b"HTTP/1.1 200 OK\r\nX: 1\r\n folded\r\nContent-Length: 0\r\n\r\n", []),
    (b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
     ev("invalid_content_length_field_in_response", pkt=9)),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
     ev("response_abnormal_transfer_encoding", pkt=9)),
    (b"HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
     ev("response_chunked_old_proto", pkt=9)),
    (b"HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n", ev("response_invalid_protocol", pkt=9)),
    (b"HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n", ev("response_invalid_status", pkt=9)),
    (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", []),
    (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
     b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", ev("100_continue_already_seen", pkt=9)),
    (OK + OK, ev("unable_to_match_response_to_request", pkt=9)),
])
def test_http_response_events(tmp_path, resp, want):
    assert run(tmp_path, [(True, GOOD), (False, resp)]) == want


def test_http_response_field_missing_colon(tmp_path):
    resp = b"HTTP/1.1 200 OK\r\nNoColonHere\r\nContent-Length: 0\r\n\r\n"
    assert run(tmp_path, [(True, GOOD), (False, resp)]) == \
        ev("response_field_missing_colon", pkt=9)


@pytest.mark.parametrize("ce,hit", [
    (b"gzip", False), (b"GZIP", False),          # the fast path: one known coding
    (b"gzip, identity", True),                   # an unknown one in a list
    (b"x-gzip, deflate", False),
    (b"gzip, Deflate", True),                    # a list compares exactly
    (b"gzip, x-gzipped", True),
    (b"gzip, deflate, foo", False),              # past the layer limit (2): not read
])
def test_http_abnormal_content_encoding(tmp_path, ce, hit):
    rules = ['alert http any any -> any any (msg:"ce"; flow:established; '
             'app-layer-event:http.abnormal_ce_header; sid:2221033; rev:1;)']
    resp = b"HTTP/1.1 200 OK\r\nContent-Encoding: " + ce + b"\r\nContent-Length: 2\r\n\r\nok"
    c = Conv().handshake().send(True, GOOD).send(False, resp).close()
    r = detect(tmp_path, c.pkts, rules)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == \
        ([(2221033, 9)] if hit else [])


@pytest.mark.parametrize("n,hit", [(18001, True), (17990, False)])
def test_http_response_field_too_long(tmp_path, n, hit):
    """A response head line past libhtp's field limit (18,000 bytes), raised with the head"""
    rules = ['alert http any any -> any any (msg:"long"; flow:established; '
             'app-layer-event:http.response_field_too_long; sid:2221019; rev:1;)']
    line = b"X-Long: " + b"x" * (n - 8)
    resp = b"HTTP/1.1 200 OK\r\n" + line + b"\r\nContent-Length: 0\r\n\r\n"
    c = Conv().handshake().send(True, GOOD).send(False, resp).close()
    r = detect(tmp_path, c.pkts, rules)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == \
        ([(2221019, 9)] if hit else [])


def test_http_request_line_incomplete(tmp_path):
    """An answer while the request line is not complete: libhtp's "Request line incomplete"
    (the request began: the answer is its, not unmatched); a whole line is not incomplete"""
    bad = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
    assert run(tmp_path, [(True, b"GET /index.html HT"), (False, bad)]) == \
        ev("request_line_incomplete", pkt=9)
    (tmp_path / "b").mkdir()
    assert run(tmp_path / "b", [(True, b"GET /index.html HTTP/1.1\r\nHost: x\r\n"), (False, bad)]) == []
