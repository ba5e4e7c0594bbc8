"""threshold type backoff and detection_filter track by_flow: Suricata's counting per flow.
backoff alerts on the `count`-th match, then on the count*multiplier-th, and again each time
the match number is multiplied (Suricata's docs: count 5, multiplier 5 gives 5, 25, 125 …); it
has no time window."""
from detect_helpers import detect, rule, udp


def alerted(r):
    return [(a["src_port"], a["pcap_cnt"]) for a in r.alerts]


def test_backoff_by_flow_alerts_at_count_then_multiplied(tmp_path):
    rules = [rule('content:"x"; threshold:type backoff, track by_flow, count 2, multiplier 3;',
                  proto="udp")]
    a = [udp(b"x", sport=1000) for _ in range(20)]
    b = [udp(b"x", sport=2000) for _ in range(3)]  # another flow counts on its own
    r = detect(tmp_path, a + b, rules)
    assert alerted(r) == [(1000, 2), (1000, 6), (1000, 18), (2000, 22)]


def test_backoff_count_one_multiplier_ten(tmp_path):
    rules = [rule('content:"x"; threshold:type backoff, track by_flow, count 1, multiplier 10;',
                  proto="udp")]
    r = detect(tmp_path, [udp(b"x") for _ in range(120)], rules)
    assert [n for _, n in alerted(r)] == [1, 10, 100]


def test_detection_filter_by_flow_counts_each_flow(tmp_path):
    rules = [rule('content:"x"; detection_filter:track by_flow, count 2, seconds 60;',
                  proto="udp")]
    pkts = [udp(b"x", sport=1000) for _ in range(4)] + [udp(b"x", sport=2000) for _ in range(3)]
    r = detect(tmp_path, pkts, rules)
    assert alerted(r) == [(1000, 3), (1000, 4), (2000, 7)]
    # near miss: by_rule counts both flows together
    rules = [rule('content:"x"; detection_filter:track by_rule, count 2, seconds 60;',
                  proto="udp")]
    r = detect(tmp_path, pkts, rules, name="rule")
    assert alerted(r) == [(1000, 3), (1000, 4), (2000, 5), (2000, 6), (2000, 7)]
