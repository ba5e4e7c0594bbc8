"""A server greeting several protocols share (SMTP's and FTP's "220"), off their ports: the
client's first command decides the flow's protocol, as Suricata detects SMTP on the client's
side only and FTP on the server's side only from vsftpd's "220 (". A FileZilla FTP server on
port 443 greets "220-FileZilla Server"; ET's sid 2003055 (`alert ftp`, "220-" from the
server) alerts on it, which it cannot while the greeting calls the flow SMTP."""
import pytest

from detect_helpers import Conv, detect, rule
from outputs_helpers import osprey_out

FILEZILLA = [b"220-FileZilla Server version 0.9.33 beta\r\n", b"220 Please visit us\r\n"]
BANNER = ('flow:from_server,established; content:"220-"; depth:4; '
          'classtype:non-standard-protocol;')


def greeted(port, greeting, client):
    c = Conv(sport=41492, dport=port).handshake()
    for line in greeting:
        c.send(False, line)
    if client:
        c.send(True, client).send(False, b"331 Password required\r\n")
    return c.close().pkts


def flow_protocols(tmp_path, pkts):
    out = osprey_out(tmp_path, pkts, [rule('content:"never-seen";', sid=9)], "--set",
                     "outputs.eve-log.types=[flow,anomaly]")
    (f,) = out.of("flow")
    anomalies = [a["anomaly"].get("event") for a in out.of("anomaly")]
    return f.get("app_proto"), f.get("app_proto_ts"), f.get("app_proto_tc"), anomalies


@pytest.mark.parametrize("greeting,client,proto", [
    (FILEZILLA, b"USER admin\r\n", "ftp"),         # the client's FTP command decides
    (FILEZILLA, b"EHLO mail.example\r\n", "smtp"),  # … or its SMTP one
    ([b"220 mx.example ESMTP Postfix\r\n"], b"EHLO a\r\n", "smtp"),
    ([b"220 ProFTPD Server ready\r\n"], b"USER bob\r\n", "ftp"),
    ([b"220 (vsFTPd 3.0.3)\r\n"], None, "ftp"),      # Suricata's own server pattern
    (FILEZILLA, None, None),                          # a greeting alone decides nothing
])
def test_the_clients_first_command_decides(tmp_path, greeting, client, proto):
    got, ts, tc, anomalies = flow_protocols(tmp_path, greeted(443, greeting, client))
    assert got == proto
    # one protocol both ways: the greeting is not a mismatch
    assert ts is None and tc is None
    assert "applayer_mismatch_protocol_both_directions" not in anomalies


def test_an_ftp_greeting_off_port_21_matches_alert_ftp(tmp_path):
    pkts = greeted(443, FILEZILLA, b"USER admin\r\n")
    rules = [rule(BANNER, sid=2003055, proto="ftp"), rule(BANNER, sid=2, proto="smtp")]
    assert detect(tmp_path, pkts, rules).sids == [2003055]
