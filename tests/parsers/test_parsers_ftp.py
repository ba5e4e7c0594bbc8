"""FTP and ftp-data end to end (parsers/ftp/): detection of the control connection, its
commands and replies as transactions (ftp.command, ftp.command_data, ftp.reply,
ftp.completion_code; ftp.mode, ftp.dynamic_port, ftp.reply_received), the too-long anomalies,
EVE ftp records and alert objects; a RETR after PORT announcing the data connection, which is
then ftp-data (file.data, ftpdata_command, EVE ftp_data). Every record validates against
Suricata's EVE schema. (The engine writes no anomaly records for application-layer events
yet: the too-long anomaly is seen through its app-layer-event rule.)"""
import json
import pytest
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import CLI, SRV, Conv, detect, rule
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
FILE = b"root:x:0:0:root:/root:/bin/bash\n"


def control(port_cmd=b"PORT 10,0,0,1,156,64\r\n", long_cmd=None):
    """A control connection: greeting, login, PORT, RETR of passwd, QUIT."""
    c = Conv(sport=40021, dport=21).handshake()
    c.send(False, b"220 (vsFTPd 3.0.3)\r\n")
    c.send(True, b"USER anonymous\r\n").send(False, b"331 Please specify the password.\r\n")
    c.send(True, b"PASS guest\r\n")
    c.send(False, b"230-Welcome\r\n230 Login successful.\r\n")
    if long_cmd:
        c.send(True, long_cmd).send(False, b"550 No.\r\n")
    c.send(True, port_cmd).send(False, b"200 PORT command successful.\r\n")
    c.send(True, b"RETR passwd\r\n")
    c.send(False, b"150 Opening BINARY mode data connection for passwd (33 bytes).\r\n")
    return c


def session():
    """The control connection, and the active data connection the server opens from port 20
    to the port PORT announced (156 * 256 + 64 = 40000): the file goes to the server's
    peer, so to_server on the data flow."""
    c = control()
    n = len(c.pkts)
    d = Conv(src=SRV, dst=CLI, sport=20, dport=40000).handshake()
    d.send(True, FILE).close()
    c.send(False, b"226 Transfer complete.\r\n").send(True, b"QUIT\r\n")
    c.send(False, b"221 Goodbye.\r\n").close()
    return c.pkts[:n] + d.pkts + c.pkts[n:]


@pytest.mark.parametrize("body,proto,sids", [
    ('flow:to_server; ftp.command; content:"RETR";', "ftp", [1]),
    ('ftp.command_data; content:"passwd"; bsize:6;', "ftp", [1]),
    ('flow:to_client; ftp.reply; content:"Transfer complete";', "ftp", [1]),
    ('flow:to_client; ftp.reply; content:"Welcome"; ftp.completion_code; content:"230";',
     "ftp", [1]),
    ('flow:to_client; ftp.completion_code; content:"150";', "ftp", [1]),
    ('ftp.mode:active;', "ftp", [1, 1]),          # the PORT transaction, both sides
    ('flow:to_server; ftp.dynamic_port:40000;', "ftp", [1]),
    ('ftp.dynamic_port:>40000;', "ftp", []),
    ('ftp.mode:passive;', "ftp", []),
    ('ftp.reply_received:yes;', "ftp", [1] * 5),  # USER PASS PORT RETR QUIT, on the reply
    ('ftp.reply_received:no;', "ftp", []),
    ('flow:to_server; file.data; content:"root:x";', "ftp-data", [1]),
    ('flow:to_client; file.data; content:"root:x";', "ftp-data", []),
    ('file.data; content:"root:x";', "ftp-data", [1]),
    ('flow:established,to_client; ftpdata_command:retr;', "ftp-data", [1]),
    ('ftpdata_command:stor;', "ftp-data", []),
])
def test_ftp_rules(tmp_path, body, proto, sids):
    r = detect(tmp_path, session(), [rule(body, sid=1, proto=proto)])
    assert r.sids == sids, body


def test_ftp_needs_the_announcement(tmp_path):
    # the same data connection to a port nobody announced is no ftp-data
    c = control(port_cmd=b"PORT 10,0,0,1,156,65\r\n")
    d = Conv(src=SRV, dst=CLI, sport=20, dport=40000).handshake().send(True, FILE).close()
    rules = [rule('file.data; content:"root:x";', sid=1, proto="ftp-data"),
             rule('ftp.command; content:"RETR";', sid=2, proto="ftp")]
    assert detect(tmp_path, c.close().pkts + d.pkts, rules).sids == [2]


