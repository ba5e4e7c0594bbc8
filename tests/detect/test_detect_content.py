"""content and its modifiers on packets and reassembled streams: for each, a match and a near
miss; the fast pattern; alerts once per flow side on a stream."""
import pytest

from detect_helpers import Conv, detect, http_conv, rule, udp

RESP = b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nuid=0(root)\n"


def test_stream_content_alerts_once_with_the_rule_fields(tmp_path):
    r = detect(tmp_path, http_conv(),
               'alert tcp any any -> any any (msg:"root"; content:"uid=0|28|root|29|"; '
               'classtype:bad-unknown; sid:7; rev:3; metadata:a b, a c, d e;)')
    assert len(r.alerts) == 1
    a = r.alerts[0]
    # the parsers saw HTTP: the alert carries the transaction and app_proto, as Suricata's
    assert list(a) == ["timestamp", "flow_id", "pcap_cnt", "event_type", "src_ip", "src_port",
                       "dest_ip", "dest_port", "ip_v", "proto", "pkt_src", "direction", "alert",
                       "http",
                       "app_proto", "flow"]
    assert (a["src_ip"], a["src_port"], a["dest_ip"], a["dest_port"], a["proto"]) == \
        ("10.0.0.2", 80, "10.0.0.1", 40000, "TCP")
    assert a["event_type"] == "alert" and a["direction"] == "to_client"
    assert a["alert"] == {"action": "allowed", "gid": 1, "signature_id": 7, "rev": 3,
                          "signature": "root", "category": "Potentially Bad Traffic",
                          "severity": 2, "metadata": {"a": ["b", "c"], "d": ["e"]}}
    assert a["flow"]["src_ip"] == "10.0.0.1" and a["flow"]["dest_port"] == 80
    # SYN, SYN-ACK, ACK, request, its ACK, the response (6), its ACK (7): Suricata's IDS mode
    # parses the response at 7 and inspects it with the server's next packet (9, its FIN)
    assert a["pcap_cnt"] == 9
    assert "osprey: 10 packets, 1 flows, 1 alerts" in r.proc.stdout


@pytest.mark.parametrize("body,hit", [
    ('content:"uid=0(root)";', True),
    ('content:"uid=0(ROOT)";', False),
    ('content:"uid=0(ROOT)"; nocase;', True),
    ('content:"HTTP/1.1"; depth:8;', True),
    ('content:"HTTP/1.1"; depth:8; offset:1;', False),
    ('content:"200"; offset:9; depth:3;', True),
    ('content:"200"; offset:10;', False),
    ('content:"HTTP"; content:"OK"; distance:0; within:11;', True),
    ('content:"HTTP"; content:"OK"; distance:0; within:10;', False),
    ('content:"HTTP"; content:"200"; distance:5;', True),
    ('content:"HTTP"; content:"200"; distance:6;', False),
    ('content:"uid=0"; content:!"admin";', True),
    ('content:"uid=0"; content:!"root";', False),
    ('content:"uid"; content:!"root"; distance:0; within:5;', True),
    ('content:"uid"; content:!"root"; distance:0; within:10;', False),
    ('content:"HTTP/1.1"; startswith;', True),
    ('content:"200"; startswith;', False),
    ('content:"(root)|0a|"; endswith;', True),
    ('content:"(root)"; endswith;', False),
    ('content:"uid=0"; rawbytes;', True),
])
def test_content_modifiers_on_the_stream(tmp_path, body, hit):
    r = detect(tmp_path, http_conv(), rule("flow:to_client; " + body))
    assert r.sids == ([1] if hit else [])


def test_relative_match_backtracks_to_a_later_occurrence(tmp_path):
    # the first "a=" is not followed by "1" within 2 bytes; the second is
    pkts = [udp(b"a=0 a=1")]
    r = detect(tmp_path, pkts, [rule('content:"a="; content:"1"; distance:0; within:1;',
                                     proto="udp"),
                                rule('content:"a="; content:"2"; distance:0; within:1;',
                                     sid=2, proto="udp")])
    assert r.sids == [1]


