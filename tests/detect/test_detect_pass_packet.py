"""pass resolved per packet, as Suricata's action priority does: a packet's alerts are held
to its end, so a pass rule matched in a later phase of the same packet (its stream) still
cancels the alerts and the drop of the other rules."""
from detect_helpers import Conv, detect, http_conv, rule, udp


def pcap_sids(r):
    return [(a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts]


def test_a_stream_pass_cancels_packet_rule_alerts_of_the_same_packet(tmp_path):
    # sid 1 and 3 are packet rules (committed with the packet), sid 2 a stream rule (committed
    # after the receiver's reassembly): on the data packet the pass still wins
    pkts = Conv().handshake().send(True, b"Hi all!").pkts
    rules = [rule('', sid=1, hdr="any any -> any 80"),
             rule('content:"Hi all";', sid=2, action="pass"),
             rule('flow:to_server; flags:PA;', sid=3, action="drop")]
    r = detect(tmp_path, pkts, rules, "--simulate-ips", "-k", "none")
    assert pcap_sids(r) == [(1, 1), (3, 1)]
    assert "0 packets dropped" in r.proc.stdout
    # near miss: the pass rule does not match, the data packet alerts and is dropped
    rules[1] = rule('content:"nobody";', sid=2, action="pass")
    r = detect(tmp_path, pkts, rules, "--simulate-ips", "-k", "none", name="miss")
    assert sorted(pcap_sids(r)) == [(1, 1), (3, 1), (4, 1), (4, 3)]
    assert "0 packets dropped" not in r.proc.stdout


def test_a_pass_rule_with_alert_keeps_its_own_alert(tmp_path):
    rules = [rule('content:"x";', sid=1, proto="udp"),
             rule('content:"x"; alert;', sid=2, proto="udp", action="pass")]
    r = detect(tmp_path, [udp(b"x")], rules)
    assert [(s, a["alert"]["action"]) for s, a in zip(r.sids, r.alerts)] == [(2, "allowed")]


def test_a_packet_rule_pass_passes_its_packet_only(tmp_path):
    # Suricata's action scope: a pass rule matching a packet's payload (a UDP packet rule)
    # passes that packet; the next packet of the flow is inspected again
    pkts = [udp(b"Hi all"), udp(b"Hi all wo", sport=53, dport=5353, src=udp(b"").dst,
                                dst=udp(b"").src), udp(b"Hi all")]
    rules = [rule('content:"Hi all";', sid=1, proto="udp"),
             rule('content:"wo";', sid=2, proto="udp", action="pass")]
    r = detect(tmp_path, pkts, rules)
    assert pcap_sids(r) == [(1, 1), (3, 1)]


def test_a_header_only_or_app_pass_passes_the_flow(tmp_path):
    # a pass rule with nothing but its header (Suricata's IP-only kind) passes the whole flow
    pkts = [udp(b"Hi all"), udp(b"Hi all")]
    rules = [rule('content:"Hi all";', sid=1, proto="udp"),
             rule('', sid=2, proto="udp", action="pass", hdr="any any -> any 53")]
    r = detect(tmp_path, pkts, rules)
    assert pcap_sids(r) == []
    # near miss: its header does not match the flow, both packets alert
    rules[1] = rule('', sid=2, proto="udp", action="pass", hdr="any any -> any 54")
    r = detect(tmp_path, pkts, rules, name="miss")
    assert pcap_sids(r) == [(1, 1), (2, 1)]


def test_an_app_header_packet_rule_sees_the_packet_that_decides_the_protocol(tmp_path):
    # a firewall-style policy (suricata-verify ips/firewall-03): the handshake passes packet by
    # packet (a packet rule with a flow option: packet scope), the request passes the flow
    # through `pass http … (flow:established)` on the very packet the HTTP parser recognises,
    # and the drop-all rule drops nothing
    pkts = http_conv()
    rules = [rule('flow:not_established;', sid=1, hdr="any any <> any 80", action="pass"),
             rule('flow:established;', sid=2, proto="http", hdr="any any <> any 80",
                  action="pass"),
             rule('flow:stateless;', sid=3, proto="ip", action="drop")]
    r = detect(tmp_path, pkts, rules, "--simulate-ips", "-k", "none")
    assert pcap_sids(r) == []
    assert "0 packets dropped" in r.proc.stdout
    # near miss: no protocol pass, the request packet (4) is the first the drop-all takes
    r = detect(tmp_path, pkts, [rules[0], rules[2]], "--simulate-ips", "-k", "none", name="miss")
    assert pcap_sids(r)[0] == (4, 3)
    # an alert rule of that kind alerts on that packet once in IPS mode, where Suricata parses
    # a packet's data before inspecting it; in IDS mode it parses the data when it is acked,
    # after the data's packet was inspected, which therefore does not alert
    alert = [rule('flow:established,to_server;', sid=5, proto="http", hdr="any any -> any 80")]
    r = detect(tmp_path, pkts, alert, "--simulate-ips", name="ips")
    assert pcap_sids(r) == [(4, 5), (7, 5), (8, 5), (10, 5)]
    r = detect(tmp_path, pkts, alert, name="ids")
    assert pcap_sids(r) == [(7, 5), (8, 5), (10, 5)]
