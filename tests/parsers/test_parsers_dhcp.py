"""DHCP (parsers/dhcp) end to end: detection (UDP 67/68, BOOTP with the DHCP cookie), one
transaction per datagram in its own direction (a request and a reply alert once each, issue
8621), Suricata's integer keywords dhcp.leasetime / rebinding_time / renewal_time (only on
messages carrying the option), the events, and the EVE dhcp records (Suricata's extended
record, validated against its schema) and the alert's dhcp object."""
import json

import pytest
from jsonschema import Draft7Validator
from scapy.layers.dhcp import BOOTP, DHCP

from conftest import ROOT
from detect_helpers import detect, rule, udp
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

MAC = bytes.fromhex("0011321749f0")


def request():
    return bytes(BOOTP(op=1, xid=0xef64c444, ciaddr="10.16.1.4", chaddr=MAC) /
                 DHCP(options=[("message-type", "request"), ("client_id", b"\x01" + MAC),
                               ("hostname", b"nas1\x00"),
                               ("param_req_list", [1, 3, 15, 6]), "end"]))


def ack(lease=3600, renewal=1681, rebinding=3031):
    opts = [("message-type", "ack"), ("lease_time", lease), ("renewal_time", renewal),
            ("rebinding_time", rebinding), ("subnet_mask", "255.255.0.0"),
            ("router", "10.16.1.1"), ("name_server", "10.16.1.1"), "end"]
    return bytes(BOOTP(op=2, xid=0xef64c444, ciaddr="10.16.1.4", yiaddr="10.16.1.4",
                       siaddr="10.16.1.1", chaddr=MAC) / DHCP(options=opts))


def traffic():
    return [udp(request(), src="10.16.1.4", dst="10.16.1.1", sport=68, dport=67),
            udp(ack(), src="10.16.1.1", dst="10.16.1.4", sport=67, dport=68)]


@pytest.mark.parametrize("body,hits", [
    ("", 2),                                    # each datagram once, not once per direction
    ("flow:to_server;", 1),
    ("flow:to_client;", 1),
    ("dhcp.leasetime:<7200;", 1),               # only the ack carries option 51
    ("dhcp.leasetime:3600;", 1),
    ("dhcp.leasetime:>3600;", 0),
    ("dhcp.rebinding_time:>3000;", 1),
    ("dhcp.renewal_time:1000<>2000;", 1),
    ("dhcp.renewal_time:1681-1682;", 0),        # A-B excludes both ends
    ("dhcp.renewal_time:!1681;", 0),            # a message without the option does not match
])
def test_dhcp_rules(tmp_path, body, hits):
    r = detect(tmp_path, traffic(), [rule(body, proto="dhcp")])
    assert r.sids == [1] * hits, body


def test_dhcp_ports_and_not_dhcp(tmp_path):
    rules = [rule("", proto="dhcp")]
    # the same bytes off the DHCP ports, or without the cookie: not DHCP
    assert detect(tmp_path, [udp(request(), sport=40000, dport=6767)], rules).sids == []
    bad = request()[:236] + b"\0\0\0\0" + request()[240:]
    assert detect(tmp_path, [udp(bad, sport=68, dport=67)], rules, name="c").sids == []
    assert detect(tmp_path, traffic(), rules, "--set", "app-layer.protocols.dhcp.enabled=no",
                  name="d").sids == []


def test_dhcp_events(tmp_path):
    truncated = bytes(BOOTP(op=1, chaddr=MAC) / DHCP(options=[("message-type", "discover")]))
    malformed = truncated + b"\x0c\x40nas"
    pkts = [udp(truncated, sport=68, dport=67),
            udp(malformed, src="10.0.0.3", sport=68, dport=67)]
    rules = [rule("app-layer-event:dhcp.truncated_options;", sid=1, proto="dhcp"),
             rule("app-layer-event:dhcp.malformed_options;", sid=2, proto="dhcp")]
    assert detect(tmp_path, pkts, rules).sids == [1, 2]


