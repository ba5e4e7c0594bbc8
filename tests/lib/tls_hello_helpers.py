"""A TLS ClientHello built byte by byte (GREASE values, SNI, ALPN, supported_versions) with its
JA3 and JA4 computed here independently of the parser, TLS record framing, and a server flight
(ServerHello, one certificate made with `cryptography`, ServerHelloDone) cut across records.
No tests here: used by parsers/test_parsers_tls.py, detect/test_detect_events.py and the
outputs tests (tls_helpers.py has the certificate-chain handshakes of the TLS keyword tests)."""
import datetime
import hashlib
import struct

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

GREASE = 0x0a0a
CIPHERS = [GREASE, 0x1301, 0x1302, 0xc02b, 0xc02f, 0x009c]
GROUPS = [GREASE, 0x001d, 0x0017, 0x0018]
POINTS = [0]
SIGS = [0x0403, 0x0804, 0x0401]


def u16(v):
    return struct.pack(">H", v)


def ext(t, body):
    return u16(t) + u16(len(body)) + body


def client_hello(sni=b"Example.COM", alpn=(b"h2", b"http/1.1")):
    exts = [ext(0x1a1a, b"")]  # GREASE extension
    if sni is not None:
        sn = b"\0" + u16(len(sni)) + sni
        exts.append(ext(0, u16(len(sn)) + sn))
    exts.append(ext(10, u16(2 * len(GROUPS)) + b"".join(u16(g) for g in GROUPS)))
    exts.append(ext(11, bytes([len(POINTS)]) + bytes(POINTS)))
    exts.append(ext(13, u16(2 * len(SIGS)) + b"".join(u16(s) for s in SIGS)))
    if alpn:
        al = b"".join(bytes([len(a)]) + a for a in alpn)
        exts.append(ext(16, u16(len(al)) + al))
    exts.append(ext(23, b""))
    exts.append(ext(43, bytes([6]) + u16(GREASE) + u16(0x0304) + u16(0x0303)))
    e = b"".join(exts)
    body = (u16(0x0303) + b"\x11" * 32 + b"\x00" + u16(2 * len(CIPHERS))
            + b"".join(u16(c) for c in CIPHERS) + b"\x01\x00" + u16(len(e)) + e)
    hs = b"\x01" + struct.pack(">I", len(body))[1:] + body
    return hs, [0x1a1a] + ([0] if sni is not None else []) + [10, 11, 13] + ([16] if alpn else []) + [23, 43]


def record(hs, ctype=22):
    return bytes([ctype, 3, 1]) + u16(len(hs)) + hs


def not_grease(v):
    return not ((v & 0x0f0f) == 0x0a0a and (v >> 8) == (v & 0xff))


def ja3(ext_types):
    parts = ["771", "-".join(str(c) for c in CIPHERS if not_grease(c)),
             "-".join(str(x) for x in ext_types if not_grease(x)),
             "-".join(str(g) for g in GROUPS if not_grease(g)), "-".join(str(p) for p in POINTS)]
    s = ",".join(parts)
    return s, hashlib.md5(s.encode()).hexdigest()


def ja4(ext_types, sni=True, alpn=b"h2"):
    ciphers = [c for c in CIPHERS if not_grease(c)]
    exts = [x for x in ext_types if not_grease(x)]
    a = "t13" + ("d" if sni else "i") + "%02d%02d" % (len(ciphers), len(exts))
    a += (chr(alpn[0]) + chr(alpn[-1])) if alpn else "00"
    b = hashlib.sha256(",".join("%04x" % c for c in sorted(ciphers)).encode()).hexdigest()[:12]
    cx = ",".join("%04x" % x for x in sorted(x for x in exts if x not in (0, 16)))
    c = hashlib.sha256((cx + "_" + ",".join("%04x" % s for s in SIGS)).encode()).hexdigest()[:12]
    return "_".join([a, b, c])


def make_cert(subject=None, issuer=None, serial=0x0123456789ABCDEF):
    """A DER certificate; subject and issuer: lists of (NameOID, value)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(o, v) for o, v in subject or [
        (NameOID.COUNTRY_NAME, "US"), (NameOID.STATE_OR_PROVINCE_NAME, "California"),
        (NameOID.ORGANIZATION_NAME, "Example Inc"), (NameOID.COMMON_NAME, "www.example.com")]])
    issuer = x509.Name([x509.NameAttribute(o, v) for o, v in issuer or [
        (NameOID.COUNTRY_NAME, "US"), (NameOID.ORGANIZATION_NAME, "Test CA"),
        (NameOID.COMMON_NAME, "Test CA Root")]])
    now = datetime.datetime(2024, 1, 1)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
            .public_key(key.public_key()).serial_number(serial)
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=30))
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.DER)


def server_flight(der):
    exts = ext(0xff01, b"\0")
    sh_body = u16(0x0303) + b"\x22" * 32 + b"\x00" + u16(0xc02f) + b"\x00" + u16(len(exts)) + exts
    sh = b"\x02" + struct.pack(">I", len(sh_body))[1:] + sh_body
    certs = struct.pack(">I", len(der))[1:] + der
    cbody = struct.pack(">I", len(certs))[1:] + certs
    cert = b"\x0b" + struct.pack(">I", len(cbody))[1:] + cbody
    done = b"\x0e\x00\x00\x00"
    hs = sh + cert + done
    # handshake messages cut across records at arbitrary points
    return record(hs[:50]) + record(hs[50:300]) + record(hs[300:])
