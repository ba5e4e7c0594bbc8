"""Kerberos 5 (parsers/krb5) end to end: detection over UDP and TCP (record marks, a message
cut across segments, two in one), one transaction per message, Suricata's keywords
(krb5_msg_type, krb5_err_code, krb5.cname / krb5.sname on the server's messages only,
krb5.ticket_encryption), the app-layer events, the EVE krb5 records (validated against
Suricata's schema) and the alert's krb5 object."""
import json

import pytest
from jsonschema import Draft7Validator

from ber_build import krb_error, krb_rep, krb_req, record
from conftest import ROOT
from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

R = "EXAMPLE.ORG"
AS_REQ = krb_req(10, ["alice"], R, ["krbtgt", R])
ERR = krb_error(25, R, ["krbtgt", R])
AS_REP = krb_rep(11, ["alice"], R, ["krbtgt", R], 18, 18)
TGS_REQ = krb_req(12, None, R, ["HTTP", "web.example.org"])
TGS_REP = krb_rep(13, ["alice"], R, ["HTTP", "web.example.org"], 18, 23)  # rc4 ticket


def tcp_flow(seg=None):
    c = Conv(sport=50000, dport=88).handshake()
    c.send(True, record(AS_REQ), seg=seg).send(False, record(ERR), seg=seg)
    c.send(True, record(AS_REQ)).send(False, record(AS_REP), seg=seg)
    # two records in one segment
    c.send(True, record(TGS_REQ) + record(TGS_REQ)).send(False, record(TGS_REP), seg=seg)
    return c.close().pkts


def udp_flow():
    msgs = [(True, AS_REQ), (False, ERR), (True, AS_REQ), (False, AS_REP), (True, TGS_REQ),
            (True, TGS_REQ), (False, TGS_REP)]
    return [udp(m, sport=50000, dport=88) if cli else udp(m, src="10.0.0.2", dst="10.0.0.1",
                                                           sport=88, dport=50000)
            for cli, m in msgs]


def krb_rule(body, sid=1):
    return rule(body, sid=sid, proto="krb5")


@pytest.mark.parametrize("body,hits", [
    ("krb5_msg_type:10;", 2),
    ("krb5_msg_type:11;", 1),
    ("krb5_msg_type:12;", 2),
    ("krb5_msg_type:13;", 1),
    ("krb5_msg_type:30;", 1),
    ("krb5_msg_type:>10;", 5),
    ("flow:to_server; krb5_msg_type:10;", 2),
    ("flow:to_client; krb5_msg_type:10;", 0),
    ("krb5_err_code:25;", 1),
    ("krb5_err_code:24;", 0),
    # the server's messages only (Suricata's registration): the error, the two replies
    ('krb5.sname; content:"krbtgt";', 2),
    ('krb5_sname; content:"web.example.org"; bsize:15;', 1),   # one component
    ('krb5.sname; content:"HTTP/web";', 0),                    # within one component
    ('krb5.cname; content:"alice";', 2),
    ("krb5.ticket_encryption:weak;", 1),
    ("krb5.ticket_encryption:!weak;", 1),
    ("krb5.ticket_encryption:23;", 1),
    ("krb5.ticket_encryption:rc4-hmac,aes256-cts-hmac-sha1-96;", 2),
    ("krb5.ticket_encryption:des-cbc-md5;", 0),
    ("app-layer-event:krb5.weak_encryption;", 0),              # the replies' enc-part: aes
])
@pytest.mark.parametrize("flow", ["tcp", "tcp-cut", "udp"])
def test_krb5_rules(tmp_path, body, hits, flow):
    pkts = tcp_flow() if flow == "tcp" else tcp_flow(seg=7) if flow == "tcp-cut" else udp_flow()
    r = detect(tmp_path, pkts, [krb_rule(body)])
    assert r.sids == [1] * hits, body


def test_krb5_off_port_and_not(tmp_path):
    rules = [krb_rule("krb5_msg_type:10;"), rule("app-layer-protocol:krb5;", sid=2, proto="udp")]
    c = Conv(sport=50000, dport=8888).handshake().send(True, record(AS_REQ)).close().pkts
    assert detect(tmp_path, c, rules[:1]).sids == [1]
    assert detect(tmp_path, [udp(b"\x30\x03\x02\x01\x05", sport=50000, dport=88)], rules,
                  name="u").sids == []


def test_krb5_weak_reply_and_malformed(tmp_path):
    weak = krb_rep(11, ["bob"], R, ["krbtgt", R], 23, 23)
    rules = [krb_rule("app-layer-event:krb5.weak_encryption;", sid=1),
             krb_rule("app-layer-event:krb5.malformed_data;", sid=2)]
    pkts = [udp(AS_REQ, sport=50000, dport=88),
            udp(weak, src="10.0.0.2", dst="10.0.0.1", sport=88, dport=50000),
            udp(bytes([0x6a, 0x03, 0x30, 0x01, 0x02]), sport=50000, dport=88)]
    assert detect(tmp_path, pkts, rules).sids == [1, 2]


