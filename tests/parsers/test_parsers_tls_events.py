"""TLS's app-layer events (Suricata's tls-events.rules) end to end: records (SSLv2 framing and
its ERROR message, handshake records too short for a message header, alerts of one byte,
too many records in one chunk), heartbeats (RFC 6520: overflow, short padding, unknown type,
two in flight, an encrypted answer longer than its request), hellos (lengths past the
message, the server_name extension) and the first certificate's DER (the part that fails).
Each case asserts the exact Suricata rule that alerts and the packet it alerts on."""
import struct

import pytest

from detect_helpers import Conv, detect
from tls_hello_helpers import client_hello, ext, record, u16

EVENTS = {  # Suricata's sids (tls-events.rules)
    "invalid_sslv2_header": 2230000, "invalid_record_type": 2230002,
    "invalid_certificate": 2230004, "certificate_invalid_length": 2230007,
    "error_message_encountered": 2230009, "invalid_ssl_record": 2230010,
    "overflow_heartbeat_message": 2230012, "invalid_heartbeat_message": 2230013,
    "dataleak_heartbeat_mismatch": 2230014, "multiple_sni_extensions": 2230016,
    "invalid_sni_type": 2230017, "invalid_sni_length": 2230018,
    "handshake_invalid_length": 2230019, "too_many_records_in_packet": 2230020,
    "certificate_invalid_version": 2230021, "certificate_invalid_serial": 2230022,
    "certificate_invalid_algorithmidentifier": 2230023,
    "certificate_invalid_x509name": 2230024, "certificate_invalid_date": 2230025,
    "certificate_invalid_extensions": 2230026, "certificate_invalid_der": 2230027,
    "invalid_alert_message": 2230031,
}
RULES = [f'alert tls any any -> any any (msg:"SURICATA TLS {n}"; flow:established; '
         f'app-layer-event:tls.{n}; sid:{sid}; rev:1;)' for n, sid in EVENTS.items()]
RULES.append('alert tls any any -> any any (msg:"cert"; tls.cert_subject; content:"CN=x"; '
             'sid:1; rev:1;)')
HELLO = record(client_hello()[0])


def hs(t, body):
    return bytes([t]) + struct.pack(">I", len(body))[1:] + body


SERVER_HELLO = hs(2, u16(0x0303) + b"\x22" * 32 + b"\x00" + u16(0xc02f) + b"\x00")


def run(tmp_path, flights):
    """flights: (client?, bytes) after the TCP handshake; alerts as (sid, packet)."""
    c = Conv(dport=443).handshake()
    for client, data in flights:
        c.send(client, data)
    r = detect(tmp_path, c.close().pkts, RULES)
    return sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)


def ev(name, pkt):
    return (EVENTS[name], pkt)


# packets: 1-3 the handshake, then each flight and its ACK: 4 / 6 / 8 / 10 …; Suricata's IDS
# model parses a flight at its ACK and inspects it with that side's next packet (the
# server's 6 alerts at 9)
@pytest.mark.parametrize("server,want", [
    (record(SERVER_HELLO), []),
    # SSLv2 framing (a top bit set): an ERROR message, a record length of 0
    (b"\x80\x03\x00\x00\x01", [ev("error_message_encountered", 9)]),
    (b"\x80\x00\x04", [ev("invalid_sslv2_header", 9), ev("invalid_ssl_record", 9)]),
    # a handshake record of 2 bytes; a record ending 1 byte into the next message's header
    (record(b"\x0e\x00"), [ev("invalid_ssl_record", 9)]),
    (record(SERVER_HELLO + b"\x0e") + record(b"\x00\x00\x00" + hs(14, b"")),
     [ev("invalid_ssl_record", 9)]),
    (record(b"\x02", ctype=21), [ev("invalid_alert_message", 9)]),
    (record(b"\x02\x28", ctype=21), []),
    (record(b"\x01", ctype=0x30), [ev("invalid_record_type", 9)]),
    # 10 SSLv2 records of 3 bytes in 30 bytes: past one per 6 bytes
    (b"\x80\x01\x04" * 10, [ev("too_many_records_in_packet", 9)]),
    (b"\x80\x01\x04" * 2, []),                     # 2 in 6 bytes: within
    # a ServerHello cut inside its random
    (record(hs(2, u16(0x0303) + b"\x22" * 10)), [ev("handshake_invalid_length", 9)]),
])
def test_tls_record_events(tmp_path, server, want):
    assert run(tmp_path, [(True, HELLO), (False, server)]) == want


def hb(kind, payload, pad=16):
    return record(bytes([kind]) + u16(len(payload)) + payload + b"p" * pad, ctype=24)


CCS = record(b"\x01", ctype=20)


@pytest.mark.parametrize("flights,want", [
    ([(True, hb(1, b"ping")), (False, hb(2, b"ping"))], []),
    # payload_length 0x4000 in a record of 19 bytes (CVE-2014-0160's request)
    ([(True, record(b"\x01\x40\x00" + b"p" * 16, ctype=24))],
     [ev("overflow_heartbeat_message", 10)]),
    ([(True, hb(1, b"ping", pad=15))], [ev("invalid_heartbeat_message", 10)]),
    ([(True, hb(3, b"ping"))], [ev("invalid_heartbeat_message", 10)]),
    ([(True, hb(1, b"a")), (True, hb(1, b"b"))], [ev("invalid_heartbeat_message", 12)]),
    # encrypted (after ChangeCipherSpec): a 40-byte request answered with 400 bytes
    ([(True, CCS), (False, CCS), (True, record(b"e" * 40, ctype=24)),
      (False, record(b"e" * 400, ctype=24))], [ev("dataleak_heartbeat_mismatch", 17)]),
    ([(True, CCS), (False, CCS), (True, record(b"e" * 40, ctype=24)),
      (False, record(b"e" * 40, ctype=24))], []),
])
def test_tls_heartbeat_events(tmp_path, flights, want):
    # the flights after the hellos: 8, 10, 12, 14 (alerting at their ACK's next packet)
    assert run(tmp_path, [(True, HELLO), (False, record(SERVER_HELLO))] + flights) == want


