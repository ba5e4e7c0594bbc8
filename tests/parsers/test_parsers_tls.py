"""TLS parser: ClientHello (SNI, version, JA3 and JA4 computed here independently),
ServerHello (JA3S), the server certificate's subject/issuer/serial (a certificate made here
with `cryptography`), records split across segments and handshakes spanning records, and
malformed input that must not crash or hang. The ClientHello, JA3/JA4 and server flight
builders are in lib/tls_hello_helpers.py (the detect and outputs tests use them too)."""
import datetime
import hashlib
import struct

from parsers_helpers import app_trace, conversation
from tls_hello_helpers import client_hello, ext, ja3, ja4, make_cert, record, server_flight, u16


def test_client_hello_sni_ja3_ja4_split_records(trace):
    hs, types = client_hello()
    # the hello spans two records, and the records are cut into 3-byte segments
    data = record(hs[:40]) + record(hs[40:])
    a = app_trace(trace, conversation(data, dport=8443, seg=3))
    assert a.flows[0]["app_proto"] == "tls"
    (b,) = a.bufs("tls_client_hello")
    s, h = ja3(types)
    assert b["tls.sni"] == b"Example.COM"
    assert b["ja3.string"] == s.encode()
    assert b["ja3.hash"] == h.encode()
    assert b["ja4.hash"] == ja4(types).encode()
    assert b["tls.version"] == b"TLS 1.3"
    assert a.stats["tls_handshakes"] == 1


def test_ja4_without_sni_and_alpn(trace):
    hs, types = client_hello(sni=None, alpn=())
    (b,) = app_trace(trace, conversation(record(hs))).bufs("tls_client_hello")
    assert "tls.sni" not in b
    assert b["ja4.hash"] == ja4(types, sni=False, alpn=None).encode()


def test_server_hello_and_certificate(trace):
    hs, _ = client_hello()
    der = make_cert()
    a = app_trace(trace, conversation(record(hs), server_flight(der), rseg=7))
    (sh,) = a.bufs("tls_server_hello")
    js = "771,49199,65281"
    assert sh["ja3s.string"] == js.encode()
    assert sh["ja3s.hash"] == hashlib.md5(js.encode()).hexdigest().encode()
    assert sh["tls.version"] == b"TLS 1.2"
    (c,) = a.bufs("tls_certificate")
    assert c["tls.cert_subject"] == b"C=US, ST=California, O=Example Inc, CN=www.example.com"
    assert c["tls.cert_issuer"] == b"C=US, O=Test CA, CN=Test CA Root"
    assert c["tls.cert_serial"] == b"01:23:45:67:89:AB:CD:EF"
    assert c["tls.cert_fingerprint"] == ":".join("%02x" % x for x in hashlib.sha1(der).digest()).encode()
    assert a.stats["tls_malformed"] == 0


def test_malformed_tls_does_not_crash(trace):
    bad_len = b"\x01\x00\x00\x40" + b"\xff" * 64  # a whole hello whose inner lengths overrun it
    garbage_cert = b"\x0b\x00\x00\x08" + b"\x00\x00\x05\x00\x00\x02\x30\x80"
    # (a first byte with a top bit set would be SSLv2 framing: 0x3f is no record type)
    srv = record(b"\x02\x00\x00\x02\x03\x03") + record(garbage_cert) + b"\x3f\x03\x03\x00\x01x"
    a = app_trace(trace, conversation(record(bad_len), srv, seg=1))
    assert a.flows[0]["app_proto"] == "tls"
    assert a.of("tls_client_hello") == []
    assert a.of("tls_certificate") == []
    assert a.stats["tls_malformed"] == 4  # hello, server hello, certificate, bad record type


def test_oversized_handshake_is_skipped(trace):
    hs, _ = client_hello()
    big = b"\x0b" + struct.pack(">I", 70000)[1:] + b"\0" * 70000
    srv = b"".join(record(big[i:i + 16000]) for i in range(0, len(big), 16000))
    srv += record(b"\x0e\x00\x00\x00")
    a = app_trace(trace, conversation(record(hs), srv, rseg=1400))
    assert a.stats["tls_limit"] == 1
    assert len(a.of("tls_client_hello")) == 1


