"""app-layer-protocol alone: Suricata's protocol-detection-only ("PD-only") rules. A rule whose
only inspection is app-layer-protocol (with at most flow:to_server/to_client and flowbits it
sets, under a header naming no application protocol) matches where the flow's protocol is
decided, once, not on every packet after it; any other option makes it an ordinary rule that
checks the flow's protocol on each packet it inspects."""
from detect_helpers import Conv, detect, rule

REQ = b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n"
RESP = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


def http():
    return Conv(sport=40100, dport=80).handshake().send(True, REQ).send(False, RESP).close().pkts


def counts(tmp_path, rules, pkts, name="t"):
    r = detect(tmp_path, pkts, rules, name=name)
    out = {}
    for a in r.alerts:
        out[a["alert"]["signature_id"]] = out.get(a["alert"]["signature_id"], 0) + 1
    return out


def test_protocol_detection_only_rules_alert_once_per_flow(tmp_path):
    rules = [rule("app-layer-protocol:http;", sid=1),
             rule("app-layer-protocol:http; prefilter;", sid=2),
             rule("flow:to_server; app-layer-protocol:http; flowbits:set,h;", sid=3),
             rule("app-layer-protocol:!tls;", sid=4),
             # not PD-only: a packet keyword, flow:established — every packet after detection
             rule("flow:established; app-layer-protocol:http;", sid=5),
             rule("app-layer-protocol:tls;", sid=6),
             # Snort 3's service: alone is a packet rule's condition, not PD-only
             rule("service:http;", sid=7)]
    got = counts(tmp_path, rules, http())
    assert {s: got.get(s, 0) for s in (1, 2, 3, 4, 6)} == {1: 1, 2: 1, 3: 1, 4: 1, 6: 0}
    assert got.get(5, 0) > 1 and got.get(7, 0) > 1


def test_the_pd_only_alert_is_on_the_packet_that_decided(tmp_path):
    pkts = http()
    r = detect(tmp_path, pkts, [rule("app-layer-protocol:http;", sid=1)])
    (a,) = r.alerts
    # the request's segment (packet 4, after the handshake) decides HTTP: inline on its
    # arrival; in Suricata's IDS mode (the default) at its ACK (5), the alert going with the
    # client's next packet (7; suricata-verify detect-engine-proto)
    assert (a["pcap_cnt"], a["src_port"], a["dest_port"]) == (7, 40100, 80)
    r = detect(tmp_path, pkts, [rule("app-layer-protocol:http;", sid=1)], "--set",
               "stream.inline=yes", name="inline")
    (a,) = r.alerts
    assert (a["pcap_cnt"], a["src_port"], a["dest_port"]) == (4, 40100, 80)


def test_a_flow_whose_detection_failed_matches_failed_once(tmp_path):
    c = Conv(sport=40101, dport=9999).handshake()
    c.send(True, b"\x00\x01garbage that is no protocol\r\n" * 300)
    c.send(False, b"\x02\x03more garbage\r\n" * 300)
    got = counts(tmp_path, [rule("app-layer-protocol:failed;", sid=1),
                            rule("app-layer-protocol:http;", sid=2)], c.close().pkts)
    assert got == {1: 1}
