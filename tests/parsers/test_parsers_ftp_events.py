"""FTP's file events (Suricata's ftp-events.rules, sids 2232003-2232004) end to end: a RETR or
STOR before any data port was announced, and one without a file name — each alerting with the
exact rule on the packet that carried the command; a RETR after PORT raises neither."""
import pytest

from detect_helpers import Conv, detect

SURICATA = [
    'alert ftp any any -> any any (msg:"SURICATA FTP file before port"; '
    'app-layer-event:ftp.file_before_port; sid:2232003; rev:1;)',
    'alert ftp any any -> any any (msg:"SURICATA FTP file without name"; '
    'app-layer-event:ftp.file_without_name; sid:2232004; rev:1;)',
]


# packets: 1-3 the handshake, 4 the greeting (5 ACK), 6 USER (7), 8 its reply (9), then each
# command and its reply: 10 / 12, 14 / 16; Suricata's IDS model parses a command at its ACK
# and inspects it with the client's next packet (10 alerts at 13, 14 at 17)
@pytest.mark.parametrize("cmds,sids,pkt", [
    ([b"PORT 10,0,0,1,156,64\r\n", b"RETR passwd\r\n"], [], None),
    ([b"PASV\r\n", b"RETR passwd\r\n"], [2232003], 17),        # no 227 came: no port
    ([b"NOOP\r\n", b"STOR up.txt\r\n"], [2232003], 17),
    ([b"PORT 10,0,0,1,156,64\r\n", b"RETR\r\n"], [2232004], 17),
    ([b"RETR\r\n", b"NOOP\r\n"], [2232004], 13),              # no name comes first
])
def test_ftp_file_events(tmp_path, cmds, sids, pkt):
    c = Conv(sport=40021, dport=21).handshake().send(False, b"220 (vsFTPd 3.0.3)\r\n")
    c.send(True, b"USER anonymous\r\n").send(False, b"230 Login successful.\r\n")
    for cmd in cmds:
        c.send(True, cmd).send(False, b"200 Ok.\r\n")
    r = detect(tmp_path, c.close().pkts, SURICATA)
    assert r.sids == sids
    assert [a["pcap_cnt"] for a in r.alerts] == ([pkt] if pkt else [])