def hello_with(sni_exts):
    exts = b"".join(ext(0, body) for body in sni_exts) + ext(23, b"")
    body = (u16(0x0303) + b"\x11" * 32 + b"\x00" + u16(2) + u16(0x1301) + b"\x01\x00"
            + u16(len(exts)) + exts)
    return record(hs(1, body))


def sni(name, kind=0):
    sn = bytes([kind]) + u16(len(name)) + name
    return u16(len(sn)) + sn


@pytest.mark.parametrize("hello,want", [
    (hello_with([sni(b"a.example")]), []),
    (hello_with([sni(b"a.example", kind=1)]), [ev("invalid_sni_type", 6)]),
    (hello_with([sni(b"")]), [ev("invalid_sni_length", 6)]),
    (hello_with([sni(b"a" * 256)]), [ev("invalid_sni_length", 6)]),
    (hello_with([sni(b"a.example"), sni(b"b.example")]), [ev("multiple_sni_extensions", 6)]),
    (record(hs(1, u16(0x0303) + b"\x11" * 32 + b"\x00" + u16(3) + b"\x13\x01\x00\x01\x00")),
     [ev("handshake_invalid_length", 6)]),                    # an odd cipher suites length
])
def test_tls_hello_events(tmp_path, hello, want):
    assert run(tmp_path, [(True, hello)]) == want


def tlv(tag, body):
    n = len(body)
    ln = bytes([n]) if n < 128 else bytes([0x81, n]) if n < 256 else b"\x82" + u16(n)
    return bytes([tag]) + ln + body


PARTS = {
    "version": tlv(0xa0, tlv(0x02, b"\x02")),
    "serial": tlv(0x02, b"\x01\x23"),
    "alg": tlv(0x30, tlv(0x06, b"\x2a\x86\x48\xce\x3d\x04\x03\x02")),
    "issuer": tlv(0x30, tlv(0x31, tlv(0x30, tlv(0x06, b"\x55\x04\x03") + tlv(0x0c, b"ca")))),
    "validity": tlv(0x30, tlv(0x17, b"240101000000Z") + tlv(0x17, b"250101000000Z")),
    "subject": tlv(0x30, tlv(0x31, tlv(0x30, tlv(0x06, b"\x55\x04\x03") + tlv(0x0c, b"x")))),
    "spki": tlv(0x30, tlv(0x30, tlv(0x06, b"\x2a\x86\x48\xce\x3d\x02\x01")) + tlv(0x03, b"\0\4")),
    "exts": tlv(0xa3, tlv(0x30, tlv(0x30, tlv(0x06, b"\x55\x1d\x11")
                                    + tlv(0x04, tlv(0x30, tlv(0x82, b"x")))))),
}


def cert(outer=0x30, **bad):
    p = dict(PARTS, **bad)
    tbs = tlv(0x30, b"".join(p[k] for k in PARTS))
    return tlv(outer, tbs + PARTS["alg"] + tlv(0x03, b"\0sig"))


def certificate(der):
    body = struct.pack(">I", len(der))[1:] + der
    return record(hs(11, struct.pack(">I", len(body))[1:] + body))


@pytest.mark.parametrize("der,want", [
    (cert(), [(1, 9)]),
    (cert(version=tlv(0xa0, tlv(0x02, b"\x05"))), [ev("certificate_invalid_version", 9)]),
    (cert(serial=tlv(0x04, b"\x01")), [ev("certificate_invalid_serial", 9)]),
    (cert(alg=tlv(0x30, tlv(0x02, b"\x01"))),
     [ev("certificate_invalid_algorithmidentifier", 9)]),
    (cert(issuer=tlv(0x30, tlv(0x30, b""))), [ev("certificate_invalid_x509name", 9)]),
    (cert(subject=tlv(0x31, b"")), [ev("certificate_invalid_x509name", 9)]),
    (cert(validity=tlv(0x30, tlv(0x04, b"2024"))), [ev("certificate_invalid_date", 9)]),
    (cert(exts=tlv(0xa3, tlv(0x31, b""))), [ev("certificate_invalid_extensions", 9)]),
    (cert(exts=tlv(0xa3, tlv(0x30, tlv(0x30, tlv(0x06, b"\x55\x1d\x11"))))),
     [ev("certificate_invalid_extensions", 9)]),              # an extension without value
    (cert(outer=0x31), [ev("certificate_invalid_der", 9)]),
    (b"\x30\x82\x01\x00\x30\x03\x02\x01", [ev("invalid_certificate", 9)]),  # cut short
])
def test_tls_certificate_events(tmp_path, der, want):
    assert run(tmp_path, [(True, HELLO), (False, record(SERVER_HELLO) + certificate(der))]) \
        == want
