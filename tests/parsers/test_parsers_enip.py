"""EtherNet/IP end to end (parsers/enip/): off unless app-layer.protocols.enip.enabled (as
Suricata), detection on port 44818 (TCP and UDP) by an encapsulation header, the keywords
enip_command, cip_service and Suricata 8's enip.* (integers and the sticky buffers
enip.product_name / enip.service_name), its app-layer events, and the EVE enip records
(a request with its reply) validated against Suricata's schema; a gap on TCP (the side read
again from a segment that starts with a header, as Suricata resyncs), a lost UDP datagram,
and the limits (ENIP_CIP_MAX CIP messages of a Multiple Service Packet, ENIP_NAME_MAX)."""
import json
import struct

import pytest

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
ON = ("--set", "app-layer.protocols.enip.enabled=yes")


def enip(cmd, body=b"", status=0):
    return struct.pack("<HHIIQI", cmd, len(body), 0x11, status, 0, 0) + body


def rr(cip):
    """SendRRData's body: a null address item, an unconnected data item with cip"""
    return b"\0\0\0\0\x0a\x00\x02\x00" + b"\0\0\0\0" + b"\xb2\x00" + \
        len(cip).to_bytes(2, "little") + cip


LIST_IDENTITY = bytes.fromhex("63000000000000000000000000000000c1debed100000000")
IDENTITY = bytes.fromhex(
    "63003300000000000000000000000000c1debed10000000001000c002d0001000002af120a0101a4000000"
    "000000000001000c003a00040330008e4d52000b313735362d454e42542f4103")
GET_ATTR = enip(0x6F, rr(bytes.fromhex("0e03200124013007")))      # class 1 inst 1 attr 7
GET_ATTR_R = enip(0x6F, rr(bytes.fromhex("8e000e01ff00aabb")))    # status 0x0e, ext 0x00ff
SET_ATTR = enip(0x6F, rr(bytes.fromhex("1003200424653003ff")))    # class 4 inst 0x65 attr 3


def session(*msgs, port=44818):
    c = Conv(sport=31304, dport=port).handshake()
    for client, b in msgs:
        c.send(client, b)
    return c.close().pkts


def traffic():
    return session((True, LIST_IDENTITY), (False, IDENTITY), (True, GET_ATTR),
                   (False, GET_ATTR_R), (True, SET_ATTR))


def test_enip_keywords(tmp_path):
    rules = [rule("enip_command:99;", sid=1, proto="enip"),
             rule("enip_command:list_identity; flow:to_client;", sid=2, proto="enip"),
             rule("enip_command:111;", sid=3, proto="enip"),
             rule("cip_service:14;", sid=4, proto="enip"),
             rule("cip_service:14,1,7;", sid=5, proto="enip"),
             rule("cip_service:14,1,8;", sid=6, proto="enip"),
             rule("cip_service:16,4;", sid=7, proto="enip"),
             rule("enip.vendor_id:1; enip.product_code:58; enip.serial:>5000000;", sid=8,
                  proto="enip"),
             rule('enip.product_name; content:"1756-ENBT";', sid=9, proto="enip"),
             rule("enip.cip_status:14; enip.cip_extendedstatus:255;", sid=10, proto="enip"),
             rule("enip.cip_class:4; enip.cip_instance:101; enip.cip_attribute:3;", sid=11,
                  proto="enip"),
             rule("enip.state:3; enip.device_type:12; enip.identity_status:48;", sid=12,
                  proto="enip"),
             rule("enip.status:success; enip.protocol_version:1;", sid=13, proto="enip"),
             rule("enip.status:invalid_cmd;", sid=15, proto="enip"),
             rule("enip_command:4;", sid=14, proto="enip")]
    r = detect(tmp_path, traffic(), rules, *ON)
    assert r.sids == [1, 1, 2, 3, 3, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]
    assert detect(tmp_path, traffic(), rules, name="off").sids == []


