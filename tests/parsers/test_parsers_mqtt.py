"""MQTT (parsers/mqtt) end to end: detection (port 1883 as a hint, a CONNECT anywhere), one
rule run per transaction (a CONNECT with its CONNACK, a PUBLISH with its acks …), Suricata's
sticky buffers and integer keywords, the app-layer events, the EVE mqtt records (validated
against Suricata's schema) and the alert's mqtt object."""
import json

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out


def mqtt_str(s):
    return len(s).to_bytes(2, "big") + s


def packet(b0, body):
    n, rem = len(body), b""
    while True:
        byte, n = n & 0x7f, n >> 7
        rem += bytes([byte | (0x80 if n else 0)])
        if not n:
            return bytes([b0]) + rem + body


# MQTT 3.1.1: CONNECT (client id "dev1", user "admin", password "s3cret", clean session,
# a will "lwt" / "gone")
CONNECT = packet(0x10, mqtt_str(b"MQTT") + b"\x04\xc6\x00\x3c" + mqtt_str(b"dev1") +
                 mqtt_str(b"lwt") + mqtt_str(b"gone") + mqtt_str(b"admin") +
                 mqtt_str(b"s3cret"))
CONNACK = packet(0x20, b"\x01\x00")                                 # session present
PUBLISH = packet(0x32, mqtt_str(b"sensors/temp") + b"\x00\x07" + b"21.5C")  # QoS 1, id 7
PUBACK = packet(0x40, b"\x00\x07")
SUBSCRIBE = packet(0x82, b"\x00\x02" + mqtt_str(b"a/#") + b"\x01" + mqtt_str(b"b/+") + b"\x00")
SUBACK = packet(0x90, b"\x00\x02\x01\x80")                        # granted 1, refused
DISCONNECT = packet(0xe0, b"")


def session(dport=1883, connect=CONNECT, extra=()):
    c = Conv(sport=40883, dport=dport).handshake()
    c.send(True, connect).send(False, CONNACK)
    c.send(True, PUBLISH).send(False, PUBACK)
    c.send(True, SUBSCRIBE).send(False, SUBACK)
    for client, data in extra:
        c.send(client, data)
    return c.send(True, DISCONNECT).close().pkts


def mqtt_rule(body, sid=1):
    return rule(body, sid=sid, proto="mqtt")


@pytest.mark.parametrize("body,hits", [
    ('mqtt.type:CONNECT;', 1),
    ('mqtt.type:connack;', 1),                       # names in any case
    ('mqtt.type:PUBLISH; mqtt.type:PUBACK;', 1),     # one transaction holds both
    ('mqtt.type:!DISCONNECT;', 3),                   # a packet of the transaction is not
    ('mqtt.type:PINGREQ;', 0),
    ('mqtt.qos:1;', 2),                              # the PUBLISH, the SUBSCRIBE
    ('mqtt.qos:2;', 0),
    ('mqtt.flags:!retain,!dup;', 4),
    ('mqtt.flags:retain;', 0),
    ('mqtt.protocol_version:4; mqtt.type:CONNECT;', 1),
    ('mqtt.protocol_version:5;', 0),
    ('mqtt.connect.flags:username,password,will,clean_session,!will_retain;', 1),
    ('mqtt.connect.flags:will_retain;', 0),
    ('mqtt.connack.session_present:true;', 1),
    ('mqtt.connack.session_present:false;', 0),
    ('mqtt.reason_code:128;', 1),                    # SUBACK's refused topic
    ('mqtt.reason_code:0; mqtt.type:CONNACK;', 1),
    ('mqtt.connect.clientid; content:"dev1"; bsize:4;', 1),
    ('mqtt.connect.username; content:"admin";', 1),
    ('mqtt.connect.password; content:"s3cret";', 1),
    ('mqtt.connect.willtopic; content:"lwt";', 1),
    ('mqtt.connect.willmessage; content:"gone";', 1),
    ('mqtt.connect.protocol_string; content:"MQTT";', 1),
    ('mqtt.publish.topic; content:"sensors/"; startswith;', 1),
    ('mqtt.publish.message; content:"21.5"; startswith;', 1),
    ('mqtt.publish.message; content:"sensors";', 0),
    ('mqtt.subscribe.topic; content:"b/+"; bsize:3;', 1),   # one element of the list
    ('mqtt.subscribe.topic; content:"a/"; content:"+";', 0),  # within one element
    ('mqtt.unsubscribe.topic; content:"a";', 0),
    # a transaction is seen on the side of its first packet (the client's here)
    ('flow:to_server; mqtt.connect.username; content:"admin";', 1),
    ('flow:to_server; mqtt.type:CONNACK;', 1),
    ('flow:to_client; mqtt.connect.username; content:"admin";', 0),
])
def test_mqtt_rules(tmp_path, body, hits):
    r = detect(tmp_path, session(), [mqtt_rule(body)])
    assert r.sids == [1] * hits, body


