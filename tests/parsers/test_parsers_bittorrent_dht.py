"""BitTorrent DHT (parsers/bittorrent_dht) end to end: detection by a query's first bytes on
any UDP port, KRPC queries (ping, find_node, get_peers, announce_peer), responses (compact
nodes, nodes6, values) and errors, one transaction per datagram, the EVE bittorrent_dht records
(validated against Suricata's schema), suricata-builtin/bittorrent-events.rules on malformed
messages (too deep, unsorted, missing keys), and the ET P2P DHT rules still matching the
payload."""
import json

from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

EVENTS = (ROOT.parent / "shared" / "corpus" / "rules" / "suricata-builtin"
          / "bittorrent-events.rules")
NODE = b"abcdefghij0123456789"
PEER = b"mnopqrstuvwxyz123456"


def benc(v):
    if isinstance(v, int):
        return b"i%de" % v
    if isinstance(v, bytes):
        return b"%d:%s" % (len(v), v)
    if isinstance(v, list):
        return b"l" + b"".join(benc(x) for x in v) + b"e"
    return b"d" + b"".join(benc(k) + benc(v[k]) for k in sorted(v)) + b"e"


def q(t, name, args):
    return benc({b"t": t, b"y": b"q", b"q": name, b"a": {**args, b"id": NODE},
                 b"v": b"UT\x01\x02"})


def r(t, resp):
    return benc({b"t": t, b"y": b"r", b"r": {**resp, b"id": PEER}})


def to(p):
    return udp(p, sport=6881, dport=51413)


def back(p):
    return udp(p, src="10.0.0.2", dst="10.0.0.1", sport=51413, dport=6881)


def traffic():
    nodes = PEER + bytes([192, 168, 1, 7]) + b"\x1a\xe1"
    nodes6 = NODE + bytes(range(16)) + b"\x1a\xe2"
    return [to(q(b"aa", b"ping", {})), back(r(b"aa", {})),
            to(q(b"bb", b"find_node", {b"target": PEER})),
            back(r(b"bb", {b"nodes": nodes, b"nodes6": nodes6})),
            to(q(b"cc", b"get_peers", {b"info_hash": PEER})),
            back(r(b"cc", {b"token": b"tok", b"values": [bytes([10, 0, 0, 5, 0x1a, 0xe1])]})),
            to(q(b"dd", b"announce_peer", {b"info_hash": PEER, b"implied_port": 1,
                                           b"port": 6881, b"token": b"tok"})),
            back(benc({b"t": b"dd", b"y": b"e", b"e": [201, b"A Generic Error Ocurred"]}))]


def h(b):
    return b.hex()


def test_dht_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [], "--set", "outputs.eve-log.types=[bittorrent_dht]")
    recs = [x["bittorrent_dht"] for x in out.of("bittorrent_dht")]
    v = h(b"UT\x01\x02")
    assert recs == [
        {"transaction_id": h(b"aa"), "client_version": v, "request_type": "ping",
         "request": {"id": h(NODE)}},
        {"transaction_id": h(b"aa"), "response": {"id": h(PEER)}},
        {"transaction_id": h(b"bb"), "client_version": v, "request_type": "find_node",
         "request": {"id": h(NODE), "target": h(PEER)}},
        {"transaction_id": h(b"bb"), "response": {
            "id": h(PEER), "nodes": [{"id": h(PEER), "ip": "192.168.1.7", "port": 6881}],
            "nodes6": [{"id": h(NODE), "ip": "0001:0203:0405:0607:0809:0a0b:0c0d:0e0f",
                        "port": 6882}]}},
        {"transaction_id": h(b"cc"), "client_version": v, "request_type": "get_peers",
         "request": {"id": h(NODE), "info_hash": h(PEER)}},
        {"transaction_id": h(b"cc"), "response": {
            "id": h(PEER), "values": [{"ip": "10.0.0.5", "port": 6881}], "token": h(b"tok")}},
        {"transaction_id": h(b"dd"), "client_version": v, "request_type": "announce_peer",
         "request": {"id": h(NODE), "info_hash": h(PEER), "token": h(b"tok"),
                     "implied_port": 1, "port": 6881}},
        {"transaction_id": h(b"dd"), "error": {"num": 201, "msg": "A Generic Error Ocurred"}},
    ]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    val = Draft7Validator(schema)
    for x in out.of("bittorrent_dht"):
        assert not list(val.iter_errors(x)), x


