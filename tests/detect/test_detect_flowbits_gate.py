"""The flowbits gate of stream rules that only read flowbits (isset) and alert: while a bit is
unset the rule's contents are not searched during the walk; the rule is decided at the
commit, after the commit's setters, with the same packet and window. What it must keep: a
setter of the same delivery (any sid) still enables the reader, the reader's own contents
still decide, a bit set earlier lets the walk go on, and a bit never set means no alert."""
from detect_helpers import Conv, rule
from detect_helpers import detect as _detect


def detect(*args, **kw):
    """Inline delivery (stream.inline: yes): these cases follow the flowbits gate of one delivery delivery by delivery,
    as each packet's bytes arrive; Suricata's IDS timing (the default) is
    test_stream_ack_delivery.py's."""
    return _detect(*args, "--set", "stream.inline=yes", **kw)

READER = rule('flow:to_server; content:"READER-CONTENT"; flowbits:isset,gate;', sid=1)
SETTER = rule('flow:to_server; content:"SETTER-CONTENT"; flowbits:set,gate; '
              'flowbits:noalert;', sid=2)


def sids(tmp_path, sends, rules):
    """sends: the client's data, one delivery each; alerts as (sid, pcap_cnt)."""
    c = Conv(dport=8080).handshake()
    for data in sends:
        c.send(True, data)
    r = detect(tmp_path, c.close().pkts, rules)
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def test_setter_in_the_same_delivery_enables_the_reader(tmp_path):
    # one segment holds both contents: the reader (sid 1, walked with the bit unset) is
    # decided at the commit, after the setter (sid 2)
    got = sids(tmp_path, [b"SETTER-CONTENT READER-CONTENT"], [READER, SETTER])
    assert got == [(1, 4)]  # the data segment: 3 handshake packets + 1


def test_the_readers_own_contents_still_decide_at_the_commit(tmp_path):
    # the setter matches and sets the bit in this delivery; the reader's content is absent
    assert sids(tmp_path, [b"SETTER-CONTENT only"], [READER, SETTER]) == []
    # and a reader with a relative content checked at the commit: present but too far
    far = rule('flow:to_server; content:"READER-CONTENT"; content:"TAIL"; distance:0; '
               'within:13; flowbits:isset,gate;', sid=3)
    near = rule('flow:to_server; content:"READER-CONTENT"; content:"TAIL"; distance:0; '
                'within:14; flowbits:isset,gate;', sid=4)
    got = sids(tmp_path, [b"SETTER-CONTENT READER-CONTENT0123456789TAIL"],
               [far, near, SETTER])
    assert got == [(4, 4)]


def test_a_bit_set_by_an_earlier_delivery(tmp_path):
    got = sids(tmp_path, [b"SETTER-CONTENT", b"later: READER-CONTENT"], [READER, SETTER])
    # delivery 1 is packet 4, its acknowledgement 5, delivery 2 packet 6
    assert got == [(1, 6)]


def test_a_bit_never_set_gives_no_alert(tmp_path):
    assert sids(tmp_path, [b"READER-CONTENT", b"READER-CONTENT again"], [READER, SETTER]) == []


def test_all_bits_must_be_set(tmp_path):
    two = rule('flow:to_server; content:"READER-CONTENT"; flowbits:isset,gate; '
               'flowbits:isset,other;', sid=5)
    other = rule('flow:to_server; content:"OTHER-CONTENT"; flowbits:set,other; '
                 'flowbits:noalert;', sid=6)
    assert sids(tmp_path, [b"SETTER-CONTENT READER-CONTENT"], [two, SETTER, other]) == []
    got = sids(tmp_path, [b"SETTER-CONTENT", b"OTHER-CONTENT READER-CONTENT"],
               [two, SETTER, other])
    assert got == [(5, 6)]


def test_a_packet_rule_setting_the_bit_on_the_same_packet(tmp_path):
    # packet rules commit before the stream rules of the same packet
    pkt_setter = rule('content:"SETTER-CONTENT"; dsize:>0; flowbits:set,gate; '
                      'flowbits:noalert;', sid=7)  # dsize: a packet rule
    got = sids(tmp_path, [b"SETTER-CONTENT READER-CONTENT"], [READER, pkt_setter])
    assert got == [(1, 4)]


def test_packet_rule_reads_a_bit_a_stream_rule_sets_on_the_same_packet(tmp_path):
    # inline (--simulate-ips) the server's response is inspected as a stream on the packet
    # that brings it, at the receiver's phase — after the packet rules. Suricata runs both in
    # one pass, setters first: the packet rule that reads the bit (sid 22) alerts on that
    # same packet. A reader whose bit is never set (sid 23) stays quiet; an empty-packet
    # reader (sid 24) alerts once on each later empty packet, from the bit set before.
    resp = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
    c = Conv().handshake().send(True, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").send(False, resp)
    rules = [rule('flow:to_client; content:"HTTP"; flowbits:set,common;', sid=11),
             rule(f"flowbits:isset,common; dsize:{len(resp)};", sid=22),
             rule(f"flowbits:isset,never; dsize:{len(resp)};", sid=23),
             rule("flowbits:isset,common; dsize:0;", sid=24)]
    r = detect(tmp_path, c.close().pkts, rules, "--simulate-ips")
    got = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)
    # packets: 3 handshake, request (4), its ACK (5), response (6), its ACK (7), close
    assert got == [(11, 6), (22, 6), (24, 7), (24, 8), (24, 9), (24, 10)]