def test_published_chrome_fingerprint_vector(trace):
    """A ClientHello with the cipher, extension, group and signature lists of a published
    Chrome 143 fingerprint (browserleaks record: ja3 98487aa1…, ja4 t13d1516h2_8daaf6152771_
    d8a2da3f94cd), GREASE added as Chrome does: both fingerprints must come out the same."""
    ciphers = [0x2a2a, 4865, 4866, 4867, 49195, 49199, 49196, 49200, 52393, 52392, 49171, 49172,
               156, 157, 47, 53]
    order = [0x3a3a, 45, 51, 16, 65037, 23, 17613, 0, 11, 10, 43, 65281, 35, 18, 5, 13, 27]
    sigs = [0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601]
    bodies = {
        0: (lambda sn: u16(len(sn)) + sn)(b"\0" + u16(20) + b"tls.browserleaks.com"),
        10: u16(10) + b"".join(u16(g) for g in (0x4a4a, 4588, 29, 23, 24)),
        11: b"\x01\x00",
        13: u16(2 * len(sigs)) + b"".join(u16(s) for s in sigs),
        16: u16(12) + b"\x02h2\x08http/1.1",
        43: b"\x06" + u16(0x5a5a) + u16(0x0304) + u16(0x0303),
    }
    e = b"".join(ext(t, bodies.get(t, b"")) for t in order)
    body = (u16(0x0303) + b"\x01" * 32 + b"\x00" + u16(2 * len(ciphers))
            + b"".join(u16(c) for c in ciphers) + b"\x01\x00" + u16(len(e)) + e)
    hs = b"\x01" + struct.pack(">I", len(body))[1:] + body
    (b,) = app_trace(trace, conversation(record(hs), dport=443)).bufs("tls_client_hello")
    assert b["ja3.hash"] == b"98487aa16281980e7d1120d399efb6a4"
    assert b["ja4.hash"] == b"t13d1516h2_8daaf6152771_d8a2da3f94cd"
    assert b["tls.sni"] == b"tls.browserleaks.com"


def test_chain_alpn_random_and_validity(trace):
    from tls_helpers import (CLIENT_RANDOM, NOT_AFTER, NOT_BEFORE, SERVER_RANDOM, chain,
                                  hello, server)
    ders = chain()
    a = app_trace(trace, conversation(hello(), server(ders), dport=443, rseg=500))
    (ch,) = a.bufs("tls_client_hello")
    assert ch["tls.alpn"] == [b"h2", b"http/1.1"]
    assert ch["tls.random"] == CLIENT_RANDOM
    (sh,) = a.bufs("tls_server_hello")
    assert sh["tls.alpn.server"] == [b"http/1.1"]
    assert sh["tls.random.server"] == SERVER_RANDOM
    (c,) = a.bufs("tls_certificate")
    assert c["tls.certs"] == ders  # every certificate of the chain, in order
    assert c["tls.subjectaltname"] == [b"www.example.org", b"mail.example.org"]
    assert c["tls.cert_issuer"] == b"C=US, O=Osprey Test, CN=Osprey Intermediate CA"
    (info,) = [e["tls"] for e in a.of("tls_certificate")]
    epoch = datetime.datetime(1970, 1, 1)
    assert info == {"client_version": 0x0303, "server_version": 0x0303,
                    "state": 3 | 16, "last_state": 16, "cert_chain_len": 2,
                    "not_before": int((NOT_BEFORE - epoch).total_seconds()),
                    "not_after": int((NOT_AFTER - epoch).total_seconds())}
    assert a.stats["tls_malformed"] == 0


def test_sslv2_hello_runs_the_client_hello_event_with_its_version(trace):
    from tls_helpers import chain, server, sslv2_hello
    a = app_trace(trace, conversation(sslv2_hello(0x0301), server(chain(), version=0x0301),
                                      dport=443))
    (ch,) = a.of("tls_client_hello")
    assert ch["buffers"] == {}  # an SSLv2 hello has no SNI, ALPN, JA3 …
    assert ch["tls"]["client_version"] == 0x0301 and ch["tls"]["last_state"] == 1
    (sh,) = a.of("tls_server_hello")
    assert sh["tls"]["server_version"] == 0x0301 and sh["tls"]["last_state"] == 2


def test_client_certificate_event(trace):
    from tls_helpers import NOT_AFTER, chain, client_flight, hello, server
    from parsers_helpers import Conv
    srv, cli = chain(), chain(sans=(), leaf="client-7", org="Osprey Clients")
    conv = Conv(dport=443).handshake().send(True, hello()).send(False, server(srv))
    a = app_trace(trace, conv.send(True, client_flight(cli)).close().pkts)
    (s,) = a.bufs("tls_certificate")
    assert s["tls.certs"] == srv
    (e,) = a.of("tls_client_certificate")
    b = a.bufs("tls_client_certificate")[0]
    assert e["direction"] == "toserver"
    assert b["tls.certs"] == cli
    assert b["tls.cert_subject"] == b"C=US, O=Osprey Clients, CN=client-7"
    assert "tls.subjectaltname" not in b
    # the chain length and validity stay the server's
    epoch = datetime.datetime(1970, 1, 1)
    assert e["tls"]["cert_chain_len"] == 2
    assert e["tls"]["not_after"] == int((NOT_AFTER - epoch).total_seconds())
    assert a.stats["tls_malformed"] == 0


def test_empty_client_certificate_is_no_event(trace):
    from tls_helpers import chain, client_flight, hello, server
    from parsers_helpers import Conv
    conv = Conv(dport=443).handshake().send(True, hello()).send(False, server(chain()))
    a = app_trace(trace, conv.send(True, client_flight([])).close().pkts)
    assert a.of("tls_client_certificate") == [] and len(a.of("tls_certificate")) == 1
    assert a.stats["tls_malformed"] == 0
