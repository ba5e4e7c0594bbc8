"""SSH, the example protocol of parsers/README.md ("Adding a protocol"): its identification
strings (RFC 4253 §4.2) through the registry, end to end — detection on either side's
"SSH-", ssh.proto and ssh.software per direction in Suricata's rules, app-layer-protocol and
`alert ssh`, the EVE ssh record and object, app_proto, osprey-trace --app; each side's
KEXINIT and HASSH (ssh.hassh*, on for a rule reading it or with app-layer.protocols.ssh.hassh);
the limits: SSH_LINE_MAX (a banner line of 8 KiB), SSH_PACKETS_MAX (8 packets before NEWKEYS),
SSH_PACKET_MAX (35000 bytes of a packet) — alerts, the EVE ssh record, counters."""
import hashlib
import json
import struct

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT

from detect_helpers import Conv, detect, rule
from gap_helpers import eve_run
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
    assert [e["event"] for e in a.events] == ["ssh_server_banner", "app_detected",
                                              "ssh_client_banner"]
    # a protocol trace has no view of its own: every buffer of the event, records included
    assert a.bufs("ssh_server_banner") == [{
        "ssh.proto": b"1.99", "ssh.software": b"OpenSSH_3.5p1",
        "ssh.banner.server": b"SSH-1.99-OpenSSH_3.5p1 FreeBSD-20030924"}]
    assert a.bufs("ssh_client_banner") == [{"ssh.proto": b"2.0", "ssh.software": b"libssh_0.9.6",
                                            "ssh.banner": b"SSH-2.0-libssh_0.9.6"}]
    assert a.of("ssh_client_banner")[0]["direction"] == "toserver"
    assert a.stats["flows"]["ssh"] == 1 and a.stats["ssh_banners"] == 2


# ---- KEXINIT and HASSH ----
def kexinit_packet(lists):
    """an SSH binary packet carrying SSH_MSG_KEXINIT with the ten name-lists"""
    payload = b"\x14" + b"\x11" * 16 + b"".join(struct.pack("!I", len(l)) + l for l in lists) \
        + b"\0" + b"\0\0\0\0"
    pad = 8 - (len(payload) + 5) % 8 + 4
    return struct.pack("!IB", len(payload) + pad + 1, pad) + payload + b"\0" * pad


C_LISTS = [b"curve25519-sha256,diffie-hellman-group14-sha1", b"ssh-ed25519",
           b"aes128-ctr,aes256-ctr", b"aes256-ctr", b"hmac-sha2-256,hmac-sha1",
           b"hmac-sha2-512", b"none,zlib@openssh.com", b"none", b"", b""]
C_STRING = "curve25519-sha256,diffie-hellman-group14-sha1;aes128-ctr,aes256-ctr;" \
           "hmac-sha2-256,hmac-sha1;none,zlib@openssh.com"
S_STRING = "curve25519-sha256,diffie-hellman-group14-sha1;aes256-ctr;hmac-sha2-512;none"


def ssh_kex():
    return Conv(sport=40022, dport=22).handshake().send(False, SERVER).send(True, CLIENT) \
        .send(True, kexinit_packet(C_LISTS)).send(False, kexinit_packet(C_LISTS)) \
        .send(True, b"\x00\x00\x00\x0c\x0a\x15" + b"\0" * 10).close().pkts


C_HASH, S_HASH = hashlib.md5(C_STRING.encode()).hexdigest(), hashlib.md5(S_STRING.encode()).hexdigest()


@pytest.mark.parametrize("body,hit", [
    (f'ssh.hassh; content:"{C_HASH}";', True),
    (f'ssh.hassh.server; content:"{S_HASH}"; bsize:32;', True),
    ('ssh.hassh.string; content:"aes128-ctr,aes256-ctr;hmac-sha2-256";', True),
    ('ssh.hassh.server.string; content:";none"; endswith;', True),
    ('ssh.hassh.server.string; content:"aes128-ctr";', False),    # the server's own direction
    (f'ssh-hassh; content:"{C_HASH}";', True),                    # Suricata's older names
    ('ssh-hassh-server-string; content:"hmac-sha2-512";', True),
    (f'flow:to_client; ssh.hassh; content:"{C_HASH}";', False),   # the client's only
])
def test_ssh_hassh_rules(tmp_path, body, hit):
    assert detect(tmp_path, ssh_kex(), [rule(body, proto="ssh")]).sids == ([1] if hit else [])