# Backtracking over many partial matches (an ET rule such as sid 2025185: content:"<script";
# content:"<"; distance:0; content:".length"; distance:0; pcre:"/^…/R") remembers, per
# content, the earliest end from which it and the rest failed everywhere, and stops there
# (payload.c: fail_from); where that would not hold — a window ending relative to the
# previous match (within), byte variables whose values differ per path — it keeps trying.
JS = b"".join(b"<a.length;" for _ in range(300))


@pytest.mark.parametrize("tail, hit", [(b"<b.length)X", True), (b"<b.length;", False)])
def test_backtracking_over_many_partial_matches(tmp_path, tail, hit):
    r = detect(tmp_path, [udp(JS + tail)],
               [rule('content:"<"; content:".length"; distance:0; pcre:"/^\\)X/R";',
                     proto="udp")])
    assert r.sids == ([1] if hit else [])


def test_a_within_window_is_retried_from_a_later_occurrence(tmp_path):
    # ".length" within 3 of a "<": only the last "<" has one; the first "<" failing must not
    # rule out the later ones
    body = b"<" + b"x" * 50 + b".length;" * 40 + b"<b.length)X"
    rules = [rule('content:"<"; content:".length"; distance:0; within:10; '
                  'content:")X"; distance:0; within:2;', proto="udp")]
    assert detect(tmp_path, [udp(body)], rules).sids == [1]
    assert detect(tmp_path, [udp(body[:-2])], rules, name="miss").sids == []


def test_byte_variables_keep_every_path(tmp_path):
    # the distance a byte_extract gives depends on where it read: a path failing with one
    # value says nothing of another
    body = b"<\x09" + b"y" * 20 + b"<\x01zZ"
    rules = [rule('content:"<"; byte_extract:1,0,d,relative; content:"Z"; distance:d; '
                  'within:1;', proto="udp")]
    assert detect(tmp_path, [udp(body)], rules).sids == [1]


def test_fast_pattern_marks_the_short_content(tmp_path):
    # fast_pattern on the 1-byte content: the chain still checks both
    rules = [rule('content:"uid=0(root)"; content:"H"; fast_pattern;', sid=1),
             rule('content:"uid=0(root)"; content:"Q"; fast_pattern;', sid=2),
             rule('content:"OK"; fast_pattern:only;', sid=3),
             rule('content:"Content-Length"; fast_pattern:0,7; nocase;', sid=4)]
    r = detect(tmp_path, http_conv(), rules)
    assert r.sids == [1, 3, 4]


def test_rules_with_only_negated_contents_have_no_fast_pattern(tmp_path):
    r = detect(tmp_path, [udp(b"hello")], [rule('content:!"bye";', proto="udp"),
                                           rule('content:!"ell";', sid=2, proto="udp")])
    assert r.sids == [1]


def test_payload_rules_alert_per_packet_and_the_stream_once_per_side(tmp_path):
    # inline (stream.inline: yes) a TCP payload rule is inspected on each packet's payload and
    # on the stream: each packet holding the content alerts (once, not again for the stream);
    # on the stream alone (flow:only_stream) the side alerts once
    pkts = [udp(b"ping x"), udp(b"ping y")]
    c = Conv().handshake().send(True, b"ping 1").send(True, b"ping 2").close().pkts
    rules = [rule('content:"ping";', proto="udp"), rule('content:"ping";', sid=2),
             rule('flow:only_stream; content:"ping";', sid=3)]
    r = detect(tmp_path, pkts + c, rules, "--set", "stream.inline=yes")
    assert r.sids == [1, 1, 2, 2, 3]
    # Suricata's IDS mode (the default): a packet added to the stream has its own payload
    # inspected only by rules with a depth/offset content or stream_size; sid 2 is then a
    # stream rule like sid 3, and alerts once
    ids = detect(tmp_path, pkts + c, rules, name="ids")
    assert ids.sids == [1, 1, 2, 3]


def test_depth_counts_from_the_payload_of_a_packet_mid_stream(tmp_path):
    # sid 2002028 of ET Open: "PONG " at the start of a segment in the middle of a session
    # matches on that packet's payload, not on the stream (which starts with "NICK")
    c = Conv(dport=6667).handshake().send(True, b"NICK x\r\nUSER x\r\n")
    c.send(True, b"PONG :irc.example\r\n").send(True, b"JOIN #a PONG \r\n")
    rules = [rule('flow:established,to_server; content:"PONG|20|"; depth:5;', sid=1),
             rule('flow:established,to_server,only_stream; content:"PONG|20|"; depth:5;',
                  sid=2),
             rule('flow:established,to_server; content:"PONG|20|"; offset:8; depth:5;',
                  sid=3)]
    r = detect(tmp_path, c.close().pkts, rules)
    # sid 1: the PONG segment only; sid 3: "PONG " at 8 of the JOIN segment (the stream has
    # it at 41, past offset 8 + depth 5)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts] == [(1, 6), (3, 8)]


