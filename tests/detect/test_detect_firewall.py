"""Suricata 8's firewall mode: firewall rules (`accept:<scope>`, `drop:packet|flow`, an explicit
hook) filter each packet in tables before the threat-detection (TD) rules see it.

The TD rule sid 9 alerts on the HTTP response body (`uid=0(root)`): it alerts only when the
firewall let the conversation through to the response. Firewall rules alert only with the
`alert` keyword, their alerts carry alert.engine "fw"."""
from detect_helpers import detect, http_conv, udp

TD = 'alert tcp any any -> any any (msg:"td"; content:"uid=0(root)"; sid:9; rev:1;)'
ALL = "accept:hook tcp:all any any <> any any (sid:100;)"


def run(tmp_path, fw, name="t", pkts=None):
    res = detect(tmp_path, pkts or http_conv(), fw + [TD], "--simulate-ips", "-k", "none",
                 name=name)
    return sorted((a["alert"]["signature_id"], a["alert"]["action"],
                   a["alert"].get("engine")) for a in res.alerts), res


def test_scopes_and_hooks_are_checked(tmp_path):
    bad = {"accept tcp:all any any -> any any (sid:1;)": "accept needs a scope",
           "drop:hook tcp:all any any -> any any (sid:1;)": "takes no scope 'hook'",
           "alert:flow tcp any any -> any any (sid:1;)": "takes no scope 'flow'",
           "accept:flow tcp any any -> any any (sid:1;)": "needs an explicit hook"}
    for i, (text, why) in enumerate(bad.items()):
        _, res = run(tmp_path, [text], name=f"bad{i}")
        assert why in res.proc.stderr, text
    # parsed, but not compiled: a transaction is an application state's
    _, res = run(tmp_path, ["accept:tx tcp:all any any -> any any (sid:1;)"], name="tx")
    assert "sid 1: not compiled: protocol tcp: accept:tx on a packet hook" in res.proc.stderr


def test_packet_filter_default_drops_what_no_rule_accepts(tmp_path):
    # only UDP is accepted: every TCP packet meets filter's default drop:packet, and the TD
    # rules never see the response
    alerts, res = run(tmp_path, ["accept:packet udp:all any any -> any any (sid:1;)"])
    assert alerts == []
    assert "simulated IPS: 10 packets dropped" in res.proc.stdout


def test_accept_packet_skips_the_app_tables(tmp_path):
    # accept:packet ends the firewall for each packet: no HTTP state needs a rule
    alerts, _ = run(tmp_path, ["accept:packet tcp:all any any <> any any (sid:1;)"])
    assert alerts == [(9, "allowed", None)]


def test_app_states_default_to_drop_flow(tmp_path):
    # accept:hook moves on to the application tables: HTTP's request_line has no rule, its
    # default drop:flow drops the conversation before the response
    alerts, _ = run(tmp_path, [ALL])
    assert alerts == []
    # the start state (request_started) defaults to accept:hook; a rule on request_line
    # accepting the flow lets the rest through
    alerts, _ = run(tmp_path, [ALL, "accept:flow http1:request_line any any -> any any "
                                    "(http.uri; content:\"/index\"; sid:2;)"], name="acc")
    assert alerts == [(9, "allowed", None)]


def test_accept_tx_accepts_the_transactions_remaining_states(tmp_path):
    rules = [ALL, "accept:tx http1:request_line any any -> any any (sid:2;)"]
    alerts, _ = run(tmp_path, rules)
    assert alerts == [(9, "allowed", None)]  # the response states needed no rule
    # accept:hook instead: request_headers (no rule) drops the flow
    rules = [ALL, "accept:hook http1:request_line any any -> any any (sid:2;)"]
    alerts, _ = run(tmp_path, rules, name="hook")
    assert alerts == []


