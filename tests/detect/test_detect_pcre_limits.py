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
    assert r.stats["osprey"]["detect"]["pcre"]["gave_up"] == 1  # and in the stats record


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


def test_what_limits_shed_is_in_the_stats_record(tmp_path):
    """A parser's limits count what they shed under osprey.app_layer.<protocol> in EVE stats
    (here the HTTP body's file limit on a decompression bomb), beside the file layer's."""
    import gzip
    from detect_helpers import http_conv
    bomb = gzip.compress(b"\0" * (1 << 20))
    resp = (b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n"
            % len(bomb) + bomb)
    r = detect(tmp_path, http_conv(resp=resp),
               [rule('http.uri; content:"/index";', sid=4, proto="http")],
               "--set", "app-layer.protocols.http.response-body-limit=1000",
               "--set", "app-layer.protocols.http.body-file-limit=1000")
    assert r.sids == [4]
    http = r.stats["osprey"]["app_layer"]["http"]
    assert http["http_body_limit"] == 1 and http["http_malformed"] == 0
    assert r.stats["osprey"]["app_layer"]["files"]["files_opened"] == 1
