"""NTP (parsers/ntp) end to end: detection (UDP 123), one transaction per datagram, Suricata
8's keywords ntp.version, ntp.stratum, ntp.mode (numbers and names) and ntp.reference_id,
ntp.malformed_data, and the EVE ntp records (validated against Suricata's schema); a lost
datagram (each message its own transaction) and the bounds a message has (NTP keeps no
per-flow state past the message in force: its header sizes are its only limits)."""
import json

import pytest
from jsonschema import Draft7Validator
from scapy.layers.ntp import NTPHeader

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())


def ntp(version, mode, stratum, ref):
    p = bytearray(bytes(NTPHeader(version=version, mode=mode, stratum=stratum)))
    p[12:16] = ref
    return bytes(p)


def traffic():
    return [udp(ntp(4, 3, 0, b"\0\0\0\0"), sport=40123, dport=123),
            udp(ntp(4, 4, 2, b"LOCL"), src="10.0.0.2", dst="10.0.0.1", sport=123, dport=40123),
            udp(ntp(3, 3, 0, b"\0\0\0\0"), sport=40124, dport=123),
            udp(ntp(3, 4, 2, b"LOCL"), src="10.0.0.2", dst="10.0.0.1", sport=123, dport=40124)]


@pytest.mark.parametrize("body,hits", [
    ("ntp.version:4;", 2),
    ("ntp.version:<4;", 2),
    ("flow:to_client; ntp.version:3;", 1),
    ("ntp.stratum:2;", 2),
    ("ntp.stratum:>2;", 0),
    ("flow:to_server; ntp.stratum:2;", 0),
    ("ntp.mode:client;", 2),
    ("ntp.mode:3;", 2),
    ("ntp.mode:!server;", 2),
    ("ntp.mode:broadcast;", 0),
    ('ntp.reference_id; content:"LOCL";', 2),
    ('flow:to_server; ntp.reference_id; content:"LOCL";', 0),
    ('ntp.reference_id; content:"|00 00 00 00|"; bsize:4;', 2),
])
def test_ntp_rules(tmp_path, body, hits):
    r = detect(tmp_path, traffic(), [rule(body, proto="ntp")])
    assert r.sids == [1] * hits, body


def test_ntp_port_malformed_and_bad_mode(tmp_path):
    rules = [rule("ntp.version:4;", sid=1, proto="ntp"),
             rule("app-layer-event:ntp.malformed_data;", sid=2, proto="ntp")]
    pkts = traffic()[:2] + [udp(b"\x23\x00", sport=40123, dport=123)]  # short: malformed
    assert detect(tmp_path, pkts, rules).sids == [1, 1, 2]
    assert detect(tmp_path, [udp(ntp(4, 3, 0, b"x" * 4), sport=40000, dport=1123)], rules,
                  name="p").sids == []
    r = detect(tmp_path, traffic(), [rule("ntp.mode:sideways;", proto="ntp")], check=False,
               name="m")
    assert r.sids == [] and "unknown mode 'sideways'" in r.proc.stderr


def test_ntp_eve_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [rule("ntp.mode:server; ntp.version:3;", sid=5,
                                                proto="ntp")],
                     "--set", "outputs.eve-log.types=[alert,ntp]")
    recs = [r["ntp"] for r in out.of("ntp")]
    assert recs == [
        {"version": 4, "mode": 3, "stratum": 0, "reference_id": "00:00:00:00"},
        {"version": 4, "mode": 4, "stratum": 2, "reference_id": "4c:4f:43:4c"},
        {"version": 3, "mode": 3, "stratum": 0, "reference_id": "00:00:00:00"},
        {"version": 3, "mode": 4, "stratum": 2, "reference_id": "4c:4f:43:4c"},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "ntp" and a["ntp"] == recs[3]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("ntp") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_ntp_lost_datagrams(tmp_path):
    # a request whose answer was lost and an answer whose request was lost (a flow that starts
    # with the server's datagram): each its own transaction and record, as in Suricata
    pkts = [udp(ntp(4, 3, 0, b"\0\0\0\0"), sport=40123, dport=123),
            udp(ntp(4, 4, 1, b"GPS\0"), src="10.0.0.2", dst="10.0.0.1", sport=123, dport=40124)]
    rules = [rule("ntp.mode:client;", sid=1, proto="ntp"),
             rule('ntp.reference_id; content:"GPS|00|";', sid=2, proto="ntp")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,ntp,flow]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2]
    assert [r["ntp"] for r in out.of("ntp")] == [
        {"version": 4, "mode": 3, "stratum": 0, "reference_id": "00:00:00:00"},
        {"version": 4, "mode": 4, "stratum": 1, "reference_id": "47:50:53:00"}]
    assert sorted(f["app_proto"] for f in out.of("flow")) == ["ntp", "ntp"]
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_ntp_message_bounds(tmp_path, trace):
    # 48 bytes is a message, 47 is not (malformed, counted); what follows the header
    # (extension fields, a MAC) is not read; a control message needs its 12-byte header
    full = ntp(4, 3, 0, b"\0\0\0\0")
    pkts = [udp(full, sport=40123, dport=123), udp(full[:47], sport=40123, dport=123),
            udp(full + b"\0\0\0\x14" + b"m" * 20, sport=40123, dport=123),
            udp(bytes([0x26]) + b"\0" * 11, sport=40123, dport=123),       # mode 6, 12 bytes
            udp(bytes([0x26]) + b"\0" * 10, sport=40123, dport=123)]       # 11: malformed
    rules = [rule("ntp.version:4;", sid=1, proto="ntp"),
             rule("app-layer-event:ntp.malformed_data;", sid=2, proto="ntp")]
    assert detect(tmp_path, pkts, rules).sids == [1, 1, 1, 2, 2]
    a = app_trace(trace, pkts)
    assert a.stats["ntp_tx"] == 3 and a.stats["ntp_malformed"] == 2
    # a long flow: every datagram is a transaction, nothing accumulates
    many = [udp(ntp(4, 3 + (i % 2), 2, b"LOCL"), sport=40125, dport=123) for i in range(300)]
    a = app_trace(trace, many)
    assert a.stats["ntp_tx"] == 300 and a.stats["ntp_malformed"] == 0
