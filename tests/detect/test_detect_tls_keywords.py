"""The TLS rule keywords of Suricata 7/8, end to end: handshakes and certificate chains built
here (tls_helpers), osprey -r, exact alerts for a match and a near miss of each.
Packets are stamped from 2020-09-13 on; the chain is valid from 2019-03-01 12:00:00 to
2021-06-30 23:59:59 UTC."""
import datetime
import hashlib

import pytest
from cryptography import x509
from cryptography.x509.name import _ASN1Type
from cryptography.x509.oid import NameOID

from conftest import CORPUS

from detect_helpers import Conv, detect, rule
from tls_helpers import chain, client_flight, hello, server, sslv2_hello

CHAIN = chain()


def handshake(client=None, srv=None, sport=40000):
    c = Conv(sport=sport, dport=443).handshake()
    c.send(True, client if client is not None else hello())
    c.send(False, srv if srv is not None else server(CHAIN), seg=700)
    return c.close().pkts


def alerts(tmp_path, rules, pkts=None):
    res = detect(tmp_path, pkts or handshake(), rules)
    assert "not compiled" not in res.proc.stderr, res.proc.stderr
    return res.sids


def one(tmp_path, body, pkts=None):
    """The alerts of one tls rule (sid 1) as a list of sids, one per alert."""
    return alerts(tmp_path, [rule(body, sid=1, proto="tls")], pkts)


# A certificate's DER bytes: the issuer name of the leaf is the intermediate's subject, in DER.
INTERMEDIATE_CN = b"Osprey Intermediate CA"
ROOT_CN = b"Osprey Root CA"


@pytest.mark.parametrize("body,hit", [
    # tls.certs: each certificate of the chain; the content list matches within one of them
    (f'tls.certs; content:"{ROOT_CN.decode()}";', True),         # only in the intermediate
    (f'tls.certs; content:"{INTERMEDIATE_CN.decode()}"; content:"www.example.org"; '
     f'distance:0;', True),                                        # both in the leaf
    (f'tls.certs; content:"{ROOT_CN.decode()}"; content:"www.example.org";', False),
    ('tls.certs; content:"|30 82|"; startswith; content:"Nobody CA";', False),
    ('tls.certs; content:"Osprey"; pcre:"/^ (Root|Intermediate) CA/R";', True),
    ('tls.certs; bsize:<10;', False),
    # tls.subjectaltname: one element per name
    ('tls.subjectaltname; content:"mail.example.org"; bsize:16;', True),
    ('tls.subjectaltname; content:"www.example.org"; endswith; startswith;', True),
    ('tls.subjectaltname; content:"www.example.orgmail";', False),
    ('tls.subjectaltname; content:"ftp.example.org";', False),
    # tls.cert_fingerprint / tls_cert_fingerprint: the leaf's SHA-1
    # (LEAF_FP / CA_FP: the SHA-1 of the leaf / the intermediate, "aa:bb:…"; LEAF_FP_UPPER
    # in upper case)
    ('tls.cert_fingerprint; content:"LEAF_FP"; bsize:59;', True),
    ('tls_cert_fingerprint; content:"CA_FP";', False),
    # legacy string keywords
    ('tls.fingerprint:"LEAF_FP_UPPER";', True),                   # compared in lower case
    ('tls.fingerprint:!"LEAF_FP";', False),
    ('tls.subject:"CN=www.example.org";', True),
    ('tls.subject:"cn=www.example.org";', False),                  # case sensitive
    ('tls.issuerdn:"O=Osprey Test, CN=Osprey Intermediate CA";', True),
    ('tls.issuerdn:!"CN=Osprey Intermediate CA";', False),
    ('tls.issuerdn:!"CN=Someone Else";', True),
    # tls.cert_chain_len
    ('tls.cert_chain_len:2;', True),
    ('tls.cert_chain_len:>2;', False),
    ('tls.cert_chain_len:1<>3;', True),
    ('tls.cert_chain_len:!2;', False),
    # validity (first certificate)
    ('tls_cert_notbefore:2019-03-01T12:00:00;', True),
    ('tls_cert_notbefore:2019-03-01T12:00:01;', False),
    ('tls_cert_notbefore:<2019-03-02;', True),
    ('tls_cert_notbefore:<2019-03-01;', False),
    ('tls_cert_notafter:>2021;', True),
    ('tls_cert_notafter:>2021-07;', False),
    ('tls_cert_notafter:2021-06-30<>2021-07-01;', True),
    ('tls.cert_notafter:2021-07-01<>2022;', False),
    ('tls_cert_valid;', True),
    ('tls_cert_expired;', False),
])
def test_certificate_keywords(tmp_path, body, hit):
    fp = [":".join("%02x" % b for b in hashlib.sha1(d).digest()) for d in CHAIN]
    body = (body.replace("LEAF_FP_UPPER", fp[0].upper()).replace("LEAF_FP", fp[0])
            .replace("CA_FP", fp[1]))
    assert one(tmp_path, body) == ([1] if hit else [])


