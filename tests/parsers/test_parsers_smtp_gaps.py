"""SMTP's gaps and limits (parsers/smtp/): a hole in the client's message (Suricata's SMTP
parser does not accept gaps: the flow's parsing ends there, both directions, the open
attachment is truncated, what came before the hole still alerts and the transaction is
reported at the flow's end), a hole in the server's replies (the client's message, read
before the hole is seen, is whole), and the per-flow bounds the
README names — reply lines past 510 bytes, lines past 4096 kept short, 256 pipelined
commands, 64 recipients — each crossed, with the exact alerts, records (against Suricata's
EVE schema) and counters."""
import base64

from detect_helpers import Conv, rule
from gap_helpers import eve_run, lose

ATTACH = b"MZ\x90\x00 attached program \x00\x01 " + b"P" * 300 + b" EVIL-MARKER-TAIL"
MESSAGE = (b"From: alice@example.org\r\nTo: bob@example.net\r\nSubject: quarterly report\r\n"
           b"Content-Type: multipart/mixed; boundary=\"B\"\r\n\r\n"
           b"--B\r\nContent-Type: application/octet-stream; name=\"prog.exe\"\r\n"
           b"Content-Transfer-Encoding: base64\r\n"
           b"Content-Disposition: attachment; filename=\"prog.exe\"\r\n\r\n"
           + base64.encodebytes(ATTACH).replace(b"\n", b"\r\n") + b"--B--\r\n")

RULES = [rule('email.subject; content:"quarterly";', sid=1, proto="smtp"),
         rule('file.data; content:"MZ|90 00|"; startswith;', sid=2, proto="smtp"),
         rule('file.data; content:"EVIL-MARKER-TAIL";', sid=3, proto="smtp"),
         rule('smtp.mail_from; content:"second";', sid=4, proto="smtp"),
         rule('filename:"prog.exe";', sid=5, proto="smtp")]


def envelope():
    c = Conv(sport=40025, dport=25).handshake()
    c.send(False, b"220 mx.example.net ESMTP ready\r\n")
    c.send(True, b"EHLO client.example.org\r\n").send(False, b"250 mx\r\n")
    c.send(True, b"MAIL FROM:<alice@example.org>\r\nRCPT TO:<bob@example.net>\r\nDATA\r\n")
    return c


def test_a_hole_in_the_message_gives_the_client_side_up(tmp_path):
    c = envelope().send(False, b"250 ok\r\n250 ok\r\n354 go ahead\r\n")
    cut = MESSAGE.index(b"--B--") - 120  # the attachment's last base64 lines are lost
    c.send(True, MESSAGE[:cut - 200])
    lose(c, True, MESSAGE[cut - 200:cut])
    c.send(True, MESSAGE[cut:] + b".\r\n").send(False, b"250 queued\r\n")
    c.send(True, b"MAIL FROM:<second@example.org>\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["smtp", "files"])
    # the headers and the attachment's first bytes came before the hole; nothing after it
    # is read (its tail, the second MAIL FROM); at the flow's end the cut file is closed
    # (truncated) and inspected: its bytes (sid 2) and its name (sid 5)
    assert r.sids == [1, 2, 5]
    (s,) = r.of("smtp")
    assert s["tx_id"] == 0 and s["smtp"]["mail_from"] == "<alice@example.org>"
    assert s["email"]["status"] == "BODY_STARTED"
    assert s["email"]["attachment"] == ["prog.exe"]
    (f,) = r.of("fileinfo")
    assert f["app_proto"] == "smtp"
    assert (f["fileinfo"]["filename"], f["fileinfo"]["state"]) == ("prog.exe", "TRUNCATED")
    assert f["fileinfo"]["size"] < len(ATTACH)
    assert r.stats["app_layer"]["flow"]["smtp"] == 1


def test_a_hole_in_the_replies_leaves_the_message_read(tmp_path):
    # the 354 never arrives: the flow's parsing ends at that hole, but the client's message
    # (DATA starts it at once, as a pipelining client sends it) is read whole before
    c = envelope()
    lose(c, False, b"250 ok\r\n250 ok\r\n354 go ahead\r\n")
    c.send(True, MESSAGE + b".\r\n").send(False, b"250 queued\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["smtp", "files"])
    assert r.sids == [1, 2, 3, 5]
    (s,) = r.of("smtp")
    assert s["email"]["status"] == "PARSE_DONE"
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", len(ATTACH))


def test_long_lines_past_the_rfc_and_the_kept_length(tmp_path):
    # a reply line past 510 bytes: smtp.max_reply_line_len_exceeded; a HELO past 4096 bytes
    # keeps its first 4096 (smtp.helo is cut there, the rest of the line skipped)
    c = Conv(sport=40025, dport=25).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"HELO " + b"h" * 5000 + b"\r\n").send(False, b"250 " + b"r" * 600 + b"\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    rules = ['alert smtp any any -> any any (msg:"r"; app-layer-event:'
             'smtp.max_reply_line_len_exceeded; sid:1;)',
             'alert smtp any any -> any any (msg:"c"; app-layer-event:'
             'smtp.max_command_line_len_exceeded; sid:2;)',
             rule("smtp.helo; bsize:4091;", sid=3, proto="smtp")]
    r = eve_run(tmp_path, c.pkts, rules, ["smtp"])
    assert r.sids == [1, 2, 3]
    (s,) = r.of("smtp")
    assert s["smtp"]["helo"] == "h" * 4091


def test_pipelined_commands_past_256_are_shed(tmp_path):
    # 300 NOOPs in one burst: 256 wait for their replies, 44 are counted and not kept
    c = Conv(sport=40025, dport=25).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"EHLO c\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"NOOP\r\n" * 300).send(False, b"250 ok\r\n" * 300)
    c.send(True, b"MAIL FROM:<second@example.org>\r\n").send(False, b"250 ok\r\n").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["smtp"])
    assert r.sids == [4]  # parsing goes on past the shed commands
    assert r.counters("smtp")["smtp_commands_shed"] == 44


