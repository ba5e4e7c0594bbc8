"""WebSocket end to end (parsers/websocket/): an HTTP/1 request answered by 101 Switching
Protocols with "Upgrade: websocket" hands the flow over; frames both ways (masked from the
client), a fragmented message with a ping between its fragments, permessage-deflate with the
window carried over messages; websocket.payload, websocket.opcode (names, numbers, negation),
websocket.mask, websocket.flags; app-layer events; max-payload-size; the EVE websocket
record validated against Suricata's schema."""
import json
import zlib

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
KEY = b"\x12\x34\x56\x78"
REQ = (b"GET /chat HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\n"
       b"Connection: Upgrade\r\nSec-WebSocket-Key: c3VyaWNhdGEtdGVzdC1rZXkh\r\n"
       b"Sec-WebSocket-Version: 13\r\n\r\n")
RESP = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: i/Zf3S99/cVt3n5lmMrHSsr5Kqk=\r\n\r\n")


def frame(b0, payload, key=None):
    n = len(payload)
    m = 0x80 if key else 0
    h = bytes([b0])
    if n < 126:
        h += bytes([m | n])
    elif n < 65536:
        h += bytes([m | 126]) + n.to_bytes(2, "big")
    else:
        h += bytes([m | 127]) + n.to_bytes(8, "big")
    if key:
        h += key
        payload = bytes(c ^ key[i % 4] for i, c in enumerate(payload))
    return h + payload


def ws(frames, resp=RESP):
    """frames: (client?, bytes) after the upgrade"""
    c = Conv(sport=40080, dport=8080).handshake().send(True, REQ).send(False, resp)
    for client, data in frames:
        c.send(client, data)
    return c.close().pkts


FRAGMENTED = [(True, frame(0x01, b"MALWARE_DOWNLOAD cmd", KEY)),
              (True, frame(0x89, b"ping", KEY)),
              (True, frame(0x80, b".exe /c powershell", KEY)),
              (False, frame(0x8a, b"ping"))]


@pytest.mark.parametrize("body,hit", [
    ('websocket.payload; content:"MALWARE_DOWNLOAD cmd.exe /c powershell";', [1]),
    ('websocket.payload; content:"ping"; bsize:4;', [1, 1]),      # the ping and the pong
    ('flow:to_client; websocket.payload; content:"ping";', [1]),
    ('websocket.opcode:ping;', [1]),
    ('websocket.opcode:!text; websocket.opcode:!continuation; websocket.opcode:!ping;', [1]),
    ('websocket.opcode:>8; flow:to_server;', [1]),
    ('websocket.opcode:binary;', []),
    ('websocket.mask:305419896;', [1, 1, 1]),                    # the client's three
    ('websocket.mask:0; flow:to_client;', []),                    # the server's are unmasked
    ('websocket.flags:fin,!comp; websocket.payload; content:"MALWARE_DOWNLOAD";', [1]),
    ('websocket.flags:!fin; websocket.payload; content:"MALWARE_DOWNLOAD cmd"; bsize:20;', [1]),
    ('websocket.flags:&0x40=0x40;', []),
    ('content:"GET /chat"; http.method; content:"GET";', []),      # no HTTP after the upgrade
])
def test_websocket_rules(tmp_path, body, hit):
    r = detect(tmp_path, ws(FRAGMENTED), [rule(body, sid=1, proto="websocket")])
    assert r.sids == hit, body


def test_websocket_alert_counts_and_http_before(tmp_path):
    rules = [rule('websocket.opcode:!text;', sid=1, proto="websocket"),
             rule('http.method; content:"GET";', sid=2, proto="http"),
             rule('app-layer-protocol:websocket; websocket.payload; content:"ping";', sid=3)]
    r = detect(tmp_path, ws(FRAGMENTED), rules)
    # sid 1: the first fragment is text; the ping, the last fragment and the pong are not
    assert r.sids == [1, 1, 1, 2, 3, 3]


def test_websocket_permessage_deflate(tmp_path):
    z = zlib.compressobj(6, zlib.DEFLATED, -15)
    m1 = z.compress(b"TOGGLE=5659131662f54334") + z.flush(zlib.Z_SYNC_FLUSH)
    m2 = z.compress(b"TOGGLE=5659131662f54334 again") + z.flush(zlib.Z_SYNC_FLUSH)
    frames = [(False, frame(0xc1, m1[:-4])), (False, frame(0xc1, m2[:-4]))]
    rules = [rule('websocket.payload; content:"TOGGLE=5659131662f54334";', sid=1,
                  proto="websocket"),
             rule('websocket.payload; content:"again"; endswith;', sid=2, proto="websocket"),
             rule('websocket.flags:comp;', sid=3, proto="websocket")]
    assert detect(tmp_path, ws(frames), rules).sids == [1, 1, 2, 3, 3]