def test_a_retransmitted_decoy_is_not_inspected_as_a_packet(tmp_path):
    # a retransmission brings no new stream bytes: its payload is not inspected again
    c = Conv().handshake().send(True, b"hello world")
    c.raw(True, b"decoy", -11)
    r = detect(tmp_path, c.close().pkts, [rule('content:"decoy";', sid=1),
                                          rule('content:"hello";', sid=2)])
    assert r.sids == [2]


def test_content_split_across_segments_matches_on_the_stream(tmp_path):
    pkts = Conv().handshake().send(True, b"xxxxuid=0(root)yyyy", seg=3).close().pkts
    r = detect(tmp_path, pkts, [rule('content:"uid=0(root)";'),
                                rule('content:"uid=0(root)";', sid=2, proto="ip")])
    # the stream rule sees it; a packet (ip) rule cannot: no packet holds the whole string
    assert r.sids == [1]


def test_a_later_content_completes_an_earlier_fast_pattern(tmp_path):
    # the fast pattern arrives first; the other content only in a later segment
    pkts = (Conv().handshake().send(True, b"LONGFASTPATTERN ").send(True, b"tail")
            .close().pkts)
    r = detect(tmp_path, pkts, rule('content:"LONGFASTPATTERN"; content:"tail"; distance:0;'))
    assert r.sids == [1]


def test_rules_sharing_a_chain_both_alert(tmp_path):
    rules = [rule('content:"uid=0";', sid=1), rule('content:"uid=0";', sid=2)]
    r = detect(tmp_path, http_conv(), rules)
    assert r.sids == [1, 2]


def test_pass_rule_stops_inspection_of_the_flow(tmp_path):
    rules = [rule('content:"GET";', sid=1, action="pass"),
             rule('content:"uid=0";', sid=2)]
    r = detect(tmp_path, http_conv() + http_conv(sport=40001, req=b"POST / HTTP/1.1\r\n\r\n"),
               rules)
    assert [a["flow"]["src_port"] for a in r.alerts] == [40001]


def test_rules_on_protocols_without_a_parser_are_rejected_with_a_message(tmp_path):
    # the same verdict as osprey -T: a protocol without a parser (IEC 104, a Snort 3 service)
    rules = ['alert iec104 any any -> any any (msg:"h"; content:"uid"; sid:1;)',
             rule('content:"uid=0";', sid=2)]
    r = detect(tmp_path, http_conv(), rules)
    assert r.sids == [2]
    assert r.proc.stderr.endswith("t.rules:1: sid 1: unsupported protocol iec104\n")
    assert "1 loaded, 1 compiled, 0 not compiled" in r.proc.stdout


@pytest.mark.parametrize("body,hit", [
    ('pcre:"/uid=\\d+\\(root\\)/";', True),
    ('pcre:"/uid=\\d+\\(admin\\)/";', False),
    ('pcre:"/UID=0/i";', True),
    ('pcre:"/UID=0/";', False),
    ('pcre:"/^HTTP\\/1\\.1 200/";', True),
    ('pcre:"/^uid/";', False),
    ('pcre:"/^uid/m";', True),
    ('pcre:"/OK.*uid/s";', True),
    ('pcre:"/OK.*uid/";', False),
    ('pcre:"/u i d = 0/x";', True),
    ('pcre:!"/admin/";', True),
    ('pcre:!"/root/";', False),
    ('content:"Content-Length"; pcre:"/^\\s+:/R";', False),
    ('content:"Content-Length"; pcre:"/^:\\s*12/R";', True),
    ('content:"uid=0"; pcre:"/^HTTP/R";', False),
    ('content:"uid=0"; pcre:"/HTTP/";', True),
    ('content:"uid=0"; pcre:"/root/RB";', True),
    ('content:"HTTP"; isdataat:5,relative;', True),
    ('content:"root)"; isdataat:2,relative;', False),
    ('content:"root)"; isdataat:!2,relative;', True),
    ('isdataat:50;', True),
    ('isdataat:60;', False),
])
def test_pcre_and_isdataat(tmp_path, body, hit):
    r = detect(tmp_path, http_conv(), rule("flow:to_client; " + body))
    assert r.sids == ([1] if hit else [])


