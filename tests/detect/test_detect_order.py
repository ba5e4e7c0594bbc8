"""Same-packet ordering as Suricata (pass, drop, reject, alert; flowbit setters before readers)
and the actions drop / reject / sdrop / pass as seen in eve.json (IDS mode)."""
from detect_helpers import Conv, http_conv, rule, udp
from detect_helpers import detect as _detect


def detect(*args, **kw):
    """Inline delivery (stream.inline: yes): these cases follow one packet's commit order delivery by delivery,
    as each packet's bytes arrive; Suricata's IDS timing (the default) is
    test_stream_ack_delivery.py's."""
    return _detect(*args, "--set", "stream.inline=yes", **kw)


def test_setter_with_a_higher_sid_enables_a_reader_on_the_same_packet(tmp_path):
    rules = [rule('content:"x"; flowbits:isset,a;', sid=1, proto="udp"),
             rule('content:"x"; flowbits:set,a; flowbits:noalert;', sid=2, proto="udp"),
             rule('content:"x"; flowbits:isnotset,a;', sid=3, proto="udp")]
    r = detect(tmp_path, [udp(b"x")], rules)
    # sid 2 runs first: sid 1 sees the bit, sid 3 no longer does
    assert r.sids == [1]


def test_setter_before_reader_on_the_stream(tmp_path):
    rules = [rule('flow:to_server; content:"GET"; flowbits:isset,seen;', sid=10),
             rule('flow:to_server; content:"index"; flowbits:set,seen; flowbits:noalert;',
                  sid=20)]
    r = detect(tmp_path, http_conv(), rules)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == [(10, 4)]


def test_reader_without_a_setter_on_that_packet_stays_quiet(tmp_path):
    # near miss: the setter matches only on the next packet
    rules = [rule('content:"x"; flowbits:isset,a;', sid=1, proto="udp"),
             rule('content:"y"; flowbits:set,a; flowbits:noalert;', sid=2, proto="udp")]
    r = detect(tmp_path, [udp(b"x"), udp(b"y"), udp(b"x")], rules)
    assert [a["pcap_cnt"] for a in r.alerts] == [3]


def test_pass_with_a_higher_sid_suppresses_the_same_packet(tmp_path):
    rules = [rule('content:"x";', sid=1, proto="udp"),
             rule('content:"x";', sid=2, proto="udp", action="pass"),
             rule('content:"x";', sid=3, proto="udp")]
    r = detect(tmp_path, [udp(b"x"), udp(b"x")], rules)
    assert r.alerts == []


def test_pass_on_a_stream_suppresses_alerts_of_that_data(tmp_path):
    rules = [rule('flow:to_server; content:"GET";', sid=1),
             rule('flow:to_server; content:"index.html";', sid=5, action="pass"),
             rule('flow:to_client; content:"uid=0";', sid=6)]
    r = detect(tmp_path, http_conv(), rules)
    assert r.alerts == []
    # near miss: the pass rule does not match this request, everything alerts
    r = detect(tmp_path, http_conv(req=b"GET /other HTTP/1.1\r\n\r\n"), rules, name="b")
    assert r.sids == [1, 6]


def test_pass_reading_a_bit_set_by_an_alert_rule_runs_first(tmp_path):
    # action-order comes before flowbits order: the pass rule is evaluated before the alert
    # rule that would set its bit, so on this packet it does not match (Suricata's order)
    rules = [rule('content:"x"; flowbits:set,a;', sid=1, proto="udp"),
             rule('content:"x"; flowbits:isset,a;', sid=2, proto="udp", action="pass")]
    r = detect(tmp_path, [udp(b"x"), udp(b"x")], rules)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == [(1, 1)]