def test_recipients_past_64_are_counted_not_kept(tmp_path):
    rcpts = b"".join(b"RCPT TO:<u%d@example.net>\r\n" % i for i in range(70))
    c = Conv(sport=40025, dport=25).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"EHLO c\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"MAIL FROM:<a@example.org>\r\n" + rcpts + b"DATA\r\n")
    c.send(False, b"250 ok\r\n" * 71 + b"354 go\r\n")
    c.send(True, MESSAGE + b".\r\n").send(False, b"250 queued\r\n").close()
    rules = [rule('smtp.rcpt_to; content:"<u69@";', sid=1, proto="smtp"),
             rule('smtp.rcpt_to; content:"<u63@";', sid=2, proto="smtp")]
    r = eve_run(tmp_path, c.pkts, rules, ["smtp"])
    # the transaction keeps 64 recipients: the 64th is a buffer element, the 70th none
    assert r.sids == [2]
    (s,) = r.of("smtp")
    assert len(s["smtp"]["rcpt_to"]) == 64 and s["smtp"]["rcpt_to"][-1] == "<u63@example.net>"
    assert r.counters("smtp")["smtp_list_shed"] == 6


def mail(message):
    c = Conv(sport=40025, dport=25).handshake().send(False, b"220 mx\r\n")
    c.send(True, b"EHLO c\r\n").send(False, b"250 ok\r\n")
    c.send(True, b"MAIL FROM:<a@example.org>\r\nRCPT TO:<b@example.net>\r\nDATA\r\n")
    c.send(False, b"250 ok\r\n250 ok\r\n354 go\r\n")
    return c.send(True, message + b".\r\n").send(False, b"250 queued\r\n").close().pkts


MIME_EVENTS = ["long_header_value", "long_header_name", "long_line", "long_boundary",
               "long_filename", "parse_failed", "long_enc_line"]
MIME_RULES = [f'alert smtp any any -> any any (msg:"{n}"; app-layer-event:smtp.mime_{n}; '
              f'sid:{i + 1};)' for i, n in enumerate(MIME_EVENTS)]


def nested(depth, leaf):
    """depth multiparts, each the only part of the one around it, leaf inside."""
    msg = leaf
    for i in reversed(range(depth)):
        msg = (b"Content-Type: multipart/mixed; boundary=\"L%d\"\r\n\r\n--L%d\r\n" % (i, i) +
               msg + b"\r\n--L%d--\r\n" % i)
    return msg


def test_mime_bounds(tmp_path):
    # MIME's bounds crossed: a Subject of 2100 bytes (2000 kept,
    # smtp.mime_long_header_value), a header name of 80 bytes (76), a text line of 1000
    # bytes (998), a boundary of 260 bytes (254)
    b = b"B" * 260
    msg = (b"Subject: " + b"s" * 2100 + b"\r\nX-" + b"n" * 77 + b": v\r\n"
           b"Content-Type: multipart/mixed; boundary=\"" + b + b"\"\r\n\r\n--" + b + b"\r\n"
           b"Content-Type: text/plain\r\n\r\n" + b"t" * 1000 + b"\r\n--" + b + b"--\r\n")
    rules = MIME_RULES + [rule("email.subject; bsize:2000;", sid=20, proto="smtp")]
    r = eve_run(tmp_path, mail(msg), rules, ["smtp"])
    (s,) = r.of("smtp")
    assert r.sids == [1, 2, 3, 4, 20]
    assert s["email"]["subject"] == "s" * 2000
    # a file name of 300 bytes (256), a base64 line of 80 bytes (76)
    msg = (b"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n"
           b"Content-Disposition: attachment; filename=\"" + b"f" * 300 + b".bin\"\r\n"
           b"Content-Transfer-Encoding: base64\r\n\r\n" + b"QUFB" * 20 + b"\r\n--b--\r\n")
    r = eve_run(tmp_path, mail(msg), MIME_RULES, ["smtp"], name="file")
    assert r.sids == [5, 7]


def test_mime_nesting_past_8(tmp_path):
    # 9 nested multiparts: the 9th is read as one body (smtp.mime_parse_failed), so the
    # attachment inside it is no file; 8 nested still find it
    leaf = (b"Content-Disposition: attachment; filename=\"deep.bin\"\r\n\r\nDEEP-MARKER")
    rules = MIME_RULES + [rule('file.data; content:"DEEP-MARKER";', sid=21, proto="smtp")]
    assert eve_run(tmp_path, mail(nested(9, leaf)), rules, ["smtp"]).sids == [6]
    assert eve_run(tmp_path, mail(nested(8, leaf)), rules, ["smtp"], name="8").sids == [21]
