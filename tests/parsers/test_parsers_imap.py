"""IMAP end to end (parsers/imap/, messages through parsers/mime/): detection by the
`* OK` greeting or a tagged command on any port, literals (a FETCH's BODY[] from the server,
an APPEND's from the client) read as messages whose attachments are file.data and files
(filename, filemd5, fileinfo), STARTTLS handing the flow to TLS, Snort 3's service:imap
rules on the stream, app-layer.protocols.imap.enabled. Suricata 8 writes no imap record:
the flow's app_proto is imap."""
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
ATTACH = b"%PDF-1.4 imap attached \x00\x01 IMAP-EVIL-MARKER"
MESSAGE = (b"From: a@example.org\r\nSubject: scan\r\n"
           b"Content-Type: multipart/mixed; boundary=\"YY\"\r\n\r\n"
           b"--YY\r\nContent-Type: text/plain\r\n\r\nhello {5}\r\n"
           b"--YY\r\nContent-Type: application/pdf; name=\"scan.pdf\"\r\n"
           b"Content-Transfer-Encoding: base64\r\n\r\n"
           + base64.encodebytes(ATTACH).replace(b"\n", b"\r\n") + b"--YY--\r\n")


def session(dport=143, seg=None, append=False):
    c = Conv(sport=40143, dport=dport).handshake()
    c.send(False, b"* OK [CAPABILITY IMAP4rev1] ready\r\n")
    c.send(True, b"a1 LOGIN bob secret\r\n").send(False, b"a1 OK LOGIN completed\r\n")
    c.send(True, b"a2 SELECT INBOX\r\n")
    c.send(False, b"* 1 EXISTS\r\n* FLAGS (\\Seen)\r\na2 OK [READ-WRITE] SELECT completed\r\n")
    if append:
        c.send(True, b"a3 APPEND INBOX (\\Seen) {%d}\r\n" % len(MESSAGE))
        c.send(False, b"+ Ready for literal data\r\n")
        c.send(True, MESSAGE + b"\r\n", seg=seg).send(False, b"a3 OK APPEND completed\r\n")
    else:
        c.send(True, b"a3 FETCH 1 (FLAGS BODY[])\r\n")
        c.send(False, b"* 1 FETCH (FLAGS (\\Seen) BODY[] {%d}\r\n" % len(MESSAGE) + MESSAGE
               + b")\r\na3 OK FETCH completed\r\n", seg=seg)
    c.send(True, b"a4 LOGOUT\r\n").send(False, b"* BYE\r\na4 OK LOGOUT completed\r\n").close()
    return c.pkts


@pytest.mark.parametrize("append,body,sids", [
    (False, 'file.data; content:"IMAP-EVIL-MARKER"; endswith;', [1]),
    (False, 'flow:to_client; file.data; content:"%PDF"; startswith;', [1]),
    (False, 'flow:to_server; file.data; content:"%PDF";', []),
    (False, 'file.data; content:"hello";', []),  # inline text is no file
    (False, 'filename:"scan.pdf"; filesize:%d;' % len(ATTACH), [1]),
    (False, 'file.name; content:"scan.pdf";', [1]),
    (True, 'flow:to_server; file.data; content:"IMAP-EVIL-MARKER";', [1]),
    (True, 'flow:to_client; file.data; content:"IMAP-EVIL-MARKER";', []),
    (True, 'flow:to_server; filename:"scan.pdf";', [1]),
    (False, 'content:"LOGIN"; flow:to_server;', [1]),  # the stream of an imap flow
])
def test_imap_rules(tmp_path, append, body, sids):
    r = detect(tmp_path, session(append=append), [rule(body, sid=1, proto="imap")])
    assert r.sids == sids, body


