"""app-layer-protocol alone: Suricata's protocol-detection-only ("PD-only") rules. A rule whose
only inspection is app-layer-protocol (with at most flow:to_server/to_client and flowbits it
sets, under a header naming no application protocol) matches where the flow's protocol is
decided, once, not on every packet after it; any other option makes it an ordinary rule that
checks the flow's protocol on each packet it inspects."""
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out

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


# ---- each direction's own protocol (Suricata 8's alproto_ts / alproto_tc) ----

def http_to_ssh():
    # a client talking HTTP to an SSH server (suricata-verify output-eve-anomaly-02's kind)
    c = Conv(sport=32928, dport=22).handshake()
    c.send(True, b"GET / HTTP/1.1\r\nHost: 10.16.1.1:22\r\nUser-Agent: curl/7.52.1\r\n\r\n")
    c.send(False, b"SSH-2.0-OpenSSH_6.6.1\r\n")
    c.send(False, b"Protocol mismatch.\n")
    return c.close().pkts


def test_a_protocol_mismatch_keeps_each_directions_protocol(tmp_path):
    # the flow is HTTP (its parser had the request first); the server's side is SSH: the
    # to_server / to_client modes read each side's own detection, the mismatch event is
    # raised once, and the detection-only rules look again when the second side is told
    rules = [rule("flow:to_client; app-layer-protocol:http1,to_server; "
                  "app-layer-protocol:ssh,to_client;", sid=1),
             rule("app-layer-event:applayer_mismatch_protocol_both_directions;", sid=2),
             rule("app-layer-protocol:ssh,to_server;", sid=3),
             rule("app-layer-protocol:http,to_client;", sid=4),
             rule("app-layer-protocol:ssh,either;", sid=5),
             rule("app-layer-protocol:http,final;", sid=6),
             rule("app-layer-protocol:ssh;", sid=7),
             rule("flow:to_client; app-layer-protocol:ssh,direction;", sid=8)]
    got = counts(tmp_path, rules, http_to_ssh())
    # final: once where HTTP was decided, once where the server's side was
    assert got == {1: 1, 2: 1, 5: 1, 6: 2, 8: 1}


def test_a_protocol_mismatch_in_the_flow_record(tmp_path):
    out = osprey_out(tmp_path, http_to_ssh(), [], "--set", "outputs.eve-log.types=[flow]")
    (f,) = out.of("flow")
    assert f["app_proto"] == "http" and f["app_proto_tc"] == "ssh" and "app_proto_ts" not in f
    # a flow whose two sides agree names no side of its own, and raises no mismatch
    out = osprey_out(tmp_path, http(), [], "--set", "outputs.eve-log.types=[flow]", name="agree")
    (f,) = out.of("flow")
    assert f["app_proto"] == "http" and not {"app_proto_ts", "app_proto_tc"} & set(f)
    # (packet rules, not detection-only: a side told later that agrees with the flow runs no
    # detection-only rule again; its to_client mode holds from there on)
    got = counts(tmp_path, [rule("app-layer-event:applayer_mismatch_protocol_both_directions;",
                                 sid=1),
                            rule("flow:established; app-layer-protocol:http,to_client;", sid=2),
                            rule("flow:established; app-layer-protocol:ssh,to_client;", sid=3),
                            rule("flow:established; app-layer-protocol:!http,to_server;", sid=4)],
                 http(), "agree2")
    assert set(got) == {2}


def test_a_mismatch_told_at_once_gives_the_flow_the_servers_protocol(tmp_path):
    # the client's first bytes a prefix ("GE": detection waits for more of them) while the
    # server's banner is held too: when the client's side says HTTP both are told at once,
    # nothing was parsed yet, and the flow is the server's (Suricata trusts the server then)
    c = Conv(sport=32929, dport=22).handshake()
    c.send(True, b"GE")
    c.send(False, b"SSH-2.0-OpenSSH_6.6.1\r\n")
    c.send(True, b"T / HTTP/1.1\r\nHost: x\r\n\r\n")
    c.send(False, b"Protocol mismatch.\n")
    pkts = c.close().pkts
    rules = [rule("app-layer-event:applayer_mismatch_protocol_both_directions;", sid=1),
             rule("app-layer-protocol:ssh,final;", sid=2),
             rule("app-layer-protocol:http,to_server;", sid=3)]
    assert counts(tmp_path, rules, pkts) == {1: 1, 2: 1, 3: 1}
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[flow]", name="rec")
    (f,) = out.of("flow")
    assert (f["app_proto"], f["app_proto_ts"]) == ("ssh", "http") and "app_proto_tc" not in f
