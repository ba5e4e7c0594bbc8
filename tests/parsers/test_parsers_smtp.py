"""SMTP end to end (parsers/smtp/, MIME in parsers/mime/): detection by the greeting or
EHLO on any port, the envelope (smtp.helo, smtp.mail_from, smtp.rcpt_to), the message's
headers (email.from … email.received), its URLs (email.url), attachments as file.data
(base64, quoted-printable, an encapsulated message), pipelining, BDAT, a refused DATA,
STARTTLS handing the flow to TLS, app-layer events, app-layer.protocols.smtp.enabled, and
EVE smtp/email records and alert objects, each validated against Suricata's EVE schema."""
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
ATTACH = b"MZ\x90\x00 this is the attached program \x00\x01 EVIL-MARKER"
MESSAGE = (b"Received: from relay1 (relay1 [10.0.0.1])\r\n\tby mx; Thu, 1 Jan 2025\r\n"
           b"Received: from client by relay1\r\n"
           b"From: \"Alice A\" <alice@example.org>\r\n"
           b"To: bob@example.net, \"Carol, C\" <carol@example.net>\r\n"
           b"Cc: dave@example.net\r\n"
           b"Subject: quarterly report\r\n"
           b"Date: Mon, 6 Jan 2025 10:00:00 +0000\r\n"
           b"Message-ID: <abc123@example.org>\r\n"
           b"X-Mailer: TestMailer 2.1\r\n"
           b"MIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=\"==B==\"\r\n\r\n"
           b"preamble\r\n--==B==\r\n"
           b"Content-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
           b"<a href=3D\"http://Evil.example/Login\">log in</a>\r\n"
           b"..a dot-stuffed line\r\n"
           b"--==B==\r\n"
           b"Content-Type: application/octet-stream; name=\"prog.exe\"\r\n"
           b"Content-Transfer-Encoding: base64\r\n"
           b"Content-Disposition: attachment; filename=\"prog.exe\"\r\n\r\n"
           + base64.encodebytes(ATTACH).replace(b"\n", b"\r\n") +
           b"--==B==--\r\n")


