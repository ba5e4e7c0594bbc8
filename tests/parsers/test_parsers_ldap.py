"""LDAP (parsers/ldap) end to end: detection (TCP either side, CLDAP on port 389), a request
and its responses as one transaction (by message id), Suricata 8's keywords (the request's
operation, DN and attribute types; the responses' operations and result codes by index, their
count, DNs, messages and attribute types — each holding once, on the response that made it
true), an unsolicited notification, max-tx, the EVE ldap records (validated against
Suricata's schema) and the alert's ldap object."""
import json

import pytest
from jsonschema import Draft7Validator

from ber_build import bind_request, ldap, ldap_result, search_entry, search_request, seq, \
    integer, string, tlv
from conftest import ROOT
from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out

BASE = "dc=example,dc=com"


def session(seg=None, dport=389):
    c = Conv(sport=40389, dport=dport).handshake()
    c.send(True, bind_request(1, "cn=admin," + BASE), seg=seg)
    c.send(False, ldap_result(1, 0x61, 0), seg=seg)
    c.send(True, search_request(2, BASE, ["cn", "*"]), seg=seg)
    c.send(False, search_entry(2, "cn=alice," + BASE, [("cn", ["alice"]),
                                                       ("mail", ["a@example.com"])]), seg=seg)
    c.send(False, search_entry(2, "cn=bob," + BASE, [("cn", ["bob"])]), seg=seg)
    c.send(False, ldap_result(2, 0x65, 4, BASE, "size limit exceeded"), seg=seg)
    c.send(True, ldap(3, tlv(0x42, b"")), seg=seg)  # unbind
    return c.close().pkts


@pytest.mark.parametrize("body,hits", [
    ("ldap.request.operation:search_request;", 1),
    ("ldap.request.operation:0;", 1),                      # bind, by number
    ("ldap.request.operation:unbind_request;", 1),
    ("ldap.responses.operation:search_result_entry;", 1),  # once, on the first entry
    ("ldap.responses.operation:search_result_done;", 1),
    ("ldap.responses.operation:bind_response;", 1),
    ("ldap.responses.operation:search_result_entry,1;", 1),
    ("ldap.responses.operation:search_result_done,2;", 1),
    ("ldap.responses.operation:search_result_done,-1;", 1),
    ("ldap.responses.operation:search_result_entry,-1;", 1),  # after the first entry
    ("ldap.responses.operation:search_result_done,0;", 0),
    ("ldap.responses.operation:search_result_entry,all;", 1),  # the first entry alone
    ("ldap.responses.operation:search_result_done,all;", 0),
    ("ldap.responses.operation:bind_response,all;", 1),
    ("ldap.responses.count:3;", 1),
    ("ldap.responses.count:>0;", 2),                       # the bind's and the search's
    ("ldap.responses.count:>3;", 0),
    ("ldap.responses.result_code:size_limit_exceeded;", 1),
    ("ldap.responses.result_code:success,0;", 1),          # the bind; entries have none
    ("ldap.responses.result_code:size_limit_exceeded,0;", 1),
    ("ldap.responses.result_code:success,all;", 1),
    ("ldap.responses.result_code:4,all;", 1),
    ('ldap.request.dn; content:"dc=example,dc=com"; startswith; endswith;', 1),
    ('ldap.request.dn; content:"cn=admin";', 1),
    ('ldap.request.attribute_type; content:"*"; startswith; endswith;', 1),
    ('ldap.responses.dn; content:"cn=bob,";', 1),
    ('ldap.responses.dn; content:"dc=example,dc=com"; startswith; endswith;', 1),
    ('ldap.responses.message; content:"size limit";', 1),
    ('ldap.responses.attribute_type; content:"mail"; bsize:4;', 1),
    ('ldap.responses.attribute_type; content:"cn"; bsize:2;', 2),   # each entry's
])
@pytest.mark.parametrize("seg", [None, 5])
def test_ldap_rules(tmp_path, body, hits, seg):
    r = detect(tmp_path, session(seg), [rule(body, proto="tcp")])
    assert r.sids == [1] * hits, body


def test_ldap_detection_and_cldap(tmp_path):
    rules = [rule("ldap.request.operation:search_request;", proto="ldap"),
             rule('ldap.request.dn; content:"cn=admin";', sid=2)]
    assert detect(tmp_path, session(dport=10389), rules).sids == [1, 2]
    cl = [udp(search_request(7, "", ["netlogon"]), sport=50000, dport=389),
          udp(search_entry(7, "", [("netlogon", ["x"])]), src="10.0.0.2", dst="10.0.0.1",
              sport=389, dport=50000)]
    rules = [rule("ldap.request.operation:search_request;", proto="udp"),
             rule("ldap.responses.operation:search_result_entry;", sid=2, proto="udp")]
    assert detect(tmp_path, cl, rules, name="c").sids == [1, 2]
    # off port 389 a CLDAP-looking datagram is not LDAP
    cl = [udp(search_request(7, "", ["netlogon"]), sport=50000, dport=3890)]
    assert detect(tmp_path, cl, rules, name="d").sids == []


def test_ldap_unsolicited_and_invalid(tmp_path):
    note = ldap(0, seq(integer(52, 0x0a), string(""), string("going down"),
                       string("1.3.6.1.4.1.1466.20036", 0x8a), tag=0x78))
    c = Conv(sport=40389, dport=389).handshake().send(True, bind_request(1, "cn=x"))
    c.send(False, note).send(True, seq(integer(2), string("not an operation")))
    rules = [rule("ldap.responses.result_code:unavailable;", proto="ldap"),
             rule("app-layer-event:ldap.invalid_data;", sid=2, proto="ldap")]
    assert detect(tmp_path, c.close().pkts, rules).sids == [1, 2]


