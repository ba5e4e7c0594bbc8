"""NTP (parsers/ntp) end to end: detection (UDP 123), one transaction per datagram, Suricata
8's keywords ntp.version, ntp.stratum, ntp.mode (numbers and names) and ntp.reference_id,
ntp.malformed_data, and the EVE ntp records (validated against Suricata's schema)."""
import json

import pytest
from jsonschema import Draft7Validator
from scapy.layers.ntp import NTPHeader

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out


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
