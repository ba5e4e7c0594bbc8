"""Inspection timed on ACKs (stream.inline: no), as Suricata's IDS mode: a direction's bytes are parsed when the other side acknowledges them, and its stream and
transaction alerts come with the next packet of that direction (its pcap_cnt, addresses);
bytes never acknowledged are inspected at the connection's or the flow's end. stream.inline:
yes, and auto in IPS mode, inspects on arrival; auto in IDS mode (the default) is no. The captures are scapy's; the expected packets
follow Suricata 8's suricata-verify cases of the same shape (bug-78, dns/task-7018-*)."""
from detect_helpers import Conv, detect, rule

ACK = ("--set", "stream.inline=no")


def cnt(res, sid):
    return sorted(a["pcap_cnt"] for a in res.alerts if a["alert"]["signature_id"] == sid)


def req_then_ack():
    """1-3 handshake, 4 request, 5 server ACK, 6 response, 7 client ACK, 8-10 close."""
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "PA", b"GET /blah/ HTTP/1.0\r\nHost: x\r\n\r\n"))
    c.seq[True] += 33
    c.pkts.append(c._pkt(False, "A"))
    c.pkts.append(c._pkt(False, "PA", b"HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nPONG"))
    c.seq[False] += 42
    c.pkts.append(c._pkt(True, "A"))
    return c.close().pkts


RULES = [rule('http.uri; content:"/blah/";', sid=1, proto="http"),
         rule('content:"GET /blah";', sid=2),
         rule('file_data; content:"PONG";', sid=3, proto="http"),
         rule('flow:to_server;', sid=4, proto="http")]


def test_request_alerts_on_the_next_client_packet_after_the_ack(tmp_path):
    res = detect(tmp_path, req_then_ack(), RULES, *ACK)
    assert cnt(res, 1) == [7]        # parsed at the server's ACK (5), inspected at 7
    assert cnt(res, 2) == [7]        # the raw stream too: acknowledged data only
    assert cnt(res, 3) == [9]        # the response: ACKed by 7, the server's next is 9
    for a in res.alerts:             # each alert names a packet of its data's direction
        to_server = a["alert"]["signature_id"] in (1, 2, 4)
        assert (a["src_ip"] == "10.0.0.1") == to_server
    # the protocol is known from the ACK on: every later client packet is http (8 FIN, 10 ACK)
    assert cnt(res, 4) == [7, 8, 10]


def test_inline_inspects_on_arrival(tmp_path):
    res = detect(tmp_path, req_then_ack(), RULES, "--set", "stream.inline=yes")
    assert cnt(res, 1) == [4] and cnt(res, 2) == [4] and cnt(res, 3) == [6]
    auto = detect(tmp_path, req_then_ack(), RULES, name="auto")  # the default: IDS, on ACKs
    assert cnt(auto, 1) == [7] and cnt(auto, 3) == [9]
    ips = detect(tmp_path, req_then_ack(), RULES, "--simulate-ips", name="ips")
    assert cnt(ips, 1) == [4] and cnt(ips, 3) == [6]


def test_unacked_data_is_inspected_at_the_reset(tmp_path):
    """The server's data is never acknowledged; the client resets: Suricata inspects it at
    the flow's end, as a packet of the server's direction."""
    c = Conv().handshake()
    c.pkts.append(c._pkt(False, "PA", b"Please "))
    c.pkts.append(c._pkt(False, "PA", b"Let Me In!", seq=c.seq[False] + 7))
    c.pkts.append(c._pkt(True, "RA"))
    res = detect(tmp_path, c.pkts, [rule('content:"Me In";', sid=1)], *ACK)
    assert len(res.alerts) == 1
    a = res.alerts[0]
    assert a["src_ip"] == "10.0.0.2" and a["pkt_src"] == "stream (flow timeout)"


def test_unacked_data_is_inspected_at_the_flow_end(tmp_path):
    """Data, no ACK, no close: the capture ends; the flow's end delivers it."""
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "PA", b"GET /blah/ HTTP/1.0\r\n\r\n"))
    res = detect(tmp_path, c.pkts, RULES[:2], *ACK)
    assert sorted(a["alert"]["signature_id"] for a in res.alerts) == [1, 2]
    assert all(a["pkt_src"] == "stream (flow timeout)" for a in res.alerts)


