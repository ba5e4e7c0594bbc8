"""mDNS (parsers/mdns, on parsers/dns's decoder) end to end: detection (UDP to 5353; a query
from 5353 to a DNS server stays DNS), queries and announcements in either direction, Suricata
8's mdns.* sticky buffers (the suricata-verify mdns test's rules), the EVE mdns records
(validated against Suricata's schema) and suricata-builtin/mdns-events.rules on crafted
traffic."""
import json

from jsonschema import Draft7Validator
from scapy.layers.dns import DNS, DNSQR, DNSRR

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out

EVENTS = ROOT.parent / "shared" / "corpus" / "rules" / "suricata-builtin" / "mdns-events.rules"
GROUP = "224.0.0.251"


def query():
    return bytes(DNS(id=0, rd=0, qd=[DNSQR(qname="_apple-mobdev._tcp.local", qtype="PTR"),
                               DNSQR(qname="92e80812._sub._apple-mobdev2._tcp.local",
                                     qtype="PTR"),
                               DNSQR(qname="_apple-pairable._tcp.local", qtype="PTR")]))


def announcement():
    return bytes(DNS(id=0, qr=1, aa=1, rd=0, qd=[], an=[
        DNSRR(rrname="Johns iMac._device-info._tcp.local", type="TXT", ttl=4500,
              rdata=[b"model=iMac17,1", b"osxvers=17"]),
        DNSRR(rrname="_companion-link._tcp.local", type="PTR", ttl=4500,
              rdata="Johns iMac._companion-link._tcp.local"),
        DNSRR(rrname="Johns-iMac.local", type="A", ttl=120, rdata="10.0.0.9")],
        ar=[DNSRR(rrname="Johns-iMac.local", type="AAAA", ttl=120, rdata="fe80::1")]))


def traffic():
    return [udp(announcement(), src="10.0.0.9", dst=GROUP, sport=5353, dport=5353),
            udp(query(), src="10.0.0.7", dst=GROUP, sport=5353, dport=5353)]


SV_RULES = [  # suricata-verify tests/mdns/test.rules
    rule('mdns.queries.rrname; content: "_apple";', sid=1, proto="mdns"),
    rule('mdns.answers.rrname; content: "Mac";', sid=2, proto="mdns"),
    rule('mdns.response.rrname; content: "Johns iMac._companion-link._tcp.local";', sid=3,
         proto="mdns"),
]


def validate(recs):
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in recs:
        assert not list(v.iter_errors(r)), r


def test_mdns_sv_rules_and_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), SV_RULES, "--set",
                     "outputs.eve-log.types=[alert,mdns,dns]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2, 3]
    assert all(a["app_proto"] == "mdns" for a in out.of("alert"))
    assert out.of("dns") == []
    recs = [r["mdns"] for r in out.of("mdns")]
    assert recs == [
        {"type": "response", "id": 0, "flags": ["aa"], "opcode": 0, "rcode": 0,
         "answers": [
             {"rrname": "Johns iMac._device-info._tcp.local",
              "txt": ["model=iMac17,1", "osxvers=17"]},
             {"rrname": "_companion-link._tcp.local",
              "ptr": "Johns iMac._companion-link._tcp.local"},
             {"rrname": "Johns-iMac.local"}],
         "additionals": [{"rrname": "Johns-iMac.local"}]},
        {"type": "request", "id": 0, "opcode": 0, "rcode": 0, "queries": [
            {"rrname": "_apple-mobdev._tcp.local", "rrtype": "ptr"},
            {"rrname": "92e80812._sub._apple-mobdev2._tcp.local", "rrtype": "ptr"},
            {"rrname": "_apple-pairable._tcp.local", "rrtype": "ptr"}]},
    ]
    validate(out.of("mdns") + out.of("alert"))


def test_mdns_buffers_each_direction(tmp_path):
    # a unicast answer back to the querier's port: the flow's second direction
    pkts = [udp(query(), src="10.0.0.7", dst="10.0.0.9", sport=40000, dport=5353),
            udp(announcement(), src="10.0.0.9", dst="10.0.0.7", sport=5353, dport=40000)]
    rules = [rule('flow:to_server; mdns.queries.rrname; content:"_apple-pairable";', sid=1,
                  proto="mdns"),
             rule('flow:to_client; mdns.answers.rrname; content:"iMac";', sid=2, proto="mdns"),
             rule('flow:to_server; mdns.answers.rrname; content:"iMac";', sid=3, proto="mdns"),
             rule('mdns.additionals.rrname; content:"Johns-iMac.local"; bsize:16;', sid=4,
                  proto="mdns"),
             rule('mdns.authorities.rrname; content:"local";', sid=5, proto="mdns"),
             rule('dns.query; content:"_apple";', sid=6, proto="dns")]
    assert detect(tmp_path, pkts, rules).sids == [1, 2, 4]
    # from 5353 to a DNS server's 53: DNS, as before
    dns = [udp(query(), sport=5353, dport=53)]
    assert detect(tmp_path, dns, rules, name="dns").sids == [6]


def test_mdns_builtin_events(tmp_path):
    rules = [l for l in EVENTS.read_text().splitlines() if l.startswith("alert")]
    assert len(rules) == 9  # of its 17 lines: 9 rules, 2 commented out, comments
    good = udp(query(), src="10.0.0.7", dst=GROUP, sport=5353, dport=5353)
    z = bytearray(query())
    z[3] |= 0x40  # the reserved Z bit
    op = bytearray(query())
    op[2] |= 8 << 3  # opcode 8: none assigned
    bad_auth = bytes(DNS(id=0, qr=1, qd=[DNSQR(qname="a.local")], nscount=1))
    pkts = [good, udp(b"\0\0\0", src="10.0.0.7", dst=GROUP, sport=5353, dport=5353),
            udp(bytes(z), src="10.0.0.7", dst=GROUP, sport=5353, dport=5353),
            udp(bytes(op), src="10.0.0.7", dst=GROUP, sport=5353, dport=5353),
            udp(bad_auth, src="10.0.0.7", dst=GROUP, sport=5353, dport=5353)]
    # malformed to_server (2242000), Z (2242004), opcode (2242005), authorities (2242010)
    assert detect(tmp_path, pkts, rules).sids == [2242000, 2242004, 2242005, 2242010]
    long_name = ".".join(["a" * 60] * 20) + ".local"
    pkts = [udp(bytes(DNS(id=0, qd=[DNSQR(qname=long_name)])), src="10.0.0.7", dst=GROUP,
                sport=5353, dport=5353),
            udp(b"\0\0\0", src=GROUP, dst="10.0.0.7", sport=5353, dport=5353)]
    # name too long (2242006); a short datagram back: malformed to_client (2242001)
    assert sorted(detect(tmp_path, pkts, rules, name="l").sids) == [2242001, 2242006]


def test_mdns_lost_datagrams(tmp_path):
    # mDNS has no request/response pairing: each message is its own transaction, so a query
    # never answered and an answer whose query was lost (sent to the asker's port) are each
    # a record, and their rules match
    pkts = [udp(query(), src="10.0.0.7", dst=GROUP, sport=5353, dport=5353),
            udp(announcement(), src="10.0.0.9", dst="10.0.0.8", sport=5353, dport=49152)]
    out = osprey_out(tmp_path, pkts, SV_RULES, "--set", "outputs.eve-log.types=[alert,mdns]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2, 3]
    assert [r["mdns"]["type"] for r in out.of("mdns")] == ["request", "response"]
    validate(out.records)