def test_mqtt_detection(tmp_path):
    rules = [mqtt_rule('mqtt.connect.clientid; content:"dev1";'),
             rule('app-layer-protocol:mqtt; content:"dev1";', sid=2)]
    # off port 1883: detected by its CONNECT
    assert detect(tmp_path, session(dport=8883), rules).sids == [1, 2]
    # off port and no CONNECT first: not MQTT
    other = Conv(sport=40883, dport=8883).handshake().send(True, PUBLISH) \
        .send(True, CONNECT).close().pkts
    assert detect(tmp_path, other, rules, name="o").sids == []
    # on its port a server's CONNACK first is enough (Suricata's probe)
    mid = Conv(sport=40883, dport=1883).handshake().send(False, CONNACK) \
        .send(True, PUBLISH).close().pkts
    r = detect(tmp_path, mid, [mqtt_rule('mqtt.publish.topic; content:"sensors";')],
               name="m")
    assert r.sids == [1]


EVENTS = "\n".join(
    f'alert mqtt any any -> any any (msg:"{n}"; app-layer-event:mqtt.{n}; sid:{i};)'
    for i, n in enumerate(["missing_connect", "missing_publish", "missing_subscribe",
                           "missing_unsubscribe", "double_connect", "unintroduced_message",
                           "invalid_qos_level", "unassigned_msg_type", "malformed_traffic",
                           "too_many_transactions"], 1))


@pytest.mark.parametrize("pkts,sids", [
    ([(False, CONNACK)], [1]),                                       # CONNACK alone
    ([(True, CONNECT), (False, CONNACK), (False, PUBACK)], [2]),
    ([(True, CONNECT), (False, CONNACK), (False, SUBACK)], [3]),
    ([(True, CONNECT), (False, CONNACK), (False, packet(0xb0, b"\x00\x05"))], [4]),
    ([(True, CONNECT), (False, CONNACK), (True, CONNECT)], [5]),
    ([(True, CONNECT), (True, PUBLISH)], [6]),                       # before the CONNACK
    ([(True, CONNECT), (False, CONNACK), (True, packet(0x36, mqtt_str(b"t") + b"\x00\x01"))],
     [7]),
    ([(True, CONNECT), (False, CONNACK), (True, packet(0x00, b"xy"))], [8]),
    ([(True, CONNECT), (False, CONNACK), (True, packet(0x30, b"\x00\x09ab"))], [9]),
])
def test_mqtt_events(tmp_path, pkts, sids):
    c = Conv(sport=40883, dport=1883).handshake()
    for client, data in pkts:
        c.send(client, data)
    assert detect(tmp_path, c.close().pkts, EVENTS).sids == sids


def test_mqtt_max_tx(tmp_path):
    c = Conv(sport=40883, dport=1883).handshake().send(True, CONNECT).send(False, CONNACK)
    for i in range(1, 4):
        c.send(True, packet(0x82, i.to_bytes(2, "big") + mqtt_str(b"t") + b"\x00"))
    r = detect(tmp_path, c.close().pkts, EVENTS, "--set", "app-layer.protocols.mqtt.max-tx=2")
    assert r.sids == [10]