def session(dport=25, message=MESSAGE, seg=None):
    c = Conv(sport=40025, dport=dport).handshake()
    c.send(False, b"220 mx.example.net ESMTP ready\r\n")
    c.send(True, b"EHLO client.example.org\r\n")
    c.send(False, b"250-mx.example.net\r\n250-PIPELINING\r\n250 8BITMIME\r\n")
    # pipelined envelope
    c.send(True, b"MAIL FROM:<alice@example.org>\r\nRCPT TO:<bob@example.net>\r\n"
                 b"RCPT TO:<carol@example.net>\r\nDATA\r\n")
    c.send(False, b"250 ok\r\n250 ok\r\n250 ok\r\n354 go ahead\r\n")
    c.send(True, message + b".\r\n", seg=seg)
    c.send(False, b"250 queued as 1234\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    return c.pkts


@pytest.mark.parametrize("body,sids", [
    ('smtp.helo; content:"client.example.org"; bsize:18;', [1]),
    ('smtp.mail_from; content:"<alice@example.org>"; bsize:19;', [1]),
    ('smtp.rcpt_to; content:"carol"; ', [1]),  # once: its own RCPT
    ('smtp.rcpt_to; content:"@example.net";', [1, 1]),  # each recipient's
    ('email.from; content:"\\"Alice A\\" <alice@example.org>"; bsize:29;', [1]),
    ('email.to; content:"bob@example.net, \\"Carol, C\\""; startswith;', [1]),
    ('email.cc; content:"dave@"; startswith;', [1]),
    ('email.subject; content:"quarterly report"; bsize:16;', [1]),
    ('email.date; content:"Mon, 6 Jan 2025"; startswith;', [1]),
    ('email.message_id; content:"<abc123@example.org>"; bsize:20;', [1]),
    ('email.x_mailer; content:"TestMailer"; startswith;', [1]),
    # folded: the line break goes, the tab stays
    ('email.received; content:"from relay1 (relay1 [10.0.0.1])|09|by mx;"; startswith;', [1]),
    ('email.received; content:"from client by relay1"; bsize:21;', [1]),
    ('email.url; content:"evil.example/login"; bsize:18;', [1]),
    ('file.data; content:"EVIL-MARKER"; endswith;', [1]),
    ('flow:to_server; file.data; content:"MZ|90 00|"; startswith;', [1]),
    ('flow:to_client; file.data; content:"MZ";', []),
    ('file.data; content:"a dot-stuffed";', []),  # inline text is no file
    ('content:"RCPT TO"; flow:to_server;', [1]),  # the stream of an smtp flow
])
def test_smtp_rules(tmp_path, body, sids):
    r = detect(tmp_path, session(), [rule(body, sid=1, proto="smtp")])
    assert r.sids == sids, body


def test_smtp_split_anywhere_and_any_port(tmp_path):
    # segments of 7 bytes, port 2525: the greeting and EHLO tell it is SMTP
    rules = [rule('file.data; content:"EVIL-MARKER";', sid=1, proto="smtp"),
             rule('email.subject; content:"quarterly";', sid=2, proto="smtp")]
    assert sorted(detect(tmp_path, session(dport=2525, seg=7), rules).sids) == [1, 2]


def test_smtp_records(tmp_path):
    rules = [rule('file.data; content:"EVIL-MARKER";', sid=3, proto="smtp")]
    out = osprey_out(tmp_path, session(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,smtp]")
    (s,) = out.of("smtp")
    assert s["tx_id"] == 0
    assert s["smtp"] == {"helo": "client.example.org", "mail_from": "<alice@example.org>",
                         "rcpt_to": ["<bob@example.net>", "<carol@example.net>"]}
    assert s["email"] == {
        "status": "PARSE_DONE", "from": "\"Alice A\" <alice@example.org>",
        "to": ["bob@example.net", "\"Carol, C\" <carol@example.net>"],
        "cc": ["dave@example.net"],
        "received": ["from relay1 (relay1 [10.0.0.1])\tby mx; Thu, 1 Jan 2025",
                     "from client by relay1"],
        "subject": "quarterly report", "date": "Mon, 6 Jan 2025 10:00:00 +0000",
        "message_id": "<abc123@example.org>", "x_mailer": "TestMailer 2.1",
        "url": ["evil.example/login"], "attachment": ["prog.exe"]}
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 3 and a["app_proto"] == "smtp"
    assert a["smtp"]["helo"] == "client.example.org"
    assert a["email"]["attachment"] == ["prog.exe"]
    (f,) = out.of("flow")
    assert f["app_proto"] == "smtp"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_smtp_transactions_rset_and_refused_data(tmp_path):
    c = Conv(sport=40025, dport=25).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"HELO c\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"MAIL FROM:<a@x>\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"RCPT TO:<b@y>\r\n").send(False, b"550 no such user\r\n")
    # DATA refused: what the client sends next are commands again
    c.send(True, b"DATA\r\n").send(False, b"554 no valid recipients\r\n")
    c.send(True, b"RSET\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"MAIL FROM:<second@x>\r\nRCPT TO:<c@y>\r\nDATA\r\n")
    c.send(False, b"250 ok\r\n250 ok\r\n354 go\r\n")
    c.send(True, b"Subject: two\r\n\r\nbody\r\n.\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    rules = ['alert smtp any any -> any any (msg:"refused"; '
             'app-layer-event:smtp.data_command_rejected; sid:7;)',
             rule('email.subject; content:"two";', sid=8, proto="smtp"),
             rule('smtp.mail_from; content:"second";', sid=9, proto="smtp")]
    out = osprey_out(tmp_path, c.pkts, rules, "--set",
                     "outputs.eve-log.types=[alert,smtp]")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [7, 8, 9]
    recs = out.of("smtp")
    assert [r["tx_id"] for r in recs] == [0, 1]
    assert recs[0]["smtp"] == {"helo": "c", "mail_from": "<a@x>", "rcpt_to": ["<b@y>"]}
    assert "email" not in recs[0]
    assert recs[1]["smtp"]["mail_from"] == "<second@x>"
    assert recs[1]["email"] == {"status": "PARSE_DONE", "subject": "two"}
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_smtp_bdat(tmp_path):
    msg1 = b"Subject: chunked\r\nContent-Disposition: attachment; filename=\"c.bin\"\r\n\r\nCHU"
    msg2 = b"NKED-PAYLOAD\r\n"
    c = Conv(sport=40025, dport=587).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"EHLO c\r\nMAIL FROM:<a@x>\r\nRCPT TO:<b@y>\r\n")
    c.send(False, b"250 ok\r\n250 ok\r\n250 ok\r\n")
    c.send(True, b"BDAT %d\r\n" % len(msg1) + msg1).send(False, b"250 ok\r\n")
    c.send(True, b"BDAT %d LAST\r\n" % len(msg2) + msg2).send(False, b"250 ok\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    rules = [rule('file.data; content:"CHUNKED-PAYLOAD"; bsize:15;', sid=1, proto="smtp"),
             rule('email.subject; content:"chunked";', sid=2, proto="smtp")]
    assert sorted(detect(tmp_path, c.pkts, rules).sids) == [1, 2]


def test_smtp_starttls_becomes_tls(tmp_path):
    hello, _ = client_hello(sni=b"mail.example.net")
    c = Conv(sport=40025, dport=587).handshake().send(False, b"220 mx ESMTP\r\n")
    c.send(True, b"EHLO c\r\n").send(False, b"250-mx\r\n250 STARTTLS\r\n")
    c.send(True, b"STARTTLS\r\n").send(False, b"220 ready to start TLS\r\n")
    c.send(True, record(hello)).close()
    rules = [rule('tls.sni; content:"mail.example.net";', sid=1, proto="tls"),
             rule('smtp.helo; content:"c";', sid=2, proto="smtp")]
    assert sorted(detect(tmp_path, c.pkts, rules).sids) == [1, 2]
    # (TLS writes its record once the server's side of the handshake is in: not here)
    out = osprey_out(tmp_path, c.pkts, [], "--set", "outputs.eve-log.types=[flow,smtp,tls]",
                     name="o")
    (f,) = out.of("flow")
    assert f["app_proto"] == "tls" and f["app_proto_orig"] == "smtp"
    (s,) = out.of("smtp")
    assert s["smtp"] == {"helo": "c"}
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_smtp_anomalies(tmp_path):
    # a command longer than 510 bytes, a reply no command waits for, a bad base64 body
    c = Conv(sport=40025, dport=25).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"HELO " + b"h" * 600 + b"\r\n").send(False, b"250 ok\r\n250 extra\r\n")
    c.send(True, b"MAIL FROM:<a@x>\r\nRCPT TO:<b@y>\r\nDATA\r\n")
    c.send(False, b"250 ok\r\n250 ok\r\n354 go\r\n")
    c.send(True, b"Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment\r\n"
                 b"\r\n!!!!\r\n.\r\n").send(False, b"250 ok\r\n").close()
    names = ["smtp.max_command_line_len_exceeded", "smtp.unable_to_match_reply_with_request",
             "smtp.mime_invalid_base64", "smtp.tls_rejected"]
    rules = [f'alert smtp any any -> any any (msg:"{n}"; app-layer-event:{n}; sid:{i + 1};)'
             for i, n in enumerate(names)]
    assert sorted(detect(tmp_path, c.pkts, rules).sids) == [1, 2, 3]


