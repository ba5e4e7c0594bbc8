"""IKE (parsers/ike) end to end: detection (UDP 500, 4500 after the non-ESP marker), one
transaction per datagram, Suricata's keywords (ike.init_spi, ike.resp_spi, ike.vendor,
ike.key_exchange_payload(_length), ike.nonce_payload(_length), ike.exchtype,
ike.chosen_sa_attribute), the weak-crypto events under `ike.` and `ikev2.` names,
`alert ikev2`, and the EVE ike records (validated against Suricata's schema); a lost
datagram (each message its own transaction; IKEv1's flow state without the server's choice)
and the limits (payload types, vendor ids, transforms kept; ike_shed)."""
import json
import struct

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())

ISPI, RSPI = bytes.fromhex("61d3693ce12af528"), bytes.fromhex("0102030405060708")
VID = bytes.fromhex("afcad71368a1f1c96b8696fc77570100")


def message(version, exch, flags, payloads, resp=False):
    """payloads: [(type, data)] chained in order"""
    body = b""
    for i, (_, data) in enumerate(payloads):
        nxt = payloads[i + 1][0] if i + 1 < len(payloads) else 0
        body += struct.pack("!BBH", nxt, 0, 4 + len(data)) + data
    first = payloads[0][0] if payloads else 0
    hdr = ISPI + (RSPI if resp else bytes(8)) + struct.pack("!BBBBII", first, version, exch,
                                                          flags, 0, 28 + len(body))
    return hdr + body


def v2_sa(transforms):
    t = b""
    for i, (ty, tid) in enumerate(transforms):
        t += struct.pack("!BBHBBH", 3 if i + 1 < len(transforms) else 0, 0, 8, ty, 0, tid)
    return struct.pack("!BBHBBBB", 0, 0, 8 + len(t), 1, 1, 0, len(transforms)) + t


def v1_sa(transforms):
    """transforms: [[(attribute type, value)]] as basic attributes"""
    ts = b""
    for i, attrs in enumerate(transforms):
        a = b"".join(struct.pack("!HH", 0x8000 | ty, v) for ty, v in attrs)
        ts += struct.pack("!BBHBBH", 3 if i + 1 < len(transforms) else 0, 0, 8 + len(a), i + 1,
                          1, 0) + a
    prop = struct.pack("!BBHBBBB", 0, 0, 8 + len(ts), 1, 1, 0, len(transforms)) + ts
    return struct.pack("!II", 1, 1) + prop


WEAK = [(1, 3), (2, 2), (3, 2), (4, 2)]       # 3DES, PRF-HMAC-SHA1, SHA1-96, MODP-1024
STRONG = [(1, 20), (2, 5), (4, 19)]           # AES-GCM-16, PRF-SHA256, ECP-256


def to_resp(m, sport=500, dport=500):
    return udp(m, sport=sport, dport=dport)


def from_resp(m, sport=500, dport=500):
    return udp(m, src="10.0.0.2", dst="10.0.0.1", sport=dport, dport=sport)


def ikev2():
    return [to_resp(message(0x20, 34, 0x08, [(33, v2_sa(WEAK)), (34, b"\x00\x02\x00\x00" + b"k" * 128),
                                             (40, b"n" * 32)])),
            from_resp(message(0x20, 34, 0x20, [(33, v2_sa(STRONG)), (40, b"m" * 32)], resp=True))]


def ikev1():
    attrs = [(1, 7), (2, 2), (3, 1), (4, 14), (11, 1)]
    return [to_resp(message(0x10, 2, 0, [(1, v1_sa([attrs, [(1, 5), (2, 1)]])), (13, VID)]),
                    sport=40500),
            from_resp(message(0x10, 2, 0, [(1, v1_sa([attrs]))], resp=True), sport=40500),
            to_resp(message(0x10, 2, 0, [(4, b"K" * 128), (10, b"N" * 20)], resp=True),
                    sport=40500)]


