"""SNMP (parsers/snmp) end to end: detection (UDP ports 161/162), one transaction per
datagram either way, Suricata's keywords (snmp.community, snmp.usm, snmp.version,
snmp.pdu_type), v3 with encrypted PDUs, the EVE snmp records (validated against Suricata's
schema) and the alert's snmp object; a lost datagram (a request never answered, an answer
whose request never came: each is its own transaction, as in Suricata) and SNMP_VARS_MAX."""
import json

import pytest
from jsonschema import Draft7Validator

from ber_build import SYSDESCR, integer, seq, snmp_v2c, snmp_v3, string, tlv
from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())


def to_agent(m, sport=40161, dport=161):
    return udp(m, sport=sport, dport=dport)


def from_agent(m, sport=40161, dport=161):
    return udp(m, src="10.0.0.2", dst="10.0.0.1", sport=dport, dport=sport)


def traffic():
    return [to_agent(snmp_v2c(0xa0, "[R0_C@cti!]")), from_agent(snmp_v2c(0xa2, "[R0_C@cti!]")),
            to_agent(snmp_v2c(0xa1, "public", version=0), sport=40162),
            to_agent(snmp_v3("admin", False), sport=40163),
            from_agent(snmp_v3("admin", True), sport=40163)]


@pytest.mark.parametrize("body,hits", [
    ('snmp.community; content:"[R0_C@cti!]";', 2),          # both ways
    ('snmp.community; content:"private";', 0),
    ('flow:to_client; snmp.community; content:"[R0_C@cti!]";', 1),
    ('snmp.usm; content:"admin"; bsize:5;', 2),
    ("snmp.version:2;", 2),
    ("snmp.version:1;", 1),
    ("snmp.version:3;", 2),
    ("snmp.pdu_type:0;", 2),                                  # v2c get, v3 get
    ("snmp.pdu_type:1;", 1),
    ("snmp.pdu_type:2;", 1),
    ("snmp.pdu_type:>3;", 0),                                 # the encrypted one has none
])
def test_snmp_rules(tmp_path, body, hits):
    r = detect(tmp_path, traffic(), [rule(body, proto="snmp")])
    assert r.sids == [1] * hits, body


def test_snmp_ports_and_disabled(tmp_path):
    rules = [rule('snmp.community; content:"public";', proto="snmp")]
    assert detect(tmp_path, [to_agent(snmp_v2c(0xa7, "public"), dport=162)], rules).sids == [1]
    assert detect(tmp_path, [to_agent(snmp_v2c(0xa0, "public"), dport=1161)], rules,
                  name="o").sids == []
    assert detect(tmp_path, traffic(), rules, "--set", "app-layer.protocols.snmp.enabled=no",
                  name="d").sids == []


def test_snmp_events(tmp_path):
    v3_model = snmp_v3("admin", False).replace(bytes([0x02, 0x01, 0x03, 0x04]),
                                               bytes([0x02, 0x01, 0x02, 0x04]), 1)
    pkts = [to_agent(snmp_v2c(0xa0, "public")), to_agent(snmp_v3("admin", False)),
            to_agent(snmp_v3("admin", False), sport=40170),
            to_agent(b"\x30\x03\x02\x01\x09", sport=40171),
            to_agent(snmp_v3("admin", False), sport=40172), to_agent(v3_model, sport=40172)]
    rules = [rule("app-layer-event:snmp.version_mismatch;", sid=1, proto="snmp"),
             rule("app-layer-event:snmp.unknown_security_model;", sid=2, proto="snmp"),
             rule("app-layer-event:snmp.malformed_data;", sid=3, proto="udp")]
    assert detect(tmp_path, pkts, rules).sids == [1, 2]


def test_snmp_eve_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [rule("snmp.version:3; snmp.pdu_type:0;", sid=5,
                                                proto="snmp")],
                     "--set", "outputs.eve-log.types=[alert,snmp]")
    recs = [r["snmp"] for r in out.of("snmp")]
    var = ["1.3.6.1.2.1.1.1.0"]
    assert recs == [
        {"version": 2, "pdu_type": "get_request", "vars": var, "community": "[R0_C@cti!]"},
        {"version": 2, "pdu_type": "response", "vars": var, "community": "[R0_C@cti!]"},
        {"version": 1, "pdu_type": "get_next_request", "vars": var, "community": "public"},
        {"version": 3, "pdu_type": "get_request", "vars": var, "usm": "admin"},
        {"version": 3, "pdu_type": "encrypted", "usm": "admin"},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "snmp"
    assert a["snmp"] == recs[3]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("snmp") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_snmp_lost_datagrams(tmp_path):
    # Suricata's SNMP makes one transaction per datagram and matches nothing: a get whose
    # answer was lost and an answer whose get was lost are each a record of their own, and
    # the rules on either still match
    pkts = [to_agent(snmp_v2c(0xa0, "lost-answer")),
            from_agent(snmp_v2c(0xa2, "lost-request"), sport=40170),
            to_agent(snmp_v2c(0xa0, "public"), sport=40171),
            from_agent(snmp_v2c(0xa2, "public"), sport=40171)]
    rules = [rule("snmp.pdu_type:2;", sid=1, proto="snmp"),
             rule('snmp.community; content:"lost-answer";', sid=2, proto="snmp"),
             rule('snmp.community; content:"lost-request";', sid=3, proto="snmp")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,snmp,flow]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 1, 2, 3]
    recs = [(r["snmp"]["pdu_type"], r["snmp"]["community"]) for r in out.of("snmp")]
    assert recs == [("get_request", "lost-answer"), ("response", "lost-request"),
                    ("get_request", "public"), ("response", "public")]
    assert sorted(f["app_proto"] for f in out.of("flow")) == ["snmp"] * 3
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def bulk_response(n):
    """a v2c response with n variable bindings (1.3.6.1.2.1.1.1.<i>)"""
    vb = seq(*[seq(tlv(0x06, SYSDESCR[:-1] + bytes([i])), tlv(0x05, b"")) for i in range(n)])
    return seq(integer(1), string("public"), seq(integer(7), integer(0), integer(0), vb,
                                                 tag=0xa2))


@pytest.mark.parametrize("n", [64, 65, 100])
def test_snmp_vars_limit(tmp_path, trace, n):
    # SNMP_VARS_MAX (64) names are kept for the record; the rest are counted (snmp_shed), the
    # message is still a transaction and its rules still match
    pkts = [to_agent(snmp_v2c(0xa5, "public")), from_agent(bulk_response(n))]
    out = osprey_out(tmp_path, pkts, [rule("snmp.pdu_type:2;", sid=1, proto="snmp")],
                     "--set", "outputs.eve-log.types=[alert,snmp]")
    assert [a["alert"]["signature_id"] for a in out.of("alert")] == [1]
    resp = out.of("snmp")[1]["snmp"]
    assert resp["vars"] == ["1.3.6.1.2.1.1.1.%d" % i for i in range(min(n, 64))]
    assert not list(Draft7Validator(SCHEMA).iter_errors(out.of("snmp")[1]))
    a = app_trace(trace, pkts)
    assert a.stats["snmp_shed"] == max(0, n - 64) and a.stats["snmp_tx"] == 2
