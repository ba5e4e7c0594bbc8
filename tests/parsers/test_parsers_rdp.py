"""RDP end to end (parsers/rdp/): detection by the client's X.224 Connection Request (or the
server's Confirm) in TPKTs on any port, `alert rdp`, app-layer-protocol:rdp, Snort 3's
service:rdp, the handover to TLS, standard security's MCS Connect Initial, and the EVE rdp
records (one per message, with tx_id and event_type) validated against Suricata's schema."""
import json

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
CR_VAR = b"Cookie: mstshash=alice\r\n\x01\x00\x08\x00\x03\x00\x00\x00"


def tpkt(b):
    return bytes([3, 0]) + (len(b) + 4).to_bytes(2, "big") + b


def x224(code, var):
    return tpkt(bytes([6 + len(var), code, 0, 0, 0x12, 0x34, 0]) + var)


def connect_initial():
    core = bytearray(216)
    core[0:4] = b"\x01\xc0\xd8\x00"
    core[4:8] = (0x80004).to_bytes(4, "little")
    core[8:12] = (1280).to_bytes(2, "little") + (1024).to_bytes(2, "little")
    core[12:14] = b"\x01\xca"
    core[16:20] = (0x409).to_bytes(4, "little")
    core[20:24] = (2600).to_bytes(4, "little")
    core[24:24 + 10] = "WKS01".encode("utf-16-le")
    core[56] = 4
    core[64] = 12
    core[134] = 1
    core[140] = 16
    core[144] = 0x03
    net = b"\x03\xc0\x20\x00\x02\x00\x00\x00" + b"rdpdr\0\0\0" + bytes(4) + b"MS_T120\0" + bytes(4)
    blocks = bytes(core) + net
    gcc = b"\x00\x05\x00\x14\x7c\x00\x01\x81\x2a\x00\x08\x00\x10\x00\x01\xc0\x00Duca" + \
        bytes([0x80 | (len(blocks) >> 8), len(blocks) & 255]) + blocks
    return tpkt(b"\x02\xf0\x80\x7f\x65\x82\x01\x90\x04\x01\x01" + gcc)


def rdp(tls=True, port=3389):
    c = Conv(sport=40389, dport=port).handshake().send(True, x224(0xe0, CR_VAR))
    if tls:
        c.send(False, x224(0xd0, b"\x02\x00\x08\x00\x01\x00\x00\x00"))
        c.send(True, b"\x16\x03\x01\x00\x05hello").send(False, b"\x16\x03\x03\x00\x05there")
    else:
        c.send(False, x224(0xd0, b""))
        c.send(True, connect_initial()).send(False, tpkt(b"\x02\xf0\x80\x7f\x66\x00"))
    return c.close().pkts


def test_rdp_rules(tmp_path):
    rules = [rule('flow:to_server; content:"mstshash=alice";', sid=1, proto="rdp"),
             rule('app-layer-protocol:rdp; content:"MS_T120|00|"; nocase;', sid=2),
             rule('content:"there";', sid=3, proto="rdp"),
             'alert tcp any any -> any any (msg:"rdp svc"; flow:to_server,established; '
             'content:"|03 00|"; depth:2; service:rdp; sid:4; rev:1;)']
    assert detect(tmp_path, rdp(port=13389), rules).sids == [1, 3, 4]
    # (sid 4: each client TPKT starts a segment with its header; inline, the parser decides
    # RDP on the first one's arrival, so both match)
    assert detect(tmp_path, rdp(tls=False), rules, "--set", "stream.inline=yes",
                  name="s").sids == [1, 2, 4, 4]
    # Suricata's IDS mode (the default): the first segment is parsed at its ACK, after its
    # own payload was inspected with the protocol still unknown, so only the second matches
    assert detect(tmp_path, rdp(tls=False), rules, name="ids").sids == [1, 2, 4]


def test_rdp_eve_records(tmp_path):
    out = osprey_out(tmp_path, rdp(), [], "--set", "outputs.eve-log.types=[flow,rdp]")
    assert [r["rdp"] for r in out.of("rdp")] == [
        {"tx_id": 0, "event_type": "initial_request", "cookie": "alice"},
        {"tx_id": 1, "event_type": "initial_response"},
        {"tx_id": 2, "event_type": "tls_handshake"}]
    out = osprey_out(tmp_path, rdp(tls=False), [], "--set", "outputs.eve-log.types=[flow,rdp]",
                     name="s")
    recs = [r["rdp"] for r in out.of("rdp")]
    assert [r["event_type"] for r in recs] == ["initial_request", "initial_response",
                                               "connect_request", "connect_response"]
    assert recs[2] == {
        "tx_id": 2, "event_type": "connect_request",
        "client": {"version": "v5", "desktop_width": 1280, "desktop_height": 1024,
                   "color_depth": 16, "keyboard_layout": "en-US", "build": "2600",
                   "client_name": "WKS01", "keyboard_type": "enhanced", "function_keys": 12,
                   "product_id": 1,
                   "capabilities": ["support_errinfo_pdu", "want_32bpp_session"]},
        "channels": ["rdpdr", "MS_T120"]}
    (f,) = out.of("flow")
    assert f["app_proto"] == "rdp"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_rdp_gap_gives_the_flow_up(tmp_path):
    # Suricata's RDP does not accept gaps: a hole ends its app layer on the flow, both ways,
    # once the ACK that passes it is seen, and so does Osprey's. The server's connection
    # confirm is lost, so its MCS response is not read (no connect_response record); the
    # client's Connect Initial, read before that moment, has its record; the stream's bytes
    # are still inspected.
    c = Conv(sport=40389, dport=3389).handshake().send(True, x224(0xe0, CR_VAR))
    c.send(False, x224(0xd0, b""), order=[])                        # never comes
    c.send(True, connect_initial()).send(False, tpkt(b"\x02\xf0\x80\x7f\x66\x00"))
    pkts = c.close().pkts
    rules = [rule('flow:to_server; content:"mstshash=alice";', sid=1, proto="rdp"),
             rule('flow:to_client; content:"|7f 66|";', sid=2)]           # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [1, 2]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[flow,rdp]",
                     name="e")
    recs = [r["rdp"] for r in out.of("rdp")]
    assert [r["event_type"] for r in recs] == ["initial_request", "connect_request"]
    assert recs[1]["channels"] == ["rdpdr", "MS_T120"]
    assert out.of("flow")[0]["app_proto"] == "rdp"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r