def test_first_matching_rule_of_a_state_decides_in_file_order(tmp_path):
    drop = ('drop:flow http1:request_line any any -> any any (msg:"no index"; http.uri; '
            'content:"/index"; alert; sid:3;)')
    acc = "accept:flow http1:request_line any any -> any any (alert; sid:4;)"
    alerts, _ = run(tmp_path, [ALL, drop, acc])
    # the drop comes first: it alerts as the firewall's, blocked; TD never sees the response
    assert alerts == [(3, "blocked", "fw")]
    alerts, _ = run(tmp_path, [ALL, acc, drop], name="acc")
    assert alerts == [(4, "allowed", "fw"), (9, "allowed", None)]


def test_pre_flow_table_runs_before_filter(tmp_path):
    rules = ["accept:packet tcp:all any any <> any any (sid:1;)",
             "drop:packet tcp:pre_flow any any <> any 80 (alert; sid:2;)"]
    alerts, _ = run(tmp_path, rules)
    assert alerts == [(2, "blocked", "fw")] * 10  # every packet, none reaches TD


def test_flow_start_drop_flow_alerts_once(tmp_path):
    rules = ["accept:flow tcp:flow_start any any -> any 443 (alert; sid:1;)",
             "drop:flow tcp:flow_start any any -> any any (alert; sid:2;)"]
    alerts, res = run(tmp_path, rules)
    assert alerts == [(2, "blocked", "fw")]  # the SYN; the flow's other packets are dropped
    assert "simulated IPS: 10 packets dropped" in res.proc.stdout


def test_detection_filter_is_part_of_a_firewall_match(tmp_path):
    # the drop rule matches from its third packet on; before that, the next rule accepts
    pkts = [udp(b"x%d" % i, sport=1000 + i) for i in range(5)]
    rules = ["drop:flow udp:flow_start any any -> any any (detection_filter:track by_src, "
             "count 2, seconds 60; alert; sid:1;)",
             "accept:flow udp:flow_start any any -> any any (sid:2;)"]
    res = detect(tmp_path, pkts, rules, "--simulate-ips", "-k", "none")
    assert [a["alert"]["signature_id"] for a in res.alerts] == [1, 1, 1]


def test_no_firewall_rules_no_firewall(tmp_path):
    # TD rules alone: nothing is filtered
    res = detect(tmp_path, http_conv(), [TD], "--simulate-ips")
    assert [a["alert"]["signature_id"] for a in res.alerts] == [9]


def policy_conf(tmp_path, text, name="fw.yaml"):
    p = tmp_path / name
    p.write_text("firewall:\n  policies:\n" + text)
    return str(p)


def test_configured_default_policies(tmp_path):
    # firewall.policies, as suricata.yaml writes them: request_line's default accepts the
    # transaction, so no HTTP state needs a rule
    conf = policy_conf(tmp_path, "    app:\n      http1:\n        request-line: [\"accept:tx\"]\n")
    res = detect(tmp_path, http_conv(), [ALL, TD], "--simulate-ips", "-c", conf)
    assert [a["alert"]["signature_id"] for a in res.alerts] == [9]
    # the packet filter's default accept:hook: no packet rule needed, the HTTP states decide
    conf = policy_conf(tmp_path, "    packet:\n      filter: [\"accept:hook\"]\n"
                                 "    app:\n      http1:\n        request-line: [\"accept:flow\"]\n",
                       name="pkt.yaml")
    res = detect(tmp_path, http_conv(), ["accept:flow http1:request_headers any any -> any any "
                                         "(sid:5;)", TD], "--simulate-ips", "-c", conf,
                 name="pkt")
    assert [a["alert"]["signature_id"] for a in res.alerts] == [9]


def test_bad_policy_is_an_error(tmp_path):
    conf = policy_conf(tmp_path, "    app:\n      http1:\n        request-line: [\"pass\"]\n")
    res = detect(tmp_path, http_conv(), [ALL], "--simulate-ips", "-c", conf, check=False)
    assert res.proc.returncode != 0
    assert "firewall.policies.app.http1.request-line: not a firewall policy" in res.proc.stderr
    conf = policy_conf(tmp_path, "    app:\n      tls:\n        client-nothing: [\"drop:flow\"]\n",
                       name="b2.yaml")
    res = detect(tmp_path, http_conv(), [ALL], "--simulate-ips", "-c", conf, check=False,
                 name="b2")
    assert "firewall.policies.app.tls.client-nothing: the protocol has no such state" in \
        res.proc.stderr