def test_smtp_enabled_switch(tmp_path):
    # app-layer.protocols.smtp.enabled: detection-only — still smtp (alert smtp on the
    # stream), no buffers; no — not smtp at all
    rules = [rule('email.subject; content:"quarterly";', sid=1, proto="smtp"),
             rule('content:"EHLO";', sid=2, proto="smtp")]
    assert sorted(detect(tmp_path, session(), rules).sids) == [1, 2]
    assert detect(tmp_path, session(), rules, "--set",
                  "app-layer.protocols.smtp.enabled=detection-only", name="det").sids == [2]
    assert detect(tmp_path, session(), rules, "--set", "app-layer.protocols.smtp.enabled=no",
                  name="off").sids == []


def test_ftp_greeting_is_not_smtp(tmp_path):
    # a 220 greeting naming FTP off port 21 stays FTP's
    c = Conv(sport=40025, dport=2121).handshake().send(False, b"220 ProFTPD Server\r\n")
    c.send(True, b"USER x\r\n").close()
    rules = [rule('content:"USER";', sid=1, proto="smtp"),
             rule('content:"USER";', sid=2, proto="ftp")]
    assert detect(tmp_path, c.pkts, rules).sids == [2]


FILES = ("--set", "outputs.eve-log.types=[alert,files,smtp]",
         "--set", "outputs.file-store.enabled=no")


