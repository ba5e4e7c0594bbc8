"""SSH, the example protocol of parsers/README.md ("Adding a protocol"): its identification
strings (RFC 4253 §4.2) through the registry, end to end — detection on either side's
"SSH-", ssh.proto and ssh.software per direction in Suricata's rules, app-layer-protocol and
`alert ssh`, the EVE ssh record and object, app_proto, osprey-trace --app."""
import pytest

from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from parsers_helpers import app_trace

CLIENT = b"SSH-2.0-libssh_0.9.6\r\n"
SERVER = b"SSH-1.99-OpenSSH_3.5p1 FreeBSD-20030924\r\n"
KEX = b"\x00\x00\x01\x0c\x0a\x14" + b"\x00" * 16  # the binary packets after the banners


def ssh(client=CLIENT, server=SERVER, server_first=True, dport=22):
    c = Conv(sport=40022, dport=dport).handshake()
    if server_first:  # the server usually speaks first
        c.send(False, server).send(True, client)
    else:
        c.send(True, client).send(False, server)
    return c.send(True, KEX).send(False, KEX).close().pkts


@pytest.mark.parametrize("body,proto,hit", [
    ('flow:to_server; ssh.software; content:"libssh";', "ssh", True),
    ('flow:to_client; ssh.software; content:"libssh";', "ssh", False),
    ('flow:to_client; ssh.software; content:"OpenSSH_3.5p1"; endswith;', "ssh", True),
    ('flow:to_client; ssh.proto; content:"1.99"; bsize:4;', "ssh", True),
    ('flow:to_server; ssh.proto; content:"2.0"; bsize:3;', "ssh", True),
    ('ssh.software; content:"FreeBSD";', "ssh", False),       # comments are not the software
    ('ssh.proto; content:"1.99";', "ssh", True),               # no direction: both sides
    ('app-layer-protocol:ssh; content:"libssh";', "tcp", True),
    ('content:"SSH-2.0-libssh"; depth:14;', "ssh", True),      # `alert ssh` on the stream
    ('app-layer-protocol:ssh; content:"GET";', "tcp", False),
])
def test_ssh_rules(tmp_path, body, proto, hit):
    for server_first in (True, False):
        r = detect(tmp_path, ssh(server_first=server_first), [rule(body, sid=1, proto=proto)])
        assert r.sids == ([1] if hit else []), (body, server_first)


def test_ssh_off_its_port_and_not_ssh(tmp_path):
    # detection by content, not port; a flow that is no SSH does not run the rules
    rules = [rule('ssh.software; content:"libssh";', sid=1, proto="ssh")]
    assert detect(tmp_path, ssh(dport=2222), rules).sids == [1]
    other = Conv(sport=40022, dport=22).handshake().send(True, b"SSX-2.0-libssh\r\n") \
        .send(False, b"hello\r\n").close().pkts
    assert detect(tmp_path, other, rules, name="o").sids == []


def test_ssh_eve_record_alert_object_and_app_proto(tmp_path):
    rules = ['alert ssh any any -> any any (msg:"libssh"; flow:to_server; ssh.software; '
             'content:"libssh"; sid:7;)']
    out = osprey_out(tmp_path, ssh(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,ssh]")
    (s,) = out.of("ssh")
    assert list(s) == ["timestamp", "flow_id", "pcap_cnt", "event_type", "src_ip", "src_port",
                       "dest_ip", "dest_port", "proto", "ssh"]
    assert s["ssh"] == {"client": {"proto_version": "2.0", "software_version": "libssh_0.9.6"},
                        "server": {"proto_version": "1.99",
                                   "software_version": "OpenSSH_3.5p1"}}
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 7 and a["app_proto"] == "ssh"
    assert a["ssh"] == s["ssh"]  # raised at the client's banner, after the server's
    (f,) = out.of("flow")
    assert f["app_proto"] == "ssh"


def test_ssh_trace(trace):
    a = app_trace(trace, ssh())
    assert [e["event"] for e in a.events] == ["app_detected", "ssh_server_banner",
                                              "ssh_client_banner"]
    # a protocol trace has no view of its own: every buffer of the event, records included
    assert a.bufs("ssh_server_banner") == [{
        "ssh.proto": b"1.99", "ssh.software": b"OpenSSH_3.5p1",
        "ssh.banner.server": b"SSH-1.99-OpenSSH_3.5p1 FreeBSD-20030924"}]
    assert a.bufs("ssh_client_banner") == [{"ssh.proto": b"2.0", "ssh.software": b"libssh_0.9.6",
                                            "ssh.banner": b"SSH-2.0-libssh_0.9.6"}]
    assert a.of("ssh_client_banner")[0]["direction"] == "toserver"
    assert a.stats["flows"]["ssh"] == 1 and a.stats["ssh_banners"] == 2
