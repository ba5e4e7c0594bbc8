"""POP3 end to end (parsers/pop3/, messages through parsers/mime/): detection by the +OK
greeting or a POP3 command on any port, commands and responses as transactions
(pop3.command, pop3.args, pop3.status, pop3.response), a RETR'd message's attachments as
file.data and files (filename, filemd5, fileinfo), STLS handing the flow to TLS,
app-layer events, app-layer.protocols.pop3.enabled, Snort 3's service:pop3, and EVE pop3
records validated against Suricata's EVE schema."""
import base64
import hashlib
import json

import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out
from tls_hello_helpers import client_hello, record

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
ATTACH = b"PK\x03\x04 zipped bytes \x00\x01 POP3-EVIL-MARKER"
MESSAGE = (b"From: a@example.org\r\nTo: b@example.net\r\nSubject: invoice\r\n"
           b"Content-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n"
           b"--XX\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n.a dot-stuffed line\r\n"
           b"--XX\r\nContent-Type: application/zip; name=\"inv.zip\"\r\n"
           b"Content-Transfer-Encoding: base64\r\n"
           b"Content-Disposition: attachment; filename=\"inv.zip\"\r\n\r\n"
           + base64.encodebytes(ATTACH).replace(b"\n", b"\r\n") + b"--XX--\r\n")


def stuffed(msg):
    return b"".join(b"." + l if l.startswith(b".") else l
                    for l in msg.splitlines(keepends=True))


def session(dport=110, seg=None):
    c = Conv(sport=40110, dport=dport).handshake()
    c.send(False, b"+OK POP3 server ready <1.2@mx>\r\n")
    c.send(True, b"USER bob\r\n").send(False, b"+OK\r\n")
    c.send(True, b"PASS hunter2\r\n").send(False, b"-ERR invalid password\r\n")
    c.send(True, b"PASS secret\r\n").send(False, b"+OK maildrop has 1 message\r\n")
    c.send(True, b"LIST\r\n").send(False, b"+OK 1 messages\r\n1 %d\r\n.\r\n" % len(MESSAGE))
    c.send(True, b"RETR 1\r\n")
    c.send(False, b"+OK %d octets\r\n" % len(MESSAGE) + stuffed(MESSAGE) + b".\r\n", seg=seg)
    c.send(True, b"QUIT\r\n").send(False, b"+OK bye\r\n").close()
    return c.pkts


@pytest.mark.parametrize("body,sids", [
    ('pop3.command:USER;', [1]),
    ('pop3.command:pass;', [1, 1]),
    ('pop3.command:!RETR; pop3.args; content:"bob";', [1]),
    ('pop3.args; content:"hunter2"; bsize:7;', [1]),
    ('pop3.command:RETR; pop3.args; content:"1"; bsize:1;', [1]),
    ('pop3.status:err;', [1]),
    ('pop3.status:-ERR; pop3.response; content:"invalid password";', [1]),
    ('pop3.status:ok; pop3.response; content:"POP3 server ready";', [1]),  # the greeting
    ('pop3.response; content:"1 %d"; bsize:%d;' % (len(MESSAGE), 2 + len(str(len(MESSAGE)))),
     [1]),  # a LIST's line
    ('pop3.response; content:"Subject: invoice";', []),  # a message's lines are not listed
    ('file.data; content:"POP3-EVIL-MARKER"; endswith;', [1]),
    ('flow:to_client; file.data; content:"PK|03 04|"; startswith;', [1]),
    ('flow:to_server; file.data; content:"PK";', []),
    ('file.data; content:"dot-stuffed";', []),  # inline text is no file
    ('filename:"inv.zip";', [1]),
    ('fileext:"zip"; filesize:%d;' % len(ATTACH), [1]),
    ('file.name; content:"inv.zip";', [1]),
    ('content:"RETR 1"; flow:to_server;', [1]),  # the stream of a pop3 flow
])
def test_pop3_rules(tmp_path, body, sids):
    r = detect(tmp_path, session(), [rule(body, sid=1, proto="pop3")])
    assert r.sids == sids, body


def test_pop3_split_anywhere_and_any_port(tmp_path):
    rules = [rule('file.data; content:"POP3-EVIL-MARKER";', sid=1, proto="pop3"),
             rule('pop3.command:RETR;', sid=2, proto="pop3")]
    assert sorted(detect(tmp_path, session(dport=1110, seg=7), rules).sids) == [1, 2]