def test_imap_split_anywhere_and_any_port(tmp_path):
    rules = [rule('file.data; content:"IMAP-EVIL-MARKER";', sid=1, proto="imap")]
    assert detect(tmp_path, session(dport=1143, seg=5), rules).sids == [1]
    assert detect(tmp_path, session(dport=1143, seg=5, append=True), rules,
                  name="a").sids == [1]


def test_imap_fileinfo_and_md5(tmp_path):
    md5 = hashlib.md5(ATTACH).hexdigest()
    (tmp_path / "bad.md5").write_text(md5 + "\n")
    rules = [rule('filemd5:%s;' % (tmp_path / "bad.md5"), sid=4, proto="imap")]
    out = osprey_out(tmp_path, session(), rules, "-k", "none", "--set",
                     "outputs.eve-log.types=[alert,flow,files]")
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 4 and a["app_proto"] == "imap"
    (fi,) = out.of("fileinfo")
    assert fi["app_proto"] == "imap" and fi["fileinfo"]["filename"] == "scan.pdf"
    assert fi["fileinfo"]["md5"] == md5 and fi["fileinfo"]["state"] == "CLOSED"
    assert fi["fileinfo"]["tx_id"] == 3  # the greeting, a1, a2, then a3's FETCH
    (f,) = out.of("flow")
    assert f["app_proto"] == "imap"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_imap_starttls_becomes_tls(tmp_path):
    hello, _ = client_hello(sni=b"imap.example.net")
    c = Conv(sport=40143, dport=143).handshake().send(False, b"* OK ready\r\n")
    c.send(True, b"x1 STARTTLS\r\n").send(False, b"x1 OK Begin TLS negotiation now\r\n")
    c.send(True, record(hello)).close()
    rules = [rule('tls.sni; content:"imap.example.net";', sid=1, proto="tls")]
    assert detect(tmp_path, c.pkts, rules).sids == [1]
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[flow]", name="o")
    (f,) = out.of("flow")
    assert f["app_proto"] == "tls" and f["app_proto_orig"] == "imap"


def test_imap_refused_starttls_stays_imap(tmp_path):
    c = Conv(sport=40143, dport=143).handshake().send(False, b"* OK ready\r\n")
    c.send(True, b"x1 STARTTLS\r\n").send(False, b"x1 BAD not now\r\n")
    c.send(True, b"x2 LOGIN a b\r\n").close()
    rules = [rule('content:"x2 LOGIN";', sid=1, proto="imap")]
    assert detect(tmp_path, c.pkts, rules).sids == [1]


def test_imap_snort_service_rules_and_switch(tmp_path):
    # Snort 3 community's form: a port-less service:imap rule runs on an imap flow (any port)
    rules = ['alert tcp any any -> any any ( msg:"s3"; flow:to_server,established; '
             'content:"LOGIN",nocase; pcre:"/\\sLOGIN\\s/i"; service:imap; sid:1; )',
             rule('file.data; content:"IMAP-EVIL-MARKER";', sid=2, proto="imap")]
    assert sorted(detect(tmp_path, session(dport=2143), rules).sids) == [1, 2]
    assert detect(tmp_path, session(), rules, "--set",
                  "app-layer.protocols.imap.enabled=detection-only", name="det").sids == [1]
    assert detect(tmp_path, session(), rules, "--set", "app-layer.protocols.imap.enabled=no",
                  name="off").sids == []


def test_client_first_tagged_command_is_imap(tmp_path):
    c = Conv(sport=40143, dport=7000).handshake()
    c.send(True, b"A0001 CAPABILITY\r\n").send(False, b"* CAPABILITY IMAP4rev1\r\n").close()
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[flow]")
    assert out.of("flow")[0]["app_proto"] == "imap"
    d = Conv(sport=40144, dport=7000).handshake()
    d.send(True, b"A0001 WHATEVER\r\n").send(False, b"hmm\r\n").close()
    out = osprey_out(tmp_path, d.pkts, [], "--set", "outputs.eve-log.types=[flow]", name="n")
    assert out.of("flow")[0]["app_proto"] != "imap"


