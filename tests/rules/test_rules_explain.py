"""`osprey --explain SID`: how one rule was compiled (header, buffers, fast pattern and why,
its chain of UDEs step by step, flowbits and thresholds), why a rule was not loaded, and with
-r where its chain stopped on each packet (which unit failed, on which buffer) or what became
of its match — the answer to "why did Suricata alert and Osprey not"."""
from detect_helpers import detect, http_conv, rule

from conftest import binary, run

HTTP_RULE = ('alert http any any -> any any (msg:"evil uri"; flow:established,to_server; '
             'http.uri; content:"/evil"; pcre:"/evil\\d+/U"; sid:100; rev:1;)')


def explain(tmp_path, rules, sid, *args, check=True):
    rf = tmp_path / "x.rules"
    rf.write_text("\n".join(rules) + "\n")
    return run([binary("osprey"), "--explain", str(sid), "-S", str(rf), *args], check=check), rf


def test_content_and_pcre_http_rule(tmp_path):
    proc, rf = explain(tmp_path, [HTTP_RULE], 100)
    assert proc.stdout.splitlines() == [
        "sid 100: compiled",
        f"  rule: alert http any any -> any any ({rf}:1, gid 1, rev 1)",
        "  msg: evil uri",
        "  buffers: http.uri",
        '  fast pattern "/evil" on http.uri: the longest content on an application buffer',
        "  chain 1 of 2: application rule, base event http_request_line (parsers)",
        "    1. mpm http_request_line http.uri (Hyperscan, all fast patterns)",
        '    2. fast pattern "/evil"',
        "    3. header http_request_line http any any -> any any",
        "    4. flow:established,to_server;  [unit flow]",
        '    5. content:"/evil";  [unit payload on http.uri]',
        '    6. pcre:"/evil\\d+/U";  [unit payload on http.uri]',
        # an http rule runs on HTTP/2 transactions too: a second chain under HTTP/2's event
        "  chain 2 of 2: application rule, base event http2_request (parsers)",
        "    1. mpm http2_request http.uri (Hyperscan, all fast patterns)",
        '    2. fast pattern "/evil"',
        "    3. header http2_request http any any -> any any",
        "    4. flow:established,to_server;  [unit flow]",
        '    5. content:"/evil";  [unit payload on http.uri]',
        '    6. pcre:"/evil\\d+/U";  [unit payload on http.uri]',
        "  flowbits, xbits, flowint, thresholds: none",
        "  on a match: committed with the phase's other matches in Suricata's order (pass, "
        "drop, reject, alert; flowbit setters first), then: alert",
    ]


def test_marked_fast_pattern_flowbits_and_threshold(tmp_path):
    r = rule('flow:to_server; content:"GET"; content:"/a"; fast_pattern; '
             'flowbits:set,seen; threshold:type limit,track by_src,count 1,seconds 60;', sid=5)
    proc, _ = explain(tmp_path, [r], 5)
    out = proc.stdout.splitlines()
    assert '  fast pattern "/a" on the stream: the rule marks it fast_pattern' in out
    assert ("  flowbits, xbits, flowint, thresholds: flowbits:set,seen; "
            "threshold:type limit,track by_src,count 1,seconds 60;") in out
    # a TCP payload rule: the stream and each packet's payload, two chains
    assert "  chain 1 of 2: stream rule, base event stream; the reassembled stream" in out
    assert "  chain 2 of 2: stream rule, base event stream; each packet's payload" in out


def test_rejected_rule(tmp_path):
    bad = 'alert tcp any any -> any any (msg:"bad"; content:"x"; foo_bar:1; sid:102; rev:1;)'
    proc, rf = explain(tmp_path, [HTTP_RULE, bad], 102)
    assert proc.stdout.splitlines() == [
        "sid 102: rejected, not loaded",
        f"  {rf}:2: sid 102: unknown option 'foo_bar' (col 55)",
    ]
    assert proc.returncode == 0


def test_unknown_sid_and_bad_arguments(tmp_path):
    proc, _ = explain(tmp_path, [HTTP_RULE], 7, check=False)
    assert proc.returncode == 1
    assert proc.stdout == ("sid 7: no rule with this sid was read (a commented-out rule is not "
                           "loaded)\n")
    proc, _ = explain(tmp_path, [HTTP_RULE], "x7", check=False)
    assert proc.returncode == 2 and "--explain takes a rule's sid" in proc.stderr
    proc, _ = explain(tmp_path, [HTTP_RULE], 100, "-T", check=False)
    assert proc.returncode == 2 and "--explain goes alone" in proc.stderr


