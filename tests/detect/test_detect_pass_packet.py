"""pass resolved per packet, as Suricata's action priority does: a packet's alerts are held
to its end, so a pass rule matched in a later phase of the same packet (its stream) still
cancels the alerts and the drop of the other rules."""
from detect_helpers import Conv, detect, rule, udp


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