@pytest.mark.parametrize("body,sids", [
    ('filename:"prog.exe";', [1]),
    ('fileext:"exe";', [1]),
    ('filesize:%d;' % len(ATTACH), [1]),
    ('filesize:>%d;' % len(ATTACH), []),
    ('file.name; content:"prog.exe"; bsize:8;', [1]),
    ('filemagic:"no-such-type";', []),
    ('fileext:"pdf";', []),
])
def test_smtp_attachments_are_files(tmp_path, body, sids):
    r = detect(tmp_path, session(), [rule(body, sid=1, proto="smtp")])
    assert r.sids == sids, body


def test_smtp_attachment_md5_and_fileinfo(tmp_path):
    """An attachment is a file of the file layer: filemd5 against a list, fileinfo records
    beside the smtp/email objects, the alert's files[] (Suricata's smtp-attachment-md5)."""
    md5 = hashlib.md5(ATTACH).hexdigest()
    (tmp_path / "bad.md5").write_text("00000000000000000000000000000000\n" + md5 + "\n")
    rules = [rule('filemd5:%s;' % (tmp_path / "bad.md5"), sid=7, proto="smtp"),
             rule('file.data; content:"EVIL-MARKER";', sid=8, proto="smtp")]
    out = osprey_out(tmp_path, session(), rules, *FILES, "-k", "none")
    assert sorted(a["alert"]["signature_id"] for a in out.of("alert")) == [7, 8]
    (fi,) = out.of("fileinfo")
    assert fi["app_proto"] == "smtp"
    info = fi["fileinfo"]
    assert info["filename"] == "prog.exe" and info["state"] == "CLOSED"
    assert info["size"] == len(ATTACH) and info["tx_id"] == 0
    assert info["md5"] == md5  # (the hashes the rules ask for)
    assert fi["email"]["attachment"] == ["prog.exe"] and fi["smtp"]["helo"]
    a8 = [a for a in out.of("alert") if a["alert"]["signature_id"] == 8][0]
    assert a8["files"][0]["filename"] == "prog.exe" and a8["files"][0]["state"] == "CLOSED"
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_smtp_long_attachment_line_is_one_line(tmp_path):
    """A 20,000-byte attachment line (longer than a DATA line piece, 8 KiB) reaches the file
    whole: no line ends between its pieces, so size and md5 are the bytes' (Suricata's
    smtp-file-data-01 has such a 16,384-byte 8bit attachment)."""
    body = (b"0123456789abcdef" * 1250)[:20000]
    msg = (b"Content-Type: multipart/mixed; boundary=Z\r\n\r\n--Z\r\n"
           b"Content-Disposition: attachment; filename=\"long.txt\"\r\n\r\n"
           + body + b"\r\n--Z--\r\n")
    out = osprey_out(tmp_path, session(message=msg), [], *FILES, "-k", "none", "--set",
                     "app-layer.protocols.smtp.attachment-limit=64kb")
    (fi,) = out.of("fileinfo")
    assert fi["fileinfo"]["size"] == len(body)
    r = detect(tmp_path, session(message=msg, seg=1000),
               [rule('file.data; content:"%s"; endswith;' % body[-40:].decode(), sid=1,
                     proto="smtp"),
                rule('filesize:%d;' % len(body), sid=2, proto="smtp")], name="d")
    assert sorted(r.sids) == [1, 2]


def test_snort3_file_data_on_smtp_and_a_service_list(tmp_path):
    # Snort 3's file_data with service:smtp (HTTP, the first protocol registering file.data,
    # not listed) compiles on SMTP's attachments; with service:http,smtp it runs on both
    rules = ['alert tcp any any -> any any ( msg:"a"; flow:to_server,established; file_data; '
             'content:"EVIL-MARKER"; service:smtp; sid:1; )',
             'alert tcp any any -> any any ( msg:"b"; flow:to_server,established; file_data; '
             'content:"EVIL-MARKER"; service:http,smtp; sid:2; )',
             'alert tcp any any -> any any ( msg:"c"; file_data; content:"EVIL-MARKER"; '
             'service:http; sid:3; )']
    r = detect(tmp_path, session(), rules)
    assert sorted(r.sids) == [1, 2]
    assert "not compiled" not in r.proc.stderr
