"""RFB (VNC) end to end (parsers/rfb/): detection by either side's ProtocolVersion on any
port, the handshake (3.8 with VNC authentication, 3.3 with None, a failure with its reason),
rfb.name, rfb.sectype and rfb.secresult in Suricata's syntax, app-layer events, `alert rfb`,
and the EVE rfb record validated against Suricata's schema."""
import json

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
INIT = (bytes([0x05, 0x00, 0x03, 0x20, 32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0])
        + (19).to_bytes(4, "big") + b"alice's desktop (1)")


def rfb(version=b"008", types=b"\x02\x01\x02", choice=b"\x02", result=b"\x00\x00\x00\x00",
        init=INIT, port=5900):
    c = Conv(sport=40590, dport=port).handshake()
    c.send(False, b"RFB 003.%s\n" % version).send(True, b"RFB 003.%s\n" % version)
    c.send(False, types)
    if choice:
        c.send(True, choice)
    if choice == b"\x02" or (choice is None and types == b"\x00\x00\x00\x02"):
        c.send(False, b"\xab" * 16).send(True, b"\xcd" * 16)
    if result:
        c.send(False, result)
    if init:
        c.send(True, b"\x01").send(False, init)
    return c.send(True, b"\x02\x00\x00\x00").close().pkts


@pytest.mark.parametrize("body,hit", [
    ('rfb.name; content:"alice"; pcre:"/\\(\\d\\)$/";', True),
    ('rfb.name; content:"bob";', False),
    ('rfb.sectype:2;', True),
    ('rfb.sectype:>=3;', False),
    ('rfb.secresult:ok;', True),
    ('rfb.secresult:0;', True),
    ('rfb.secresult:!0;', False),
    ('rfb.secresult:fail;', False),
    ('rfb.secresult:unknown;', False),
    ('rfb.sectype:2; rfb.secresult:ok; rfb.name; content:"desktop";', True),
    ('flow:to_server; content:"RFB 003.008"; depth:11;', True),  # `alert rfb` on the stream
])
def test_rfb_rules(tmp_path, body, hit):
    r = detect(tmp_path, rfb(port=5901), [rule(body, sid=1, proto="rfb")])
    assert r.sids == ([1] if hit else []), body


def test_rfb_failure_33_and_events(tmp_path):
    fail = rfb(types=b"\x01\x01", choice=b"\x01",
               result=b"\x00\x00\x00\x01\x00\x00\x00\x0bbad passwd!", init=None)
    rules = [rule('rfb.secresult:fail;', sid=1, proto="rfb"),
             rule('rfb.secresult:!ok; rfb.sectype:1;', sid=2, proto="rfb"),
             rule('rfb.name; content:"a";', sid=3, proto="rfb")]
    assert detect(tmp_path, fail, rules).sids == [1, 2]
    # 3.3: the server decides None, no SecurityResult follows
    none33 = rfb(version=b"003", types=b"\x00\x00\x00\x01", choice=None, result=None)
    rules = [rule('rfb.sectype:1; rfb.name; content:"alice";', sid=1, proto="rfb"),
             rule('rfb.secresult:ok;', sid=2, proto="rfb")]
    assert detect(tmp_path, none33, rules, name="n").sids == [1]
    # a type that was not offered, and one that is not followed
    odd = rfb(types=b"\x01\x02", choice=b"\x1e", result=None, init=None)
    rules = [rule('app-layer-event:rfb.confused_state;', sid=1, proto="rfb"),
             rule('app-layer-event:rfb.unimplemented_security_type;', sid=2, proto="rfb"),
             rule('rfb.sectype:30;', sid=3, proto="rfb")]
    assert detect(tmp_path, odd, rules, name="o").sids == [1, 2, 3]
    bad = rfb(result=b"\x00\x00\x00\x07", init=None)
    rules = [rule('app-layer-event:rfb.unknown_security_result;', sid=1, proto="rfb"),
             rule('rfb.secresult:unknown;', sid=2, proto="rfb")]
    assert detect(tmp_path, bad, rules, name="b").sids == [1, 2]


