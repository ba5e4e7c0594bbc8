"""`osprey -r --simulate-ips`: a capture read as an inline IPS would see it.

Drop and reject rules' alerts say "blocked" (IDS mode: "allowed"), and a dropped flow's later
packets are dropped uninspected; which drops drop the flow is Suricata's action scope. The
cases were run through Suricata 7.0.10 with --simulate-ips too, with the same alerts."""
import json

from conftest import binary, run
from detect_helpers import Conv, detect, http_conv, rule, udp


def actions(res):
    return sorted((a["alert"]["signature_id"], a["alert"]["action"]) for a in res.alerts)


RULES = [rule('content:"uid=0(root)";', sid=1, action="drop"),
         rule('content:"uid=0(root)";', sid=2, action="alert"),
         rule('content:"Host: x";', sid=3, action="reject")]


def test_drop_and_reject_alerts_are_blocked(tmp_path):
    res = detect(tmp_path, http_conv(), RULES, "--simulate-ips")
    # the reject matched the request first: the flow is dropped, the response never inspected
    assert actions(res) == [(3, "blocked")]
    res = detect(tmp_path, http_conv(), RULES[:2], "--simulate-ips", name="drop")
    assert actions(res) == [(1, "blocked"), (2, "allowed")]


def test_ids_mode_allows_the_same_alerts(tmp_path):
    res = detect(tmp_path, http_conv(), RULES[:2])
    assert actions(res) == [(1, "allowed"), (2, "allowed")]


def test_sdrop_drops_without_an_alert(tmp_path):
    rules = [rule('content:"GET";', sid=1, action="sdrop"),
             rule('content:"uid=0(root)";', sid=2)]
    res = detect(tmp_path, http_conv(), rules, "--simulate-ips")
    assert res.alerts == []  # sdrop writes none, and the dropped flow's response is not inspected


def test_action_scope_packet_rules_drop_their_packet_ip_only_rules_the_flow(tmp_path):
    pkts = [udp(b"first"), udp(b"second"), udp(b"third")]
    third = rule('content:"third";', sid=2, proto="udp")
    # a packet rule (UDP content): that packet only, the flow goes on being inspected
    rules = [rule('content:"first";', sid=1, proto="udp", action="drop"), third]
    res = detect(tmp_path, pkts, rules, "--simulate-ips")
    assert actions(res) == [(1, "blocked"), (2, "allowed")]
    # nothing but a header (IP-only): the flow is dropped, its later packets not inspected
    rules = [rule("", sid=1, proto="ip", hdr="10.0.0.1 any -> any any", action="drop"), third]
    res = detect(tmp_path, pkts, rules, "--simulate-ips", name="iponly")
    assert actions(res) == [(1, "blocked")]
    # a stream rule drops the TCP flow: the response is not inspected
    rules = [rule('content:"GET";', sid=1, action="drop"), rule('content:"uid=0";', sid=2)]
    assert actions(detect(tmp_path, http_conv(), rules, "--simulate-ips", name="st")) == [
        (1, "blocked")]


def test_simulate_ips_goes_with_r_only(tmp_path):
    proc = run([binary("osprey"), "--simulate-ips"], check=False)
    assert proc.returncode == 2
    assert "--simulate-ips goes with -r" in proc.stderr


def http_records(tmp_path, name, *args):
    """Requests the HTTP parser logged for a conversation whose request packet a packet rule
    (flow:to_server; dsize) drops."""
    rules = [rule("flow:to_server; dsize:>10;", sid=7, action="drop")]
    res = detect(tmp_path, http_conv(), rules, "--set", "outputs.eve-log.types=[alert,http]",
                 *args, name=name)
    eve = tmp_path / f"{name}-log" / "eve.json"
    recs = [json.loads(l) for l in eve.read_text().splitlines()]
    return actions(res), [r["http"]["url"] for r in recs if r["event_type"] == "http"]


def test_a_dropped_packet_is_still_reassembled_and_parsed(tmp_path):
    """As Suricata 7.0.10 (checked): the stream engine and the parsers saw the packet before
    detection dropped it, so the request is still logged."""
    assert http_records(tmp_path, "ids") == ([(7, "allowed")], ["/index.html"])
    assert http_records(tmp_path, "ips", "--simulate-ips") == ([(7, "blocked")], ["/index.html"])


def test_a_retransmission_does_not_replace_a_dropped_segment(tmp_path):
    """A packet-scope drop (flow:, dsize:) leaves the flow inspected; the dropped segment's
    bytes are the stream's, a retransmission with other bytes in its place does not change
    them (as Suricata 7.0.10: only sid 1 alerts, in both modes)."""
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "PA", b"EVIL!", seq=c.seq[True]))      # dropped by sid 1
    c.pkts.append(c._pkt(True, "PA", b"fine-data", seq=c.seq[True]))  # the same place again
    c.seq[True] += 9
    c.pkts.append(c._pkt(False, "A"))
    rules = [rule("flow:to_server; dsize:5;", sid=1, action="drop"),
             rule('content:"EVIL!data";', sid=2), rule('content:"fine-data";', sid=3)]
    assert actions(detect(tmp_path, c.pkts, rules, "--simulate-ips")) == [
        (1, "blocked"), (2, "allowed")]
    assert actions(detect(tmp_path, c.pkts, rules, name="ids")) == [(1, "allowed"), (2, "allowed")]


def test_stream_inline_chooses_when_streams_are_inspected(tmp_path):
    """stream.inline: no is Suricata's IDS mode (inspection on the packets after the ACK),
    yes its inline mode (on arrival), even under --simulate-ips; auto is IDS mode without
    --simulate-ips and inline with it, as Suricata's; neither warns."""
    def cnt(res):
        return sorted(a["pcap_cnt"] for a in res.alerts)
    # 4 request, 5 ACK, 6 response, 7 ACK, 8-10 close: the response is inspected with 6 on
    # arrival, else with 9 (the server's FIN: its next packet after the ACK)
    res = detect(tmp_path, http_conv(), RULES[:2], "--set", "stream.inline=no")
    assert "warning" not in res.proc.stderr
    assert actions(res) == [(1, "allowed"), (2, "allowed")] and cnt(res) == [9, 9]
    quiet = detect(tmp_path, http_conv(), RULES[:2], "--set", "stream.inline=yes", name="yes")
    assert "warning" not in quiet.proc.stderr and cnt(quiet) == [6, 6]
    assert cnt(detect(tmp_path, http_conv(), RULES[:2], name="auto")) == [9, 9]
    assert cnt(detect(tmp_path, http_conv(), RULES[:2], "--simulate-ips",
                      name="auto-ips")) == [6, 6]
    ips = detect(tmp_path, http_conv(), RULES[:2], "--simulate-ips", "--set",
                 "stream.inline=no", name="ips")
    assert cnt(ips) == [9, 9]


def test_summary_counts_what_an_inline_sensor_would_have_dropped(tmp_path):
    pkts = http_conv()  # handshake 3, request + ack, response + ack, close 3
    res = detect(tmp_path, pkts, [rule('content:"GET";', sid=1, action="reject")],
                 "--simulate-ips")
    line = [l for l in res.proc.stdout.splitlines() if "simulated IPS" in l]
    # the request and every packet after it: 1 + 1 + 2 + 3
    assert line == ["osprey: simulated IPS: 7 packets dropped (6 of dropped flows, 0 by the "
                    "midstream policy), 1 rejected"]