def test_expired_certificate(tmp_path):
    old = chain(not_before=datetime.datetime(2018, 1, 1),
                not_after=datetime.datetime(2020, 1, 1))
    pkts = handshake(srv=server(old))
    assert alerts(tmp_path, [rule("tls_cert_expired;", sid=1, proto="tls"),
                             rule("tls_cert_valid;", sid=2, proto="tls")], pkts) == [1]


@pytest.mark.parametrize("body,hit", [
    # tls.alpn: the client's offers in a to_server rule (and beside tls.sni), the server's
    # choice in a to_client one (and beside a certificate buffer)
    ('flow:to_server; tls.alpn; content:"h2"; bsize:2;', True),
    ('tls.sni; content:"example"; tls.alpn; content:"h2";', True),
    ('flow:to_client; tls.alpn; content:"h2";', False),
    ('flow:to_client; tls.alpn; content:"http/1.1"; bsize:8;', True),
    ('tls.subjectaltname; content:"mail."; tls.alpn; content:"h2";', False),
    ('tls.alpn; content:"h2http";', False),
    # tls.random: the hello's 32 bytes; _time its first 4, _bytes the other 28
    ('flow:to_server; tls.random; content:"|40 41 42 43|"; startswith; bsize:32;', True),
    ('flow:to_server; tls.random_time; content:"|40 41 42 43|"; bsize:4;', True),
    ('flow:to_server; tls.random_bytes; content:"|44 45|"; startswith; bsize:28;', True),
    ('flow:to_server; tls.random_bytes; content:"|40 41|";', False),
    ('flow:to_client; tls.random; content:"|a0 a1 a2|"; startswith;', True),
    ('flow:to_client; tls.random; content:"|40 41 42|";', False),
    # versions
    ('flow:to_server; tls.version:1.2;', True),
    ('flow:to_client; tls.version:0x0303;', True),
    ('flow:to_client; tls.version:1.3;', False),
    ('flow:to_server; ssl_version:tls1.2;', True),
    ('flow:to_server; ssl_version:tls1.0,tls1.1;', False),
    ('flow:to_server; ssl_version:!tls1.3;', True),
    ('flow:to_server; ssl_version:!tls1.2,tls1.3;', False),
    # ssl_state: the handshake message the rule runs on
    ('ssl_state:client_hello;', True),
    ('ssl_state:server_hello|client_hello;', True),
    ('flow:to_client; ssl_state:server_hello;', True),
    ('flow:to_client; ssl_state:!server_hello;', False),
])
def test_handshake_keywords(tmp_path, body, hit):
    assert one(tmp_path, body) == ([1] if hit else [])


def test_version_without_direction_alerts_on_each_side(tmp_path):
    # as Suricata: one alert when the client's version passes, one when the server's does;
    # an SSLv2-framed hello carries its version too
    pkts = handshake(client=sslv2_hello(0x0301), srv=server(CHAIN, version=0x0301))
    rules = [rule("ssl_version:!sslv3;", sid=1, proto="tls"),
             rule("ssl_version:tls1.0;", sid=2, proto="tcp"),
             rule("ssl_version:!tls1.0;", sid=3, proto="tls"),
             rule("tls.version:1.0;", sid=4, proto="tls")]
    assert alerts(tmp_path, rules, pkts) == [1, 1, 2, 2, 4, 4]


def test_ja4_on_each_hello(tmp_path):
    pkts = (handshake() + handshake(client=hello(sni=None, alpn=()), sport=40001))
    rules = [rule('ja4.hash; content:"t12d0202h2_";', sid=1, proto="tls"),
             rule('ja4.hash; content:"t12i020000_";', sid=2, proto="tls"),
             rule('ja4.hash; content:"t13";', sid=3, proto="tls")]
    assert alerts(tmp_path, rules, pkts) == [1, 2]


