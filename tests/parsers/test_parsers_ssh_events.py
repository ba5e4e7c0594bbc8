"""SSH's app-layer events (Suricata's ssh-events.rules, sids 2228000-2228002) end to end: a
side's first line that is no banner, a banner of 256 bytes or more, a binary packet whose
packet_length is below 2 before NEWKEYS — each alerting with the exact rule, on the packet
that carried it."""
import pytest

from detect_helpers import Conv, detect

SURICATA = [
    'alert ssh any any -> any any (msg:"SURICATA SSH invalid banner"; flow:established; '
    'app-layer-event:ssh.invalid_banner; sid:2228000; rev:1;)',
    'alert ssh any any -> any any (msg:"SURICATA SSH too long banner"; flow:established; '
    'app-layer-event:ssh.long_banner; sid:2228001; rev:1;)',
    'alert ssh any any -> any any (msg:"SURICATA SSH invalid record"; flow:established; '
    'app-layer-event:ssh.invalid_record; sid:2228002; rev:1;)',
]
CLIENT = b"SSH-2.0-libssh_0.9.6\r\n"
SERVER = b"SSH-2.0-OpenSSH_8.9\r\n"
PKT = b"\x00\x00\x00\x0c\x0a\x14" + b"0123456789"   # a whole packet (KEXINIT code, padding 10)


# packets: 1-3 the handshake, 4 the client's bytes (5 its ACK), 6 the server's (7 its ACK);
# the client speaks first: the flow is SSH by its "SSH-" before the server's first line.
# Suricata's IDS model: bytes are parsed at their ACK and inspected with that side's next
# packet (the client's bytes alert at 7, the server's at 9)
@pytest.mark.parametrize("server,client,sids,pkt", [
    (SERVER, CLIENT, [], None),
    (b"Welcome\r\n" + SERVER, CLIENT, [2228000], 9),                # a server's first line
    (SERVER, b"SSH-2.0\r\n", [2228000], 7),                         # no '-' after the version
    (SERVER, b"SSH-2.0-" + b"x" * 248 + b"\r\n", [2228001], 7),      # 256 bytes
    (SERVER, b"SSH-2.0-" + b"x" * 247 + b"\r\n", [], None),          # 255 bytes
    (SERVER + PKT + b"\x00\x00\x00\x01\x00", CLIENT, [2228002], 9),  # packet_length 1
    (SERVER + PKT + b"\x00\x00\x00\x0c\x0a\x15" + b"0123456789" + b"\x00\x00\x00\x01\x00",
     CLIENT, [], None),                                              # after NEWKEYS: encrypted
])
def test_ssh_events(tmp_path, server, client, sids, pkt):
    c = Conv(sport=40022, dport=22).handshake().send(True, client).send(False, server).close()
    r = detect(tmp_path, c.pkts, SURICATA)
    assert r.sids == sids
    assert [a["pcap_cnt"] for a in r.alerts] == ([pkt] if pkt else [])