def test_enip_udp_and_events(tmp_path):
    services = enip(0x04, bytes.fromhex("01000001140001002001") + b"Communications\0\0")
    pkts = [udp(enip(0x04), sport=40818, dport=44818),
            udp(services, src="10.0.0.2", dst="10.0.0.1", sport=44818, dport=40818),
            udp(enip(0x65, b"\x01\x00\x00\x00")[:-1], sport=40818, dport=44818)]
    rules = [rule("enip_command:4;", sid=1, proto="enip"),
             rule('enip.service_name; content:"Communications";', sid=2, proto="enip"),
             rule("enip.capabilities:0x120;", sid=3, proto="enip"),  # hex, as Suricata reads
             rule("enip.capabilities:288;", sid=4, proto="enip"),
             rule("enip.capabilities:289;", sid=6, proto="enip"),
             rule("app-layer-event:enip.invalid_pdu;", sid=5, proto="enip")]
    assert detect(tmp_path, pkts, rules, *ON).sids == [1, 1, 2, 3, 4, 5]
    # an unknown command on TCP: invalid_pdu, that side no longer read
    pkts = session((True, LIST_IDENTITY), (True, enip(0x99)), (True, LIST_IDENTITY))
    r = detect(tmp_path, pkts, [rule("app-layer-event:enip.invalid_pdu;", sid=1, proto="enip"),
                                rule("enip_command:99;", sid=2, proto="enip")], *ON, name="t2")
    assert r.sids == [1, 2]


def test_enip_eve_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [], *ON, "--set", "outputs.eve-log.types=[flow,enip]")
    recs = [r["enip"] for r in out.of("enip")]
    assert recs[0] == {
        "request": {"command": "ListIdentity", "status": "SUCCESS"},
        "response": {"command": "ListIdentity", "status": "SUCCESS",
                     "identity": {"protocol_version": 1, "vendor_id": "1",
                                  "device_type": "12", "product_code": 58, "revision": "4.3",
                                  "status": 48, "serial": 5393806,
                                  "product_name": "1756-ENBT/A", "state": 3}}}
    assert recs[1]["request"]["cip"] == {
        "service": "GetAttributeSingle",
        "path": [{"segment_type": "class", "value": 1},
                 {"segment_type": "instance", "value": 1},
                 {"segment_type": "attribute", "value": 7}]}
    assert recs[1]["response"]["cip"] == {"service": "GetAttributeSingle",
                                          "status": "AttributeNotSettable",
                                          "status_extended": "0x00ff"}
    assert recs[2]["request"]["cip"]["service"] == "SetAttributeSingle"
    assert "response" not in recs[2]  # never answered: written at the flow's end
    (f,) = out.of("flow")
    assert f["app_proto"] == "enip"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_enip_gap_resyncs_at_the_next_header(tmp_path):
    # the client's GetAttributeSingle is lost (the server acknowledges past it): the
    # server's reply is a transaction alone, and the client's next request, starting a
    # segment with a header, is read again (without the resync that side was given up)
    c = Conv(sport=31304, dport=44818).handshake()
    c.send(True, LIST_IDENTITY).send(False, IDENTITY)
    c.send(True, GET_ATTR, order=[])                      # never comes
    c.send(False, GET_ATTR_R).send(True, SET_ATTR)
    pkts = c.close().pkts
    rules = [rule("cip_service:14;", sid=1, proto="enip"),
             rule("cip_service:16,4;", sid=2, proto="enip"),
             rule("app-layer-event:enip.invalid_pdu;", sid=3, proto="enip"),
             rule("enip.cip_status:14;", sid=4, proto="enip"),
             rule('content:"|10 03 20 04 24 65|";', sid=5)]          # the stream's bytes
    assert detect(tmp_path, pkts, rules, *ON).sids == [2, 4, 5]
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[flow,enip]",
                     name="e")
    recs = [r["enip"] for r in out.of("enip")]
    assert [sorted(r) for r in recs] == [["request", "response"], ["response"], ["request"]]
    assert recs[1]["response"]["cip"]["service"] == "GetAttributeSingle"
    assert recs[2]["request"]["cip"]["service"] == "SetAttributeSingle"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_enip_lost_udp_datagram(tmp_path):
    # UDP: a ListIdentity whose answer was lost is ended by the next request, unanswered
    # (its record holds the request only); the next one is answered
    pkts = [udp(LIST_IDENTITY, sport=40818, dport=44818),
            udp(LIST_IDENTITY, sport=40818, dport=44818),
            udp(IDENTITY, src="10.0.0.2", dst="10.0.0.1", sport=44818, dport=40818)]
    rules = [rule("enip_command:list_identity;", sid=1, proto="enip"),
             rule('enip.product_name; content:"1756-ENBT";', sid=2, proto="enip")]
    out = osprey_out(tmp_path, pkts, rules, *ON, "--set",
                     "outputs.eve-log.types=[alert,enip]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 1, 1, 2]
    recs = [r["enip"] for r in out.of("enip")]
    assert [sorted(r) for r in recs] == [["request"], ["request", "response"]]
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def msp(n):
    """a SendRRData carrying a Multiple Service Packet of n GetAttributeSingle requests
    (class 1, instance 1, attribute i)"""
    reqs = [bytes.fromhex("0e032001240130") + bytes([i]) for i in range(n)]
    offs, at = b"", 2 + 2 * n
    for r in reqs:
        offs += struct.pack("<H", at)
        at += len(r)
    return enip(0x6F, rr(bytes.fromhex("0a0220022401") + struct.pack("<H", n) + offs
                         + b"".join(reqs)))


@pytest.mark.parametrize("n", [16, 17, 30])
def test_enip_cip_messages_limit(tmp_path, trace, n):
    # ENIP_CIP_MAX (16) CIP messages of one are kept (fields, the record's multiple list);
    # the rest are counted (enip_cip_shed); the message is still a transaction
    pkts = session((True, msp(n)))
    # the packet itself is the first CIP message kept, its requests (attributes 0, 1 …) the
    # next 15: attribute 14 is still read, 15 on are shed
    rules = [rule("cip_service:10;", sid=1, proto="enip"),
             rule("enip.cip_attribute:0;", sid=2, proto="enip"),
             rule("enip.cip_attribute:14;", sid=3, proto="enip"),
             rule("cip_service:14,1,15;", sid=4, proto="enip")]
    assert detect(tmp_path, pkts, rules, *ON).sids == [1, 2, 3]
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[enip]",
                     name="e")
    (rec,) = [r["enip"] for r in out.of("enip")]
    mult = rec["request"]["cip"]["multiple"]
    assert [m["path"][-1]["value"] for m in mult] == list(range(min(n, 15)))
    assert not list(Draft7Validator(SCHEMA).iter_errors(out.of("enip")[0]))
    a = app_trace(trace, pkts, *ON)
    assert a.stats["enip_cip_shed"] == max(0, n - 15) and a.stats["enip_tx"] == 1


