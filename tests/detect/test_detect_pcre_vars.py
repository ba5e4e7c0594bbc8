"""pcre captures into variables, as Suricata's: `(?P<flow_x>…)`, `(?P<pkt_x>…)`,
`(?P<alert_x>…)` or the list after the regex (`, flow:a, pkt:b, alert:c`: groups 1, 2, 3).
A flow variable stays with the flow (metadata.flowvars of its later alerts), a packet variable
goes with the packet's alerts (metadata.pktvars), an alert variable into alert.context."""
from detect_helpers import detect, rule, udp


def vars_of(r):
    return [(a["alert"]["signature_id"], a["alert"].get("context"), a.get("metadata"))
            for a in r.alerts]


def test_named_groups_and_capture_lists(tmp_path):
    rules = [rule(r'pcre:"/^(?P<alert_ua>[a-z]+)\/(?P<flow_ver>\d+)/";', sid=1, proto="udp"),
             rule(r'content:"b"; pcre:"/^(\w+) (\w+)/, pkt:first, alert:second";', sid=2,
                  proto="udp")]
    r = detect(tmp_path, [udp(b"mozilla/5"), udp(b"bee sting")], rules)
    assert vars_of(r) == [
        (1, {"ua": "mozilla"}, {"flowvars": [{"ver": "5"}]}),
        # the flow variable set on the first packet stays with the flow
        (2, {"second": "sting"}, {"flowvars": [{"ver": "5"}], "pktvars": [{"first": "bee"}]})]


def test_a_rule_that_does_not_match_sets_nothing(tmp_path):
    # near miss: the pcre matches, the content after it does not: no variable, no alert
    rules = [rule(r'pcre:"/^(?P<flow_x>\w+)/"; content:"zzz"; distance:0;', sid=1, proto="udp"),
             rule('content:"a";', sid=2, proto="udp")]
    r = detect(tmp_path, [udp(b"abc")], rules)
    assert vars_of(r) == [(2, None, None)]