def test_isdataat_absolute_is_an_offset_relative_is_a_count(tmp_path):
    # 32 bytes: a byte at offset 31 but none at 32; 32 bytes from the start, 31 after "a"
    rules = [rule("isdataat:31;", proto="udp", sid=1), rule("isdataat:32;", proto="udp", sid=2),
             rule("isdataat:32,relative;", proto="udp", sid=3),
             rule("isdataat:33,relative;", proto="udp", sid=4),
             rule('content:"a"; depth:1; isdataat:31,relative;', proto="udp", sid=5),
             rule('content:"a"; depth:1; isdataat:32,relative;', proto="udp", sid=6),
             rule('content:"a"; depth:1; isdataat:!32,relative;', proto="udp", sid=7)]
    assert detect(tmp_path, [udp(b"a" + b"b" * 31)], rules).sids == [1, 3, 5, 7]


def test_pcre_relative_backtracks_through_contents(tmp_path):
    # the first "k=" is followed by letters, the second by digits
    r = detect(tmp_path, [udp(b"k=ab k=12")], [
        rule('content:"k="; pcre:"/^\\d+/R";', proto="udp", sid=1),
        rule('content:"k="; pcre:"/^z/R";', proto="udp", sid=2)])
    assert r.sids == [1]


def test_pcre_with_a_flag_for_a_buffer_not_filled_is_rejected(tmp_path):
    # rejected at load, with the same reason osprey -T gives (K: the raw cookie)
    r = detect(tmp_path, http_conv(), [rule('content:"GET"; pcre:"/index/K";', sid=1)])
    assert r.sids == []
    assert ("sid 1: unsupported option pcre: an HTTP buffer flag for a buffer Osprey does not "
            "fill yet") in r.proc.stderr


# payload: "LEN" then a 2-byte big-endian length 0x0005, 5 bytes, then "END"; "n=0042;"
BYTES = b"LEN\x00\x05abcdeEND n=0042; m=2a"


@pytest.mark.parametrize("body,hit", [
    ('content:"LEN"; byte_test:2,=,5,0,relative;', True),
    ('content:"LEN"; byte_test:2,=,6,0,relative;', False),
    ('content:"LEN"; byte_test:2,!=,6,0,relative;', True),
    ('content:"LEN"; byte_test:2,>,4,0,relative;', True),
    ('content:"LEN"; byte_test:2,<,5,0,relative;', False),
    ('content:"LEN"; byte_test:2,&,4,0,relative;', True),
    ('content:"LEN"; byte_test:2,=,1280,0,relative,little;', True),
    ('byte_test:2,=,5,3;', True),
    ('byte_test:1,=,1,4,bitmask 0x04;', True),
    ('content:"n="; byte_test:4,=,42,0,relative,string,dec;', True),
    ('content:"n="; byte_test:4,=,43,0,relative,string,dec;', False),
    ('content:"m="; byte_test:2,=,42,0,relative,string,hex;', True),
    ('content:"LEN"; byte_test:4,=,5,100,relative;', False),
    ('content:"LEN"; byte_jump:2,0,relative; content:"END"; within:3;', True),
    ('content:"LEN"; byte_jump:2,0,relative; content:"abc"; within:3;', False),
    ('content:"LEN"; byte_jump:2,0,relative,post_offset -5; content:"abc"; within:3;', True),
    ('byte_jump:2,3,from_beginning,post_offset 5; content:"END"; within:3;', True),
    ('content:"LEN"; byte_jump:2,0,relative,multiplier 100;', False),
])
def test_byte_test_and_byte_jump(tmp_path, body, hit):
    r = detect(tmp_path, [udp(BYTES)], rule(body, proto="udp"))
    assert r.sids == ([1] if hit else [])


