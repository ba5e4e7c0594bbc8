"""FTP's and ftp-data's gaps and limits (parsers/ftp/). Suricata's FTP and ftp-data parsers
do not accept gaps: a hole ends the flow's FTP parsing, both directions, as Suricata disables
the app layer of such a flow. A hole in the client's commands (the RETR after it is not
read: no data connection is expected; the replies after it are not read either), in the
server's replies (the commands after it are not read; the transactions open are reported
unanswered at the flow's end), in an ftp-data transfer (its file truncated); and the
bounds the README names — `max-line-length`, 32 reply lines per transaction, 1 MiB of a
transfer kept for file.data — each crossed, with the exact alerts, records (against
Suricata's EVE schema) and counters."""
from detect_helpers import CLI, SRV, Conv, rule
from gap_helpers import eve_run, lose

FILE = b"root:x:0:0:root:/root:/bin/bash\n" * 40
RULES = [rule('flow:to_server; ftp.command; content:"USER";', sid=1, proto="ftp"),
         rule('flow:to_server; ftp.command; content:"RETR";', sid=2, proto="ftp"),
         rule('flow:to_client; ftp.reply; content:"Transfer complete";', sid=3, proto="ftp"),
         rule('flow:to_client; file.data; content:"root:x";', sid=4, proto="ftp-data"),
         rule('flow:to_client; file.data; content:"bash|0a|"; endswith;', sid=5,
              proto="ftp-data")]


def login():
    c = Conv(sport=40021, dport=21).handshake()
    c.send(False, b"220 (vsFTPd 3.0.3)\r\n")
    c.send(True, b"USER anonymous\r\n").send(False, b"331 Password?\r\n")
    c.send(True, b"PASS guest\r\n").send(False, b"230 Login successful.\r\n")
    return c


def passive_retr(c, data=FILE, hole=None):
    """PASV, RETR passwd and the data connection to the 227's port (the file to the client,
    a hole of hole=(a, b) bytes in it), then 226 and QUIT."""
    c.send(True, b"PASV\r\n").send(False, b"227 Entering Passive Mode (10,0,0,2,195,80).\r\n")
    c.send(True, b"RETR passwd\r\n").send(False, b"150 Opening data connection.\r\n")
    n = len(c.pkts)
    d = Conv(sport=40100, dport=195 * 256 + 80).handshake()
    if hole:
        d.send(False, data[:hole[0]])
        lose(d, False, data[hole[0]:hole[1]])
        d.send(False, data[hole[1]:])
    else:  # acknowledged every 32 KiB: within the receiver's 64 KiB window
        for i in range(0, len(data), 32768):
            d.send(False, data[i:i + 32768], seg=1400)
    d.close()
    c.send(False, b"226 Transfer complete.\r\n")
    c.send(True, b"QUIT\r\n").send(False, b"221 Goodbye.\r\n").close()
    return c.pkts[:n] + d.pkts + c.pkts[n:]


def test_a_hole_in_the_commands_gives_the_client_side_up(tmp_path):
    c = login()
    lose(c, True, b"CWD /pub\r\n")
    c.send(False, b"250 Directory changed.\r\n")
    pkts = passive_retr(c)
    r = eve_run(tmp_path, pkts, RULES, ["ftp", "ftp_data", "files"])
    # USER before the hole; nothing of either side's after it (PASV, RETR, the 226): no data
    # connection is expected, so the transfer is no ftp-data
    assert r.sids == [1]
    flows = sorted(f["app_proto"] for f in r.of("flow"))
    assert flows == ["failed", "ftp"]
    assert r.of("ftp_data") == [] and r.of("fileinfo") == []
    cmds = [x["ftp"].get("command") for x in r.of("ftp")]
    assert cmds[:3] == [None, "USER", "PASS"] and "RETR" not in cmds


def test_a_hole_in_the_replies_leaves_the_commands_read(tmp_path):
    c = login()
    c.send(True, b"CWD /pub\r\n")
    lose(c, False, b"250 Directory changed.\r\n")
    pkts = passive_retr(c)
    r = eve_run(tmp_path, pkts, RULES, ["ftp", "ftp_data", "files"])
    # the commands up to the ACK that passed the hole are read (CWD, PASV: unanswered, the 227
    # after the hole is not read, so PASV announces no port); nothing after it (no RETR)
    assert r.sids == [1]
    recs = {x["ftp"].get("command"): x["ftp"] for x in r.of("ftp")}
    assert recs["CWD"]["reply_received"] == "no" and recs["PASV"]["reply_received"] == "no"
    assert "dynamic_port" not in recs["PASV"] and "RETR" not in recs
    assert sorted(f["app_proto"] for f in r.of("flow")) == ["failed", "ftp"]


