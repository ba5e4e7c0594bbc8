"""pcre.match-limit / match-limit-recursion (Suricata's 3500 / 1500) and the JIT stack Suricata
gives a search (32 KiB growing to 512 KiB): a catastrophic pattern gives up as no match and is
counted; a deep but legitimate match over a few thousand bytes still matches (PCRE2's default
32 KiB JIT stack made it fail)."""
from detect_helpers import detect, rule, udp


def test_a_catastrophic_search_gives_up_and_is_counted(tmp_path):
    rules = [rule('content:"aaa"; pcre:"/^(a+)+$/";', sid=1, proto="udp")]
    r = detect(tmp_path, [udp(b"a" * 30 + b"!")], rules)
    assert r.sids == []
    assert "osprey: pcre: 1 searches gave up at pcre.match-limit" in r.proc.stdout


def test_a_deep_match_uses_the_grown_jit_stack(tmp_path):
    rules = [rule('content:"a"; pcre:"/a(x|y)*b/";', sid=2, proto="udp")]
    pkts = [udp(b"a" + b"x" * 3000 + b"b"), udp(b"a" + b"x" * 100 + b"b")]
    r = detect(tmp_path, pkts, rules)
    assert sorted(a["pcap_cnt"] for a in r.alerts) == [1, 2]
    assert "gave up" not in r.proc.stdout


def test_limits_are_configurable(tmp_path):
    r = detect(tmp_path, [udp(b"a" * 30 + b"!")],
               [rule('content:"aaa"; pcre:"/^(a+)+$/";', sid=3, proto="udp")],
               "--set", "pcre.match-limit=0", "--set", "pcre.match-limit-recursion=0",
               "--dump-config")
    assert "match-limit: 0" in r.proc.stdout
