"""RDP end to end (parsers/rdp/): detection by the client's X.224 Connection Request (or the
server's Confirm) in TPKTs on any port, `alert rdp`, app-layer-protocol:rdp, Snort 3's
service:rdp, the handover to TLS, standard security's MCS Connect Initial, and the EVE rdp
records (one per message, with tx_id and event_type) validated against Suricata's schema;
the limits: RDP_CHANNELS_MAX (31 static channels of a Connect Initial, built with its BER / PER
lengths computed) and RDP_PDU_MAX (a TPKT of 16 KiB held, one byte more gives the side up)."""
import json

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from gap_helpers import eve_run
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
CR_VAR = b"Cookie: mstshash=alice\r\n\x01\x00\x08\x00\x03\x00\x00\x00"


def tpkt(b):
    return bytes([3, 0]) + (len(b) + 4).to_bytes(2, "big") + b


def x224(code, var):
    return tpkt(bytes([6 + len(var), code, 0, 0, 0x12, 0x34, 0]) + var)


def ber_len(n):
    """a BER definite length"""
    return bytes([n]) if n < 128 else b"\x81" + bytes([n]) if n < 256 else \
        b"\x82" + n.to_bytes(2, "big")


def per_len(n):
    """a PER length (T.124's ALIGNED variant: one byte, or two with the top bit set)"""
    return bytes([n]) if n < 128 else bytes([0x80 | n >> 8, n & 255])


DOMAIN = b"\x30\x19" + b"\x02\x01\x22\x02\x01\x02\x02\x01\x00\x02\x01\x01\x02\x01\x00" \
    b"\x02\x01\x01\x02\x02\xff\xff\x02\x01\x02"  # DomainParameters (T.125)


def connect_initial(channels=(b"rdpdr", b"MS_T120"), extra=b""):
    """an X.224 Data TPDU carrying an MCS Connect Initial with the client core data, the
    static channels named and, when given, an extra client data block; every length (BER,
    PER, TPKT) computed"""
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
    defs = b"".join(c.ljust(8, b"\0") + bytes(4) for c in channels)  # CHANNEL_DEF: name, options
    net = b"\x03\xc0" + (8 + len(defs)).to_bytes(2, "little") + \
        len(channels).to_bytes(4, "little") + defs
    blocks = bytes(core) + net + extra
    ccr = b"\x00\x08\x00\x10\x00\x01\xc0\x00Duca" + per_len(len(blocks)) + blocks
    gcc = b"\x00\x05\x00\x14\x7c\x00\x01" + per_len(len(ccr)) + ccr  # T.124 ConnectData
    body = b"\x04\x01\x01\x04\x01\x01\x01\x01\xff" + DOMAIN * 3 + \
        b"\x04" + ber_len(len(gcc)) + gcc
    return tpkt(b"\x02\xf0\x80\x7f\x65" + ber_len(len(body)) + body)


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


# ---- limits (parsers/rdp/rdp_int.h): RDP_CHANNELS_MAX, RDP_PDU_MAX ----
LIMIT_RULES = [rule('flow:to_server; content:"Duca";', sid=1, proto="rdp"),   # the stream's
               rule('flow:to_client; content:"|7f 66|";', sid=2, proto="rdp"),
               rule("app-layer-protocol:rdp;", sid=3)]


def standard(ci):
    """a conversation on standard RDP security whose client sends Connect Initial ci (in
    segments of 1400 bytes)"""
    c = Conv(sport=40389, dport=3389).handshake().send(True, x224(0xe0, CR_VAR))
    c.send(False, x224(0xd0, b"")).send(True, ci, seg=1400)
    return c.send(False, tpkt(b"\x02\xf0\x80\x7f\x66\x00")).close().pkts


def client_record(recs):
    (ci,) = [r for r in recs if r["event_type"] == "connect_request"]
    return ci


@pytest.mark.parametrize("n", [31, 33])
def test_rdp_channels_limit(tmp_path, n):
    # RDP_CHANNELS_MAX (31, MS-RDPBCGR's CHANNEL_MAX_COUNT) static channels of a Connect
    # Initial are kept: 31 all in the record; of 33 the first 31, the 2 more counted (rdp_shed)
    names = [b"ch%02d" % i for i in range(n)]
    r = eve_run(tmp_path, standard(connect_initial(channels=names)), LIMIT_RULES, ["rdp"])
    assert r.sids == [1, 2, 3]
    recs = [x["rdp"] for x in r.of("rdp")]
    assert [x["event_type"] for x in recs] == ["initial_request", "initial_response",
                                               "connect_request", "connect_response"]
    ci = client_record(recs)
    assert ci["channels"] == ["ch%02d" % i for i in range(min(n, 31))]
    assert ci["client"]["client_name"] == "WKS01"
    assert r.counters("rdp") == {"rdp_malformed": 0, "rdp_shed": n - min(n, 31)}


@pytest.mark.parametrize("size,kept", [(16384, True), (16385, False)])
def test_rdp_tpkt_limit(tmp_path, size, kept):
    # RDP_PDU_MAX (16384) bytes of a TPKT are held until it is whole: a Connect Initial that
    # size (an extra client data block fills it) is read; one byte more and the client's side
    # is given up (rdp_malformed: no connect_request record), while the server's side is still
    # read (connect_response) and the stream still inspected
    base = len(connect_initial(extra=b"\x04\xc0\x04\x00"))
    fill = size - base
    ci = connect_initial(extra=b"\x04\xc0" + (4 + fill).to_bytes(2, "little") + bytes(fill))
    assert len(ci) == size
    r = eve_run(tmp_path, standard(ci), LIMIT_RULES, ["rdp"], name=str(size))
    assert r.sids == [1, 2, 3]
    recs = [x["rdp"] for x in r.of("rdp")]
    events = ["initial_request", "initial_response", "connect_request", "connect_response"]
    if kept:
        assert [x["event_type"] for x in recs] == events
        assert client_record(recs)["channels"] == ["rdpdr", "MS_T120"]
        assert r.counters("rdp") == {"rdp_malformed": 0, "rdp_shed": 0}
    else:
        assert [x["event_type"] for x in recs] == [e for e in events if e != "connect_request"]
        assert [x["tx_id"] for x in recs] == [0, 1, 2]
        assert r.counters("rdp") == {"rdp_malformed": 1, "rdp_shed": 0}
