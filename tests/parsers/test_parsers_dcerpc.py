"""DCERPC (parsers/dcerpc) end to end: connection-oriented over TCP on any port (a bind, its
ack, a request in fragments and its response), connectionless over UDP; dcerpc.iface /
dce_iface (version comparisons, any_frag), dcerpc.opnum / dce_opnum (lists, ranges),
dcerpc.stub_data / dce_stub_data per direction, byte_test with dce, the frames, the EVE
dcerpc object in alerts and records (validated against Suricata's EVE schema)."""
import json
import struct
import uuid

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out

IFACE = "367abb81-9844-35f1-ad32-98f038001003"  # svcctl
NDR = uuid.UUID("8a885d04-1ceb-11c9-9fe8-08002b104860").bytes_le + struct.pack("<HH", 2, 0)


def pdu(ptype, flags, call_id, body, big=False):
    e = ">" if big else "<"
    hdr = struct.pack(e + "BBBB4sHHI", 5, 0, ptype, flags, b"\x00\0\0\0" if big else
                      b"\x10\0\0\0", 16 + len(body), 0, call_id)
    return hdr + body


def bind(iface=IFACE, ver=(2, 0), flags=3, ctxid=0):
    ctx = struct.pack("<HBB", ctxid, 1, 0) + uuid.UUID(iface).bytes_le + \
        struct.pack("<HH", *ver) + NDR
    return pdu(11, flags, 1, struct.pack("<HHIB3x", 4280, 4280, 0, 1) + ctx)


def bind_ack(result=0):
    body = struct.pack("<HHI", 4280, 4280, 0x1234) + struct.pack("<H", 4) + b"135\0" + \
        b"\0\0" + struct.pack("<B3x", 1) + struct.pack("<HH", result, 0) + NDR
    return pdu(12, 3, 1, body)


def request(opnum, stub, flags=3, ctxid=0, call_id=7, big=False):
    e = ">" if big else "<"
    return pdu(0, flags, call_id, struct.pack(e + "IHH", len(stub), ctxid, opnum) + stub, big)


def response(stub, call_id=7):
    return pdu(2, 3, call_id, struct.pack("<IHBB", len(stub), 0, 0, 0) + stub)


def conv(reqs=None, dport=135, bound=None, big=False):
    """A bind of svcctl 2.0, its ack, a request of opnum 15 in two fragments, its response."""
    reqs = reqs if reqs is not None else [request(15, b"\\\x00\\\x001AAAA", flags=1, big=big),
                                          request(15, b"BBBB", flags=2, big=big)]
    c = Conv(sport=50000, dport=dport).handshake()
    c.send(True, bound or bind()).send(False, bind_ack())
    for r in reqs:
        c.send(True, r)
    return c.send(False, response(b"\x37\x00answer")).close().pkts


@pytest.mark.parametrize("body,hit", [
    (f"dcerpc.iface:{IFACE}; dcerpc.opnum:15;", True),
    (f"dcerpc.iface:{IFACE}; dcerpc.opnum:14;", False),
    ("dcerpc.iface:22222222-2222-2222-2222-222222222222;", False),
    (f"dcerpc.iface:{IFACE},=2;", True),
    (f"dcerpc.iface:{IFACE},>2;", False),
    (f"dcerpc.iface:{IFACE},<3;", True),
    (f"dcerpc.iface:{IFACE},!2;", False),
    (f"dce_iface:uuid {IFACE},any_frag;", True),
    ("dce_opnum:1,3-5,10-20;", True),
    ("dce_opnum:1,3-5,16-20;", False),
    ('dce_opnum:"15";', True),
    ('dce_stub_data; content:"AAAABBBB";', True),      # the fragments reassembled
    ('dcerpc.stub_data; content:"answer";', False),    # the response's, in a to_server rule
    ('dce_stub_data; content:"|5c 00 5c 00 31|"; byte_test:4,=,0x41414141,0,relative,dce;',
     True),
    ("frame:dcerpc.hdr; content:\"|05 00 0b 03 10 00 00 00|\"; startswith;", True),
])
def test_dcerpc_to_server_rules(tmp_path, body, hit):
    r = detect(tmp_path, conv(), [rule("flow:to_server; " + body, sid=1, proto="dcerpc")])
    assert r.sids == ([1] if hit else []), body


def test_dcerpc_any_port_both_sides_and_byte_order(tmp_path):
    rules = [rule(f"dcerpc.iface:{IFACE}; dcerpc.opnum:15;", sid=1, proto="dcerpc"),
             # Suricata's response stub starts at the body: the alloc hint (4), context id
             # (2), cancel count and a reserved byte, then the NDR data
             rule('flow:to_client; dcerpc.stub_data; content:"answer"; '
                  'byte_test:2,=,0x37,8,dce;', sid=2, proto="dcerpc"),
             rule('flow:to_server; dce_stub_data; content:"1AAAA"; '
                  'byte_test:2,=,0x4242,0,relative,dce;', sid=3, proto="dcerpc")]
    # no direction: the request and the response both alert (Suricata's dcerpc-ctxids)
    assert sorted(detect(tmp_path, conv(dport=49152), rules).sids) == [1, 1, 2, 3]
    # a big-endian request: dce reads its stub big endian
    be = [rule('flow:to_server; dce_stub_data; content:"1AAAA"; '
               'byte_test:4,=,0x42424242,0,relative,dce; byte_test:2,=,0x4242,0,relative,dce;',
               sid=4, proto="dcerpc"),
          rule('flow:to_server; dce_stub_data; byte_test:2,=,0x5c00,0,dce;', sid=5,
               proto="dcerpc")]
    assert sorted(detect(tmp_path, conv(big=True), be, name="be").sids) == [4, 5]


