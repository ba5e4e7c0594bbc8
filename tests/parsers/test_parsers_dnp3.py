"""DNP3 end to end (parsers/dnp3/): off unless app-layer.protocols.dnp3.enabled (as Suricata),
detection on port 20000 by a link header whose CRC checks, link frames with their CRCs
removed and fragments reassembled across frames, the keywords dnp3_func, dnp3_ind, dnp3_obj
and the sticky buffer dnp3.data / dnp3_data, Suricata's dnp3 app-layer events, and the EVE
dnp3 records validated against Suricata's schema."""
import json

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
ON = ("--set", "app-layer.protocols.dnp3.enabled=yes")


def crc(b):
    c = 0
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xA6BC if c & 1 else c >> 1
    return (~c & 0xFFFF).to_bytes(2, "little")


def frame(user, ctl=0xC4, dst=10, src=1, bad_data_crc=False, bad_link_crc=False):
    h = bytes([0x05, 0x64, len(user) + 5, ctl]) + dst.to_bytes(2, "little") + \
        src.to_bytes(2, "little")
    out = h + (b"\0\0" if bad_link_crc else crc(h))
    for i in range(0, len(user), 16):
        blk = user[i:i + 16]
        out += blk + (b"\0\0" if bad_data_crc else crc(blk))
    return out


READ = bytes([0xC1, 0x01, 60, 2, 0x06, 60, 3, 0x06])     # read class 1 and 2 events
# response: IIN need_time + class_1_events, g30v2 points 0-1, g2v1 one event at index 3
RESP = bytes([0xE1, 0x81, 0x12, 0x00, 30, 2, 0x00, 0, 1, 1, 0x10, 0, 1, 0x20, 0,
              2, 1, 0x17, 1, 3, 0x81])
OPERATE = bytes([0xC2, 0x05, 12, 1, 0x28, 1, 0, 7, 0, 0x03, 1, 0xE8, 3, 0, 0, 0, 0, 0, 0, 0])


def session(*msgs, port=20000):
    c = Conv(sport=40200, dport=port).handshake()
    for client, b in msgs:
        c.send(client, b)
    return c.close().pkts


def traffic():
    # the response in two frames (FIR, then FIN), the operate after garbage
    return session((True, frame(bytes([0xC0]) + READ)),
                   (False, frame(bytes([0x40]) + RESP[:12], ctl=0x44, dst=1, src=10)),
                   (False, frame(bytes([0x81]) + RESP[12:], ctl=0x44, dst=1, src=10)),
                   (True, b"\x00\x01" + frame(bytes([0xC2]) + OPERATE)))


def test_dnp3_keywords(tmp_path):
    rules = [rule("dnp3_func:read;", sid=1, proto="dnp3"),
             rule("dnp3_func:129;", sid=2, proto="dnp3"),
             rule("dnp3_func:direct_operate;", sid=3, proto="dnp3"),
             rule("dnp3_func:write;", sid=4, proto="dnp3"),
             rule("dnp3_ind:need_time,device_trouble;", sid=5, proto="dnp3"),
             rule("dnp3_ind:device_restart;", sid=6, proto="dnp3"),
             rule("dnp3_obj:60,2;", sid=7, proto="dnp3"),
             rule("dnp3_obj:2,1;", sid=8, proto="dnp3"),
             rule("dnp3_obj:12,1;", sid=9, proto="dnp3"),
             rule("dnp3_obj:12,2;", sid=10, proto="dnp3"),
             rule('dnp3_data; content:"|0c 01 28|";', sid=11, proto="dnp3"),
             rule('dnp3.data; content:"|1e 02 00 00 01 01 10 00 01 20|";', sid=12,
                  proto="dnp3"),
             # the CRCs are not in dnp3.data: 16 bytes of user data then its CRC on the wire
             rule('dnp3.data; content:"|14 01|"; content:"|06 3c 03|"; distance:0;', sid=13,
                  proto="dnp3"),
             rule("flow:to_client; dnp3_func:read;", sid=14, proto="dnp3")]
    r = detect(tmp_path, traffic(), rules, *ON)
    assert r.sids == [1, 2, 3, 5, 7, 8, 9, 11, 12]
    assert detect(tmp_path, traffic(), rules, name="off").sids == []


def test_dnp3_events(tmp_path):
    rules = [rule("app-layer-event:dnp3.bad_link_crc;", sid=1, proto="dnp3"),
             rule("app-layer-event:dnp3.bad_transport_crc;", sid=2, proto="dnp3"),
             rule("app-layer-event:dnp3.unknown_object;", sid=3, proto="dnp3"),
             rule("app-layer-event:dnp3.len_too_small;", sid=4, proto="dnp3"),
             rule("dnp3_func:read;", sid=5, proto="dnp3")]
    pkts = session((True, frame(bytes([0xC0]) + READ)),
                   (True, frame(bytes([0xC0]) + READ, bad_link_crc=True)),
                   (True, frame(bytes([0xC0]) + READ, bad_data_crc=True)),
                   (True, frame(bytes([0xC0, 0xC3, 0x02, 200, 1, 0x00, 0, 0, 0xAA]))),
                   (True, frame(b"", ctl=0xC4)))
    assert detect(tmp_path, pkts, rules, *ON).sids == [1, 2, 3, 4, 5]


