"""xbits (bits on an address or an address pair, with expiry) and flowint (a flow's integer
variables), as Suricata's."""
import pytest

from detect_helpers import CLI, SRV, detect, rule, udp

OTHER = "10.0.0.9"


@pytest.mark.parametrize("track,pkt2,hit", [
    ("ip_src", udp(b"check", sport=7000), True),                 # another flow, same source
    ("ip_src", udp(b"check", src=OTHER), False),                 # another source
    ("ip_dst", udp(b"check", src=OTHER), True),                  # same destination
    ("ip_pair", udp(b"check", src=SRV, dst=CLI, sport=53, dport=7000), True),  # both ways
    ("ip_pair", udp(b"check", src=OTHER), False),
])
def test_xbits_tracks(tmp_path, track, pkt2, hit):
    rules = [rule(f'content:"set"; xbits:set,seen,track {track}; noalert;', sid=1,
                  proto="udp"),
             rule(f'content:"check"; xbits:isset,seen,track {track};', sid=2, proto="udp")]
    r = detect(tmp_path, [udp(b"set"), pkt2], rules)
    assert r.sids == ([2] if hit else [])


def test_xbits_expire_unset_and_isnotset(tmp_path):
    rules = [rule('content:"set"; xbits:set,b,track ip_src,expire 5; noalert;', sid=1,
                  proto="udp"),
             rule('content:"unset"; xbits:unset,b,track ip_src; noalert;', sid=2,
                  proto="udp"),
             rule('content:"check"; xbits:isset,b,track ip_src;', sid=3, proto="udp"),
             rule('content:"check"; xbits:isnotset,b,track ip_src;', sid=4, proto="udp")]
    # one packet a second: set at 0 s, checks at 1 s (set), 7 s (expired), then set again at
    # 8 s, unset at 9 s, check at 10 s
    pkts = [udp(b"set"), udp(b"check")] + [udp(b"idle") for _ in range(5)] + \
        [udp(b"check"), udp(b"set"), udp(b"unset"), udp(b"check")]
    r = detect(tmp_path, pkts, rules, step=1.0)
    assert [(a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts] == \
        [(2, 3), (8, 4), (11, 4)]


def test_flowint_counts_and_compares(tmp_path):
    rules = [rule('content:"hit"; flowint:n,+,1; flowint:n,>,2;', sid=1, proto="udp"),
             rule('content:"reset"; flowint:n,=,0; noalert;', sid=2, proto="udp"),
             rule('content:"ask"; flowint:n,isset; flowint:n,==,0;', sid=3, proto="udp"),
             rule('content:"ask"; flowint:m,notset;', sid=4, proto="udp")]
    pkts = [udp(b"ask"), udp(b"hit"), udp(b"hit"), udp(b"hit"), udp(b"hit"), udp(b"reset"),
            udp(b"ask"), udp(b"hit")]
    r = detect(tmp_path, pkts, rules)
    # the counter goes 1, 2, 3, 4: alerts from the third hit on; reset to 0
    assert [(a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts] == \
        [(1, 4), (4, 1), (5, 1), (7, 3), (7, 4)]


def test_flowint_is_per_flow(tmp_path):
    rules = [rule('content:"hit"; flowint:n,+,1; flowint:n,==,2;', sid=1, proto="udp")]
    pkts = [udp(b"hit"), udp(b"hit", sport=7000), udp(b"hit")]
    assert [a["pcap_cnt"] for a in detect(tmp_path, pkts, rules).alerts] == [3]