def test_firewall_counters(tmp_path):
    # Suricata 8's stats.firewall: the handshake passes, the request meets request_line's
    # default drop:flow (default_app_policy), the flow's other packets are flow drops
    _, res = run(tmp_path, [ALL])
    fw = res.stats["firewall"]
    assert (fw["accepted"], fw["blocked"]) == (3, 7)
    assert fw["drop_reason"] == {"rules": 0, "default_packet_policy": 0,
                                 "default_app_policy": 1, "pre_flow_hook": 0,
                                 "pre_stream_hook": 0, "flow_drop": 6}
    # a packet table's default and a pre_flow rule
    _, res = run(tmp_path, ["accept:packet udp:all any any -> any any (sid:1;)"], name="pkt")
    assert res.stats["firewall"]["drop_reason"]["default_packet_policy"] == 10
    _, res = run(tmp_path, ["drop:packet tcp:pre_flow any any <> any any (sid:1;)"], name="pre")
    assert res.stats["firewall"]["drop_reason"]["pre_flow_hook"] == 10
    # a rule's drop:flow on the request
    _, res = run(tmp_path, [ALL, "drop:flow http1:request_line any any -> any any (sid:3;)"],
                 name="rule")
    fw = res.stats["firewall"]
    assert (fw["accepted"], fw["drop_reason"]["rules"], fw["drop_reason"]["flow_drop"]) == (3, 1, 6)
    # no firewall rule: no firewall counters
    res = detect(tmp_path, http_conv(), [TD], "--simulate-ips", name="td")
    assert "firewall" not in res.stats


def test_a_pass_rule_does_not_bypass_the_firewall(tmp_path):
    # a threat-detection pass on the request line (an application rule: it passes the flow)
    # passes the flow for the TD rules only: request_headers, which no rule accepts, still
    # drops the conversation with its default drop:flow (Suricata 8)
    td_pass = 'pass http any any -> any any (msg:"p"; http.uri; content:"/index"; sid:20; rev:1;)'
    line = "accept:hook http1:request_line any any -> any any (sid:2;)"
    alerts, res = run(tmp_path, [ALL, line, td_pass])
    assert alerts == []
    assert "simulated IPS: 7 packets dropped" in res.proc.stdout
    # the firewall accepting the flow: the pass still silences the TD rules
    acc = "accept:flow http1:request_line any any -> any any (sid:2;)"
    alerts, res = run(tmp_path, [ALL, acc, td_pass], name="acc")
    assert alerts == []
    assert "simulated IPS: 0 packets dropped" in res.proc.stdout


def test_dump_rules_shows_hook_and_scope(tmp_path):
    import json
    from conftest import binary, run as run_cmd
    rf = tmp_path / "fw.rules"
    rf.write_text("accept:tx http1:request_line any any -> any any (sid:4;)\n"
                  "alert tcp any any -> any any (sid:5;)\n")
    out = run_cmd([binary("osprey"), "--dump-rules", "-S", str(rf)]).stdout
    recs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    assert (recs[0]["action"], recs[0]["hook"], recs[0]["scope"]) == ("accept", "request_line",
                                                                       "tx")
    assert "scope" not in recs[1] and "hook" not in recs[1]


def test_app_layer_protocol_unknown_accepts_the_undecided_packets(tmp_path):
    # app-layer-protocol:unknown holds while the flow's protocol is not decided: the handshake
    # passes the packet filter; the request (HTTP from its packet's parse on) meets
    # request_line's default drop:flow; sid 2 never holds (no TLS)
    rules = ["accept:hook tcp:all any any <> any 80 (app-layer-protocol:unknown; sid:1;)",
             "accept:hook tcp:all any any <> any 80 (app-layer-protocol:tls; sid:2;)"]
    alerts, res = run(tmp_path, rules)
    assert alerts == []
    fw = res.stats["firewall"]
    assert (fw["accepted"], fw["blocked"], fw["drop_reason"]["default_app_policy"]) == (3, 7, 1)