def test_dhcp_eve_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [rule("dhcp.leasetime:3600;", sid=5, proto="dhcp")],
                     "--set", "outputs.eve-log.types=[alert,dhcp]")
    recs = [r["dhcp"] for r in out.of("dhcp")]
    assert recs == [
        {"type": "request", "id": 0xef64c444, "client_mac": "00:11:32:17:49:f0",
         "assigned_ip": "0.0.0.0", "client_ip": "10.16.1.4", "dhcp_type": "request",
         "client_id": "00:11:32:17:49:f0", "hostname": "nas1\x00",
         "params": ["subnet_mask", "router", "domain", "dns_server"]},
        {"type": "reply", "id": 0xef64c444, "client_mac": "00:11:32:17:49:f0",
         "assigned_ip": "10.16.1.4", "client_ip": "10.16.1.4", "relay_ip": "0.0.0.0",
         "next_server_ip": "10.16.1.1", "dhcp_type": "ack", "lease_time": 3600,
         "renewal_time": 1681, "rebinding_time": 3031, "subnet_mask": "255.255.0.0",
         "routers": ["10.16.1.1"], "dns_servers": ["10.16.1.1"]},
    ]
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "dhcp"
    assert a["dhcp"] == recs[1]
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    v = Draft7Validator(schema)
    for r in out.of("dhcp") + out.of("alert"):
        assert not list(v.iter_errors(r)), r


def test_dhcp_lost_datagrams(tmp_path):
    # each DHCP message is a transaction and record of its own (as in Suricata): a request
    # whose ack was lost and an ack whose request was lost (another client's) are each
    # written, and the rules on either match
    mac2 = bytes.fromhex("0011321749f1")
    ack2 = ack().replace(MAC, mac2, 1)
    pkts = [udp(request(), src="10.16.1.4", dst="10.16.1.1", sport=68, dport=67),
            udp(ack2, src="10.16.1.1", dst="10.16.1.5", sport=67, dport=68)]
    rules = [rule("dhcp.leasetime:3600;", sid=1, proto="dhcp"),
             rule("flow:to_server;", sid=2, proto="dhcp")]
    out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,dhcp]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1, 2, 2]
    recs = [r["dhcp"] for r in out.of("dhcp")]
    assert [(r["type"], r["client_mac"]) for r in recs] == [
        ("request", "00:11:32:17:49:f0"), ("reply", "00:11:32:17:49:f1")]
    v = Draft7Validator(json.loads((ROOT.parent / "shared" / "conformance" /
                                    "eve-schema.json").read_text()))
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_dhcp_options_limit(tmp_path, trace):
    # DHCP_OPTS_MAX (64) options of a message are kept; the rest are counted (dhcp_shed) and
    # not read: a lease time past them is not the record's nor the rules'
    def ack_with(pad):
        opts = [("message-type", "ack")] + [(224, b"x")] * pad + [("lease_time", 3600), "end"]
        return bytes(BOOTP(op=2, xid=7, yiaddr="10.16.1.4", chaddr=MAC) / DHCP(options=opts))
    rules = [rule("dhcp.leasetime:3600;", sid=1, proto="dhcp")]
    for pad, hit, shed in ((62, [1], 0), (63, [], 1), (70, [], 8)):
        pkts = [udp(ack_with(pad), src="10.16.1.1", dst="10.16.1.4", sport=67, dport=68)]
        out = osprey_out(tmp_path, pkts, rules, "--set", "outputs.eve-log.types=[alert,dhcp]",
                         name="p%d" % pad)
        assert [a["alert"]["signature_id"] for a in out.of("alert")] == hit, pad
        (rec,) = out.of("dhcp")
        assert ("lease_time" in rec["dhcp"]) == bool(hit)
        assert app_trace(trace, pkts).stats["dhcp_shed"] == shed
