"""Builders of TLS handshakes for the tests (no tests here): a certificate chain made with
`cryptography` (a leaf with subjectAltNames signed by an intermediate, signed by a root), a
ClientHello and a server flight (ServerHello, Certificate with the whole chain,
ServerKeyExchange, ServerHelloDone) with chosen versions, randoms and ALPN."""
import datetime
import struct

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

NOT_BEFORE = datetime.datetime(2019, 3, 1, 12, 0, 0)
NOT_AFTER = datetime.datetime(2021, 6, 30, 23, 59, 59)
CLIENT_RANDOM = bytes(range(0x40, 0x60))
SERVER_RANDOM = bytes(range(0xa0, 0xc0))


def name(cn, org="Osprey Test"):
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, org),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def chain(sans=("www.example.org", "mail.example.org"), not_before=NOT_BEFORE,
          not_after=NOT_AFTER, leaf="www.example.org", org="Osprey Test", subject=None):
    """[leaf DER, intermediate DER]: the chain a server sends (the root stays out). subject:
    the leaf's x509.Name instead of C=US, O=org, CN=leaf."""
    keys = [ec.generate_private_key(ec.SECP256R1()) for _ in range(3)]
    names = [name("Osprey Root CA", org), name("Osprey Intermediate CA", org),
             subject or name(leaf, org)]
    ders = []
    for i in (1, 2):
        b = (x509.CertificateBuilder().subject_name(names[i]).issuer_name(names[i - 1])
             .public_key(keys[i].public_key()).serial_number(0x1000 + i)
             .not_valid_before(not_before).not_valid_after(not_after))
        if i == 2 and sans:
            b = b.add_extension(x509.SubjectAlternativeName(
                [x509.DNSName(s) for s in sans]), critical=False)
        ders.append(b.sign(keys[i - 1], hashes.SHA256()).public_bytes(serialization.Encoding.DER))
    return ders[::-1]


def _u16(v):
    return struct.pack(">H", v)


def _ext(t, body):
    return _u16(t) + _u16(len(body)) + body


def _hs(msg_type, body):
    return bytes([msg_type]) + struct.pack(">I", len(body))[1:] + body


def _alpn(protos):
    al = b"".join(bytes([len(a)]) + a for a in protos)
    return _ext(16, _u16(len(al)) + al)


def tls_record(payload, ctype=22, version=0x0301):
    return bytes([ctype]) + _u16(version) + _u16(len(payload)) + payload


def hello(version=0x0303, random=CLIENT_RANDOM, sni=b"www.example.org",
          alpn=(b"h2", b"http/1.1"), early_data=False):
    """A ClientHello record (early_data: with the early_data extension, offering 0-RTT)."""
    exts = _ext(42, b"") if early_data else b""
    if sni:
        sn = b"\0" + _u16(len(sni)) + sni
        exts += _ext(0, _u16(len(sn)) + sn)
    if alpn:
        exts += _alpn(alpn)
    body = (_u16(version) + random + b"\x00" + _u16(4) + _u16(0xc02f) + _u16(0x009c) +
            b"\x01\x00" + _u16(len(exts)) + exts)
    return tls_record(_hs(1, body))


def server(ders, version=0x0303, random=SERVER_RANDOM, alpn=b"http/1.1"):
    """The server's clear flight: ServerHello, Certificate (ders in order),
    ServerKeyExchange, ServerHelloDone, in records of at most 1000 bytes."""
    exts = _alpn([alpn]) if alpn else b""
    sh = _hs(2, _u16(version) + random + b"\x00" + _u16(0xc02f) + b"\x00" + _u16(len(exts)) +
             exts)
    certs = b"".join(struct.pack(">I", len(d))[1:] + d for d in ders)
    cert = _hs(11, struct.pack(">I", len(certs))[1:] + certs)
    hs = sh + cert + _hs(12, b"\x03\x00\x17\x00") + _hs(14, b"")
    return b"".join(tls_record(hs[i:i + 1000], version=version)
                    for i in range(0, len(hs), 1000))


def client_flight(ders):
    """The client's answer under mutual authentication: Certificate (ders; none: an empty
    one), ClientKeyExchange, then ChangeCipherSpec."""
    certs = b"".join(struct.pack(">I", len(d))[1:] + d for d in ders)
    hs = _hs(11, struct.pack(">I", len(certs))[1:] + certs) + _hs(16, b"\x01\x04")
    return tls_record(hs, version=0x0303) + tls_record(b"\x01", ctype=20, version=0x0303)


def sslv2_hello(version=0x0301):
    """An SSLv2-framed ClientHello (one cipher spec, a 16-byte challenge)."""
    body = b"\x01" + _u16(version) + _u16(3) + _u16(0) + _u16(16) + b"\x00\x00\x2f" + b"\x55" * 16
    return bytes([0x80 | (len(body) >> 8), len(body) & 0xff]) + body