@pytest.mark.parametrize("payload,body,hit", [
    # many candidates for the first content; the relative one after it is absent or late
    (b"B" + b"A." * 400, 'content:"A"; content:"B"; distance:0;', False),
    (b"A." * 400 + b"B", 'content:"A"; content:"B"; distance:0;', True),
    (b"A." * 400 + b"B", 'content:"A"; content:"B"; distance:0; within:3;', True),
    (b"A." * 400 + b"B", 'content:"A"; content:"B"; distance:0; within:1;', False),
    # a negative distance brings the next search back before the match
    (b"..B.X" + b"." * 30 + b"X", 'content:"X"; content:"B"; distance:-4; content:"X"; '
     'distance:0;', True),
    (b"..B.X" + b"." * 30 + b"X", 'content:"X"; content:"B"; distance:-2;', False),
])
def test_relative_retries_stop_when_the_rest_cannot_match(tmp_path, payload, body, hit):
    r = detect(tmp_path, [udp(payload)], rule(body, proto="udp"))
    assert r.sids == ([1] if hit else [])


# ET's "Packed Executable Download" (sid 2014819) shape: raw stream contents, to_client.
PACKED = rule('flow:established,to_client; content:"|0d 0a 0d 0a|MZ"; isdataat:100,relative; '
              'content:"This program "; distance:0; content:"PE|00 00|"; distance:0; '
              'content:!"data"; within:400; content:!"text"; within:400; '
              'content:!"rsrc"; within:400;', proto="http")


def packed_response(later_pe, after_later=b""):
    """An MZ image whose first "PE\\0\\0" has section names (".text", ".data") within 400
    bytes, and optionally a second "PE\\0\\0" about 5.3 KB later, i.e. several segments on
    (what follows it, after_later, stays in the same 1400-byte segment)."""
    body = bytearray(b"\xcc" * 8000)
    body[0:2] = b"MZ"
    body[78:117] = b"This program cannot be run in DOS mode."
    body[200:204] = b"PE\x00\x00"
    body[450:471] = b".text\x00\x00\x00....data\x00\x00\x00"
    if later_pe:
        body[5300:5304] = b"PE\x00\x00"
        body[5350:5350 + len(after_later)] = after_later
    hdr = b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n"
    return (hdr % len(body)) + bytes(body)


@pytest.mark.parametrize("later_pe,after_later,hit", [
    (True, b"", True),          # the negated contents fail after the first PE, pass after the 2nd
    (False, b"", False),        # near miss: only the first PE, followed by section names
    (True, b".rsrc", False),    # near miss: the later PE has a section name within 400 too
    (True, b".data", False),
    (True, b".text", False),
])
def test_negated_contents_backtrack_to_a_pe_header_segments_later(tmp_path, later_pe,
                                                                  after_later, hit):
    """The 2014819 difference on the benchmark capture (65.54.95.206:80 → 192.168.72.14:3254):
    Osprey backtracks over the reassembled stream. Suricata 7.0.10 inspects the raw stream in
    ACK-driven chunks and alerts only when "MZ" and the later PE fall into one chunk: it gives
    no alert on this traffic (every segment ACKed), and alerts on a similar download when
    the client ACKs every 8 segments. Osprey's result does not depend on the ACKs."""
    c = Conv(sport=3254).handshake().send(True, b"GET /kb.exe HTTP/1.1\r\nHost: a\r\n\r\n")
    data = packed_response(later_pe, after_later)
    for i in range(0, len(data), 1400):
        c.send(False, data[i:i + 1400])
    r = detect(tmp_path, c.close().pkts, [PACKED])
    assert r.sids == ([1] if hit else [])


def test_snort3_raw_data_is_the_payload_as_it_came(tmp_path):
    # Snort 3's raw_data: the Telnet payload with its IAC negotiation bytes (sid 713's form)
    iac = b"\xff\xf3" * 5
    pkts = Conv(dport=23).handshake().send(True, b"login\r\n" + iac).close().pkts
    rules = [rule('flow:to_server,established; raw_data; content:"|FF F3 FF F3 FF F3 FF F3 FF F3|",'
                  'fast_pattern,nocase;', hdr="any any -> any 23")]
    assert detect(tmp_path, pkts, rules).sids == [1]
    near = Conv(dport=23).handshake().send(True, b"login\r\n" + b"\xff\xf3" * 4).close().pkts
    assert detect(tmp_path, near, rules, name="near").sids == []