def test_a_hole_in_the_transfer_truncates_its_file(tmp_path):
    pkts = passive_retr(login(), hole=(600, 700))
    r = eve_run(tmp_path, pkts, RULES, ["ftp", "ftp_data", "files"])
    # the control connection is whole; the transfer's direction is given up at the hole:
    # what came before it is the file, truncated, and file.data there (not its end)
    assert r.sids == [1, 2, 3, 4]
    (f,) = r.of("fileinfo")
    assert f["app_proto"] == "ftp-data"
    assert (f["fileinfo"]["filename"], f["fileinfo"]["state"], f["fileinfo"]["size"]) == (
        "passwd", "TRUNCATED", 600)
    (d,) = r.of("ftp_data")
    assert d["ftp_data"] == {"filename": "passwd", "command": "RETR"}


def test_max_line_length_cuts_a_command(tmp_path):
    # app-layer.protocols.ftp.max-line-length: 64 bytes of a line kept; a longer command is
    # flagged command_truncated with Suricata's anomaly, and the next command is read
    c = login()
    c.send(True, b"CWD /" + b"d" * 100 + b"\r\n").send(False, b"550 No.\r\n")
    pkts = passive_retr(c)
    rules = RULES + ['alert ftp any any -> any any (msg:"long"; flow:to_server; '
                     'app-layer-event:ftp.request_command_too_long; sid:6;)',
                     rule('ftp.command_data; bsize:60;', sid=7, proto="ftp")]
    r = eve_run(tmp_path, pkts, rules, ["ftp"], "--set",
                "app-layer.protocols.ftp.max-line-length=64")
    assert r.sids == [1, 2, 3, 4, 5, 6, 7]
    (cwd,) = [x["ftp"] for x in r.of("ftp") if x["ftp"].get("command") == "CWD"]
    assert cwd["command_truncated"] is True and cwd["command_data"] == "/" + "d" * 59
    # the default (4 KiB) keeps it whole
    r = eve_run(tmp_path, pkts, rules, ["ftp"], name="default")
    assert r.sids == [1, 2, 3, 4, 5]


def test_reply_lines_past_32_are_counted(tmp_path):
    c = login()
    lines = b"".join(b"211-feature %d\r\n" % i for i in range(40)) + b"211 End\r\n"
    c.send(True, b"FEAT\r\n").send(False, lines)
    pkts = passive_retr(c)
    rules = [rule('flow:to_client; ftp.reply; content:"feature 30"; bsize:10;', sid=1,
                  proto="ftp"),
             rule('flow:to_client; ftp.reply; content:"feature 32"; bsize:10;', sid=2,
                  proto="ftp")]
    r = eve_run(tmp_path, pkts, rules, ["ftp"])
    assert r.sids == [1]  # 32 lines kept: feature 0 … 31
    (feat,) = [x["ftp"] for x in r.of("ftp") if x["ftp"].get("command") == "FEAT"]
    assert feat["reply"] == ["feature %d" % i for i in range(32)]
    assert r.counters("ftp")["ftp_lines_shed"] == 9


def test_a_transfer_past_1mib_keeps_1mib_for_file_data(tmp_path):
    big = b"A" * (1 << 20) + b"TAIL-MARKER"
    pkts = passive_retr(login(), data=big)
    rules = [rule('flow:to_client; file.data; content:"TAIL-MARKER";', sid=1,
                  proto="ftp-data"),
             rule("flow:to_client; filesize:%d;" % len(big), sid=2, proto="ftp-data")]
    # (the stream's reassembly depth, 1 MiB by default, raised so that the parser sees it all)
    r = eve_run(tmp_path, pkts, rules, ["files"], "--set", "stream.reassembly.depth=4mb")
    # file.data keeps FTP_DATA_MAX (1 MiB): the tail is not in it; the file is whole
    assert r.sids == [2]
    (f,) = r.of("fileinfo")
    assert (f["fileinfo"]["state"], f["fileinfo"]["size"]) == ("CLOSED", len(big))
    assert r.counters("ftp_data")["ftp_data_bytes_shed"] == len(b"TAIL-MARKER")


def test_expected_data_connections_past_1024_are_shed(tmp_path):
    # 1030 PASV + RETR pairs (each answered, so none waits) announce 1030 data connections
    # none of which comes: the table keeps 1024 (the oldest shed, counted); the last
    # announced is still expected
    c = login()
    for i in range(1030):
        port = 20000 + i
        c.send(True, b"PASV\r\n").send(False, b"227 Entering Passive Mode (10,0,0,2,%d,%d).\r\n"
                                       % (port >> 8, port & 255))
        c.send(True, b"RETR f%d\r\n" % i).send(False, b"150 ok\r\n226 done\r\n")
    n = len(c.pkts)
    d = Conv(sport=40100, dport=20000 + 1029).handshake().send(False, FILE).close()
    c.send(True, b"QUIT\r\n").send(False, b"221 bye\r\n").close()
    rules = [rule('flow:to_client; file.data; content:"root:x";', sid=1, proto="ftp-data")]
    r = eve_run(tmp_path, c.pkts[:n] + d.pkts + c.pkts[n:], rules, ["ftp_data"])
    assert r.sids == [1]
    (x,) = r.of("ftp_data")
    assert x["ftp_data"] == {"filename": "f1029", "command": "RETR"}
    ftp = r.counters("ftp")
    assert (ftp["ftp_expect"], ftp["ftp_expect_shed"]) == (1030, 6)