def test_ftp_records_and_anomaly(tmp_path):
    long_cmd = b"RETR " + b"a" * 5000 + b"\r\n"
    c = control(long_cmd=long_cmd)
    c.send(False, b"226 Transfer complete.\r\n").close()
    rules = ['alert ftp any any -> any any (msg:"too long"; flow:to_server; '
             'app-layer-event:ftp.request_command_too_long; sid:5;)']
    out = osprey_out(tmp_path, c.pkts, rules, "--set",
                     "outputs.eve-log.types=[alert,anomaly,flow,ftp]")
    recs = out.of("ftp")
    assert [r["ftp"].get("command") for r in recs] == [None, "USER", "PASS", "RETR", "PORT",
                                                       "RETR"]
    assert recs[0]["ftp"] == {"completion_code": ["220"], "reply": ["(vsFTPd 3.0.3)"],
                              "reply_received": "yes", "command_truncated": False,
                              "reply_truncated": False}
    assert recs[2]["ftp"]["reply"] == ["Welcome", "Login successful."]
    assert recs[2]["ftp"]["completion_code"] == ["230", "230"]
    assert recs[3]["ftp"]["command_truncated"] is True
    assert len(recs[3]["ftp"]["command_data"]) == 4091
    assert recs[4]["ftp"]["dynamic_port"] == 40000 and recs[4]["ftp"]["mode"] == "active"
    assert recs[5]["ftp"] == {"command": "RETR", "command_data": "passwd",
                              "completion_code": ["150", "226"],
                              "reply": ["Opening BINARY mode data connection for passwd "
                                        "(33 bytes).", "Transfer complete."],
                              "reply_received": "yes", "command_truncated": False,
                              "reply_truncated": False}
    (a,) = out.of("alert")
    assert a["alert"]["signature_id"] == 5 and a["app_proto"] == "ftp"
    assert a["ftp"]["command_truncated"] is True
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_ftp_data_record(tmp_path):
    rules = ['alert ftp-data any any -> any any (msg:"passwd"; file.data; content:"root:x"; '
             'sid:9;)']
    out = osprey_out(tmp_path, session(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,ftp,ftp_data]")
    (d,) = out.of("ftp_data")
    assert d["ftp_data"] == {"filename": "passwd", "command": "RETR"}
    assert (d["src_ip"], d["src_port"], d["dest_ip"], d["dest_port"]) == (SRV, 20, CLI, 40000)
    (a,) = out.of("alert")
    assert a["app_proto"] == "ftp-data" and a["ftp_data"] == d["ftp_data"]
    flows = {f["src_port"]: f.get("app_proto") for f in out.of("flow")}
    assert flows == {40021: "ftp", 20: "ftp-data"}
    v = Draft7Validator(SCHEMA)
    for r in out.records:
        assert not list(v.iter_errors(r)), r


def test_ftpbounce(tmp_path):
    # a PORT naming a third host is a bounce; the client's own address is not
    rules = [rule("ftpbounce;", sid=3, proto="tcp")]
    assert detect(tmp_path, session(), rules).sids == []
    c = control(port_cmd=b"PORT 192,168,7,7,0,80\r\n").close()
    assert detect(tmp_path, c.pkts, rules, name="b").sids == [3]


def test_ftp_max_tx(tmp_path):
    # app-layer.protocols.ftp.max-tx: a burst past it raises ftp.too_many_transactions once
    # and the client's side is no longer parsed (the CWD after it runs no rule)
    c = Conv(sport=40021, dport=21).handshake().send(False, b"220 ready\r\n")
    c.send(True, b"PWD\r\nPWD\r\nPWD\r\n").send(False, b'257 "/"\r\n')
    c.send(True, b"CWD /tmp\r\n").send(False, b"250 ok\r\n").close()
    rules = ['alert ftp any any -> any any (msg:"burst"; flow:to_server; '
             'app-layer-event:ftp.too_many_transactions; sid:3;)',
             rule('ftp.command; content:"CWD";', sid=4, proto="ftp")]
    assert detect(tmp_path, c.pkts, rules, "--set",
                  "app-layer.protocols.ftp.max-tx=1").sids == [3]
    assert detect(tmp_path, c.pkts, rules, name="d").sids == [4]


def test_ftp_passive_upload(tmp_path):
    # PASV: the server listens (227's port); the client connects and sends the file (STOR)
    c = Conv(sport=40021, dport=21).handshake().send(False, b"220 ready\r\n")
    c.send(True, b"PASV\r\n").send(False, b"227 Entering Passive Mode (10,0,0,2,195,80).\r\n")
    c.send(True, b"STOR up.txt\r\n").send(False, b"150 Ok to send data.\r\n")
    n = len(c.pkts)
    d = Conv(sport=40100, dport=195 * 256 + 80).handshake().send(True, FILE).close()
    c.send(False, b"226 Transfer complete.\r\n").close()
    pkts = c.pkts[:n] + d.pkts + c.pkts[n:]
    rules = [rule("flow:established,to_server; ftpdata_command:stor;", sid=1,
                  proto="ftp-data"),
             rule('flow:to_server; file.data; content:"root:x";', sid=2, proto="ftp-data"),
             rule('flow:to_server; ftp.dynamic_port:50000;', sid=3, proto="ftp"),
             rule('flow:to_server; ftp.mode:passive; ftp.command; content:"PASV";', sid=4,
                  proto="ftp")]
    assert sorted(detect(tmp_path, pkts, rules).sids) == [1, 2, 3, 4]
    out = osprey_out(tmp_path, pkts, [], "--set",
                     "outputs.eve-log.types=[flow,ftp,ftp_data]", name="o")
    (r,) = out.of("ftp_data")
    assert r["ftp_data"] == {"filename": "up.txt", "command": "STOR"}
    assert (r["src_port"], r["dest_port"]) == (40100, 50000)
