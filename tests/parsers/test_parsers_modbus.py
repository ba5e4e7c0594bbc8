"""Modbus/TCP end to end (parsers/modbus/): off unless app-layer.protocols.modbus.enabled (as
Suricata), detection on port 502 by an MBAP header, Suricata's `modbus:` keyword (function,
subfunction, categories, access to tables with addresses and values, unit), its app-layer
events, and the EVE modbus records (a request with its response) validated against Suricata's
schema."""
import json
import struct

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
ON = ("--set", "app-layer.protocols.modbus.enabled=yes")


def adu(tid, fc, data, unit=1, pid=0):
    return struct.pack(">HHHBB", tid, pid, len(data) + 2, unit, fc) + data


def session(*msgs, port=502):
    """msgs: (client?, bytes) in order"""
    c = Conv(sport=40502, dport=port).handshake()
    for client, b in msgs:
        c.send(client, b)
    return c.close().pkts


READ = adu(1, 3, b"\x00\x64\x00\x02", unit=7)          # read holding 100-101, unit 7
READ_R = adu(1, 3, b"\x04\x00\x01\x00\x02", unit=7)
WRITE = adu(2, 6, b"\x01\xf4\x01\x2c")                 # write holding 500 = 300
WRITE_R = adu(2, 6, b"\x01\xf4\x01\x2c")
DIAG = adu(3, 8, b"\x00\x04\x00\x00")                  # diagnostics: force listen only
USER = adu(4, 66, b"\x01")                             # a user-defined function
WRITE_MULTI = adu(5, 16, b"\x02\x58\x00\x02\x04\x00\x0a\x00\xfa")  # 600 = 10, 601 = 250


def traffic():
    return session((True, READ), (False, READ_R), (True, WRITE), (False, WRITE_R),
                   (True, DIAG), (True, USER), (True, WRITE_MULTI))


def test_modbus_keyword(tmp_path):
    rules = [rule("modbus: function 3;", sid=1, proto="modbus"),
             rule("modbus: function 4;", sid=2, proto="modbus"),
             rule("modbus: function 8, subfunction 4;", sid=3, proto="modbus"),
             rule("modbus: function 8, subfunction 1;", sid=4, proto="modbus"),
             rule("modbus: function user;", sid=5, proto="modbus"),
             rule("modbus: function !public;", sid=6, proto="modbus"),
             rule("modbus: function reserved;", sid=7, proto="modbus"),
             rule("modbus: access read holding, address 101;", sid=8, proto="modbus"),
             rule("modbus: access read holding, address >101;", sid=9, proto="modbus"),
             rule("modbus: access write holding, address 500, value >200;", sid=10,
                  proto="modbus"),
             rule("modbus: access write holding, address 500, value <200;", sid=11,
                  proto="modbus"),
             rule("modbus: access write coils;", sid=12, proto="modbus"),
             rule("modbus: unit 7;", sid=13, proto="modbus"),
             rule("modbus: unit 7, function 6;", sid=14, proto="modbus"),
             rule("modbus: access read;", sid=15, proto="modbus"),
             rule("modbus: function assigned;", sid=16, proto="modbus"),
             # the value written at that address, of a multiple write too
             rule("modbus: access write holding, address 601, value >200;", sid=17,
                  proto="modbus"),
             rule("modbus: access write holding, address 600, value >200;", sid=18,
                  proto="modbus"),
             rule("modbus: access write holding, address 600, value 10;", sid=19,
                  proto="modbus")]
    r = detect(tmp_path, traffic(), rules, *ON)
    assert r.sids == [1, 3, 5, 6, 8, 10, 13, 15, 16, 16, 16, 16, 17, 19]
    # off by default, as in Suricata: no Modbus, no alert
    assert detect(tmp_path, traffic(), rules, name="off").sids == []
    # only on Modbus's port
    assert detect(tmp_path, session((True, READ), port=5020), rules, *ON, name="p").sids == []


def test_modbus_keyword_errors(tmp_path):
    r = detect(tmp_path, traffic(), [rule("modbus: access read drums;", sid=7, proto="modbus"),
                                     rule("modbus: function 3;", sid=8, proto="modbus")], *ON)
    assert r.sids == [8]
    assert "sid 7" in r.proc.stderr and "unknown table 'drums'" in r.proc.stderr


def test_modbus_events(tmp_path):
    rules = [rule("app-layer-event:modbus.unsolicited_response;", sid=1, proto="modbus"),
             rule("app-layer-event:modbus.invalid_protocol_id;", sid=2, proto="modbus"),
             rule("app-layer-event:modbus.invalid_value;", sid=3, proto="modbus"),
             rule("flow:to_client; app-layer-event:modbus.invalid_exception_code;", sid=4,
                  proto="modbus"),
             rule("flow:to_client; app-layer-event:modbus.value_mismatch;", sid=5,
                  proto="modbus"),
             rule("app-layer-event:modbus.invalid_length;", sid=6, proto="modbus"),
             rule("app-layer-event:modbus.invalid_function_code;", sid=7, proto="modbus")]
    pkts = session((True, READ), (False, adu(9, 3, b"\x02\x00\x01")),     # unsolicited
                   (True, adu(5, 3, b"\x00\x00\x00\x01", pid=1)),         # protocol id 1
                   (True, adu(6, 1, b"\x00\x00\x07\xd1")),                # 2001 coils
                   (False, adu(6, 0x81, b"\x0c")),                        # exception 12
                   (True, adu(7, 5, b"\x00\x01\xff\x00")),
                   (False, adu(7, 5, b"\x00\x01\x00\x00")),               # echo differs
                   (True, adu(8, 7, b"\x00")),                            # 7 takes no data
                   (True, adu(10, 0, b"")))                               # function 0
    assert detect(tmp_path, pkts, rules, *ON).sids == [1, 2, 3, 4, 5, 6, 7]