def test_websocket_eve_records(tmp_path):
    out = osprey_out(tmp_path, ws(FRAGMENTED), [rule('websocket.opcode:pong;', sid=9,
                                                     proto="websocket")],
                     "--set", "outputs.eve-log.types=[alert,flow,websocket]")
    recs = [r["websocket"] for r in out.of("websocket")]
    assert recs == [
        {"fin": False, "mask": 0x12345678, "opcode": "text",
         "payload_base64": "TUFMV0FSRV9ET1dOTE9BRCBjbWQ=",
         "payload_printable": "MALWARE_DOWNLOAD cmd"},
        {"fin": True, "mask": 0x12345678, "opcode": "ping", "payload_base64": "cGluZw==",
         "payload_printable": "ping"},
        {"fin": True, "mask": 0x12345678, "opcode": "continuation",
         "payload_base64": "TUFMV0FSRV9ET1dOTE9BRCBjbWQuZXhlIC9jIHBvd2Vyc2hlbGw=",
         "payload_printable": "MALWARE_DOWNLOAD cmd.exe /c powershell"},
        {"fin": True, "opcode": "pong", "payload_base64": "cGluZw==",
         "payload_printable": "ping"}]
    (a,) = out.of("alert")
    assert a["app_proto"] == "websocket" and a["websocket"]["opcode"] == "pong"
    (f,) = out.of("flow")
    assert f["app_proto"] == "websocket"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_websocket_limits_and_events(tmp_path):
    big = bytes(range(256)) * 2
    frames = [(False, frame(0x82, big)),
              (True, frame(0x01, b"abcdef", KEY)), (True, frame(0x80, b"ghijkl", KEY))]
    rules = [rule('app-layer-event:websocket.skip_end_of_payload;', sid=1, proto="websocket"),
             rule('app-layer-event:websocket.reassembly_limit_reached;', sid=2,
                  proto="websocket"),
             rule('websocket.payload; content:"abcdefgh"; bsize:8;', sid=3, proto="websocket")]
    r = detect(tmp_path, ws(frames), rules, "--set",
               "app-layer.protocols.websocket.max-payload-size=8")
    assert r.sids == [1, 2, 3]
    assert detect(tmp_path, ws(frames), rules, name="d").sids == []


def test_websocket_not_without_upgrade(tmp_path):
    # a 101 that switches to something else, and websocket disabled: the frames stay unread
    other = RESP.replace(b"Upgrade: websocket", b"Upgrade: foo")
    rules = [rule('websocket.opcode:ping;', sid=1, proto="websocket")]
    assert detect(tmp_path, ws(FRAGMENTED, resp=other), rules).sids == []
    assert detect(tmp_path, ws(FRAGMENTED), rules, "--set",
                  "app-layer.protocols.websocket.enabled=no", name="off").sids == []


def test_websocket_gap_gives_the_flow_up(tmp_path):
    # Suricata's WebSocket does not accept gaps ("there is no good way to resync"): a hole
    # ends its app layer on the flow, both ways, once the ACK that passes it is seen, and so
    # does Osprey's: the client's frames after it are not read (no rule, no record), the
    # server's sent before that moment are, and the stream's bytes are still inspected.
    c = Conv(sport=40080, dport=8080).handshake().send(True, REQ).send(False, RESP)
    c.send(True, frame(0x81, b"hello", KEY))
    c.send(True, frame(0x81, b"lost frame", KEY), order=[])       # never comes
    c.send(False, frame(0x81, b"server says hi"))
    c.send(True, frame(0x82, b"\x00\x01MALWARE", KEY))
    pkts = c.close().pkts
    rules = [rule("websocket.opcode:binary;", sid=1, proto="websocket"),
             rule('websocket.payload; content:"hello";', sid=2, proto="websocket"),
             rule('websocket.payload; content:"server says";', sid=3, proto="websocket"),
             rule('flow:to_server; content:"|82 89 12 34 56 78|";', sid=4)]  # the stream's
    assert detect(tmp_path, pkts, rules).sids == [2, 3, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[websocket]",
                     name="e")
    assert [(r["websocket"]["opcode"], r["websocket"].get("payload_printable"))
            for r in out.of("websocket")] == [("text", "hello"), ("text", "server says hi")]
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r
