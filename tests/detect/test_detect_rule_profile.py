"""profiling.rules (rules/compile/profile.c): per-rule checks, matches and time in any build,
printed at exit and written as JSON (Suricata's rule_perf.log fields) to the log directory; and
the flowbits gate of application rules it makes visible (rules/compile/compile.c
gate_eligible): an http rule reading a flowbit nobody set does not run its options."""
import json

from detect_helpers import detect, http_conv, rule, udp

PROFILE = ["--set", "profiling.rules.enabled=yes"]


def perf(tmp_path, name):
    return {r["signature_id"]: r for r in
            json.loads((tmp_path / f"{name}-log" / "rule_perf.log").read_text())["rules"]}


def test_checks_matches_and_time_per_rule(tmp_path):
    rules = [rule('content:"ABC"; pcre:"/ABCD/";', sid=1, proto="udp"),
             rule('content:"ZZZ";', sid=2, proto="udp")]
    pkts = [udp(b"ABCD"), udp(b"ABCx"), udp(b"ABCD"), udp(b"nothing")]
    r = detect(tmp_path, pkts, rules, *PROFILE, name="p")
    assert r.sids == [1, 1]
    p = perf(tmp_path, "p")
    assert (p[1]["checks"], p[1]["matches"]) == (3, 2)
    assert p[1]["ticks_total"] > 0 and p[1]["gid"] == 1 and p[1]["rev"] == 1
    assert 2 not in p  # never evaluated: its pattern never occurred
    assert "rule profile (top 1 of 1 rules evaluated" in r.proc.stdout
    assert "sid 1 " in r.proc.stdout


def test_profiling_is_off_by_default_and_changes_no_alert(tmp_path):
    rules = [rule('content:"ABC";', sid=3, proto="udp")]
    off = detect(tmp_path, [udp(b"ABC")], rules, name="off")
    on = detect(tmp_path, [udp(b"ABC")], rules, *PROFILE, name="on")
    assert off.sids == on.sids == [3]
    assert not (tmp_path / "off-log" / "rule_perf.log").exists()
    assert "rule profile" not in off.proc.stdout


def test_an_http_rule_on_an_unset_flowbit_runs_no_option(tmp_path):
    resp = b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nFWS-payload!"
    setter = rule('flow:to_client; http.stat_code; content:"200"; flowbits:set,seen200; '
                  'flowbits:noalert;', sid=10, proto="http")
    reader = rule('flow:to_client; file_data; content:"FWS"; pcre:"/payload/"; '
                  'flowbits:isset,seen200;', sid=11, proto="http")
    never = rule('flow:to_client; file_data; content:"FWS"; pcre:"/payload/"; '
                 'flowbits:isset,nobody-sets-this;', sid=12, proto="http")
    r = detect(tmp_path, http_conv(resp=resp), [setter, reader, never], *PROFILE, name="g")
    assert r.sids == [11]  # the bit set by a rule of the same response counts
    p = perf(tmp_path, "g")
    assert p[11]["matches"] == 1
    assert 12 not in p or p[12]["checks"] == 0  # gated: its content and pcre never ran
