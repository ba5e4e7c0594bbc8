"""Suricata 8's DNS keywords: dns.opcode, dns.rcode (header fields, requests and responses)
and the multi-buffers dns.queries.rrname, dns.answers.rrname, dns.authorities.rrname (one
element per record name; a content list holds within one name). Over UDP and TCP, with the
rule's direction choosing requests (dns_query) or responses (dns_response), both without one.
Scapy messages through `osprey -r`, exact alerts for match and near miss."""
import struct

import pytest
from scapy.layers.dns import DNS, DNSQR, DNSRR
from scapy.layers.inet import IP, UDP

from detect_helpers import CLI, SRV, Conv, detect, rule

QUERY = DNS(id=7, rd=1, qd=[DNSQR(qname="www.evil.example"),
                            DNSQR(qname="mail.other.test", qtype="MX")])
RESPONSE = DNS(id=7, qr=1, rd=1, ra=1, rcode=3, qd=DNSQR(qname="www.evil.example"),
               an=[DNSRR(rrname="alias.evil.example", type="A", rdata="192.0.2.1"),
                   DNSRR(rrname="second.example", type="A", rdata="192.0.2.2")],
               ns=[DNSRR(rrname="evil.example", type="NS", rdata="ns1.evil.example")],
               ar=[DNSRR(rrname="glue.evil.example", type="A", rdata="192.0.2.53")])
UPDATE = DNS(id=8, opcode=5, qd=DNSQR(qname="zone.example"))


def udp_msgs(*msgs):
    pkts = []
    for m in msgs:
        if m.qr:
            pkts.append(IP(src=SRV, dst=CLI) / UDP(sport=53, dport=5353) / m)
        else:
            pkts.append(IP(src=CLI, dst=SRV) / UDP(sport=5353, dport=53) / m)
    return pkts


def tcp_msgs(*msgs):
    c = Conv(sport=40001, dport=53).handshake()
    for m in msgs:
        b = bytes(m)
        c.send(not m.qr, struct.pack("!H", len(b)) + b)
    return c.close().pkts


def sids(tmp_path, pkts, body):
    return detect(tmp_path, pkts, [rule(body, sid=5, proto="dns")]).sids


@pytest.mark.parametrize("transport", [udp_msgs, tcp_msgs])
@pytest.mark.parametrize("body,n", [
    ('dns.opcode:5;', 1),
    ('dns.opcode:!0;', 1),
    ('dns.opcode:4;', 0),
    ('dns.opcode:4-6;', 1),                         # 4 < opcode < 6, as Suricata's integers
    ('dns.opcode:5-6;', 0),
    ('dns.rcode:2-4; flow:to_client;', 1),
    ('dns.opcode:0; flow:to_server;', 1),           # the query; the update is opcode 5
    ('dns.rcode:3;', 1),                            # the response only
    ('dns.rcode:nxdomain; flow:to_client;', 1),
    ('dns.rcode:3; flow:to_server;', 0),
    ('dns.rcode:!0;', 1),
    ('dns.rcode:0; flow:to_server;', 2),            # the query and the update
    # rrtype: any question's, and in a response any answer's
    ('dns.rrtype:1;', 3),                           # A: each message's question
    ('dns.rrtype:aaaa;', 0),
    ('dns.rrtype:!1;', 1),                          # the query's MX question
    ('dns.rrtype:cname;', 0),
    ('dns.rrtype:15; flow:to_server;', 1),          # the second question of the query
    ('dns.queries.rrname; content:"mail.other.test"; bsize:15;', 1),  # second question
    ('dns.queries.rrname; content:"www.evil"; startswith; flow:to_server;', 1),
    ('dns.queries.rrname; content:"www.evil.example"; flow:to_client;', 1),  # the response's
    ('dns.queries.rrname; content:"www.evil.example";', 2),   # the query and the response
    # within one name: never across two questions
    ('dns.queries.rrname; content:"evil"; content:"other";', 0),
    ('dns.answers.rrname; content:"second.example"; startswith; endswith;', 1),
    ('dns.answers.rrname; content:"alias"; content:"second";', 0),
    ('dns.answers.rrname; content:"ns1";', 0),       # rdata, not a name of the record
    ('dns.authorities.rrname; content:"evil.example"; bsize:12;', 1),
    ('dns.authorities.rrname; content:"alias";', 0),
    # additionals and the whole response (names, name-like rdata), responses only
    ('dns.additionals.rrname; content:"glue.evil.example"; bsize:17;', 1),
    ('dns.additionals.rrname; content:"alias";', 0),
    ('dns.response.rrname; content:"ns1.evil.example"; bsize:16;', 1),  # NS rdata
    ('dns.response.rrname; content:"glue"; startswith;', 1),
    ('dns.response.rrname; content:"www.evil.example"; bsize:16;', 1),  # its question
    ('dns.response.rrname; content:"mail.other";', 0),                  # the request's
    ('dns.response.rrname; content:"192.0.2";', 0),                     # A rdata: no name
    # Suricata 8's other spellings: dns.query.name and dns.answer.name, both directions;
    # dns.query: every question of a request, none of a response
    ('dns.query.name; content:"www.evil.example"; bsize:16;', 2),
    ('dns.answer.name; content:"alias.evil.example"; bsize:18;', 1),
    ('dns.answer.name; content:"www.evil.example";', 0),
    ('dns.query; content:"mail.other.test"; bsize:15;', 1),
    ('dns.query; content:"www.evil"; content:"other";', 0),
    # a sticky buffer named again is another instance: each may match its own element
    ('dns.query; content:"www.evil"; dns.query; content:"other";', 1),
    ('dns.query; content:"www.evil"; dns.query; content:"absent";', 0),
])
def test_dns_keywords(tmp_path, transport, body, n):
    assert sids(tmp_path, transport(QUERY, RESPONSE, UPDATE), body) == [5] * n
