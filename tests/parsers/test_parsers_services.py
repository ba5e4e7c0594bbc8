"""The recognition-only services (parsers/services) end to end: Snort 3 rules naming irc,
mysql, nntp, wins, netbios-ns, netbios-dgm or ssdp in `service:` load and run on flows
of that service (told by their first bytes, or their port), not on others; the flow's
app_proto; the Snort 3 names of parsed protocols (kerberos, netbios-ssn)."""
import pytest

from detect_helpers import Conv, detect, rule, udp
from outputs_helpers import osprey_out

IRC = [(True, b"NICK bot\r\nUSER bot 0 * :bot\r\n"),
       (False, b":irc.example.net 001 bot :Welcome\r\n"),
       (True, b"JOIN #biz abc\r\n")]
MYSQL_GREETING = bytes([0x0a, 0, 0, 0, 0x0a]) + b"8.0.1\x00" + bytes(20)


def tcp(turns, dport, sport=40000):
    c = Conv(sport=sport, dport=dport).handshake()
    for client, data in turns:
        c.send(client, data)
    return c.close().pkts


@pytest.mark.parametrize("name,pkts,body", [
    ("irc", lambda: tcp(IRC, 6667), 'content:"JOIN #biz abc|0D 0A|"; depth:15;'),
    ("irc-any-port", lambda: tcp(IRC, 8080), 'content:"JOIN #biz"; depth:9;'),
    ("mysql", lambda: tcp([(False, MYSQL_GREETING), (True, b"\x0f\x00\x00\x00\x03show databases")],
                          3306), 'content:"show databases";'),
    ("nntp", lambda: tcp([(False, b"200 news ready\r\n"), (True, b"newgroup:" + b"A" * 40 + b"\n")],
                         119), 'content:"newgroup";'),
    ("wins", lambda: tcp([(True, b"\x00\x00\x00\x2c" + b"W" * 44)], 42), 'content:"WWWW";'),
    ("netbios-ns", lambda: [udp(bytes.fromhex("12340110000100000000000020") + b"C" * 32 + b"\0\0\x20\0\1",
                                sport=137, dport=137)], 'content:"CCCC";'),
    ("netbios-dgm", lambda: [udp(b"\x11\x02" + b"D" * 30, sport=138, dport=138)], 'content:"DDDD";'),
    ("ssdp", lambda: [udp(b"M-SEARCH * HTTP/1.1\r\nST: ssdp:all\r\n\r\n", sport=40000, dport=1900)],
     'content:"ssdp:all";'),
])
def test_service_rules_run_on_their_flows(tmp_path, name, pkts, body):
    svc = name.split("-any")[0]
    proto = "udp" if svc in ("netbios-ns", "netbios-dgm", "ssdp") else "tcp"
    rules = [rule(body + f" service:{svc};", sid=1, proto=proto),
             rule(body + " service:http;", sid=2, proto=proto)]   # another service: no
    assert detect(tmp_path, pkts(), rules).sids == [1], name


def test_service_needs_its_signature(tmp_path):
    # a client that is no IRC client and a server that greets like FTP: not irc, not nntp
    rules = [rule('content:"JOIN"; service:irc;', sid=1),
             rule('content:"newgroup"; service:nntp;', sid=2)]
    pkts = tcp([(True, b"HELLO\r\nJOIN #x\r\n")], 6667) + \
        tcp([(False, b"220 ftp\r\n"), (True, b"newgroup x\r\n")], 119, sport=40001)
    assert detect(tmp_path, pkts, rules).sids == []
    # a MySQL greeting decides on any port; the port alone does not
    pkts = tcp([(True, b"\x0f\x00\x00\x00\x03show databases")], 3306)
    assert detect(tmp_path, pkts, [rule('content:"show"; service:mysql;')], name="m").sids == []


def test_service_flow_app_proto_and_snort3_names(tmp_path):
    out = osprey_out(tmp_path, tcp(IRC, 6667) + [udp(b"M-SEARCH * HTTP/1.1\r\n\r\n", sport=40000,
                                                      dport=1900)],
                     [rule('content:"JOIN"; service:irc;')],
                     "--set", "outputs.eve-log.types=[alert,flow]")
    assert sorted(f["app_proto"] for f in out.of("flow")) == ["irc", "ssdp"]
    (a,) = out.of("alert")
    assert a["app_proto"] == "irc" and "irc" not in a  # no EVE object of its own
    # Snort 3's names of protocols Osprey parses load too
    r = detect(tmp_path, tcp(IRC, 6667), [rule('content:"x"; service:kerberos;', sid=1),
                                          rule('content:"x"; service:netbios-ssn;', sid=2)],
               name="n")
    assert "unsupported" not in r.proc.stderr