def test_trace_stops_on_the_pcre(tmp_path):
    """GET /evil/x: the fast pattern and the content hold, the pcre (a digit after /evil) does
    not; GET /evil7 on a second connection matches and alerts."""
    miss = http_conv(req=b"GET /evil/x HTTP/1.1\r\nHost: a\r\n\r\n", sport=40001)
    hit = http_conv(req=b"GET /evil7 HTTP/1.1\r\nHost: a\r\n\r\n", sport=40002)
    r = detect(tmp_path, miss + hit, [HTTP_RULE], "--explain", "100")
    assert r.sids == [100]
    trace = [l for l in r.proc.stdout.splitlines() if l.startswith("packet ")]
    assert trace == [
        # (IDS mode: the request is parsed at its ACK, packet 5)
        'packet 5 (flow 1): http_request_line to server, chain 1: stopped at step 6 of 6, pcre:"/evil\\d+/U"; '
        '[unit payload] on http.uri: "/evil/x" (7 bytes)',
        "packet 15 (flow 2): http_request_line to server, chain 1: matched (all 6 steps): alert",
    ]
    assert ("sid 100 on the traffic: stopped 1 times, matched 1 times, took its action 1 times"
            in r.proc.stdout.splitlines())


def test_trace_of_a_rule_never_tried(tmp_path):
    """Its fast pattern is in no packet, or only on ports its header does not take: no trace
    line, and the summary says why."""
    never = rule('content:"NEVERSEEN";', sid=200)
    elsewhere = rule('content:"HTTP/1.1";', sid=201, hdr="any any -> any 8080")
    for sid in (200, 201):
        r = detect(tmp_path, http_conv(), [never, elsewhere], "--explain", str(sid))
        out = r.proc.stdout.splitlines()
        assert not [l for l in out if l.startswith("packet ")]
        assert [l for l in out if l.startswith(f"sid {sid} ")] == [
            f"sid {sid} on the traffic: stopped 0 times, matched 0 times, took its action 0 "
            "times"]
        assert [l for l in out if l.startswith(f"sid {sid}: none")] == [
            f"sid {sid}: none of its steps was tried: its fast pattern was never found on the "
            "protocol and ports its header takes (the prefilter raises a pattern only there), "
            "or no packet reached its header"]


def test_not_compiled_rule(tmp_path):
    """Accepted by the loader, left out by the compiler: its line, as -r prints it."""
    g = 'alert ip any any -> any any (msg:"g"; geoip:src,SE; sid:9; rev:1;)'
    proc, rf = explain(tmp_path, [g], 9)
    assert proc.stdout.splitlines() == [
        "sid 9: accepted, not compiled",
        f"  {rf}:1: sid 9: not compiled: geoip: needs geoip-database (a MaxMind .mmdb)",
    ]


def test_trace_names_the_commit_outcome(tmp_path):
    """Both requests match the rule; its threshold lets the first alert only, and the trace
    says why the second did not."""
    r = rule('flow:to_server; http.uri; content:"/a"; '
             'threshold:type limit,track by_src,count 1,seconds 60;', sid=6, proto="http")
    pkts = (http_conv(req=b"GET /a HTTP/1.1\r\n\r\n", sport=40001)
            + http_conv(req=b"GET /a HTTP/1.1\r\n\r\n", sport=40002))
    res = detect(tmp_path, pkts, [r], "--explain", "6")
    assert res.sids == [6]
    assert [l for l in res.proc.stdout.splitlines() if l.startswith("packet ")] == [
        # (IDS mode: each request is parsed at its ACK, packets 5 and 15)
        "packet 5 (flow 1): http_request_line to server, chain 1: matched (all 5 steps): alert",
        "packet 15 (flow 2): http_request_line to server, chain 1: matched (all 5 steps), no alert: "
        "threshold or detection_filter",
    ]


def test_trace_names_what_the_header_saw(tmp_path):
    """A rule for another server on a connection to 10.0.0.2: its fast pattern is found in
    both directions' streams, and the header step says which addresses and ports it compared."""
    r = rule('content:"HTTP/1.1";', sid=8, hdr="any any -> 10.9.9.9 any")
    res = detect(tmp_path, http_conv(), [r], "--explain", "8")
    assert res.sids == []
    assert [l for l in res.proc.stdout.splitlines() if l.startswith("packet ")] == [
        # (IDS mode: the request's bytes reach the stream with the client's packet after the
        # ACK, 7)
        "packet 7 (flow 1): stream to server, chain 1,2: stopped at step 3, header stream tcp "
        "any any -> 10.9.9.9 any (addresses, ports or protocol: 10.0.0.1:40000 -> 10.0.0.2:80, "
        "IP protocol 6)",
        "packet 9 (flow 1): stream to client, chain 1,2: stopped at step 3, header stream tcp "
        "any any -> 10.9.9.9 any (addresses, ports or protocol: 10.0.0.2:80 -> 10.0.0.1:40000, "
        "IP protocol 6)",
    ]
