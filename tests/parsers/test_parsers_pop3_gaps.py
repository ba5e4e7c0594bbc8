"""POP3's gaps and limits (parsers/pop3/): a hole in a retrieved message (the message is cut,
its attachment truncated, the transaction reported; parsing resumes at the server's next chunk
that starts like POP3, as Suricata's parser accepts gaps), a hole in the client's commands,
and the bounds the README names — 256 commands waiting (pop3.too_many_transactions), 64
arguments and response lines per transaction — each crossed, with the exact alerts, records
(against Suricata's EVE schema) and counters."""
import base64

from detect_helpers import Conv, rule
from gap_helpers import eve_run, lose


def message(marker):
    att = b"PK\x03\x04 zipped " + b"Z" * 400 + b" " + marker
    return (b"From: a@example.org\r\nSubject: invoice\r\n"
            b"Content-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n"
            b"--XX\r\nContent-Type: application/zip; name=\"%s.zip\"\r\n" % marker.lower()
            + b"Content-Transfer-Encoding: base64\r\n"
            b"Content-Disposition: attachment\r\n\r\n"
            + base64.encodebytes(att).replace(b"\n", b"\r\n") + b"--XX--\r\n"), att


FIRST, FIRST_ATT = message(b"FIRST")
SECOND, SECOND_ATT = message(b"SECOND")
RULES = [rule('file.data; content:"PK|03 04|"; startswith;', sid=1, proto="pop3"),
         rule('file.data; content:"FIRST";', sid=2, proto="pop3"),
         rule('file.data; content:"SECOND";', sid=3, proto="pop3"),
         rule('pop3.command:RETR; pop3.args; content:"2";', sid=4, proto="pop3"),
         rule('filename:"second.zip";', sid=5, proto="pop3")]


def login():
    c = Conv(sport=40110, dport=110).handshake()
    c.send(False, b"+OK POP3 server ready\r\n")
    c.send(True, b"USER bob\r\n").send(False, b"+OK\r\n")
    c.send(True, b"PASS secret\r\n").send(False, b"+OK 2 messages\r\n")
    return c


def retr(c, n, msg, hole=None):
    c.send(True, b"RETR %d\r\n" % n)
    resp = b"+OK %d octets\r\n" % len(msg) + msg + b".\r\n"
    if hole is None:
        return c.send(False, resp)
    a, b = hole
    c.send(False, resp[:a])
    lose(c, False, resp[a:b])
    return c.send(False, resp[b:]) if resp[b:] else c


def test_a_hole_in_a_retrieved_message_resumes_at_the_next_response(tmp_path):
    c = login()
    # the first message loses bytes in its attachment (and its end mark is lost too: the
    # hole runs to the end of the response)
    n = len(b"+OK %d octets\r\n" % len(FIRST))
    start = n + FIRST.index(b"Content-Disposition")
    retr(c, 1, FIRST, hole=(start + 200, n + len(FIRST) + 3))
    retr(c, 2, SECOND)
    c.send(True, b"QUIT\r\n").send(False, b"+OK bye\r\n").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["pop3", "files"])
    # both attachments start with PK (the first, truncated, is inspected when it is cut);
    # the first's tail was lost; the second RETR and its whole attachment are read
    assert r.sids == [1, 1, 3, 4, 5]
    files = sorted((f["fileinfo"]["filename"], f["fileinfo"]["state"]) for f in r.of("fileinfo"))
    assert files == [("first.zip", "TRUNCATED"), ("second.zip", "CLOSED")]
    recs = [p["pop3"] for p in r.of("pop3")]
    assert [p.get("request", {}).get("command") for p in recs] == [None, "USER", "PASS",
                                                                   "RETR", "RETR", "QUIT"]
    assert recs[3]["request"]["args"] == ["1"]
    assert recs[4]["request"]["args"] == ["2"] and recs[4]["response"]["status"] == "+OK"
    (second,) = [f for f in r.of("fileinfo") if f["fileinfo"]["filename"] == "second.zip"]
    assert second["fileinfo"]["size"] == len(SECOND_ATT)


def test_a_hole_in_the_commands_resumes_at_the_next_command(tmp_path):
    c = login()
    lose(c, True, b"RETR 1\r\n")  # the server's answer still comes
    c.send(False, b"+OK %d octets\r\n" % len(FIRST) + FIRST + b".\r\n")
    retr(c, 2, SECOND)
    c.send(True, b"QUIT\r\n").send(False, b"+OK bye\r\n").close()
    r = eve_run(tmp_path, c.pkts, RULES, ["pop3", "files"])
    # the first message is answered to no command: a response of its own, not a message
    # (only RETR / TOP answers are read as one); the second is
    assert r.sids == [1, 3, 4, 5]
    recs = [p["pop3"] for p in r.of("pop3")]
    assert [p.get("request", {}).get("command") for p in recs] == [None, "USER", "PASS",
                                                                   None, "RETR", "QUIT"]


def test_commands_past_256_waiting_are_shed(tmp_path):
    c = login()
    c.send(True, b"NOOP\r\n" * 300).send(False, b"+OK\r\n" * 300)
    retr(c, 2, SECOND)
    c.close()
    rules = RULES + ['alert pop3 any any -> any any (msg:"max-tx"; '
                     'app-layer-event:pop3.too_many_transactions; sid:6;)']
    r = eve_run(tmp_path, c.pkts, rules, ["pop3"])
    # raised once, at the 257th; the shed commands' responses answer nothing (responses of
    # their own), and the flow is read on: the RETR after them
    assert r.sids == [1, 3, 4, 5] + [6] * 44  # once per command shed
    assert r.counters("pop3")["pop3_commands_shed"] == 44


def test_arguments_and_response_lines_past_64_are_counted(tmp_path):
    c = login()
    c.send(True, b"APOP " + b" ".join(b"a%d" % i for i in range(70)) + b"\r\n")
    c.send(False, b"-ERR no\r\n")
    c.send(True, b"LIST\r\n")
    c.send(False, b"+OK 70 messages\r\n" + b"".join(b"%d 100\r\n" % i for i in range(1, 71))
           + b".\r\n").close()
    rules = [rule('pop3.args; content:"a63"; bsize:3;', sid=1, proto="pop3"),
             rule('pop3.args; content:"a64"; bsize:3;', sid=2, proto="pop3"),
             rule('pop3.response; content:"63 100"; bsize:6;', sid=3, proto="pop3"),
             rule('pop3.response; content:"64 100"; bsize:6;', sid=4, proto="pop3"),
             rule('pop3.response; content:"65 100"; bsize:6;', sid=5, proto="pop3")]
    r = eve_run(tmp_path, c.pkts, rules, ["pop3"])
    # 64 kept of each: args a0..a63; the LIST's data lines 1..64 (its first line, the
    # header, is pop3.response's element 0 besides them)
    assert r.sids == [1, 3, 4]
    apop, lst = [p["pop3"] for p in r.of("pop3")][3:5]
    assert apop["request"]["args"] == ["a%d" % i for i in range(64)]
    assert lst["response"]["header"] == "70 messages"
    assert lst["response"]["data"] == ["%d 100" % i for i in range(1, 65)]
    assert r.counters("pop3")["pop3_list_shed"] == 6 + 6
