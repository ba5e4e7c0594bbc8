"""A connection picked up midstream (stream.midstream on) whose first captured data is the
server's — an HTTP response, an SMB reply — is oriented with that sender as the server, as
Suricata reverses such a flow when protocol detection recognises the other direction's
message: its application rules, flow:to_server/to_client and EVE's src/dest follow the real
client. And a drop in a rule whose header names an application protocol is the flow's."""
import json

from detect_helpers import CLI, SRV, Conv, detect, rule

RESP = b"HTTP/1.0 200 OK\r\nServer: Apache\r\nContent-Length: 5\r\n\r\nhello"
REQ = b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n"
MID = ("--set", "stream.midstream=true")


def response_first():
    """The server's response, then the client's ACK: no handshake, no request seen."""
    return Conv(sport=51297, dport=8080).send(False, RESP).pkts


def test_a_response_seen_first_makes_its_sender_the_server(tmp_path):
    rules = [rule('http.stat_code; content:"200";', sid=1, proto="http"),
             rule('flow:to_client; content:"HTTP/1.0";', sid=2),
             rule('flow:to_server; content:"HTTP/1.0";', sid=3)]
    r = detect(tmp_path, response_first(), rules, *MID, "--set",
               "outputs.eve-log.types=[alert,flow]")
    assert sorted(set(r.sids)) == [1, 2]
    a = r.alerts[0]
    assert (a["src_ip"], a["src_port"], a["dest_ip"], a["dest_port"]) == (SRV, 8080, CLI, 51297)
    recs = [json.loads(l) for l in (tmp_path / "t-log" / "eve.json").read_text().splitlines()]
    (flow,) = [x for x in recs if x["event_type"] == "flow"]
    assert (flow["src_ip"], flow["src_port"], flow["app_proto"]) == (CLI, 51297, "http")


def test_a_request_seen_first_keeps_its_sender_the_client(tmp_path):
    pkts = Conv(sport=51298, dport=8080).send(True, REQ).send(False, RESP).pkts
    rules = [rule('flow:to_server; http.uri; content:"/x";', sid=1, proto="http"),
             rule('http.stat_code; content:"200";', sid=2, proto="http")]
    assert sorted(detect(tmp_path, pkts, rules, *MID).sids) == [1, 2]


def test_without_midstream_nothing_is_reoriented(tmp_path):
    # no session is picked up: the packet rules see the packet, from the sender as client
    rules = [rule('flow:to_server; content:"HTTP/1.0";', sid=3)]
    assert detect(tmp_path, response_first(), rules).sids == [3]


def test_a_drop_in_an_application_header_rule_is_the_flows(tmp_path):
    # IDS mode: the drop marks the flow, whose later packets are not inspected again
    c = Conv(sport=51299, dport=80).handshake().send(True, REQ).send(False, RESP)
    r = detect(tmp_path, c.close().pkts, [rule("", sid=1, proto="http", action="drop")])
    assert r.sids == [1]


def smb1(command, flags):
    """An SMB1 message in its NetBIOS session header (header and an empty word/byte count)."""
    hdr = b"\xffSMB" + bytes([command]) + b"\x00" * 4 + bytes([flags]) + b"\x00" * 22 + b"\x00\x00\x00"
    return len(hdr).to_bytes(4, "big") + hdr


def test_an_smb_reply_seen_first_makes_its_sender_the_server(tmp_path):
    c = Conv(sport=49216, dport=445)
    c.send(False, smb1(0x72, 0x98))  # the server's negotiate reply (FLAGS_REPLY)
    c.send(True, smb1(0x73, 0x18))   # the client's session setup request
    rules = [rule('flow:to_server; content:"|ff|SMB|73|";', sid=1, proto="tcp-pkt",
                  hdr="any any -> any 445"),
             rule('flow:to_client; content:"|ff|SMB|72|";', sid=2, proto="tcp-pkt")]
    r = detect(tmp_path, c.pkts, rules, *MID, "--set", "outputs.eve-log.types=[alert,flow]")
    assert sorted(r.sids) == [1, 2]
    recs = [json.loads(l) for l in (tmp_path / "t-log" / "eve.json").read_text().splitlines()]
    (flow,) = [x for x in recs if x["event_type"] == "flow"]
    assert (flow["src_ip"], flow["dest_port"], flow["app_proto"]) == (CLI, 445, "smb")