def test_ssh_hassh_eve(tmp_path):
    hassh = {"client": {"hash": C_HASH, "string": C_STRING},
             "server": {"hash": S_HASH, "string": S_STRING}}
    # a rule reading HASSH turns it on: the record has it, the alert under the server's KEXINIT
    out = osprey_out(tmp_path, ssh_kex(), [rule("ssh.hassh.server; content:\"a\";", sid=3,
                                                proto="ssh")],
                     "--set", "outputs.eve-log.types=[alert,ssh]")
    (s,) = out.of("ssh")
    assert {k: v["hassh"] for k, v in s["ssh"].items()} == hassh
    (a,) = out.of("alert")
    assert a["ssh"] == s["ssh"]
    # neither a rule nor the setting: banners only; the setting alone: HASSH
    out = osprey_out(tmp_path, ssh_kex(), [rule('ssh.proto; content:"2";', proto="ssh")],
                     "--set", "outputs.eve-log.types=[ssh]", name="off")
    (s,) = out.of("ssh")
    assert "hassh" not in s["ssh"]["client"] and "hassh" not in s["ssh"]["server"]
    out = osprey_out(tmp_path, ssh_kex(), [rule('ssh.proto; content:"2";', proto="ssh")],
                     "--set", "outputs.eve-log.types=[ssh]",
                     "--set", "app-layer.protocols.ssh.hassh=yes", name="on")
    (s,) = out.of("ssh")
    assert {k: v["hassh"] for k, v in s["ssh"].items()} == hassh
    schema = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
    assert not list(Draft7Validator(schema).iter_errors(s))


# ---- limits (parsers/ssh/ssh_int.h): SSH_LINE_MAX, SSH_PACKETS_MAX, SSH_PACKET_MAX ----
LIMIT_RULES = [
    rule('flow:to_server; ssh.software; content:"libssh";', sid=1, proto="ssh"),
    rule('flow:to_client; ssh.proto; content:"1.99"; bsize:4;', sid=2, proto="ssh"),
    rule("app-layer-event:ssh.long_banner;", sid=3, proto="ssh"),
    rule(f'ssh.hassh; content:"{C_HASH}";', sid=4, proto="ssh"),
    rule(f'ssh.hassh.server; content:"{S_HASH}";', sid=5, proto="ssh"),
    rule("app-layer-event:ssh.invalid_record;", sid=6, proto="ssh"),
]


def limit_run(tmp_path, pkts, name):
    return eve_run(tmp_path, pkts, LIMIT_RULES, ["ssh"], name=name)


@pytest.mark.parametrize("pad,kept", [(8192 - 21, True), (8192 - 20, False)])
def test_ssh_banner_line_limit(tmp_path, pad, kept):
    # SSH_LINE_MAX (8192) bytes of a line (its CR counted, its LF not) are kept: a client
    # banner that fills them is read (ssh.long_banner: 256 bytes or more); one byte more and
    # the line is cut — ssh.long_banner (it starts "SSH-"), ssh_malformed, the client's side
    # given up (no ssh.software, no client in the record, no HASSH); the server's side is
    # still read
    banner = b"SSH-2.0-libssh_0.9.6" + b"x" * pad + b"\r\n"
    assert len(banner) - 1 == 8192 + (0 if kept else 1)
    pkts = Conv(sport=40022, dport=22).handshake().send(False, SERVER) \
        .send(True, banner, seg=1400).send(True, kexinit_packet(C_LISTS)) \
        .send(False, kexinit_packet(C_LISTS)).close().pkts
    r = limit_run(tmp_path, pkts, "k" if kept else "c")
    (s,) = r.of("ssh")
    server = {"proto_version": "1.99", "software_version": "OpenSSH_3.5p1",
              "hassh": {"hash": S_HASH, "string": S_STRING}}
    if kept:
        assert r.sids == [1, 2, 3, 4, 5]
        assert s["ssh"] == {"client": {"proto_version": "2.0",
                                       "software_version": "libssh_0.9.6" + "x" * pad,
                                       "hassh": {"hash": C_HASH, "string": C_STRING}},
                            "server": server}
        assert r.counters("ssh") == {"ssh_malformed": 0, "ssh_kexinits": 2}
    else:
        assert r.sids == [2, 3, 5]
        assert s["ssh"] == {"server": server}
        assert r.counters("ssh") == {"ssh_malformed": 1, "ssh_kexinits": 1}


