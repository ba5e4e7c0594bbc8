"""app-layer-state (Suricata 8): a rule at a transaction's progress state of its header's
protocol, by the state's hook name. app-layer-state:STATE is the header hook's other spelling
(the rule runs at that state, in its direction); '<' / '>' (a progress before or past the
state) are refused with their reason, as is a state Osprey has no hook for."""
from detect_helpers import Conv, detect, rule
from tls_hello_helpers import client_hello, record


def tls_flow(seg=None):
    hs, _ = client_hello()
    return Conv(dport=443).handshake().send(True, record(hs), seg=seg).close().pkts


def test_app_layer_state_runs_at_the_state(tmp_path):
    rules = [rule("app-layer-state:client_hello_done;", sid=1, proto="tls"),
             rule("app-layer-state:client_hello_done; tls.sni; content:\"example.com\"; nocase;",
                  sid=2, proto="tls"),
             rule("app-layer-state:client_hello_done; tls.sni; content:\"other\";", sid=3,
                  proto="tls")]
    # the hello in one segment, then cut in 60-byte segments: once, when it is complete
    for name, seg in (("whole", None), ("cut", 60)):
        r = detect(tmp_path, tls_flow(seg), rules, name=name)
        assert r.sids == [1, 2], name
        assert all(a["direction"] == "to_server" for a in r.alerts)
    # the same as the header hook
    r = detect(tmp_path, tls_flow(60), [rule("", sid=4, proto="tls:client_hello_done")],
               name="hook")
    assert r.sids == [4]


def test_app_layer_state_refused_forms(tmp_path):
    rules = [rule("app-layer-state:<client_hello_done;", sid=1, proto="tls"),
             rule("app-layer-state:>client_hello_done;", sid=2, proto="tls"),
             rule("app-layer-state:client_hello_done;", sid=3, proto="tcp"),
             rule("app-layer-state:server_handshake_done;", sid=4, proto="tls"),
             rule("app-layer-state:client_hello_done;", sid=5, proto="tls:client_hello_done"),
             rule("app-layer-state:client_hello_done;", sid=6, proto="tls")]
    r = detect(tmp_path, tls_flow(), rules)
    assert r.sids == [5, 6]  # the same state twice is one hook
    err = r.proc.stderr
    assert "sid 1: unsupported option app-layer-state: app-layer-state with '<' or '>'" in err
    assert "sid 2: unsupported option app-layer-state" in err
    assert "sid 3: not compiled" in err and "names no application protocol" in err
    assert "sid 4: not compiled" in err and "a rule hook Osprey does not run yet" in err