def test_drop_and_reject_alert_as_allowed_in_ids_mode_and_stop_the_flow(tmp_path):
    rules = [rule('content:"bad";', sid=1, proto="udp", action="drop"),
             rule('content:"worse";', sid=2, proto="udp", action="reject"),
             rule('content:"any";', sid=3, proto="udp"),
             rule("", sid=4, proto="udp", hdr="any 7000 -> any any", action="drop")]
    pkts = [udp(b"any bad"), udp(b"any"), udp(b"worse any", sport=6000),
            udp(b"any", sport=6000), udp(b"any", sport=7000), udp(b"any", sport=7000)]
    r = detect(tmp_path, pkts, rules)
    got = [(a["alert"]["signature_id"], a["pcap_cnt"], a["alert"]["action"]) for a in r.alerts]
    # drop sorts before alert on a packet. Suricata's action scope: a packet rule (UDP content)
    # drops its packet only, the flow is still inspected; a rule with nothing but its header
    # (IP-only) drops the flow, whose later packets are not inspected any more
    assert sorted(got) == [(1, 1, "allowed"), (2, 3, "allowed"), (3, 1, "allowed"),
                           (3, 2, "allowed"), (3, 3, "allowed"), (3, 4, "allowed"),
                           (3, 5, "allowed"), (4, 5, "allowed")]


def test_sdrop_never_alerts_but_drops(tmp_path):
    rules = [rule('content:"bad";', sid=1, proto="udp", action="sdrop"),
             rule('content:"any";', sid=2, proto="udp"),
             rule("", sid=3, proto="udp", hdr="any 7000 -> any any", action="sdrop")]
    pkts = [udp(b"bad any"), udp(b"any"), udp(b"any", sport=7000), udp(b"any", sport=7000)]
    r = detect(tmp_path, pkts, rules)
    # the packet-scope sdrop leaves the flow inspected; the IP-only one ends it, silently
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == \
        [(2, 1), (2, 2), (2, 3)]


def test_pass_writes_no_record_and_ends_the_flow(tmp_path):
    c = Conv().handshake().send(True, b"hello").send(True, b"secret").close()
    rules = [rule('flow:to_server; content:"hello";', sid=1, action="pass"),
             rule('flow:to_server; content:"secret";', sid=2)]
    r = detect(tmp_path, c.pkts, rules)
    assert r.alerts == []


def test_pass_rule_with_alert_keyword_alerts_as_allowed(tmp_path):
    """Suricata 8's `alert` keyword: a pass rule that matches also alerts (action "allowed");
    it still passes the flow and suppresses the other matches of its packet."""
    c = Conv().handshake().send(True, b"hello").send(True, b"secret").close()
    rules = [rule('flow:to_server; content:"hello"; alert;', sid=1, action="pass"),
             rule('flow:to_server; content:"hello";', sid=2),
             rule('flow:to_server; content:"secret";', sid=3)]
    r = detect(tmp_path, c.pkts, rules)
    assert [(a["alert"]["signature_id"], a["alert"]["action"], a["pcap_cnt"])
            for a in r.alerts] == [(1, "allowed", 4)]
    # near miss: the same pass rule without `alert` stays quiet
    rules[0] = rule('flow:to_server; content:"hello";', sid=1, action="pass")
    assert detect(tmp_path, c.pkts, rules, name="b").alerts == []


def test_alert_keyword_on_alert_and_drop_rules_changes_nothing(tmp_path):
    rules = [rule('content:"x"; alert;', sid=1, proto="udp"),
             rule('content:"x"; alert;', sid=2, proto="udp", action="drop")]
    r = detect(tmp_path, [udp(b"x")], rules)
    assert r.sids == [1, 2]


def test_a_drop_lets_the_rest_of_its_packet_be_inspected(tmp_path):
    # the request's packet matches a drop rule on the URI (application phase, first) and
    # a stream rule on the same bytes (the receiver's phase, after it): Suricata inspects a
    # packet's rules in one pass, so both alert; the flow's later packets are not inspected
    c = Conv().handshake().send(True, b"GET /malicious HTTP/1.1\r\nHost: x\r\n\r\n")
    c.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nmalicious").close()
    rules = [rule('http.uri; content:"malicious";', sid=2, action="drop"),
             rule('content:"malicious";', sid=1, action="drop")]
    for args in ([], ["--simulate-ips"]):
        r = detect(tmp_path, c.pkts, rules, *args)
        assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == \
            [(1, 4), (2, 4)]