def test_ssh_long_line_that_is_no_banner(tmp_path):
    # a client line past SSH_LINE_MAX that does not start "SSH-": ssh.invalid_banner is not
    # raised (the line never ends), nor ssh.long_banner; the side is given up, counted
    pkts = Conv(sport=40022, dport=22).handshake().send(False, SERVER) \
        .send(True, b"y" * 9000 + b"\r\n", seg=1400).close().pkts
    rules = LIMIT_RULES + [rule("app-layer-event:ssh.invalid_banner;", sid=7, proto="ssh")]
    r = eve_run(tmp_path, pkts, rules, ["ssh"])
    assert r.sids == [2]
    assert [x["ssh"] for x in r.of("ssh")] == [
        {"server": {"proto_version": "1.99", "software_version": "OpenSSH_3.5p1"}}]
    assert r.counters("ssh")["ssh_malformed"] == 1


IGNORE = b"\x00\x00\x00\x0c\x0a\x02" + b"\0" * 10   # SSH_MSG_IGNORE, padding 10


@pytest.mark.parametrize("before,read", [(7, True), (8, False)])
def test_ssh_packets_limit(tmp_path, before, read):
    # SSH_PACKETS_MAX (8) binary packets of a side are read before its NEWKEYS: a client
    # KEXINIT as the 8th gives its HASSH; as the 9th it is not read (no ssh.hassh, no hassh in
    # the record), and nothing after it is either (a packet_length of 1 raises no
    # ssh.invalid_record); the server's side is not concerned
    bad = b"\x00\x00\x00\x01\x00"
    pkts = Conv(sport=40022, dport=22).handshake().send(False, SERVER).send(True, CLIENT) \
        .send(True, IGNORE * before + kexinit_packet(C_LISTS) + bad) \
        .send(False, kexinit_packet(C_LISTS)).close().pkts
    r = limit_run(tmp_path, pkts, str(before))
    (s,) = r.of("ssh")
    assert s["ssh"]["server"]["hassh"] == {"hash": S_HASH, "string": S_STRING}
    if read:
        assert r.sids == [1, 2, 4, 5]
        assert s["ssh"]["client"]["hassh"] == {"hash": C_HASH, "string": C_STRING}
        assert r.counters("ssh")["ssh_kexinits"] == 2
    else:
        assert r.sids == [1, 2, 5]
        assert "hassh" not in s["ssh"]["client"]
        assert r.counters("ssh")["ssh_kexinits"] == 1
    assert r.counters("ssh")["ssh_malformed"] == 0


def big_kexinit(packet_length, pad=4):
    """a client KEXINIT (C_LISTS' algorithms) whose packet_length is exactly packet_length:
    its languages list fills it (HASSH does not read that list)"""
    def payload(lang):
        lists = C_LISTS[:8] + [lang, b""]
        return b"\x14" + b"\x11" * 16 + b"".join(struct.pack("!I", len(l)) + l
                                                for l in lists) + b"\0" + b"\0\0\0\0"
    p = payload(b"l" * (packet_length - 1 - pad - len(payload(b""))))
    pkt = struct.pack("!IB", len(p) + pad + 1, pad) + p + b"\0" * pad
    assert struct.unpack("!I", pkt[:4])[0] == packet_length == len(pkt) - 4
    return pkt


@pytest.mark.parametrize("length,read", [(35000 - 4, True), (35000 - 3, False)])
def test_ssh_packet_size_limit(tmp_path, length, read):
    # SSH_PACKET_MAX (35000, RFC 4253 §6.1) bytes of one packet, its length field included:
    # a KEXINIT that size is gathered over segments and read (its HASSH); one byte longer and
    # the side's packets are left (ssh_malformed, no ssh.invalid_record: the length is not
    # below 2), the transaction completes without the client's HASSH
    pkts = Conv(sport=40022, dport=22).handshake().send(False, SERVER).send(True, CLIENT) \
        .send(True, big_kexinit(length), seg=1400) \
        .send(False, kexinit_packet(C_LISTS)).close().pkts
    r = limit_run(tmp_path, pkts, str(length))
    (s,) = r.of("ssh")
    if read:
        assert r.sids == [1, 2, 4, 5]
        assert s["ssh"]["client"]["hassh"] == {"hash": C_HASH, "string": C_STRING}
        assert r.counters("ssh") == {"ssh_malformed": 0, "ssh_kexinits": 2}
    else:
        assert r.sids == [1, 2, 5]
        assert "hassh" not in s["ssh"]["client"]
        assert r.counters("ssh") == {"ssh_malformed": 1, "ssh_kexinits": 1}
