"""DNS names read as Suricata 8 reads them (parsers/dns_wire/name.c), end to end: a pointer to
itself after a pointer (dns.infinite_loop), a cycle of pointers cut at 255 labels and pointers
(dns.too_many_labels, with dns.name_too_long), a name over 1,025 bytes kept cut with EVE's
rrname_truncated (over TCP on a port made DNS's by
app-layer.protocols.dns.tcp.detection-ports.dp), dns.invalid_opcode, and the same names on
mDNS (mdns.infinite_loop / mdns.too_many_labels). Rules are Suricata's own (suricata-builtin
dns-events.rules / mdns-events.rules)."""
import json
import struct

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, udp
from outputs_helpers import osprey_out

BUILTIN = ROOT.parent / "shared" / "corpus" / "rules" / "suricata-builtin"


def builtin(name):
    return [l for l in (BUILTIN / name).read_text().splitlines() if l.startswith("alert")]


def header(qd, flags=0x0100, an=0, ident=0x4242):
    return struct.pack(">HHHHHH", ident, flags, qd, an, 0, 0)


def label(s):
    return bytes([len(s)]) + s.encode()


def loop_query():
    """Two questions: "a.test" (offsets 12..23), then "x" and a pointer to 32, past the
    question, where a pointer points at itself: the name is "x" after an infinite loop."""
    q1 = label("a") + label("test") + b"\0" + b"\0\1\0\1"
    q2 = label("x") + b"\xc0\x20" + b"\0\1\0\1"
    return header(2) + q1 + q2 + b"\xc0\x20"


def cycle_query():
    """One question whose name is a pointer to a pointer cycle (at 18 and 20, each to the
    other): 255 labels and pointers, then cut — too many labels, and the name cut."""
    msg = header(1) + b"\xc0\x12" + b"\0\1\0\1" + b"\xc0\x14" + b"\xc0\x12"
    return msg


def test_dns_loop_and_label_limit_events(tmp_path):
    rules = builtin("dns-events.rules")
    assert any("dns.infinite_loop" in r for r in rules)
    r = detect(tmp_path, [udp(loop_query(), sport=40000)], rules, name="loop")
    assert r.sids == [224009], r.proc.stderr  # infinite loop only: the message decodes
    r = detect(tmp_path, [udp(cycle_query(), sport=40001)], rules, name="cycle")
    # too many labels (224010), and the name cut (name too long, 224008), as Suricata
    assert r.sids == [224008, 224010]
    # a pointer to itself before any other pointer: a malformed message, no loop event
    bad = header(1) + b"\xc0\x0c" + b"\0\1\0\1"
    conv = [udp(loop_query(), sport=40002), udp(bad, sport=40002)]
    r = detect(tmp_path, conv, rules, name="bad")
    assert r.sids == [224009, 2240002]  # the first message's loop; the second malformed


def test_dns_invalid_opcode(tmp_path):
    # an opcode no RFC assigns on a flow already DNS (the probe refuses it as a first message)
    q = header(1) + label("a") + b"\0" + b"\0\1\0\1"
    op7 = header(1, flags=0x0100 | 7 << 11) + label("a") + b"\0" + b"\0\1\0\1"
    r = detect(tmp_path, [udp(q, sport=40000), udp(op7, sport=40000)],
               builtin("dns-events.rules"))
    assert r.sids == [2240007]


def long_name_message():
    """A query whose first name is 40 labels of 30 bytes (1,239 bytes dotted) and a second
    question pointing at it."""
    name = b"".join(label("0123456789abcdefghij0123456789") for _ in range(40)) + b"\0"
    return header(2) + name + b"\0\x10\0\1" + b"\xc0\x0c" + b"\0\x10\0\1"


def tcp_dns(msg, dport):
    data = struct.pack(">H", len(msg)) + msg
    return Conv(dport=dport).handshake().send(True, data, seg=700).close().pkts


def test_dns_name_too_long_over_tcp_detection_port(tmp_path):
    pkts = tcp_dns(long_name_message(), 1053)
    rules = builtin("dns-events.rules")
    out = osprey_out(tmp_path, pkts, rules, "--set",
                     "app-layer.protocols.dns.tcp.detection-ports.dp=1053", "--set",
                     "outputs.eve-log.types=[alert,dns,flow]")
    alerts = out.of("alert")
    assert [a["alert"]["signature_id"] for a in alerts] == [224008]
    dns = out.of("dns")
    assert len(dns) == 1 and dns[0]["dns"]["type"] == "query"
    q = dns[0]["dns"]["queries"][0]
    assert q["rrname_truncated"] is True and len(q["rrname"]) == 1025
    assert len(dns[0]["dns"]["rrname"]) == 1025
    assert alerts[0]["dns"]["queries"][0]["rrname_truncated"] is True
    schema = json.loads((ROOT.parent / "shared" / "conformance" /
                         "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for rec in dns + alerts:
        assert not list(v.iter_errors(rec)), rec
    # without the setting port 1053 is no DNS port: nothing is parsed
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,dns,flow]",
                     name="noport")
    assert out.of("alert") == [] and out.of("dns") == []
    assert out.of("flow")[0]["app_proto"] == "failed"
    # a list of ports and runs, both transports' key
    out = osprey_out(tmp_path, pkts, rules, "--set",
                     "app-layer.protocols.dns.detection-ports.dp=[5300, 1050:1060]", "--set",
                     "outputs.eve-log.types=[alert,dns,flow]", name="list")
    assert [a["alert"]["signature_id"] for a in out.of("alert")] == [224008]


def test_dns_detection_ports_bad_value(tmp_path):
    out = osprey_out(tmp_path, tcp_dns(long_name_message(), 1053), builtin("dns-events.rules"),
                     "--set", "app-layer.protocols.dns.tcp.detection-ports.dp=53,x",
                     check=False, name="bad")
    assert out.proc.returncode != 0
    assert "app-layer.protocols.dns.tcp.detection-ports.dp: not a list of ports" in \
        out.proc.stderr


def test_mdns_loop_and_label_limit_events(tmp_path):
    rules = builtin("mdns-events.rules")
    grp = "224.0.0.251"
    mdns = lambda m: udp(m, src="10.0.0.7", dst=grp, sport=5353, dport=5353)
    r = detect(tmp_path, [mdns(loop_query())], rules, name="loop")
    assert r.sids == [2242007]
    r = detect(tmp_path, [mdns(cycle_query())], rules, name="cycle")
    assert r.sids == [2242006, 2242008]