def test_ack_covering_part_of_the_data(tmp_path):
    """Only the acknowledged part is inspected with the next packet; the rest waits. (A chunk
    of 4 bytes: every ACK here brings one; the default chunk is test_small_chunks_wait's.)"""
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "PA", b"AAAA"))
    c.pkts.append(c._pkt(True, "PA", b"BBBB", seq=c.seq[True] + 4))
    c.seq[True] += 4
    c.pkts.append(c._pkt(False, "A"))                       # 6: acks AAAA only
    c.pkts.append(c._pkt(True, "A", seq=c.seq[True] + 4))   # 7: AAAA inspected
    c.seq[True] += 4
    c.pkts.append(c._pkt(False, "A"))                       # 8: acks BBBB
    c.pkts.append(c._pkt(True, "A"))                        # 9: BBBB inspected
    rules = [rule('content:"AAAA";', sid=1), rule('content:"AABB";', sid=2),
             rule('content:"BBBB";', sid=3)]
    res = detect(tmp_path, c.pkts, rules, *ACK, "--set", "stream.reassembly.toserver-chunk-size=4")
    assert cnt(res, 1) == [7] and cnt(res, 2) == [9] and cnt(res, 3) == [9]


def small_chunks():
    """1-3 handshake, 4 "AAAA" (no protocol), 5 server ACK, 6 client ACK, 7 "PONG" at the
    payload's start, 8 server ACK, 9 client ACK; the capture ends (no close)."""
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "PA", b"AAAA"))
    c.seq[True] += 4
    c.pkts.append(c._pkt(False, "A"))
    c.pkts.append(c._pkt(True, "A"))
    c.pkts.append(c._pkt(True, "PA", b"PONG"))
    c.seq[True] += 4
    c.pkts.append(c._pkt(False, "A"))
    c.pkts.append(c._pkt(True, "A"))
    return c.pkts


def test_a_packet_twin_without_fast_pattern_runs_on_every_arrival(tmp_path):
    """An arrival scan that finds no pattern skips the walk of the stream chains, unless a
    pkt_required twin has no fast pattern (a pcre with stream_size): it must run on each
    arrival, here on packet 7 ("PONG"), where the other rule's pattern is never found."""
    rules = [rule('content:"ZZZZ"; depth:4;', sid=1),
             rule('pcre:"/^PO.G/"; stream_size:client,>,2;', sid=4)]
    res = detect(tmp_path, small_chunks(), rules, *ACK)
    assert cnt(res, 1) == [] and cnt(res, 4) == [7]


def test_small_chunks_wait_for_the_flow_end(tmp_path):
    """Suricata inspects a direction's raw stream once toserver/toclient-chunk-size (2560)
    acknowledged bytes wait, or a parser triggers it (HTTP, SMTP, TLS, DNS messages), or at the
    end: 8 bytes of no protocol are inspected by the flow's end pseudo packet, not at 6."""
    res = detect(tmp_path, small_chunks(), [rule('content:"AAAA";', sid=1)], *ACK)
    assert len(res.alerts) == 1 and res.alerts[0]["pkt_src"] == "stream (flow timeout)"
    chunk = detect(tmp_path, small_chunks(), [rule('content:"AAAA";', sid=1)], *ACK,
                   "--set", "stream.reassembly.toserver-chunk-size=4", name="chunk4")
    assert cnt(chunk, 1) == [6]


def test_packet_payload_rules_match_on_arrival(tmp_path):
    """A content with depth or offset (Suricata's SIG_FLAG_REQUIRE_PACKET) is also inspected
    on each packet's own payload as it arrives (offsets from the payload's start); a rule
    without one inspects the stream only (a packet added to the stream is not inspected
    alone), so it waits for the chunk like test_small_chunks_wait_for_the_flow_end."""
    rules = [rule('content:"PONG"; depth:4;', sid=1), rule('content:"PONG";', sid=2),
             rule('stream_size:client,>,2; content:"PONG";', sid=3)]
    res = detect(tmp_path, small_chunks(), rules, *ACK)
    assert cnt(res, 1) == [7]                 # the packet's payload, on arrival
    # stream_size: inspected on packets too; its match on the packet stands for the side's
    # stream match (a stream rule alerts once per side, as inline where both match packet 7)
    assert cnt(res, 3) == [7]
    s2 = [a for a in res.alerts if a["alert"]["signature_id"] == 2]
    assert len(s2) == 1 and s2[0]["pkt_src"] == "stream (flow timeout)"
    inline = detect(tmp_path, small_chunks(), rules, "--set", "stream.inline=yes", name="inl")
    assert cnt(inline, 1) == [7] and cnt(inline, 2) == [7] and cnt(inline, 3) == [7]