def test_pop3_records_files_and_md5(tmp_path):
    md5 = hashlib.md5(ATTACH).hexdigest()
    (tmp_path / "bad.md5").write_text(md5 + "\n")
    rules = [rule('filemd5:%s;' % (tmp_path / "bad.md5"), sid=5, proto="pop3")]
    out = osprey_out(tmp_path, session(), rules, "-k", "none", "--set",
                     "outputs.eve-log.types=[alert,flow,pop3,files]")
    recs = out.of("pop3")
    assert [r["pop3"].get("request", {}).get("command") for r in recs] == \
        [None, "USER", "PASS", "PASS", "LIST", "RETR", "QUIT"]
    assert recs[0]["pop3"] == {"response": {"success": True, "status": "+OK", "header":
                                            "POP3 server ready <1.2@mx>", "data": []}}
    assert recs[2]["pop3"] == {
        "request": {"command": "PASS", "args": ["hunter2"]},
        "response": {"success": False, "status": "-ERR", "header": "invalid password",
                     "data": []}}
    assert recs[4]["pop3"]["response"]["data"] == ["1 %d" % len(MESSAGE)]
    assert recs[5]["pop3"]["response"]["data"] == []  # the message is not listed
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "pop3"
    assert a["pop3"]["request"]["command"] == "RETR"
    (fi,) = out.of("fileinfo")
    assert fi["app_proto"] == "pop3" and fi["fileinfo"]["filename"] == "inv.zip"
    assert fi["fileinfo"]["md5"] == md5 and fi["fileinfo"]["size"] == len(ATTACH)
    assert fi["fileinfo"]["state"] == "CLOSED" and fi["fileinfo"]["tx_id"] == 5
    assert fi["src_port"] == 110  # the server sends it
    (f,) = out.of("flow")
    assert f["app_proto"] == "pop3"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_pop3_stls_becomes_tls(tmp_path):
    hello, _ = client_hello(sni=b"pop.example.net")
    c = Conv(sport=40110, dport=110).handshake().send(False, b"+OK ready\r\n")
    c.send(True, b"CAPA\r\n").send(False, b"+OK\r\nSTLS\r\nUSER\r\n.\r\n")
    c.send(True, b"STLS\r\n").send(False, b"+OK begin TLS\r\n")
    c.send(True, record(hello)).close()
    rules = [rule('tls.sni; content:"pop.example.net";', sid=1, proto="tls"),
             rule('pop3.response; content:"STLS"; bsize:4;', sid=2, proto="pop3")]
    assert sorted(detect(tmp_path, c.pkts, rules).sids) == [1, 2]
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[flow]", name="o")
    (f,) = out.of("flow")
    assert f["app_proto"] == "tls" and f["app_proto_orig"] == "pop3"


def test_pop3_anomalies(tmp_path):
    c = Conv(sport=40110, dport=110).handshake().send(False, b"+OK ready\r\n")
    c.send(True, b"USER " + b"u" * 300 + b"\r\n").send(False, b"-ERR too long\r\n")
    c.send(True, b"XYZZY now\r\n").send(False, b"-ERR what\r\n")
    c.send(True, b"RETR\r\n").send(False, b"-ERR which\r\n")
    c.send(True, b"NOOP\r\n").send(False, b"+OK " + b"r" * 600 + b"\r\n").close()
    names = ["pop3.request_too_long", "pop3.unknown_command", "pop3.incorrect_argument_count",
             "pop3.response_too_long", "pop3.too_many_transactions"]
    rules = [f'alert pop3 any any -> any any (msg:"{n}"; app-layer-event:{n}; sid:{i + 1};)'
             for i, n in enumerate(names)]
    assert sorted(detect(tmp_path, c.pkts, rules).sids) == [1, 2, 3, 4]


def test_pop3_enabled_switch_and_snort_service(tmp_path):
    rules = [rule('pop3.command:RETR;', sid=1, proto="pop3"),
             rule('content:"RETR"; flow:to_server;', sid=2, proto="pop3"),
             'alert tcp any any -> any any ( msg:"s3"; flow:to_server,established; '
             'content:"PASS",nocase; service:pop3; sid:3; )']
    # inline, sid 3 (no depth) matches each packet's payload holding PASS, and the stream
    inl = ("--set", "stream.inline=yes")
    assert sorted(detect(tmp_path, session(), rules, *inl, name="inl").sids) == [1, 2, 3, 3]
    assert sorted(detect(tmp_path, session(), rules, "--set",
                         "app-layer.protocols.pop3.enabled=detection-only", *inl,
                         name="det").sids) == [2, 3, 3]
    # Suricata's IDS mode (the default): a content without depth/offset inspects the stream
    # only (not the payload of a packet added to it), once here
    assert sorted(detect(tmp_path, session(), rules).sids) == [1, 2, 3]
    assert detect(tmp_path, session(), rules, "--set", "app-layer.protocols.pop3.enabled=no",
                  name="off").sids == []


def test_plain_text_is_not_pop3(tmp_path):
    # a +OK not followed by a blank or a line end, and a client's USER off port 110
    c = Conv(sport=40110, dport=9000).handshake().send(False, b"+OKAY\r\n")
    c.send(True, b"USER bob\r\n").close()
    assert detect(tmp_path, c.pkts, [rule('content:"USER";', sid=1, proto="pop3")]).sids == []


def test_pop3_attachment_limit_bounds_file_data_not_the_file(tmp_path):
    rules = [rule('file.data; content:"PK|03 04|"; startswith; bsize:4;', sid=1, proto="pop3"),
             rule('file.data; content:"POP3-EVIL-MARKER";', sid=2, proto="pop3"),
             rule('filesize:%d;' % len(ATTACH), sid=3, proto="pop3")]
    r = detect(tmp_path, session(), rules, "--set",
               "app-layer.protocols.pop3.attachment-limit=4")
    assert sorted(r.sids) == [1, 3]


def test_pop3_long_attachment_line_is_one_line(tmp_path):
    body = (b"ABCDEFGHIJKLMNOP" * 1300)[:20000]
    msg = (b"Content-Type: multipart/mixed; boundary=Z\r\n\r\n--Z\r\n"
           b"Content-Disposition: attachment; filename=\"long.txt\"\r\n\r\n"
           + body + b"\r\n--Z--\r\n")
    c = Conv(sport=40110, dport=110).handshake().send(False, b"+OK\r\n")
    c.send(True, b"RETR 1\r\n").send(False, b"+OK\r\n" + msg + b".\r\n", seg=1400).close()
    r = detect(tmp_path, c.pkts, [rule('filesize:%d;' % len(body), sid=1, proto="pop3"),
                                  rule('filename:"long.txt";', sid=2, proto="pop3")])
    assert sorted(r.sids) == [1, 2]