@pytest.mark.parametrize("body,hits", [
    ('ike.init_spi; content:"61d3693ce12af528";', 2),
    ('flow:to_client; ike.resp_spi; content:"0102030405060708";', 1),
    ("ike.exchtype:34;", 2),
    ("ike.chosen_sa_attribute:alg_dh=2;", 1),           # IKEv2: the first DH transform
    ("flow:to_client; ike.chosen_sa_attribute:alg_enc=20;", 1),
    ("app-layer-event:ikev2.weak_crypto_dh;", 1),       # Suricata's older protocol name
    ("flow:to_server; app-layer-event:ike.weak_crypto_enc;", 1),
    ("app-layer-event:ike.weak_crypto_no_dh;", 0),
])
def test_ikev2_rules(tmp_path, body, hits):
    r = detect(tmp_path, ikev2(), [rule(body, proto="ike")])
    assert r.sids == [1] * hits, body


@pytest.mark.parametrize("body,hits", [
    ('ike.vendor; content:"afcad71368a1f1c9"; startswith;', 1),
    ("ike.exchtype:2;", 3),
    ("ike.chosen_sa_attribute:alg_hash=2;", 2),         # each message's first transform
    ("ike.chosen_sa_attribute:sa_life_type=1;", 2),
    ('ike.key_exchange_payload; content:"KKKK"; bsize:128;', 1),
    ("ike.key_exchange_payload_length:128;", 1),
    ("ike.nonce_payload_length:>16;", 1),
    ('ike.nonce_payload; content:"NNN";', 1),
    ("app-layer-event:ike.multiple_server_proposal;", 0),
])
def test_ikev1_rules(tmp_path, body, hits):
    r = detect(tmp_path, ikev1(), [rule(body, proto="ikev2")])
    assert r.sids == [1] * hits, body


def test_ike_nat_t_and_not_ike(tmp_path):
    rules = [rule("ike.exchtype:34;", proto="ike")]
    m = message(0x20, 34, 0x08, [(33, v2_sa(WEAK))])
    assert detect(tmp_path, [udp(b"\0\0\0\0" + m, sport=4500, dport=4500)], rules).sids == [1]
    # without the marker on 4500 it is ESP; off the ports it is not IKE
    assert detect(tmp_path, [udp(m, sport=4500, dport=4500)], rules, name="e").sids == []
    assert detect(tmp_path, [udp(m, sport=40000, dport=5000)], rules, name="p").sids == []
    r = detect(tmp_path, ikev2(), [rule("ike.chosen_sa_attribute:alg_bogus=1;", proto="ike")],
               check=False, name="b")
    assert r.sids == [] and "unknown attribute 'alg_bogus'" in r.proc.stderr