def test_rfb_eve_record(tmp_path):
    out = osprey_out(tmp_path, rfb(), [rule('rfb.sectype:2;', sid=4, proto="rfb")],
                     "--set", "outputs.eve-log.types=[alert,flow,rfb]")
    (r,) = out.of("rfb")
    assert r["rfb"] == {
        "server_protocol_version": {"major": "003", "minor": "008"},
        "client_protocol_version": {"major": "003", "minor": "008"},
        "authentication": {"security_type": 2,
                           "vnc": {"challenge": "ab" * 16, "response": "cd" * 16},
                           "security_result": "OK"},
        "screen_shared": True,
        "framebuffer": {"width": 1280, "height": 800, "name": "alice's desktop (1)",
                        "pixel_format": {"bits_per_pixel": 32, "depth": 24,
                                         "big_endian": False, "true_color": True,
                                         "red_max": 255, "green_max": 255, "blue_max": 255,
                                         "red_shift": 16, "green_shift": 8,
                                         "blue_shift": 0}}}
    (a,) = out.of("alert")
    assert a["app_proto"] == "rfb" and a["rfb"]["authentication"]["security_type"] == 2
    (f,) = out.of("flow")
    assert f["app_proto"] == "rfb"
    v = Draft7Validator(SCHEMA)
    for rec in out.records:
        assert not list(v.iter_errors(rec)), rec


def test_rfb_gap_gives_the_flow_up(tmp_path):
    # Suricata's RFB does not accept gaps: a hole ends its app layer on the flow, both ways,
    # and so does Osprey's. The server's security result is lost, so its
    # ServerInit is not read (no desktop name). The rfb.* keywords run at those two server
    # messages, so none matches; what the handshake had before the hole is the flow's
    # record, written at its end, and the stream's bytes are still inspected.
    c = Conv(sport=40590, dport=5900).handshake()
    c.send(False, b"RFB 003.008\n").send(True, b"RFB 003.008\n")
    c.send(False, b"\x02\x01\x02").send(True, b"\x02")
    c.send(False, b"\xab" * 16).send(True, b"\xcd" * 16)
    c.send(False, b"\x00\x00\x00\x00", order=[])                    # never comes
    c.send(True, b"\x01").send(False, INIT)
    pkts = c.close().pkts
    rules = [rule("rfb.sectype:2;", sid=1, proto="rfb"),
             rule('rfb.name; content:"alice";', sid=2, proto="rfb"),
             rule("rfb.secresult:ok;", sid=3, proto="rfb"),
             rule('flow:to_client; content:"alice|27|s desktop";', sid=4)]  # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[flow,rfb]",
                     name="e")
    (r,) = out.of("rfb")
    assert r["rfb"]["authentication"] == {"security_type": 2, "vnc": {"challenge": "ab" * 16,
                                                                      "response": "cd" * 16}}
    assert "framebuffer" not in r["rfb"]
    v = Draft7Validator(SCHEMA)
    for rec in out.records:
        assert not list(v.iter_errors(rec)), rec


def test_rfb_name_limit(tmp_path, trace):
    # RFB_NAME_MAX (4096) bytes of the desktop name are kept (rfb.name, the record); a longer
    # one is cut there (rfb_shed) and the handshake still completes
    name = b"N" * 4095 + b"Z" + b"TAIL"
    init = INIT[:20] + len(name).to_bytes(4, "big") + name
    pkts = rfb(init=init)
    rules = [rule('rfb.name; content:"NZ"; endswith; bsize:4096;', sid=1, proto="rfb"),
             rule('rfb.name; content:"TAIL";', sid=2, proto="rfb"),
             rule("rfb.secresult:ok;", sid=3, proto="rfb")]
    assert detect(tmp_path, pkts, rules).sids == [1, 3]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[rfb]", name="e")
    (r,) = out.of("rfb")
    assert r["rfb"]["framebuffer"]["name"] == "N" * 4095 + "Z"
    assert not list(Draft7Validator(SCHEMA).iter_errors(r))
    assert app_trace(trace, pkts).stats["rfb_shed"] == 1
