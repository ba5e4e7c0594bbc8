"""IMAP's gaps and limits beyond test_parsers_imap.py's server-side gap (parsers/imap/): a
hole in the client's commands (an APPEND's literal cut: its attachment is not a file; the
next tagged command resumes), and the bounds the README names — 256 commands waiting, a line
kept to 4096 bytes — each crossed, with the exact alerts, records against Suricata's EVE
schema (IMAP has no record of its own: flow, fileinfo) and counters."""
import base64

from detect_helpers import Conv, rule
from gap_helpers import eve_run, lose

ATTACH = b"%PDF-1.4 " + b"x" * 300 + b" APPEND-MARKER"
MESSAGE = (b"From: a@example.org\r\nSubject: up\r\n"
           b"Content-Type: multipart/mixed; boundary=\"YY\"\r\n\r\n"
           b"--YY\r\nContent-Type: application/pdf; name=\"up.pdf\"\r\n"
           b"Content-Transfer-Encoding: base64\r\n\r\n"
           + base64.encodebytes(ATTACH).replace(b"\n", b"\r\n") + b"--YY--\r\n")


def login():
    c = Conv(sport=40143, dport=143).handshake()
    c.send(False, b"* OK [CAPABILITY IMAP4rev1] ready\r\n")
    c.send(True, b"a1 LOGIN bob secret\r\n").send(False, b"a1 OK LOGIN completed\r\n")
    return c


def append(c, tag, hole=None, plus=False):
    """An APPEND of MESSAGE: synchronizing (the server's `+` first) or LITERAL+ ({n+})."""
    if plus:
        c.send(True, b"%s APPEND INBOX {%d+}\r\n" % (tag, len(MESSAGE)))
    else:
        c.send(True, b"%s APPEND INBOX {%d}\r\n" % (tag, len(MESSAGE)))
        c.send(False, b"+ Ready for literal data\r\n")
    data = MESSAGE + b"\r\n"
    if hole:
        c.send(True, data[:hole[0]])
        lose(c, True, data[hole[0]:hole[1]])
        if data[hole[1]:]:
            c.send(True, data[hole[1]:])
    else:
        c.send(True, data)
    return c.send(False, b"%s OK APPEND completed\r\n" % tag)


RULES = [rule('flow:to_server; file.data; content:"APPEND-MARKER";', sid=1, proto="imap"),
         rule('flow:to_server; content:"a9 LOGOUT";', sid=2, proto="imap"),
         rule('filename:"up.pdf";', sid=3, proto="imap")]


def test_a_hole_in_an_appended_literal_resumes_at_the_next_command(tmp_path):
    c = login()
    # the literal loses its attachment's middle and end: the server's tagged OK completes
    # the APPEND before the client's side reaches the hole, so its message is cut then (its
    # attachment truncated); after the hole the next tagged command (a LITERAL+ APPEND)
    # resumes, its message whole
    start = MESSAGE.index(b"Content-Transfer-Encoding")
    append(c, b"a2", hole=(start + 100, len(MESSAGE) + 2))
    append(c, b"a3", plus=True)
    c.send(True, b"a9 LOGOUT\r\n").send(False, b"* BYE\r\na9 OK\r\n").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["files"])
    assert r.sids == [1, 2, 3, 3]
    files = [(f["fileinfo"]["filename"], f["fileinfo"]["state"]) for f in r.of("fileinfo")]
    assert sorted(files) == [("up.pdf", "CLOSED"), ("up.pdf", "TRUNCATED")]
    assert [f["app_proto"] for f in r.of("flow")] == ["imap"]


def test_commands_past_256_waiting_are_shed(tmp_path):
    c = login()
    c.send(True, b"".join(b"n%d NOOP\r\n" % i for i in range(300)))
    c.send(False, b"".join(b"n%d OK NOOP\r\n" % i for i in range(300)))
    append(c, b"a3").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["files"])
    assert r.sids == [1, 3]  # read on past the shed commands
    assert r.counters("imap")["imap_commands_shed"] == 44


def test_a_line_past_4096_bytes_is_kept_short(tmp_path):
    # a LOGIN of 5000 bytes: its first 4096 are the line, the rest skipped to its end; the
    # command after it is read
    c = Conv(sport=40143, dport=143).handshake()
    c.send(False, b"* OK ready\r\n")
    c.send(True, b"a1 LOGIN " + b"u" * 5000 + b" p\r\n").send(False, b"a1 NO\r\n")
    append(c, b"a2")
    c.send(True, b"a9 LOGOUT\r\n").send(False, b"a9 OK\r\n").close()
    rules = RULES + [rule('flow:to_server; content:"uuuu p|0d 0a|";', sid=4, proto="imap")]
    r = eve_run(tmp_path, c.pkts, rules, ["files"])
    # (sid 4: the stream keeps every byte; the parser does not need it to go on)
    assert r.sids == [1, 2, 3, 4]