def test_ike_eve_records(tmp_path):
    out = osprey_out(tmp_path, ikev2() + ikev1(),
                     [rule("app-layer-event:ike.weak_crypto_dh;", sid=5, proto="ike")],
                     "--set", "outputs.eve-log.types=[alert,ike]")
    recs = [r["ike"] for r in out.of("ike")]
    assert recs[0] == {"version_major": 2, "version_minor": 0, "init_spi": "61d3693ce12af528",
                       "resp_spi": "0000000000000000", "message_id": 0, "exchange_type": 34,
                       "role": "initiator",
                       "payload": ["SecurityAssociation", "KeyExchange", "Nonce",
                                   "NoNextPayload"],
                       "ikev2": {"errors": 0}}
    assert recs[1]["role"] == "responder" and recs[1]["resp_spi"] == "0102030405060708"
    assert recs[2]["ikev1"] == {
        "doi": 1, "encrypted_payloads": False,
        "client": {"proposals": [
            {"key": "alg_enc", "value": "EncAesCbc", "raw": 7},
            {"key": "alg_hash", "value": "HashSha", "raw": 2},
            {"key": "alg_auth", "value": "AuthPreSharedKey", "raw": 1},
            {"key": "alg_dh", "value": "GroupModp2048Bit", "raw": 14},
            {"key": "sa_life_type", "value": "LifeTypeSeconds", "raw": 1},
            {"key": "alg_enc", "value": "EncTripleDesCbc", "raw": 5},
            {"key": "alg_hash", "value": "HashMd5", "raw": 1}]},
        "vendor_ids": [VID.hex()]}
    assert recs[3]["attributes"][0] == {"key": "alg_enc", "value": "EncAesCbc", "raw": 7}
    assert recs[4]["ikev1"]["client"] == {
        "key_exchange_payload": "4b" * 128, "key_exchange_payload_length": 128,
        "nonce_payload": "4e" * 20, "nonce_payload_length": 20}
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "ike" and a["ike"] == recs[0]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("ike") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_ike_lost_datagrams(tmp_path):
    # IKEv1: the responder's choice never arrives; the initiator's next message is still a
    # transaction (its key exchange read), no record has the server's chosen attributes, and
    # the server-side rule has nothing to match. IKEv2: a response whose request was lost is
    # a transaction alone (role responder).
    v1 = ikev1()
    v2 = message(0x20, 34, 0x20, [(33, v2_sa(STRONG)), (40, b"m" * 32)], resp=True)
    pkts = [v1[0], v1[2], udp(v2, src="10.0.0.3", dst="10.0.0.4", sport=500, dport=500)]
    rules = [rule("flow:to_client; ike.chosen_sa_attribute:alg_enc=7;", sid=1, proto="ike"),
             rule("ike.key_exchange_payload_length:128;", sid=2, proto="ike"),
             rule('ike.resp_spi; content:"0102030405060708";', sid=3, proto="ike")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,ike]")
    # (the initiator's second IKEv1 message carries the responder's SPI too)
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [2, 3, 3]
    recs = [r["ike"] for r in out.of("ike")]
    assert [r["exchange_type"] for r in recs] == [2, 2, 34]
    assert all("attributes" not in r for r in recs[:2])
    assert recs[1]["ikev1"]["client"]["key_exchange_payload_length"] == 128
    assert recs[2]["role"] == "responder" and recs[2]["resp_spi"] == RSPI.hex()
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


@pytest.mark.parametrize("nvid", [16, 17, 40])
def test_ike_vendor_and_payload_limits(tmp_path, trace, nvid):
    # 16 vendor ids are kept (ike.vendor, the record's vendor_ids) and 32 payload types (the
    # record's payload list; IKEv1 lists no chain end); the rest are counted in ike_shed and
    # the message is still read
    vids = [bytes([i]) + b"\xee" * 15 for i in range(nvid)]
    m = message(0x10, 2, 0, [(1, v1_sa([[(1, 7)]]))] + [(13, v) for v in vids])
    pkts = [to_resp(m, sport=40500)]
    # (anchored and sized: each element is matched alone, not after the ones before it)
    rules = [rule('ike.vendor; content:"%s"; startswith; bsize:32;' % vids[15].hex(), sid=1,
                  proto="ike"),
             rule('ike.vendor; content:"%s"; startswith; bsize:32;' % vids[-1].hex(), sid=2,
                  proto="ike")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,ike]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == \
        ([1] if nvid > 16 else [1, 2])
    (rec,) = [r["ike"] for r in out.of("ike")]
    assert rec["ikev1"]["vendor_ids"] == [v.hex() for v in vids[:16]]
    assert rec["payload"] == (["SecurityAssociation"] + ["VendorID"] * nvid)[:32]
    assert not list(Draft7Validator(SCHEMA).iter_errors(out.of("ike")[0]))
    a = app_trace(trace, pkts)
    # each vendor id past 16 is shed, and each payload type past 32 (1 SA + nvid vendor ids)
    assert a.stats["ike_tx"] == 1
    assert a.stats["ike_shed"] == max(0, nvid - 16) + max(0, nvid + 1 - 32)
