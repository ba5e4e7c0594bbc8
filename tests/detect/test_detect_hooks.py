"""Suricata 8's rule hooks in the header (`proto:hook`): an application protocol's progress
state runs the rule under the parsers' event registered with that hook name
(`tls:client_hello_done`: once the ClientHello is parsed); the packet hook `flow_start` is the
first packet of the flow in each direction. A hook Osprey does not run leaves its rule out
(not compiled); a malformed one is a syntax error."""
from detect_helpers import Conv, detect, rule
from rules_helpers import check_text
from tls_hello_helpers import client_hello, record


def sid_cnt(r):
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def tls_pkts(sni=b"www.example.com"):
    hs, _ = client_hello(sni=sni)
    return Conv(dport=443).handshake().send(True, record(hs)).close().pkts


def test_tls_client_hello_done_hook(tmp_path):
    rules = [rule('tls.sni; content:"www.example.com"; alert;', sid=21,
                  proto="tls:client_hello_done", action="pass"),
             rule("", sid=22, proto="tls:client_hello_done"),
             rule('tls.sni; content:"www.example.com";', sid=23, proto="tls:client_hello_done")]
    # the ClientHello is packet 4, ACKed by 5: the pass rule alerts with the client's next
    # packet (6, Suricata's IDS mode) and passes the flow (sids 22, 23 stay quiet on it)
    assert sid_cnt(detect(tmp_path, tls_pkts(), rules)) == [(21, 6)]
    # near miss: another name, the pass rule does not match; the hook's rules alert
    r = detect(tmp_path, tls_pkts(b"www.other.org"), rules, name="b")
    assert sid_cnt(r) == [(22, 6)]  # (the ClientHello's, with the client's packet after its ACK)


def test_flow_start_hook_is_the_first_packet_of_each_direction(tmp_path):
    pkts = Conv().handshake().send(True, b"hello").send(False, b"world").close().pkts
    rules = [rule("", sid=1, proto="tcp:flow_start"),
             rule("", sid=2, proto="ip:flow_start", hdr="any any -> any any"),
             rule("flow:to_server;", sid=3, proto="tcp:flow_start"),
             rule("dsize:>0;", sid=4, proto="tcp:flow_start")]
    # SYN (1) from the client, SYN/ACK (2) from the server; the data packets are later ones
    assert sid_cnt(detect(tmp_path, pkts, rules)) == [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)]


def test_unknown_and_malformed_hooks(tmp_path):
    pkts = tls_pkts()
    r = detect(tmp_path, pkts, [rule("", sid=1, proto="tls:server_done"),
                                rule("", sid=2, proto="tcp:pre_stream"),
                                rule('tls.cert_subject; content:"x";', sid=3,
                                     proto="tls:client_hello_done"),
                                rule("", sid=4, proto="tls:client_hello_done")])
    assert sid_cnt(r) == [(4, 6)]  # the ClientHello (4), ACKed by 5: with 6 (IDS mode)
    assert "sid 1: not compiled" in r.proc.stderr and "rule hook" in r.proc.stderr
    assert "sid 2: not compiled" in r.proc.stderr
    assert "buffers of a later state than the rule's hook" in r.proc.stderr
    proc, lines, summary = check_text(tmp_path, rule("", sid=5, proto="tls:") + "\n")
    assert summary["malformed"] == 1 and "invalid rule hook" in lines[0]