def test_modbus_eve_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [], *ON, "--set",
                     "outputs.eve-log.types=[flow,modbus]")
    recs = [r["modbus"] for r in out.of("modbus")]
    assert recs[0] == {
        "id": 0,
        "request": {"transaction_id": 1, "protocol_id": 0, "unit_id": 7, "function_raw": 3,
                    "function_code": "RdHoldRegs", "category": "PUBLIC_ASSIGNED",
                    "access_type": "READ | HOLDING", "error_flags": "NONE",
                    "read": {"address": 100, "quantity": 2}},
        "response": {"transaction_id": 1, "protocol_id": 0, "unit_id": 7, "function_raw": 3,
                     "function_code": "RdHoldRegs", "category": "PUBLIC_ASSIGNED",
                     "error_flags": "NONE", "read": {"data": "00010002"}}}
    assert recs[1]["request"]["write"] == {"address": 500, "data": 300}
    assert recs[1]["response"]["write"] == {"address": 500, "data": 300}
    # the requests never answered are written at the flow's end, request only
    assert [sorted(r) for r in recs[2:]] == [["id", "request"]] * 3
    assert recs[2]["request"]["diagnostic"] == {"raw": 4, "data": "0000"}
    assert recs[3]["request"]["category"] == "USER_DEFINED"
    (f,) = out.of("flow")
    assert f["app_proto"] == "modbus"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_modbus_gap_gives_the_flow_up(tmp_path):
    # Suricata's Modbus does not accept gaps: a hole ends its app layer on the flow, both
    # ways, once the ACK that passes it is seen, and so does Osprey's. The client's requests
    # after it are not parsed (no rule, no record); what the server sent before that moment is
    # read (its answer to the lost request a transaction alone); the stream's bytes are still
    # inspected.
    c = Conv(sport=40502, dport=502).handshake()
    c.send(True, READ).send(False, READ_R)
    c.send(True, WRITE, order=[])                                   # never comes
    c.send(False, WRITE_R).send(True, DIAG)
    pkts = c.close().pkts
    rules = [rule("modbus: function 8;", sid=1, proto="modbus"),
             rule("flow:to_server; modbus: function 3;", sid=2, proto="modbus"),
             # (modbus: reads a request: the lone answer shows as its event and record)
             rule("app-layer-event:modbus.unsolicited_response;", sid=3, proto="modbus"),
             rule('flow:to_server; content:"|00 03 00 00 00 06 01 08|";', sid=4)]  # DIAG
    assert detect(tmp_path, pkts, rules, *ON).sids == [2, 3, 4]
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[flow,modbus]",
                     name="e")
    recs = [r["modbus"] for r in out.of("modbus")]
    assert [sorted(r) for r in recs] == [["id", "request", "response"], ["id", "response"]]
    assert out.of("flow")[0]["app_proto"] == "modbus"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_modbus_request_flood_and_pending_limit(tmp_path, trace):
    # app-layer.protocols.modbus.request-flood: more requests than it waiting is
    # modbus.flooded, once, and again after an answer brought them back to it
    reqs = [adu(100 + i, 3, b"\x00\x64\x00\x01") for i in range(7)]
    pkts = session(*[(True, r) for r in reqs[:6]], (False, adu(100, 3, b"\x02\x00\x01")),
                   (True, reqs[6]))
    rules = [rule("app-layer-event:modbus.flooded;", sid=1, proto="modbus")]
    flood = ("--set", "app-layer.protocols.modbus.request-flood=5")
    assert detect(tmp_path, pkts, rules, *ON, *flood).sids == [1, 1]
    assert detect(tmp_path, pkts, rules, *ON, name="d").sids == []          # 500 by default
    assert detect(tmp_path, pkts, rules, *ON, "--set",
                  "app-layer.protocols.modbus.request-flood=0", name="z").sids == []
    # MB_PENDING_MAX (1024) requests wait: past it the oldest is shed (counted, its record
    # lost); the ones still waiting are written at the flow's end
    many = b"".join(adu(i, 3, b"\x00\x64\x00\x01") for i in range(1030))
    pkts = session(*[(True, many[k:k + 1200]) for k in range(0, len(many), 1200)])
    a = app_trace(trace, pkts, *ON)
    assert a.stats["modbus_pending_shed"] == 6
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[modbus]",
                     name="e")
    recs = [r["modbus"]["request"]["transaction_id"] for r in out.of("modbus")]
    assert len(recs) == 1024 and min(recs) == 6 and max(recs) == 1029