def test_dht_rules(tmp_path):
    rules = [rule("app-layer-protocol:bittorrent-dht;", sid=1, proto="udp"),
             rule('content:"get_peers";', sid=2, proto="bittorrent-dht"),
             # ET P2P BitTorrent DHT ping request (sid 2008581), its content part
             rule('content:"d1|3a|ad2|3a|id20|3a|"; depth:12; nocase;', sid=3, proto="udp")]
    # app-layer-protocol alone: once, where detection decided the flow (as Suricata's
    # protocol-detection-only rules)
    assert sorted(detect(tmp_path, traffic(), rules).sids) == [1] + [2] + [3] * 4
    # a response alone does not decide the flow
    assert detect(tmp_path, [back(r(b"aa", {}))], rules, name="r").sids == []


def test_dht_malformed_events(tmp_path):
    rules = [l for l in EVENTS.read_text().splitlines() if l.startswith("alert")]
    assert len(rules) == 1
    good = to(q(b"aa", b"ping", {}))
    bad = [
        b"d1:ad2:id20:" + NODE + b"e1:q4:ping1:t2:aa1:y1:qe"[:-1],      # truncated
        b"d1:ad2:id20:" + NODE + b"e1:t2:aa1:y1:qe",                      # query without q
        b"d1:ad2:id20:" + NODE + b"e1:q4:ping1:y1:qe",                    # without t
        b"d1:rd2:id20:" + NODE + b"5:nodesllleeee1:t2:aa1:y1:re",         # too deep
        b"d1:ad2:id20:" + NODE + b"e1:y1:q1:q4:ping1:t2:aae",             # keys unsorted
        b"d1:ad2:id20:" + NODE + b"4:porti70000ee1:q4:ping1:t2:aa1:y1:qe",  # port > 65535
        b"d1:ad2:id20:" + NODE + b"e1:q4:ping1:t2:aa1:y1:xe",             # y neither q, r, e
    ]
    pkts = [good] + [to(b) for b in bad]
    assert detect(tmp_path, pkts, rules).sids == [2243000] * len(bad)
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[bittorrent_dht]",
                     name="o")
    assert len(out.of("bittorrent_dht")) == 1
    # not DHT-looking datagrams of the flow are left alone
    assert detect(tmp_path, [good, to(b"hello world")], rules, name="n").sids == []


def test_bittorrent_dht_limits(tmp_path, trace):
    # BT_NODES_MAX (32) nodes and values are kept per response, a token or id up to
    # BT_BYTES_MAX (64) bytes: the rest counted (bittorrent_dht_shed); the message is still a
    # transaction and its record
    nodes = b"".join(bytes([i]) * 20 + bytes([10, 0, 0, i, 0x1a, 0xe1]) for i in range(40))
    pkts = [to(q(b"bb", b"find_node", {b"target": PEER})),
            back(r(b"bb", {b"nodes": nodes, b"token": b"T" * 70}))]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[bittorrent_dht]")
    resp = [rec["bittorrent_dht"] for rec in out.of("bittorrent_dht")][1]["response"]
    assert [n["ip"] for n in resp["nodes"]] == ["10.0.0.%d" % i for i in range(32)]
    assert resp["token"] == h(b"T" * 64)
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for rec in out.records:
        assert not list(v.iter_errors(rec)), rec
    a = app_trace(trace, pkts)
    assert a.stats["bittorrent_dht_shed"] == 8 + 6  # nodes past 32, token bytes past 64