def test_krb5_disabled(tmp_path):
    r = detect(tmp_path, udp_flow(), [krb_rule("krb5_msg_type:10;")], "--set",
               "app-layer.protocols.krb5.enabled=no")
    assert r.sids == []


def test_krb5_eve_records(tmp_path):
    out = osprey_out(tmp_path, tcp_flow(seg=5), [krb_rule("krb5.ticket_encryption:weak;", 5)],
                     "--set", "outputs.eve-log.types=[alert,krb5]")
    recs = [r["krb5"] for r in out.of("krb5")]
    req = {"msg_type": "KRB_AS_REQ", "cname": "alice", "realm": R, "sname": "krbtgt/" + R,
           "encryption": "<none>", "weak_encryption": False}
    tgs = {"msg_type": "KRB_TGS_REQ", "cname": "<empty>", "realm": R,
           "sname": "HTTP/web.example.org", "encryption": "<none>", "weak_encryption": False}
    assert recs == [
        req,
        {"msg_type": "KRB_ERROR", "failed_request": "KRB_AS_REQ",
         "error_code": "KDC_ERR_PREAUTH_REQUIRED", "cname": "<empty>", "realm": "<empty>",
         "sname": "krbtgt/" + R, "encryption": "<none>", "weak_encryption": False},
        req,
        {"msg_type": "KRB_AS_REP", "cname": "alice", "realm": R, "sname": "krbtgt/" + R,
         "encryption": "aes256-cts-hmac-sha1-96", "weak_encryption": False,
         "ticket_encryption": "aes256-cts-hmac-sha1-96", "ticket_weak_encryption": False},
        tgs, tgs,
        {"msg_type": "KRB_TGS_REP", "cname": "alice", "realm": R,
         "sname": "HTTP/web.example.org", "encryption": "aes256-cts-hmac-sha1-96",
         "weak_encryption": False, "ticket_encryption": "rc4-hmac",
         "ticket_weak_encryption": True},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "krb5"
    assert a["krb5"] == recs[-1]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("krb5") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_krb5_tcp_gap_gives_the_flow_up(tmp_path):
    # Suricata's Kerberos over TCP does not accept gaps: a hole ends its app layer on the
    # flow, both ways, and so does Osprey's. The KDC's AS-REP, read with the ACK that passed
    # the hole, is the last record; neither side's records after it are parsed (no rule, no
    # record), and the stream's bytes are still inspected.
    c = Conv(sport=50000, dport=88).handshake()
    c.send(True, record(AS_REQ)).send(False, record(ERR))
    c.send(True, record(AS_REQ), order=[])                          # never comes
    c.send(False, record(AS_REP))
    c.send(True, record(TGS_REQ)).send(False, record(TGS_REP))
    pkts = c.close().pkts
    rules = [krb_rule("krb5_msg_type:12;", sid=1), krb_rule("krb5_msg_type:10;", sid=2),
             krb_rule("krb5_msg_type:13;", sid=3),
             rule('flow:to_server; content:"web.example.org";', sid=4)]  # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [2, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[flow,krb5]",
                     name="e")
    assert [r["krb5"]["msg_type"] for r in out.of("krb5")] == ["KRB_AS_REQ", "KRB_ERROR",
                                                               "KRB_AS_REP"]
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_krb5_udp_lost_datagrams(tmp_path):
    # over UDP each message is a transaction and record of its own: an AS-REQ whose answer
    # was lost and a TGS-REP whose request was lost are each written and matched
    pkts = [udp(AS_REQ, sport=50000, dport=88),
            udp(TGS_REP, src="10.0.0.2", dst="10.0.0.1", sport=88, dport=50001)]
    rules = [krb_rule("krb5_msg_type:10;", sid=1), krb_rule("krb5.ticket_encryption:weak;", 2)]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,krb5]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2]
    assert [r["krb5"]["msg_type"] for r in out.of("krb5")] == ["KRB_AS_REQ", "KRB_TGS_REP"]
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_krb5_limits(tmp_path, trace):
    # a TCP record longer than KRB5_RECORD_MAX (100000 bytes, Suricata's defragmentation
    # limit) is skipped (krb5_skipped) and the next record is read; KRB5_NAME_PARTS (8)
    # components of a name are kept (krb5_shed counts the rest)
    big = (100001).to_bytes(4, "big") + b"\x00" * 100001
    long_name = krb_req(10, [str(i) for i in range(10)], R, ["krbtgt", R])
    c = Conv(sport=50000, dport=88).handshake()
    c.send(True, record(AS_REQ))
    for k in range(0, len(big), 20000):  # (acknowledged as it goes: within the window)
        c.send(True, big[k:k + 20000], seg=1400)
    c.send(True, record(long_name))
    pkts = c.close().pkts
    rules = [krb_rule("krb5_msg_type:10;", sid=1)]
    assert detect(tmp_path, pkts, rules).sids == [1, 1]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[krb5]", name="e")
    assert [r["krb5"]["cname"] for r in out.of("krb5")] == ["alice", "0/1/2/3/4/5/6/7"]
    a = app_trace(trace, pkts)
    assert a.stats["krb5_skipped"] == 1 and a.stats["krb5_shed"] == 2
