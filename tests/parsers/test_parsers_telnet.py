"""Telnet end to end (parsers/telnet/): detection by IAC option negotiation on any port,
`alert telnet`, app-layer-protocol:telnet, Snort 3's service:telnet, the frames Suricata
gives rules (frame:data / frame:ctl / frame:pdu, each direction), content on the stream,
the flow's app_proto, and no EVE record of its own (Suricata logs none); a gap (Suricata's
Telnet parser accepts gaps and reads on at once: the frames after the hole are read)."""
import pytest

from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from parsers_helpers import app_trace


def telnet(port=23):
    c = Conv(sport=40023, dport=port).handshake()
    c.send(True, b"\xff\xfd\x03\xff\xfb\x18").send(False, b"\xff\xfd\x18")
    c.send(True, b"\xff\xfa\x18\x00xterm\xff\xf0")
    c.send(False, b"\r\nOpenBSD/i386 (oof)\r\n\r\nlogin: ")
    for ch in b"root\r\n":  # a client in character mode: one byte a segment
        c.send(True, bytes([ch]))
    c.send(False, b"$ ").send(True, b"/sbin/ping www.yahoo.com\r\n")
    c.send(False, b"PING www.yahoo.com\r\n").send(True, b"\xff\xf4\xff\xfd\x06")
    return c.close().pkts


@pytest.mark.parametrize("body,proto,hit", [
    ('flow:to_server; frame:data; content:"/sbin/ping www.yahoo.com";', "telnet", [1]),
    ('frame:telnet.data; content:"root|0d 0a|"; startswith; endswith;', "telnet", [1]),
    ('flow:to_client; frame:data; content:"/sbin/ping";', "telnet", []),
    # a line runs to its LF: the prompt and what the server sends next are one frame
    ('frame:data; content:"login: "; endswith;', "telnet", []),
    ('frame:data; content:"login: $ PING"; startswith;', "telnet", [1]),
    ('frame:ctl; content:"|ff fa 18 00|xterm";', "telnet", [1]),
    ('flow:to_server; frame:ctl; content:"|ff f4|"; bsize:2;', "telnet", [1]),
    ('frame:pdu; content:"|ff fd|";', "telnet", [1, 1, 1]),        # DO TERM-TYPE, DO SGA, DO TIMING-MARK
    ('frame:ctl; content:"ping";', "telnet", []),
    ('app-layer-protocol:telnet; flow:to_server; content:"/sbin/ping";', "tcp", [1]),
    ('flow:to_client; content:"login|3a| ";', "telnet", [1]),       # the stream
])
def test_telnet_rules(tmp_path, body, proto, hit):
    r = detect(tmp_path, telnet(port=2323), [rule(body, sid=1, proto=proto)])
    assert r.sids == hit, body


def test_telnet_snort_service_and_records(tmp_path):
    rules = ['alert tcp any any -> any any (msg:"PROTOCOL-TELNET ping"; flow:to_server,'
             'established; content:"/sbin/ping"; service:telnet; sid:1; rev:1;)',
             'alert tcp any any -> any any (msg:"not telnet"; flow:to_server,established; '
             'content:"/sbin/ping"; service:ftp; sid:2; rev:1;)']
    out = osprey_out(tmp_path, telnet(), rules, "--set", "outputs.eve-log.types=[alert,flow]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [1]
    assert out.of("alert")[0]["app_proto"] == "telnet"
    (f,) = out.of("flow")
    assert f["app_proto"] == "telnet"
    assert not [r for r in out.records if r["event_type"] == "telnet"]


def test_telnet_not_plain_text(tmp_path):
    plain = Conv(sport=40023, dport=23).handshake().send(True, b"hello\r\n") \
        .send(False, b"world\r\n").close().pkts
    assert detect(tmp_path, plain, [rule('content:"hello";', sid=1, proto="telnet")]).sids == []


def test_telnet_gap_reads_on(tmp_path):
    # the client's line is cut by a hole (the server acknowledges past it): the line the hole
    # cut is lost, the next lines of that side are data frames again
    c = Conv(sport=40023, dport=2323).handshake()
    c.send(True, b"\xff\xfd\x03\xff\xfb\x18").send(False, b"\xff\xfd\x18")
    c.send(True, b"cat /etc/shadow\r\n", seg=6, order=[0, 2])          # "/etc/s" lost
    c.send(False, b"root:x:0:0\r\n")
    c.send(True, b"/sbin/ping www.yahoo.com\r\n")
    pkts = c.close().pkts
    rules = [rule('flow:to_server; frame:data; content:"/sbin/ping www"; startswith;', sid=1,
                  proto="telnet"),
             rule('frame:data; content:"shadow";', sid=2, proto="telnet"),
             rule('flow:to_client; frame:data; content:"root:x";', sid=3, proto="telnet"),
             rule('flow:to_server; content:"/sbin/ping";', sid=4)]    # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [1, 3, 4]
    out = osprey_out(tmp_path, pkts, [], "--set", "outputs.eve-log.types=[flow]", name="e")
    (f,) = out.of("flow")
    assert f["app_proto"] == "telnet"
    assert [r["event_type"] for r in out.records] == ["flow"]      # no telnet record


def test_telnet_frame_limit(tmp_path, trace):
    # TN_FRAME_MAX (4096): a longer data line is cut into frames of that size (nothing is
    # lost: the rest is the next frame); a longer subnegotiation is cut there and the rest
    # is shed (telnet_shed)
    c = Conv(sport=40023, dport=2323).handshake()
    c.send(True, b"\xff\xfd\x03").send(False, b"\xff\xfb\x03")
    c.send(True, b"A" * 5000 + b"TAIL\r\n", seg=1400).send(True, b"id\r\n")
    c.send(False, b"\xff\xfa\x18" + b"b" * 5000 + b"\xff\xf0", seg=1400)
    pkts = c.close().pkts
    rules = [rule('flow:to_server; frame:data; content:"AAAA"; bsize:4096;', sid=1,
                  proto="telnet"),
             rule('frame:data; content:"ATAIL|0d 0a|"; endswith; bsize:910;', sid=2,
                  proto="telnet"),
             rule('flow:to_server; frame:data; content:"id|0d 0a|"; bsize:4;', sid=3,
                  proto="telnet"),
             rule('flow:to_client; frame:ctl; content:"|ff fa 18|bbb"; bsize:4096;', sid=4,
                  proto="telnet"),
             rule('flow:to_client; content:"bbb|ff f0|";', sid=5)]       # the stream's bytes
    assert detect(tmp_path, pkts, rules).sids == [1, 2, 3, 4, 5]
    a = app_trace(trace, pkts)
    assert a.stats["telnet_shed"] == 3 + 5000 + 2 - 4096