def identity(name):
    """a ListIdentity reply: one identity item (CIP Vol 2 table 2-4.4) named name"""
    it = struct.pack("<H", 1) + bytes(16) + struct.pack("<HHHBBHIB", 1, 12, 58, 4, 3, 0x30,
                                                        5393806, len(name)) + name + b"\x03"
    return enip(0x63, struct.pack("<HHH", 1, 0x0c, len(it)) + it)


def test_enip_product_name_limit(tmp_path):
    # ENIP_NAME_MAX (64) bytes of a product name are kept: a longer one is cut there, the
    # rest of the item (the state after the name) still read
    pkts = session((True, LIST_IDENTITY), (False, identity(b"N" * 63 + b"Z" + b"TAIL")))
    rules = [rule('enip.product_name; content:"NZ"; endswith; bsize:64;', sid=1, proto="enip"),
             rule('enip.product_name; content:"TAIL";', sid=2, proto="enip"),
             rule("enip.state:3;", sid=3, proto="enip")]
    assert detect(tmp_path, pkts, rules, *ON).sids == [1, 3]
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[enip]",
                     name="e")
    (rec,) = [r["enip"] for r in out.of("enip")]
    assert rec["response"]["identity"]["product_name"] == "N" * 63 + "Z"
    assert not list(Draft7Validator(SCHEMA).iter_errors(out.of("enip")[0]))