def test_mqtt_eve_records(tmp_path):
    big = packet(0x30, mqtt_str(b"big") + b"x" * 300)
    pkts = session(extra=[(True, big)])
    rules = [mqtt_rule('mqtt.type:SUBACK; mqtt.subscribe.topic; content:"a/#";', sid=5)]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,mqtt]",
                     "--set", "app-layer.protocols.mqtt.max-msg-length=100")
    recs = [r["mqtt"] for r in out.of("mqtt")]
    assert recs == [
        {"connect": {"qos": 0, "retain": False, "dup": False, "protocol_string": "MQTT",
                     "protocol_version": 4,
                     "flags": {"username": True, "password": True, "will_retain": False,
                               "will": True, "clean_session": True},
                     "client_id": "dev1", "username": "admin", "password": "s3cret",
                     "will": {"topic": "lwt", "message": "gone"}},
         "connack": {"qos": 0, "retain": False, "dup": False, "session_present": True,
                     "return_code": 0}},
        {"publish": {"qos": 1, "retain": False, "dup": False, "topic": "sensors/temp",
                     "message_id": 7, "message": "21.5C"},
         "puback": {"qos": 0, "retain": False, "dup": False, "message_id": 7}},
        {"subscribe": {"qos": 1, "retain": False, "dup": False, "message_id": 2,
                       "topics": [{"topic": "a/#", "qos": 1}, {"topic": "b/+", "qos": 0}]},
         "suback": {"qos": 0, "retain": False, "dup": False, "message_id": 2,
                    "qos_granted": [1, 128]}},
        {"publish": {"qos": 0, "retain": False, "dup": False, "truncated": True,
                     "skipped_length": 305}},
        {"disconnect": {"qos": 0, "retain": False, "dup": False}},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "mqtt"
    assert a["mqtt"] == recs[2]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("mqtt") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_mqtt5_properties(tmp_path):
    props = b"\x08\x11\x00\x00\x00\x3c\x21\x00\x14"  # session expiry 60, receive maximum 20
    connect = packet(0x10, mqtt_str(b"MQTT") + b"\x05\x02\x00\x3c" + props + mqtt_str(b"c5"))
    connack = packet(0x20, b"\x00\x00\x03\x22\x00\x0a")  # topic alias maximum 10
    pkts = Conv(sport=40883, dport=1883).handshake().send(True, connect) \
        .send(False, connack).send(True, packet(0xe0, b"")).close().pkts
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[mqtt]")
    recs = [r["mqtt"] for r in out.of("mqtt")]
    assert recs[0]["connect"]["properties"] == {"session_expiry_interval": 60,
                                                "receive_maximum": 20}
    assert recs[0]["connack"]["properties"] == {"topic_alias_maximum": 10}
    assert recs[1] == {"disconnect": {"qos": 0, "retain": False, "dup": False,
                                      "reason_code": 0}}


def test_mqtt_gap_gives_the_flow_up(tmp_path):
    # Suricata's MQTT does not accept gaps: a hole ends its app layer on the flow, both ways,
    # and so does Osprey's. The broker's PUBACK, read with the ACK that passed the hole, is
    # the last record; neither side's packets after it are parsed (no rule, no record), and
    # the stream's bytes are still inspected.
    c = Conv(sport=40883, dport=1883).handshake()
    c.send(True, CONNECT).send(False, CONNACK)
    c.send(True, PUBLISH, order=[])                                  # never comes
    c.send(False, PUBACK)
    c.send(True, SUBSCRIBE).send(False, SUBACK)
    pkts = c.close().pkts
    rules = [mqtt_rule("mqtt.type:SUBSCRIBE;", sid=1),
             mqtt_rule("mqtt.type:CONNECT;", sid=2),
             mqtt_rule("mqtt.type:SUBACK;", sid=3),
             rule('flow:to_server; content:"a/#";', sid=4)]              # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [2, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[flow,mqtt]",
                     name="e")
    assert [sorted(r["mqtt"]) for r in out.of("mqtt")] == [["connack", "connect"],
                                                            ["puback"]]
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r