def test_imap_attachment_limit_bounds_file_data_not_the_file(tmp_path):
    rules = [rule('file.data; content:"%PDF"; startswith; bsize:4;', sid=1, proto="imap"),
             rule('file.data; content:"IMAP-EVIL-MARKER";', sid=2, proto="imap"),
             rule('filesize:%d;' % len(ATTACH), sid=3, proto="imap")]
    r = detect(tmp_path, session(), rules, "--set",
               "app-layer.protocols.imap.attachment-limit=4")
    assert sorted(r.sids) == [1, 3]


def test_imap_long_attachment_line_is_one_line(tmp_path):
    body = (b"ABCDEFGHIJKLMNOP" * 1300)[:20000]
    msg = (b"Content-Type: multipart/mixed; boundary=Z\r\n\r\n--Z\r\n"
           b"Content-Disposition: attachment; filename=\"long.txt\"\r\n\r\n"
           + body + b"\r\n--Z--\r\n")
    c = Conv(sport=40143, dport=143).handshake().send(False, b"* OK\r\n")
    c.send(True, b"f FETCH 1 RFC822\r\n")
    c.send(False, b"* 1 FETCH (RFC822 {%d}\r\n" % len(msg) + msg + b")\r\nf OK\r\n",
           seg=1400).close()
    r = detect(tmp_path, c.pkts, [rule('filesize:%d;' % len(body), sid=1, proto="imap"),
                                  rule('filename:"long.txt";', sid=2, proto="imap")])
    assert sorted(r.sids) == [1, 2]


def test_snort3_file_data_rules_on_mail(tmp_path):
    # Snort 3's file_data on a service:imap / service:pop3 rule reads the attachments
    import test_parsers_pop3 as pop3
    rules = ['alert tcp any any -> any any ( msg:"i"; flow:to_client,established; file_data; '
             'content:"IMAP-EVIL-MARKER"; service:imap; sid:1; )',
             'alert tcp any any -> any any ( msg:"p"; flow:to_client,established; file_data; '
             'content:"POP3-EVIL-MARKER"; service:pop3; sid:2; )']
    assert detect(tmp_path, session(), rules, name="i").sids == [1]
    assert detect(tmp_path, pop3.session(), rules, name="p").sids == [2]


def gap_session(lost):
    """The server's SELECT answer never arrives (the client acknowledges past it); lost: the
    bytes in its place — an answer, or the middle of a literal the server was sending."""
    c = Conv(sport=40143, dport=143).handshake()
    c.send(False, b"* OK [CAPABILITY IMAP4rev1] ready\r\n")
    c.send(True, b"a1 LOGIN bob secret\r\n").send(False, b"a1 OK LOGIN completed\r\n")
    c.send(True, b"a2 SELECT INBOX\r\n")
    c.send(False, lost, seg=len(lost), order=[])  # the hole
    c.send(True, b"a3 FETCH 1 (FLAGS BODY[])\r\n")
    c.send(False, b"* 1 FETCH (FLAGS (\\Seen) BODY[] {%d}\r\n" % len(MESSAGE) + MESSAGE
           + b")\r\na3 OK FETCH completed\r\n")
    return c.close().pkts


@pytest.mark.parametrize("lost", [
    b"* 1 EXISTS\r\na2 OK [READ-WRITE] SELECT completed\r\n",
    b"* 9 FETCH (BODY[] {900}\r\nFrom: x\r\n\r\nhalf a message",  # a literal cut short
])
def test_a_gap_resumes_at_the_next_imap_line(tmp_path, lost):
    # after the hole the server's next chunk starts a line (`* 1 FETCH …`): parsing resumes
    # there and the fetched message's attachment is a file again
    r = detect(tmp_path, gap_session(lost), [rule('file.data; content:"IMAP-EVIL-MARKER";',
                                                  sid=1, proto="imap")])
    assert r.sids == [1]