def test_ldap_max_tx(tmp_path):
    c = Conv(sport=40389, dport=389).handshake()
    for i in range(1, 5):
        c.send(True, search_request(i, BASE, []))
    rules = [rule("app-layer-event:ldap.too_many_transactions;", proto="ldap")]
    r = detect(tmp_path, c.close().pkts, rules, "--set", "app-layer.protocols.ldap.max-tx=2")
    assert r.sids == [1, 1]


def test_ldap_eve_records(tmp_path):
    out = osprey_out(tmp_path, session(), [rule("ldap.responses.count:3;", sid=5,
                                                 proto="ldap")],
                     "--set", "outputs.eve-log.types=[alert,ldap]")
    recs = [r["ldap"] for r in out.of("ldap")]
    assert recs == [
        {"request": {"operation": "bind_request", "message_id": 1,
                     "bind_request": {"version": 3, "name": "cn=admin," + BASE}},
         "responses": [{"operation": "bind_response", "message_id": 1,
                        "bind_response": {"result_code": "success", "matched_dn": "",
                                          "message": ""}}]},
        {"request": {"operation": "search_request", "message_id": 2,
                     "search_request": {"base_object": BASE, "scope": 2, "deref_alias": 0,
                                        "size_limit": 0, "time_limit": 0, "types_only": False,
                                        "attributes": ["cn", "*"]}},
         "responses": [
             {"operation": "search_result_entry", "message_id": 2,
              "search_result_entry": {"base_object": "cn=alice," + BASE, "attributes": [
                  {"type": "cn", "values": ["alice"]},
                  {"type": "mail", "values": ["a@example.com"]}]}},
             {"operation": "search_result_entry", "message_id": 2,
              "search_result_entry": {"base_object": "cn=bob," + BASE, "attributes": [
                  {"type": "cn", "values": ["bob"]}]}},
             {"operation": "search_result_done", "message_id": 2,
              "search_result_done": {"result_code": "size_limit_exceeded",
                                     "matched_dn": BASE, "message": "size limit exceeded"}}]},
        {"request": {"operation": "unbind_request", "message_id": 3}},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "ldap"
    assert a["ldap"] == recs[1]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("ldap") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_ldap_too_many_responses(tmp_path):
    c = Conv(sport=40389, dport=389).handshake().send(True, search_request(2, BASE, []))
    for i in range(66):  # 64 kept
        c.send(False, search_entry(2, f"cn=u{i}," + BASE, [("cn", [f"u{i}"])]))
    c.send(False, ldap_result(2, 0x65, 0))
    rules = [rule("app-layer-event:ldap.too_many_responses;", proto="ldap"),
             rule("ldap.responses.count:67;", sid=2, proto="ldap")]
    assert detect(tmp_path, c.close().pkts, rules).sids == [1, 2]


def test_ldap_gap_resyncs_at_the_next_message(tmp_path):
    # the search's entry is lost (the client acknowledges past it): Suricata resyncs at a
    # chunk that starts with a whole LDAPMessage. The search's final result is read again:
    # the search transaction ends with it and its rules match; the lost entry is not in its
    # record.
    c = Conv(sport=40389, dport=389).handshake()
    c.send(True, bind_request(1, "cn=admin," + BASE))
    c.send(False, ldap_result(1, 0x61, 0))
    c.send(True, search_request(2, BASE, ["cn"]))
    entry = search_entry(2, "cn=alice," + BASE, [("cn", ["alice"])])
    c.send(False, entry, order=[])                                        # lost
    c.send(False, ldap_result(2, 0x65, 0, BASE, "done"))
    c.send(True, ldap(3, tlv(0x42, b"")))
    pkts = c.close().pkts
    rules = [rule("ldap.responses.operation:search_result_done;", sid=1, proto="ldap"),
             rule("ldap.responses.operation:bind_response;", sid=2, proto="ldap"),
             rule("ldap.request.operation:unbind_request;", sid=3, proto="ldap"),
             rule("app-layer-event:ldap.invalid_data;", sid=4, proto="ldap"),
             rule('flow:to_client; content:"done";', sid=5)]          # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [1, 2, 3, 5]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[ldap]", name="e")
    recs = [r["ldap"] for r in out.of("ldap")]
    assert [(r["request"]["operation"], [x["operation"] for x in r.get("responses", [])])
            for r in recs] == [("bind_request", ["bind_response"]),
                               ("search_request", ["search_result_done"]),
                               ("unbind_request", [])]
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_cldap_lost_datagrams(tmp_path):
    # CLDAP: a search whose answer was lost is finished at the flow's end with no responses;
    # an answer whose search was lost is a transaction of its own (an unsolicited response)
    pkts = [udp(search_request(7, "", ["netlogon"]), sport=50000, dport=389),
            udp(search_entry(8, "", [("netlogon", ["x"])]), src="10.0.0.2", dst="10.0.0.1",
                sport=389, dport=50001)]
    rules = [rule("ldap.request.operation:search_request;", sid=1, proto="ldap"),
             rule("ldap.responses.operation:search_result_entry;", sid=2, proto="ldap")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,ldap]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2]
    recs = [r["ldap"] for r in out.of("ldap")]
    assert sorted((r.get("request", {}).get("operation", ""),
                   [x["operation"] for x in r.get("responses", [])]) for r in recs) == \
        sorted([("search_request", []), ("", ["search_result_entry"])])
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r
