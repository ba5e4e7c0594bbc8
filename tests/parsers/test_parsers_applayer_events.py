"""Suricata's generic app-layer events (app-layer-events.rules) Osprey raises, end to end: a
protocol change announced TLS (SMTP's STARTTLS) and detection found another protocol, or
none: applayer_unexpected_protocol and applayer_no_tls_after_starttls, on the packet that
decided it; TLS as announced raises neither."""
import pytest

from detect_helpers import Conv, detect
from tls_hello_helpers import client_hello, record

RULES = [
    'alert tcp any any -> any any (msg:"SURICATA Applayer No TLS after STARTTLS"; '
    'flow:established; app-layer-event:applayer_no_tls_after_starttls; sid:2260004; rev:2;)',
    'alert tcp any any -> any any (msg:"SURICATA Applayer Unexpected protocol"; '
    'flow:established; app-layer-event:applayer_unexpected_protocol; sid:2260005; rev:1;)',
]


def starttls(after):
    c = Conv(sport=40025, dport=587).handshake().send(False, b"220 mx ESMTP\r\n")
    c.send(True, b"EHLO c\r\n").send(False, b"250-mx\r\n250 STARTTLS\r\n")
    c.send(True, b"STARTTLS\r\n").send(False, b"220 ready to start TLS\r\n")
    # packets: 1-3 handshake, 4 / 6 / 8 / 10 / 12 the exchange, 14 the client's bytes (parsed
    # at their ACK, inspected with the client's next packet, 17: Suricata's IDS model)
    return c.send(True, after).send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") \
        .close().pkts


@pytest.mark.parametrize("after,want", [
    (record(client_hello()[0]), []),
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", [(2260004, 17), (2260005, 17)]),  # HTTP instead
])
def test_no_tls_after_starttls(tmp_path, after, want):
    r = detect(tmp_path, starttls(after), RULES)
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts) == want
