"""DNS parser: query names over UDP (any port when the message is a plain query) and TCP
(length-prefixed, split anywhere), compression, and malformed names — pointer loops, names
out of bounds — counted without a hang or a crash."""
import struct

from scapy.layers.dns import DNS, DNSQR, DNSRR

from parsers_helpers import app_trace, conversation, dns_packet


def header(qid=0x1234, flags=0x0100, qd=1, an=0, ns=0, ar=0):
    return struct.pack(">HHHHHH", qid, flags, qd, an, ns, ar)


def name(*labels):
    return b"".join(bytes([len(x)]) + x for x in labels) + b"\0"


def test_udp_query_and_compressed_response(trace):
    q = bytes(DNS(id=7, rd=1, qd=DNSQR(qname="WWW.Example.com", qtype="A")))
    # the answer's name is a pointer to the question's (offset 12)
    r = (header(7, 0x8180, 1, 1) + name(b"WWW", b"Example", b"com") + struct.pack(">HH", 1, 1)
         + b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4) + bytes([93, 184, 216, 34]))
    pkts = [dns_packet(q), dns_packet(r, sport=53, dport=5353, src="10.0.0.2", dst="10.0.0.1")]
    a = app_trace(trace, pkts)
    assert [e["event"] for e in a.events] == ["app_detected", "dns_query", "dns_response"]
    assert a.bufs("dns_query") == [{"dns.query": b"WWW.Example.com"}]
    assert a.bufs("dns_response") == [{"dns.query": b"WWW.Example.com"}]
    assert a.of("dns_query")[0]["direction"] == "toserver"
    assert a.of("dns_response")[0]["direction"] == "toclient"
    assert a.flows[0]["app_proto"] == "dns"
    assert a.stats["dns_messages"] == 2 and a.stats["dns_malformed"] == 0
    assert a.of("dns_query")[0]["dns"] == {"id": 7, "rcode": 0, "rrtype": 1, "answers": []}
    assert a.of("dns_response")[0]["dns"] == {
        "id": 7, "rcode": 0, "rrtype": 1,
        "answers": [{"rrname": "WWW.Example.com", "rrtype": 1, "ttl": 60, "rdata": "93.184.216.34"}]}


def test_answer_types(trace):
    mx = b"\x00\x0a" + bytes([2]) + b"mx" + bytes([4]) + b"test\x00"
    rrs = [DNSRR(rrname="a.test", type="CNAME", ttl=9, rdata="b.test"),
           DNSRR(rrname="b.test", type="AAAA", ttl=8, rdata="2001:db8::1"),
           DNSRR(rrname="b.test", type="TXT", ttl=7, rdata=[b"v=spf1"]),
           DNSRR(rrname="b.test", type="MX", ttl=6, rdata=mx),
           DNSRR(rrname="b.test", type="HINFO", ttl=5, rdata=b"\x01x\x01y")]
    r = bytes(DNS(id=5, qr=1, rcode=3, qd=DNSQR(qname="a.test", qtype=255), an=rrs))
    assert r[7] == 5  # ancount
    a = app_trace(trace, [dns_packet(r, sport=53, dport=5353, src="10.0.0.2", dst="10.0.0.1")])
    d = a.of("dns_response")[0]["dns"]
    assert (d["id"], d["rcode"], d["rrtype"]) == (5, 3, 255)
    assert [(x["rrname"], x["rrtype"], x["ttl"], x["rdata"]) for x in d["answers"]] == [
        ("a.test", 5, 9, "b.test"), ("b.test", 28, 8, "2001:db8::1"), ("b.test", 16, 7, "v=spf1"),
        ("b.test", 15, 6, "mx.test"), ("b.test", 13, 5, "")]


def test_dns_off_port_53_and_not_dns_on_53(trace):
    q = bytes(DNS(id=1, rd=1, qd=DNSQR(qname="odd.port.test")))
    a = app_trace(trace, [dns_packet(q, sport=40001, dport=5300)])
    assert a.bufs("dns_query") == [{"dns.query": b"odd.port.test"}]
    b = app_trace(trace, [dns_packet(b"\x01\x02not a dns message at all", dport=53)])
    assert b.flows[0]["app_proto"] == "failed"
    assert b.of("dns_query") == []
    # a datagram off port 53 that is not DNS is not taken for it
    c = app_trace(trace, [dns_packet(b"hello world, this is not dns", sport=1111, dport=2222)])
    assert c.flows[0]["app_proto"] == "failed"