def test_dcerpc_bind_without_first_frag_binds_nothing(tmp_path):
    rules = [rule(f"dcerpc.iface:{IFACE};", sid=1, proto="dcerpc"),
             rule("flow:to_server; dcerpc.opnum:15;", sid=2, proto="dcerpc")]
    assert detect(tmp_path, conv(bound=bind(flags=0)), rules).sids == [2]


def test_dcerpc_first_frag_and_any_frag(tmp_path):
    # a request whose first fragment lacks PFC_FIRST_FRAG: dce_iface needs any_frag
    reqs = [request(15, b"AAAA", flags=2)]
    rules = [rule(f"flow:to_server; dce_iface:{IFACE};", sid=1, proto="dcerpc"),
             rule(f"flow:to_server; dce_iface:{IFACE},any_frag;", sid=2, proto="dcerpc")]
    assert detect(tmp_path, conv(reqs=reqs), rules).sids == [2]


def test_dcerpc_udp(tmp_path):
    hdr = struct.pack("<BBBB3sB16s16s16sIIIHHHHHBB", 4, 0, 0, 0, b"\x10\0\0", 0, b"\0" * 16,
                      uuid.UUID(IFACE).bytes_le, uuid.UUID(int=5).bytes_le, 0, 1, 9, 3, 0,
                      0xffff, 4, 0, 0, 0)
    pkts = [udp(hdr + b"STUB", sport=1025, dport=135)]
    rules = [rule(f"dcerpc.iface:{IFACE}; dcerpc.opnum:3; dcerpc.stub_data; content:\"STUB\";",
                  sid=1, proto="dcerpc"),
             rule("dcerpc.opnum:4;", sid=2, proto="dcerpc")]
    assert detect(tmp_path, pkts, rules).sids == [1]


def test_dcerpc_eve_records_validate(tmp_path):
    rules = [f"alert dcerpc any any -> any any (msg:\"svcctl\"; flow:to_server; "
             f"dcerpc.iface:{IFACE}; dcerpc.opnum:15; sid:7;)"]
    out = osprey_out(tmp_path, conv(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,dcerpc]")
    recs = out.of("dcerpc")
    assert [r["dcerpc"] for r in recs] == [
        {"request": "BIND", "interfaces": [{"uuid": IFACE, "version": "2.0", "ack_result": 0}],
         "response": "BINDACK", "call_id": 1, "rpc_version": "5.0"},
        {"request": "REQUEST", "interfaces": [{"uuid": IFACE, "version": "2.0"}],
         "req": {"opnum": 15, "frag_cnt": 2, "stub_data_size": 13}, "response": "RESPONSE",
         "res": {"frag_cnt": 1, "stub_data_size": 16}, "call_id": 7, "rpc_version": "5.0"}]
    (a,) = out.of("alert")
    assert a["app_proto"] == "dcerpc" and a["alert"]["signature_id"] == 7
    assert a["dcerpc"]["req"]["opnum"] == 15 and a["dcerpc"]["response"] == "UNREPLIED"
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in recs + [a] + out.of("flow"):
        assert not list(v.iter_errors(r)), list(v.iter_errors(r))


def authed(p, verifier):
    """PDU p with an auth verifier: its 8-byte header and the verifier appended, auth_length
    and frag_length set (as NTLMSSP-signed calls carry)."""
    body = p[16:] + struct.pack("<BBBBI", 10, 6, 0, 0, 0) + verifier
    return p[:8] + struct.pack("<HH", 16 + len(body), len(verifier)) + p[12:16] + body


def test_dcerpc_stub_data_as_suricata_has_it(tmp_path):
    # the request's stub runs to the fragment's end, auth verifier included; the response's
    # is its whole body (alloc hint, context id, cancel count first): Suricata's layout
    reqs = [authed(request(15, b"REQSTUB!"), b"SIGN" * 4)]
    c = Conv(sport=50000, dport=135).handshake()
    c.send(True, bind()).send(False, bind_ack())
    for r in reqs:
        c.send(True, r)
    pkts = c.send(False, authed(response(b"RESP"), b"SIGN" * 4)).close().pkts
    rules = [rule("flow:to_server; dcerpc.stub_data; content:\"REQSTUB!\"; "
                  "content:\"SIGN\"; distance:8; bsize:32;", sid=1, proto="dcerpc"),
             rule("flow:to_client; dcerpc.stub_data; content:\"|04 00 00 00|\"; startswith; "
                  "content:\"RESP\"; distance:4; within:4; bsize:36;", sid=2, proto="dcerpc")]
    assert sorted(detect(tmp_path, pkts, rules).sids) == [1, 2]


def test_dcerpc_response_without_its_request_is_request_lost(tmp_path):
    # the capture starts after the request: the record says REQUEST_LOST, without req
    c = Conv(sport=50000, dport=135).handshake()
    pkts = c.send(False, response(b"\x37\x00answer", call_id=9)).close().pkts
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[dcerpc]")
    assert [r["dcerpc"] for r in out.of("dcerpc")] == [
        {"request": "REQUEST_LOST", "response": "RESPONSE",
         "res": {"frag_cnt": 1, "stub_data_size": 16}, "call_id": 9, "rpc_version": "5.0"}]
