"""hostbits: Suricata's bits on a host (set/unset/toggle/isset/isnotset on src, dst or both,
with an expiry). A host bit lives on the address: hostbits and xbits with track ip_src /
ip_dst are the same bit, whichever side named the host."""
import pytest

from detect_helpers import check_rejected_alone, CLI, SRV, detect, rule, udp

OTHER = "10.0.0.9"


def pairs(r):
    return [(a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts]


@pytest.mark.parametrize("setter,pkt2,hit", [
    ("src", udp(b"check", sport=7000), True),        # CLI again, another flow
    ("src", udp(b"check", src=OTHER), False),        # near miss: another host
    ("dst", udp(b"check", src=OTHER), False),        # SRV holds it, the check looks at OTHER
    ("dst", udp(b"check", src=SRV, dst=CLI), True),  # the reply's source is SRV
    ("both", udp(b"check", src=SRV, dst=OTHER), True),
])
def test_hostbits_set_then_isset_on_the_source(tmp_path, setter, pkt2, hit):
    rules = [rule(f'content:"set"; hostbits:set,seen,{setter}; noalert;', sid=1, proto="udp"),
             rule('content:"check"; hostbits:isset,seen,src;', sid=2, proto="udp")]
    r = detect(tmp_path, [udp(b"set"), pkt2], rules)
    assert r.sids == ([2] if hit else [])


def test_hostbits_default_direction_is_src_and_shared_with_xbits(tmp_path):
    rules = [rule('content:"set"; hostbits:set,seen; noalert;', sid=1, proto="udp"),
             rule('content:"check"; xbits:isset,seen,track ip_dst;', sid=2, proto="udp"),
             rule('content:"check"; hostbits:isnotset,seen,dst;', sid=3, proto="udp")]
    # CLI set it; the check goes OTHER -> CLI (sid 2 holds, sid 3 not), then CLI -> OTHER
    r = detect(tmp_path, [udp(b"set"), udp(b"check", src=OTHER, dst=CLI),
                          udp(b"check", src=CLI, dst=OTHER)], rules)
    assert pairs(r) == [(2, 2), (3, 3)]


def test_hostbits_toggle_unset_and_same_packet_order(tmp_path):
    rules = [rule('hostbits:set,b;', sid=1, proto="udp"),
             rule('hostbits:toggle,b;', sid=2, proto="udp"),
             rule('hostbits:isset,b;', sid=3, proto="udp"),
             rule('content:"u"; hostbits:unset,b,src; noalert;', sid=4, proto="udp"),
             rule('content:"x"; hostbits:isnotset,b;', sid=5, proto="udp")]
    # every packet: set then toggle (setters first, in rule order) leave b unset: sid 3 never
    r = detect(tmp_path, [udp(b"x"), udp(b"u")], rules)
    assert pairs(r) == [(1, 1), (1, 2), (1, 5), (2, 1), (2, 2)]


def test_hostbits_expire(tmp_path):
    rules = [rule('content:"set"; hostbits:set,b,src,expire 3; noalert;', sid=1, proto="udp"),
             rule('content:"check"; hostbits:isset,b;', sid=2, proto="udp")]
    pkts = [udp(b"set"), udp(b"check"), udp(b"idle"), udp(b"idle"), udp(b"check")]
    r = detect(tmp_path, pkts, rules, step=1.0)
    assert pairs(r) == [(2, 2)]  # at 4 s the bit set at 0 s with expire 3 is gone


@pytest.mark.parametrize("body,why", [
    ("hostbits:set;", "hostbits needs a name"),
    ("hostbits:flip,b;", "hostbits operation"),
    ("hostbits:set,b,sideways;", "hostbits direction"),
    ("hostbits:set,b,src,expire x;", "expire"),
    ("hostbits:set,b|c;", "cannot combine names"),
])
def test_hostbits_bad_argument_rejects_the_rule_only(tmp_path, body, why):
    check_rejected_alone(tmp_path, body, why, udp(b"x"))