def test_compression_loops_do_not_hang(trace):
    # the question's name points at itself: a loop
    loop_q = header(2) + b"\xc0\x0c" + struct.pack(">HH", 1, 1)
    # a valid question, then an answer whose name (offset 25) is a two-pointer cycle 25 -> 27 -> 25
    cyc = (header(3, 0x8180, 1, 1) + name(b"ok", b"test") + struct.pack(">HH", 1, 1)
           + b"\xc0\x1b\xc0\x19" + struct.pack(">HHIH", 1, 1, 1, 0))
    # a pointer past the end of the message
    oob = header(4) + b"\xc0\xff" + struct.pack(">HH", 1, 1)
    pkts = [dns_packet(header(1) + name(b"first") + struct.pack(">HH", 1, 1))]
    pkts += [dns_packet(m) for m in (loop_q, oob)]
    pkts += [dns_packet(cyc, sport=53, dport=5353, src="10.0.0.2", dst="10.0.0.1")]
    a = app_trace(trace, pkts)
    assert a.bufs("dns_query") == [{"dns.query": b"first"}]
    # the cyclic answer still has a good question: the response event runs; a cycle entered
    # through a pointer is read as Suricata 8 reads it (255 labels and pointers, then the
    # name cut: dns.too_many_labels, test_parsers_dns_names.py), no malformed message
    assert a.bufs("dns_response") == [{"dns.query": b"ok.test"}]
    assert a.stats["dns_malformed"] == 2
    assert a.stats["dns_messages"] == 4


def test_dns_over_tcp_split_anywhere(trace):
    m1 = bytes(DNS(id=1, rd=1, qd=DNSQR(qname="one.example")))
    m2 = bytes(DNS(id=2, rd=1, qd=DNSQR(qname="two.example", qtype="TXT")))
    stream = struct.pack(">H", len(m1)) + m1 + struct.pack(">H", len(m2)) + m2
    r = bytes(DNS(id=1, qr=1, qd=DNSQR(qname="one.example"),
                  an=DNSRR(rrname="one.example", rdata="192.0.2.1")))
    a = app_trace(trace, conversation(stream, struct.pack(">H", len(r)) + r, dport=53, seg=1))
    assert a.flows[0]["app_proto"] == "dns"
    assert a.bufs("dns_query") == [{"dns.query": b"one.example"}, {"dns.query": b"two.example"}]
    assert [e["tx_id"] for e in a.of("dns_query")] == [0, 1]
    assert a.bufs("dns_response") == [{"dns.query": b"one.example"}]


def test_truncated_messages(trace):
    q = bytes(DNS(id=9, qd=DNSQR(qname="cut.example")))
    pkts = [dns_packet(q), dns_packet(q[:5]), dns_packet(q[:20])]
    a = app_trace(trace, pkts)
    assert a.bufs("dns_query") == [{"dns.query": b"cut.example"}]
    assert a.stats["dns_malformed"] == 2


def test_long_names_are_kept_cut_at_1025_bytes_with_an_event(trace):
    """Suricata's reading of names: one longer than 255 octets on the wire is no malformed
    message; one longer than 1025 dotted bytes is kept cut there and raises
    dns.name_too_long (app-layer-event)."""
    mid = [b"a" * 63] * 5                     # 319 bytes dotted: read whole, no event
    big = [bytes([0x61 + i]) * 63 for i in range(20)]  # 1279 bytes dotted: cut at 1025
    pkts = [dns_packet(header(1) + name(*mid) + struct.pack(">HH", 1, 1)),
            dns_packet(header(2) + name(*big) + struct.pack(">HH", 1, 1))]
    a = app_trace(trace, pkts)
    assert a.bufs("dns_query") == [{"dns.query": b".".join(mid)},
                                   {"dns.query": b".".join(big)[:1025]}]
    assert a.stats["dns_malformed"] == 0


def test_name_too_long_event_alerts_on_the_long_name_only(tmp_path):
    from detect_helpers import detect, rule
    big = [bytes([0x61 + i]) * 63 for i in range(20)]
    pkts = [dns_packet(header(1) + name(*([b"a" * 63] * 5)) + struct.pack(">HH", 1, 1)),
            dns_packet(header(2) + name(*big) + struct.pack(">HH", 1, 1))]
    r = detect(tmp_path, pkts, [rule("app-layer-event:dns.name_too_long;", proto="dns")])
    assert [a["pcap_cnt"] for a in r.alerts] == [2]