def test_ja4_hashes_computed_as_the_spec_says(tmp_path):
    """JA4's b and c parts, computed here from the spec: the first 12 hex digits of the SHA-256
    of the sorted ciphers, and of the sorted extensions (SNI and ALPN left out) then `_` and
    the signature algorithms in their order, each as 4 hex digits joined by commas."""
    from tls_helpers import _ext, _hs, _u16, tls_record
    sigs = [0x0403, 0x0804, 0x0401]
    exts = (_ext(0, _u16(8) + b"\0" + _u16(5) + b"x.org") + _ext(10, _u16(2) + _u16(29)) +
            _ext(11, b"\x01\x00") + _ext(13, _u16(2 * len(sigs)) + b"".join(map(_u16, sigs))) +
            _ext(16, _u16(3) + b"\x02h2") + _ext(23, b""))
    body = (_u16(0x0303) + b"\x11" * 32 + b"\x00" + _u16(6) + _u16(0xc02f) + _u16(0x009c) +
            _u16(0x1301) + b"\x01\x00" + _u16(len(exts)) + exts)
    pkts = handshake(client=tls_record(_hs(1, body)))

    def h12(text):
        return hashlib.sha256(text.encode()).hexdigest()[:12]
    b = h12(",".join(f"{c:04x}" for c in sorted([0xc02f, 0x009c, 0x1301])))
    c = h12(",".join(f"{e:04x}" for e in sorted([10, 11, 13, 23])) + "_" +
            ",".join(f"{a:04x}" for a in sigs))
    ja4 = f"t12d0306h2_{b}_{c}"
    rules = [rule(f'ja4.hash; content:"{ja4}"; bsize:{len(ja4)};', sid=1, proto="tls")]
    assert alerts(tmp_path, rules, pkts) == [1]


def test_client_certificate_buffers(tmp_path):
    # mutual authentication: to the server the certificate buffers hold the client's chain
    cli = chain(sans=("client.example.org",), leaf="client-7", org="Osprey Clients")
    c = Conv(dport=443).handshake().send(True, hello()).send(False, server(CHAIN), seg=700)
    pkts = c.send(True, client_flight(cli)).close().pkts
    rules = [rule('tls.cert_subject; content:"CN=client-7";', sid=1, proto="tls"),
             rule('flow:to_client; tls.cert_subject; content:"CN=client-7";', sid=2,
                  proto="tls"),
             rule('flow:to_server; tls.certs; content:"Osprey Clients"; '
                  'tls.subjectaltname; content:"client.example.org";', sid=3, proto="tls"),
             rule('tls.cert_issuer; content:"O=Osprey Test";', sid=4, proto="tls"),
             rule('flow:to_server; tls.cert_issuer; content:"O=Osprey Test";', sid=5,
                  proto="tls")]
    # sid 4 (no direction) sees the server's chain to the client, not the client's
    assert alerts(tmp_path, rules, pkts) == [1, 3, 4]


def et_rule(sid):
    """An ET Open 2025 rule as published, its header made `any any -> any any`."""
    for f in (CORPUS / "rules" / "et-open-suricata-5.0-2025-08").glob("*.rules"):
        for line in f.read_text().splitlines():
            if line.startswith("alert ") and f"sid:{sid};" in line:
                return "alert tls any any -> any any (" + line.split("(", 1)[1]
    raise AssertionError(f"sid {sid} not in the corpus")


def sliver_subject(extra=()):
    """The subject Sliver/Havoc give their certificates: empty ST, L and street, a 4-digit
    postal code, then the CN (PrintableString throughout, as the ET rule's bytes say)."""
    p = _ASN1Type.PrintableString
    attrs = [x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
             x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, "", _type=p),
             x509.NameAttribute(NameOID.LOCALITY_NAME, "", _type=p),
             x509.NameAttribute(NameOID.STREET_ADDRESS, "", _type=p),
             x509.NameAttribute(NameOID.POSTAL_CODE, "8472", _type=p),
             x509.NameAttribute(NameOID.COMMON_NAME, "localhost", _type=p), *extra]
    return x509.Name(attrs)


def test_et_tls_certs_rule_on_a_sliver_certificate(tmp_path):
    # ET 2037281: tls.certs content, pcre /R, a negated content and a relative one in the
    # leaf; with an O= after the CN (the near miss) its negated content fails
    rules = [et_rule(2037281)]
    hit = handshake(srv=server(chain(subject=sliver_subject())))
    org = x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Acme", _type=_ASN1Type.PrintableString)
    miss = handshake(srv=server(chain(subject=sliver_subject([org]))), sport=40001)
    assert alerts(tmp_path, rules, hit) == [2037281]
    assert alerts(tmp_path, rules, miss) == []


def test_certificate_options_make_the_rule_to_client(tmp_path):
    # tls.cert_chain_len (a server certificate option) beside tls.certs: the server's chain
    # only, so a client certificate with the same bytes does not alert a second time
    cli = chain(sans=(), leaf="client-7")
    c = Conv(dport=443).handshake().send(True, hello()).send(False, server(CHAIN), seg=700)
    pkts = c.send(True, client_flight(cli)).close().pkts
    rules = [rule('tls.certs; content:"Osprey Intermediate CA"; tls.cert_chain_len:2;', sid=1,
                  proto="tls"),
             rule('tls.certs; content:"Osprey Intermediate CA";', sid=2, proto="tls")]
    assert alerts(tmp_path, rules, pkts) == [1, 2, 2]
