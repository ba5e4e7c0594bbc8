"""Options that keep state across packets: flowbits (per flow), threshold and detection_filter
(per rule and tracked address)."""
import pytest

from conftest import write_pcap
from detect_helpers import CLI, SRV, Conv, detect, http_conv, rule, udp


def test_flowbits_set_then_isset_on_a_later_packet(tmp_path):
    rules = [rule('flow:to_server; content:"GET"; flowbits:set,got; flowbits:noalert;', sid=1),
             rule('flow:to_client; content:"uid=0"; flowbits:isset,got;', sid=2),
             rule('flow:to_client; content:"uid=0"; flowbits:isnotset,got;', sid=3),
             rule('flow:to_client; content:"uid=0"; flowbits:isset,other;', sid=4)]
    r = detect(tmp_path, http_conv() + http_conv(sport=40001, req=b"POST / HTTP/1.1\r\n\r\n"),
               rules)
    # sid 1 never alerts (noalert); the GET flow gets sid 2, the POST flow sid 3
    assert [(a["alert"]["signature_id"], a["flow"]["src_port"]) for a in r.alerts] == \
        [(2, 40000), (3, 40001)]


def test_bit_names_with_slashes_and_dots(tmp_path):
    # Suricata takes any name without spaces, ',', ';', '|', '&' ("traffic/id/NAME" bits)
    rules = [rule('flow:to_server; content:"GET"; flowbits:set,traffic/id/web.v1; '
                  'flowbits:noalert;', sid=1),
             rule('flow:to_client; content:"uid=0"; flowbits:isset,traffic/id/web.v1;', sid=2),
             rule('flow:to_client; content:"uid=0"; flowbits:isset,traffic/id/web;', sid=3)]
    assert detect(tmp_path, http_conv(), rules).sids == [2]


@pytest.mark.parametrize("check,hit", [
    ("isset,a|b", True), ("isset,a&b", False), ("isset,a&c", True), ("isnotset,b|c", True),
    ("isnotset,a&c", False), ("isnotset,b&d", True),
])
def test_flowbits_groups(tmp_path, check, hit):
    rules = [rule('content:"one"; flowbits:set,a; flowbits:set,c; flowbits:noalert;', sid=1,
                  proto="udp"),
             rule(f'content:"two"; flowbits:{check};', sid=2, proto="udp")]
    r = detect(tmp_path, [udp(b"one"), udp(b"two")], rules)
    assert r.sids == ([2] if hit else [])


def test_flowbits_unset_and_toggle(tmp_path):
    rules = [rule('content:"set"; flowbits:set,a; flowbits:noalert;', sid=1, proto="udp"),
             rule('content:"unset"; flowbits:unset,a; flowbits:noalert;', sid=2, proto="udp"),
             rule('content:"flip"; flowbits:toggle,a; flowbits:noalert;', sid=3, proto="udp"),
             rule('content:"check"; flowbits:isset,a;', sid=4, proto="udp")]
    pkts = [udp(b"set"), udp(b"check"), udp(b"unset"), udp(b"check"), udp(b"flip"),
            udp(b"check")]
    r = detect(tmp_path, pkts, rules)
    assert [a["pcap_cnt"] for a in r.alerts] == [2, 6]


def test_flowbits_are_per_flow(tmp_path):
    rules = [rule('content:"set"; flowbits:set,a; flowbits:noalert;', sid=1, proto="udp"),
             rule('content:"check"; flowbits:isset,a;', sid=2, proto="udp")]
    r = detect(tmp_path, [udp(b"set"), udp(b"check", sport=1111)], rules)
    assert r.sids == []


def many(n, payload=b"hit", **kw):
    return [udp(payload, **kw) for _ in range(n)]


@pytest.mark.parametrize("opt,expect", [
    ("threshold:type limit, track by_src, count 2, seconds 60;", [1, 2]),
    ("threshold:type threshold, track by_src, count 2, seconds 60;", [2, 4]),
    ("threshold:type both, track by_src, count 3, seconds 60;", [3]),
    ("detection_filter:track by_src, count 3, seconds 60;", [4, 5]),
    ("threshold:type limit, track by_dst, count 1, seconds 60;", [1]),
    ("threshold:type limit, track by_rule, count 1, seconds 60;", [1]),
])
def test_threshold_types(tmp_path, opt, expect):
    r = detect(tmp_path, many(5), rule(f'content:"hit"; {opt}', proto="udp"))
    assert [a["pcap_cnt"] for a in r.alerts] == expect