def test_dnp3_eve_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [], *ON, "--set",
                     "outputs.eve-log.types=[flow,dnp3]")
    recs = [r["dnp3"] for r in out.of("dnp3")]
    assert [r["type"] for r in recs] == ["request", "response", "request"]
    assert recs[0] == {
        "type": "request",
        "control": {"dir": True, "pri": True, "fcb": False, "fcv": False, "function_code": 4},
        "src": 1, "dst": 10,
        "application": {"control": {"fir": True, "fin": True, "con": False, "uns": False,
                                    "sequence": 1},
                        "function_code": 1,
                        "objects": [{"group": 60, "variation": 2, "qualifier": 6,
                                     "prefix_code": 0, "range_code": 6, "start": 0, "stop": 0,
                                     "count": 0},
                                    {"group": 60, "variation": 3, "qualifier": 6,
                                     "prefix_code": 0, "range_code": 6, "start": 0, "stop": 0,
                                     "count": 0}],
                        "complete": True}}
    assert recs[1]["iin"] == {"indicators": ["class_1_events", "need_time"]}
    assert [(o["group"], o["variation"], o["count"]) for o in
            recs[1]["application"]["objects"]] == [(30, 2, 2), (2, 1, 1)]
    assert out.of("dnp3")[1]["src_port"] == 20000  # a response's record is the server's
    (f,) = out.of("flow")
    assert f["app_proto"] == "dnp3"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_dnp3_gap_gives_the_flow_up(tmp_path):
    # Suricata's DNP3 does not accept gaps: a hole ends its app layer on the flow, both
    # ways, once the ACK that passes it is seen, and so does Osprey's. The master's frames
    # after it are not parsed (no rule, no record); what the outstation sent before that
    # moment is read, and the stream's bytes are still inspected.
    c = Conv(sport=40200, dport=20000).handshake()
    c.send(True, frame(bytes([0xC0]) + READ))
    c.send(True, frame(bytes([0xC1]) + READ), order=[])              # never comes
    c.send(False, frame(bytes([0xC0]) + RESP, ctl=0x44, dst=1, src=10))
    c.send(True, frame(bytes([0xC2]) + OPERATE))
    pkts = c.close().pkts
    rules = [rule("dnp3_func:operate;", sid=1, proto="dnp3"),
             rule("dnp3_func:read;", sid=2, proto="dnp3"),
             rule("dnp3_func:response;", sid=3, proto="dnp3"),
             rule('flow:to_server; content:"|05 0c 01 28|";', sid=4)]     # the operate's bytes
    assert detect(tmp_path, pkts, rules, *ON).sids == [2, 3, 4]
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[flow,dnp3]",
                     name="e")
    assert [r["dnp3"]["type"] for r in out.of("dnp3")] == ["request", "response"]
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_dnp3_limits(tmp_path, trace):
    # DNP3_OBJ_MAX (64) object headers of a fragment are walked: a 65th is
    # dnp3.too_many_objects (the 64 are still the record's, the rules still see the read)
    many = bytes([0xC1, 0x01]) + bytes([60, 2, 0x06]) * 65
    rules = [rule("app-layer-event:dnp3.too_many_objects;", sid=1, proto="dnp3"),
             rule("app-layer-event:dnp3.too_long_reassembly;", sid=2, proto="dnp3"),
             rule("app-layer-event:dnp3.flooded;", sid=3, proto="dnp3"),
             rule("dnp3_func:read;", sid=4, proto="dnp3")]
    pkts = session((True, frame(bytes([0xC0]) + many[:249])))
    assert detect(tmp_path, pkts, rules, *ON).sids == [1, 4]
    out = osprey_out(tmp_path, pkts, [], *ON, "--set", "outputs.eve-log.types=[dnp3]",
                     name="o")
    (rec,) = [r["dnp3"] for r in out.of("dnp3")]
    assert len(rec["application"]["objects"]) == 64
    assert not list(Draft7Validator(SCHEMA).iter_errors(out.of("dnp3")[0]))
    # DNP3_FRAG_MAX (8 KiB) of a fragment are reassembled: the segments past it are
    # dnp3.too_long_reassembly and the fragment is dropped until the next FIR (counted)
    segs = [frame(bytes([0x40]) + bytes([0xC1, 0x01]) + b"\x00" * 247)]
    segs += [frame(bytes([k % 64]) + b"\x00" * 249) for k in range(1, 40)]
    segs += [frame(bytes([0x80 | 40]) + b"\x00" * 10), frame(bytes([0xC0]) + READ)]
    pkts = session(*[(True, s) for s in segs])
    assert detect(tmp_path, pkts, rules, *ON, name="r").sids == [2, 4]
    a = app_trace(trace, pkts, *ON)
    assert a.stats["dnp3_frag_shed"] == 1
    # more than 500 requests without a response is dnp3.flooded, once
    reqs = b"".join(frame(bytes([0xC0 | (i % 64)]) + bytes([0xC0 | (i % 16), 0x01]))
                    for i in range(502))
    pkts = session(*[(True, reqs[k:k + 1400]) for k in range(0, len(reqs), 1400)])
    r = detect(tmp_path, pkts, [rules[2]], *ON, name="f")
    assert r.sids == [3]