def test_threshold_tracks_each_source_apart(tmp_path):
    pkts = many(2) + many(2, src="10.0.0.9")
    r = detect(tmp_path, pkts, rule('content:"hit"; threshold:type limit, track by_src, '
                                    'count 1, seconds 60;', proto="udp"), step=40.0)
    assert [a["pcap_cnt"] for a in r.alerts] == [1, 3]


def test_threshold_window_restarts(tmp_path):
    # 0 s, 40 s, 80 s, 120 s
    r = detect(tmp_path, many(4), rule('content:"hit"; threshold:type limit, track by_src, '
                                    'count 1, seconds 60;', proto="udp"), step=40.0)
    assert [a["pcap_cnt"] for a in r.alerts] == [1, 3]


@pytest.mark.parametrize("conf,expect", [
    ("suppress gen_id 1, sig_id 1", []),
    ("suppress gen_id 1, sig_id 2", [1, 2, 3, 4]),
    ("suppress gen_id 1, sig_id 1, track by_src, ip 10.0.0.9", [1, 2]),
    ("suppress gen_id 1, sig_id 1, track by_src, ip [10.0.0.0/24, 192.0.2.1]", []),
    ("suppress gen_id 1, sig_id 1, track by_dst, ip 10.0.0.2", []),
    ("suppress gen_id 1, sig_id 1, track by_either, ip 10.0.0.9", [1, 2]),
    ("threshold gen_id 1, sig_id 1, type limit, track by_rule, count 1, seconds 60", [1]),
    ("event_filter gen_id 0, sig_id 0, type threshold, track by_src, count 2, seconds 60",
     [2, 4]),
])
def test_threshold_config(tmp_path, conf, expect):
    tc = tmp_path / "threshold.config"
    tc.write_text(conf + "\n")
    pkts = many(2) + many(2, src="10.0.0.9")
    r = detect(tmp_path, pkts, rule('content:"hit";', proto="udp"),
               "--set", f"threshold-file={tc}")
    assert [a["pcap_cnt"] for a in r.alerts] == expect


@pytest.mark.parametrize("conf,expect", [
    # more than 2 matches within 5 s: pass for 10 s; the window restarts after it
    ("track by_rule, count 2, seconds 5, new_action pass, timeout 10", [1, 2, 6]),
    ("track by_rule, count 2, seconds 5, new_action sdrop, timeout 10", [1, 2, 6]),
    ("track by_rule, count 2, seconds 5, new_action alert, timeout 10", [1, 2, 3, 4, 5, 6]),
    ("track by_rule, count 4, seconds 5, new_action pass, timeout 10", [1, 2, 3, 4, 6]),
    # by_src: the fifth packet comes from another source, which has its own count
    ("track by_src, count 2, seconds 5, new_action pass, timeout 10", [1, 2, 5, 6]),
])
def test_rate_filter(tmp_path, conf, expect):
    tc = tmp_path / "threshold.config"
    tc.write_text(f"rate_filter gen_id 1, sig_id 1, {conf}\n")
    # one flow per packet (a pass ends only its own flow), at 0, 1, 2, 3, 4 and 20 s
    pkts = [udp(b"hit", sport=6000 + i) for i in range(4)] + \
        [udp(b"hit", src="10.0.0.9"), udp(b"hit", sport=6100)]
    for p, t in zip(pkts, [0, 1, 2, 3, 4, 20]):
        p.time = 1_600_000_000 + t
    pcap = tmp_path / "rate.pcap"
    write_pcap(pcap, pkts)
    r = detect(tmp_path, pcap, rule('content:"hit";', proto="udp"),
               "--set", f"threshold-file={tc}")
    assert [a["pcap_cnt"] for a in r.alerts] == expect


def test_an_unreadable_threshold_file_is_a_warning_and_the_rules_run(tmp_path):
    # as Suricata: the file is reported, the rules run as written (a missing classification
    # or reference file given on purpose still stops the load)
    missing = tmp_path / "nope" / "threshold.config"
    r = detect(tmp_path, [udp(b"ping")], rule('content:"ping";', proto="udp"),
               "--set", f"threshold-file={missing}")
    assert r.sids == [1]
    assert f"warning: {missing}: cannot open the threshold file" in r.proc.stderr
    assert "the rules run without it" in r.proc.stderr
