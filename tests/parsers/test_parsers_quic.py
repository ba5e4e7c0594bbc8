"""QUIC (parsers/quic) end to end, Initials built here with Python's cryptography (RFC 9001
packet protection, v1 and v2): a client Initial whose ClientHello is split over two packets
(its second half first) is decrypted and reassembled — quic.sni, ja3.hash / ja3.string /
ja4.hash (JA4's 'q'), quic.version on every long-header packet, the server's Initial's JA3S;
`alert quic` headers and app-layer-protocol:quic; a packet that does not authenticate raises
quic.failed_decrypt; gQUIC Q046 from suricata-verify's capture gives quic.cyu.* and quic.ua;
the EVE quic records (version, sni, ja3, ja4, extensions with Suricata's names) validate
against Suricata's EVE schema; app-layer.protocols.quic.enabled: no leaves the flow alone; the
limits: QUIC_CRYPTO_MAX (a ClientHello of 16 KiB read, one byte more never whole:
quic.crypto_frag_too_long, bytes shed), QUIC_TAGS_MAX (64 tags of a gQUIC CHLO),
QUIC_EXTS_MAX (64 extension types in the record) and QUIC_TEXT_MAX (1024 bytes of a UAID)."""
import hashlib
import hmac
import json
import struct

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from jsonschema import Draft7Validator

from conftest import ROOT
from detect_helpers import CLI, SRV, detect, udp
from gap_helpers import eve_run
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())
SV = ROOT.parent / "shared" / "conformance" / "suricata-verify" / "tests"
V1, V2 = 1, 0x6B3343CF
SALT = {V1: "38762cf7f55934b34d179ae6a4c80cadccbb7f0a",
        V2: "0dede3def700a6db819381be6e269dcbf9bd2ed9"}
DCID, SCID, SRV_CID = bytes(range(8)), b"\xc1\xc2\xc3\xc4", b"\x5e\x5e\x5e\x5e"
SNI = b"www.example.quic"


def expand_label(secret, label, n):
    full = b"tls13 " + label
    info = n.to_bytes(2, "big") + bytes([len(full)]) + full + b"\0"
    out, t, i = b"", b"", 1
    while len(out) < n:
        t = hmac.new(secret, t + info + bytes([i]), hashlib.sha256).digest()
        out, i = out + t, i + 1
    return out[:n]


def keys(version, side):
    prk = hmac.new(bytes.fromhex(SALT[version]), DCID, hashlib.sha256).digest()
    secret = expand_label(prk, b"client in" if side == 0 else b"server in", 32)
    p = b"quicv2 " if version == V2 else b"quic "
    return (expand_label(secret, p + b"key", 16), expand_label(secret, p + b"iv", 12),
            expand_label(secret, p + b"hp", 16))


def varint2(n):
    return struct.pack(">H", 0x4000 | n)


def initial(version, side, frames, pn):
    """a protected Initial packet carrying frames (padded to 1200 bytes by the client)"""
    key, iv, hp = keys(version, side)
    first = (0xD0 if version == V2 else 0xC0) | 1  # 2-byte packet number
    dcid, scid = (DCID, SCID) if side == 0 else (SCID, SRV_CID)
    if side == 0:
        frames += b"\0" * max(0, 1100 - len(frames))
    hdr = bytes([first]) + struct.pack(">I", version) + bytes([len(dcid)]) + dcid + \
        bytes([len(scid)]) + scid + b"\x00" + varint2(2 + len(frames) + 16)
    pnb = struct.pack(">H", pn)
    nonce = bytes(a ^ b for a, b in zip(iv, pn.to_bytes(12, "big")))
    ct = AESGCM(key).encrypt(nonce, frames, hdr + pnb)
    mask = Cipher(algorithms.AES(hp), modes.ECB()).encryptor().update(ct[2:18])
    hdr = bytes([hdr[0] ^ (mask[0] & 0x0F)]) + hdr[1:]
    return hdr + bytes(a ^ b for a, b in zip(pnb, mask[1:3])) + ct


def ext(t, body):
    return struct.pack(">HH", t, len(body)) + body


CIPHERS = [0x1301, 0x1302, 0x1303]
SIGS = [0x0403, 0x0804, 0x0401]


def client_hello(padding=None, more=()):
    """the ClientHello (with the extension types `more`, empty, and a padding extension of
    that many bytes when given) and its extension types in order"""
    sni = struct.pack(">HBH", len(SNI) + 3, 0, len(SNI)) + SNI
    exts = [(0x0A0A, b""),  # GREASE: left out of JA3 / JA4, listed in the record
            (0, sni), (16, b"\x00\x03\x02h3"), (10, b"\x00\x02\x00\x1d"),
            (13, struct.pack(">H", 2 * len(SIGS)) + b"".join(struct.pack(">H", s) for s in SIGS)),
            (43, b"\x02\x03\x04"), (51, b"\x00\x06\x00\x1d\x00\x02\xaa\xbb"),
            (57, b"\x01\x04\x80\x00\x75\x30")]
    exts += [(t, b"") for t in more]
    if padding is not None:
        exts.append((21, bytes(padding)))
    body = b"\x03\x03" + bytes(32) + b"\x00" + struct.pack(">H", 2 * len(CIPHERS)) + \
        b"".join(struct.pack(">H", c) for c in CIPHERS) + b"\x01\x00"
    eb = b"".join(ext(t, b) for t, b in exts)
    body += struct.pack(">H", len(eb)) + eb
    return b"\x01" + len(body).to_bytes(3, "big") + body, [t for t, _ in exts]


def server_hello():
    eb = ext(43, b"\x03\x04") + ext(51, b"\x00\x1d\x00\x02\xcc\xdd")
    body = b"\x03\x03" + bytes(32) + b"\x00" + b"\x13\x01" + b"\x00" + \
        struct.pack(">H", len(eb)) + eb
    return b"\x02" + len(body).to_bytes(3, "big") + body


def crypto(off, data):
    return b"\x06" + varint2(off) + varint2(len(data)) + data


def ja3_ja4(ext_types):
    e = [t for t in ext_types if t != 0x0A0A]
    ja3 = "771,%s,%s,29," % ("-".join(map(str, CIPHERS)), "-".join(map(str, e)))
    b = hashlib.sha256(",".join("%04x" % c for c in sorted(CIPHERS)).encode()).hexdigest()[:12]
    c = ",".join("%04x" % t for t in sorted(t for t in e if t not in (0, 16)))
    c = hashlib.sha256((c + "_" + ",".join("%04x" % s for s in SIGS)).encode()).hexdigest()[:12]
    return ja3, "q13d%02d%02dh3_%s_%s" % (len(CIPHERS), len(e), b, c)


def flow(version=V1, corrupt=False):
    ch, types = client_hello()
    half = len(ch) // 2
    p1 = initial(version, 0, crypto(half, ch[half:]), 0)  # the second half first
    p2 = initial(version, 0, b"\x01" + crypto(0, ch[:half]), 1)
    if corrupt:
        p2 = p2[:-1] + bytes([p2[-1] ^ 1])
    s1 = initial(version, 1, b"\x02\x00\x00\x00\x00" + crypto(0, server_hello()), 0)
    short = b"\x40" + SCID + b"\x17" * 40  # 1-RTT: no transaction
    pk = [udp(p1, sport=50000, dport=443), udp(p2, sport=50000, dport=443),
          udp(s1, src=SRV, dst=CLI, sport=443, dport=50000), udp(short, sport=50000, dport=443)]
    return pk, types


def rules():
    ja3, ja4 = ja3_ja4(client_hello()[1])
    ja3s = hashlib.md5(b"771,4865,43-51").hexdigest()
    return [
        f'alert quic any any -> any any (msg:"sni"; quic.sni; content:"{SNI.decode()}"; sid:1;)',
        'alert quic any any -> any any (msg:"v1"; quic.version; content:"|00 00 00 01|"; sid:2;)',
        f'alert quic any any -> any any (msg:"ja3"; ja3.hash; content:"{hashlib.md5(ja3.encode()).hexdigest()}"; sid:3;)',
        f'alert quic any any -> any any (msg:"ja3s"; ja3s.hash; content:"{ja3s}"; sid:4;)',
        f'alert quic any any -> any any (msg:"ja4"; ja4.hash; content:"{ja4}"; sid:5;)',
        'alert udp any any -> any any (msg:"proto"; app-layer-protocol:quic; sid:6;)',
        'alert quic any any -> any any (msg:"dec"; app-layer-event:quic.failed_decrypt; sid:7;)',
        'alert tls any any -> any any (msg:"tls only"; ja3.hash; content:"a"; sid:8;)',
    ]


@pytest.mark.parametrize("version", [V1, V2])
def test_quic_initial_decrypted(tmp_path, version):
    pk, _ = flow(version)
    r = detect(tmp_path, pk, rules(), "-k", "none")
    sids = sorted(a["alert"]["signature_id"] for a in r.alerts)
    v1 = 3 if version == V1 else 0  # quic.version |00 00 00 01|: the three long headers
    # app-layer-protocol alone (Suricata's protocol-detection-only rule): once, on the packet
    # that decided the flow's protocol
    assert sids == sorted([1, 3, 4, 5] + [2] * v1 + [6])


def test_quic_ack_only_initial(tmp_path):
    # a server Initial with an ACK and no CRYPTO yet (its ServerHello comes next): read, no
    # hello; then the ServerHello
    pk, _ = flow(V1)
    ack = udp(initial(V1, 1, b"\x02\x01\x00\x00\x01" + b"\x00" * 30, 0), src=SRV, dst=CLI,
              sport=443, dport=50000)
    r = detect(tmp_path, pk[:2] + [ack] + pk[2:], rules(), "-k", "none")
    sids = sorted(a["alert"]["signature_id"] for a in r.alerts)
    assert sids == sorted([1, 3, 4, 5] + [2] * 4 + [6])


def test_quic_failed_decrypt(tmp_path):
    pk, _ = flow(V1, corrupt=True)
    r = detect(tmp_path, pk, rules(), "-k", "none")
    sids = [a["alert"]["signature_id"] for a in r.alerts]
    assert 7 in sids and 1 not in sids and 3 not in sids


def test_quic_eve_records(tmp_path):
    pk, types = flow(V1)
    out = osprey_out(tmp_path, pk, [], "-k", "none",
                     "--set", "outputs.eve-log.types=[quic]")
    recs = out.of("quic")
    v = Draft7Validator(SCHEMA)
    for rec in recs:
        errs = [e.message for e in v.iter_errors(rec)]
        assert not errs, (rec, errs)
    assert [r["quic"]["version"] for r in recs] == ["1", "1", "1"]  # not the short header
    ja3, ja4 = ja3_ja4(types)
    c = recs[1]["quic"]
    assert c["sni"] == SNI.decode() and c["ja4"] == ja4
    assert c["ja3"] == {"hash": hashlib.md5(ja3.encode()).hexdigest(), "string": ja3}
    assert [e["type"] for e in c["extensions"]] == types
    assert c["extensions"][0] == {"type": 2570}
    assert c["extensions"][1] == {"name": "server_name", "type": 0, "values": [SNI.decode()]}
    assert c["extensions"][2] == {"name": "alpn", "type": 16, "values": ["h3"]}
    assert c["extensions"][-1]["name"] == "quic_transport_parameters"
    assert "sni" not in recs[0]["quic"]  # the first packet's half hello
    s = recs[2]["quic"]
    assert s["ja3s"]["string"] == "771,4865,43-51" and "ja3" not in s
    assert [e["name"] for e in s["extensions"]] == ["supported_versions", "key_share"]


def test_gquic_cyu(tmp_path):
    pcap = SV / "quic-alerts" / "input.pcap"
    r = detect(tmp_path, pcap, ['alert quic any any -> any any (quic.ua; content:"Chrome/79"; '
                                'sid:1;)'], "-k", "none",
               "--set", "outputs.eve-log.types=[alert, quic]")
    assert [a["alert"]["signature_id"] for a in r.alerts] == [1, 1]  # both CHLOs
    recs = [json.loads(line) for line in (tmp_path / "t-log" / "eve.json").read_text().splitlines()
            if '"event_type":"quic"' in line]
    assert len(recs) == 6 and {r["quic"]["version"] for r in recs} == {"Q046"}
    cyu = [r["quic"]["cyu"][0] for r in recs if "cyu" in r["quic"]]
    assert [c["hash"] for c in cyu] == ["910a5e3a4d51593bd59a44611544f209",
                                        "7b3ceb1adc974ad360cfa634e8d0a730"]
    assert all(hashlib.md5(c["string"].encode()).hexdigest() == c["hash"] for c in cyu)
    assert recs[0]["quic"]["ua"] == "Chrome/79.0.3945.117 Linux x86_64"
    v = Draft7Validator(SCHEMA)
    assert not [e.message for rec in recs for e in v.iter_errors(rec)]


def test_quic_disabled(tmp_path):
    pk, _ = flow(V1)
    r = detect(tmp_path, pk, rules(), "-k", "none",
               "--set", "app-layer.protocols.quic.enabled=no")
    assert r.alerts == []


def test_quic_lost_datagram(tmp_path):
    # the client's Initial carrying the ClientHello's first half is lost: the hello never
    # completes (no SNI, JA3, JA4), the other Initials are still transactions and records,
    # and the server's hello is still read (JA3S)
    pk, _ = flow(V1)
    pk = [pk[0]] + pk[2:]
    r = detect(tmp_path, pk, rules(), "-k", "none")
    assert r.sids == [2, 2, 4, 6]
    out = osprey_out(tmp_path, pk, [], "-k", "none", "--set", "outputs.eve-log.types=[quic]")
    recs = [rec["quic"] for rec in out.of("quic")]
    assert len(recs) == 2 and "sni" not in recs[0] and "ja3" not in recs[0]
    assert recs[1]["ja3s"]["string"] == "771,4865,43-51"
    v = Draft7Validator(SCHEMA)
    for rec in out.records:
        assert not list(v.iter_errors(rec)), rec


# ---- limits (parsers/quic/quic_int.h): QUIC_CRYPTO_MAX, QUIC_TAGS_MAX, QUIC_TEXT_MAX ----
def varint(n):
    for size, tag in ((1, 0), (2, 0x40), (4, 0x80), (8, 0xC0)):
        if n < 1 << (8 * size - 2):
            return (n | tag << (8 * size - 8)).to_bytes(size, "big")
    raise ValueError(n)


def hello_of(size):
    """a ClientHello of exactly size bytes (its 4-byte header included): a padding extension
    fills it"""
    base = len(client_hello(0)[0])
    ch, types = client_hello(size - base)
    assert len(ch) == size
    return ch, types


def crypto_initials(ch, chunk=1100):
    """the client's Initials carrying ch in CRYPTO frames of chunk bytes, in order (offsets past
    16383 need 4-byte varints)"""
    return [udp(initial(V1, 0, b"\x06" + varint(o) + varint(len(ch[o:o + chunk])) +
                        ch[o:o + chunk], pn), sport=50000, dport=443)
            for pn, o in enumerate(range(0, len(ch), chunk))]


CRYPTO_RULES = [
    f'alert quic any any -> any any (msg:"sni"; quic.sni; content:"{SNI.decode()}"; sid:1;)',
    'alert quic any any -> any any (msg:"ja3"; ja3.string; content:"771,"; startswith; sid:3;)',
    'alert quic any any -> any any (msg:"ja4"; ja4.hash; content:"q13d"; startswith; sid:5;)',
    'alert quic any any -> any any (msg:"too long"; '
    'app-layer-event:quic.crypto_frag_too_long; sid:9;)',
]


@pytest.mark.parametrize("size", [16384, 16385, 17000])
def test_quic_crypto_limit(tmp_path, size):
    # QUIC_CRYPTO_MAX (16384) bytes of a direction's CRYPTO stream are kept: a ClientHello that
    # fills them, over 15 Initials, is read (SNI, JA3, JA4 on the packet that completed it);
    # one byte more and it can never be whole: quic.crypto_frag_too_long once (with the first
    # packet: its length tells), the bytes past the limit counted, no SNI / JA3 / JA4 in any
    # record; every Initial is still a transaction and a record
    ch, types = hello_of(size)
    pkts = crypto_initials(ch)
    r = eve_run(tmp_path, pkts, CRYPTO_RULES, ["quic"], "-k", "none")
    recs = [x["quic"] for x in r.of("quic")]
    assert len(recs) == len(pkts) == (size + 1099) // 1100
    assert all(x["version"] == "1" for x in recs)
    c = r.counters("quic")
    assert c["quic_malformed"] == 0 and c["quic_decrypted"] == len(pkts)
    if size <= 16384:
        assert r.sids == [1, 3, 5]
        ja3, ja4 = ja3_ja4(types)
        assert recs[-1]["sni"] == SNI.decode() and recs[-1]["ja4"] == ja4
        assert recs[-1]["ja3"]["string"] == ja3
        assert [e["type"] for e in recs[-1]["extensions"]] == types
        assert all("sni" not in x for x in recs[:-1])
        assert c["quic_crypto_bytes_shed"] == 0
    else:
        assert r.sids == [9]
        (a,) = r.of("alert")
        assert a["pcap_cnt"] == 1
        assert all(set(x) == {"version"} for x in recs)
        assert c["quic_crypto_bytes_shed"] == size - 16384


def test_quic_crypto_frame_past_the_limit_first(tmp_path):
    # a CRYPTO frame wholly past QUIC_CRYPTO_MAX comes first: its bytes are counted and the
    # event raised with it; the hello, at offset 0 and short, is still read afterwards
    ch, types = client_hello()
    far = udp(initial(V1, 0, b"\x06" + varint(20000) + varint(300) + bytes(300), 0),
              sport=50000, dport=443)
    near = udp(initial(V1, 0, b"\x06" + varint(0) + varint(len(ch)) + ch, 1), sport=50000,
               dport=443)
    r = eve_run(tmp_path, [far, near], CRYPTO_RULES, ["quic"], "-k", "none")
    assert r.sids == [1, 3, 5, 9]
    assert [a["pcap_cnt"] for a in r.of("alert") if a["alert"]["signature_id"] == 9] == [1]
    recs = [x["quic"] for x in r.of("quic")]
    assert recs[0] == {"version": "1"} and recs[1]["sni"] == SNI.decode()
    assert r.counters("quic")["quic_crypto_bytes_shed"] == 300


def test_quic_extensions_limit(tmp_path):
    # QUIC_EXTS_MAX (64) extension types of a hello are kept for the record: of a ClientHello
    # with 70, the record lists the first 64; JA3 and JA4 still count all of them
    ch, types = client_hello(more=range(0x4000, 0x4000 + 62))
    assert len(types) == 70
    pkts = crypto_initials(ch)
    ja3, ja4 = ja3_ja4(types)
    rules = [f'alert quic any any -> any any (msg:"ja4"; ja4.hash; content:"{ja4}"; sid:1;)',
             'alert quic any any -> any any (msg:"ja3"; ja3.string; content:"-%d,29,"; '
             'sid:2;)' % types[-1]]  # the 70th extension is in the JA3 string
    r = eve_run(tmp_path, pkts, rules, ["quic"], "-k", "none")
    assert r.sids == [1, 2]
    (rec,) = r.of("quic")
    assert [e["type"] for e in rec["quic"]["extensions"]] == types[:64]
    assert rec["quic"]["ja3"]["string"] == ja3 and rec["quic"]["ja4"] == ja4


def gquic_chlo(tags, vals):
    """a Q046 client Initial (in clear) whose STREAM frame on stream 1 carries a CHLO of
    tags with their values"""
    hdr = b"\xc3Q046\x50" + bytes(range(1, 9)) + b"\x00\x00\x00\x01" + b"\x5a" * 12
    ends, end = b"", 0
    for t, v in zip(tags, vals):
        end += len(v)
        ends += t + struct.pack("<I", end)
    msg = b"CHLO" + struct.pack("<HH", len(tags), 0) + ends + b"".join(vals)
    return udp(hdr + b"\xa0\x01" + struct.pack(">H", len(msg)) + msg + bytes(20), sport=50001,
               dport=443)


GQUIC_RULES = [
    'alert quic any any -> any any (msg:"sni"; quic.sni; content:"many.example"; bsize:12; '
    'sid:1;)',
    'alert quic any any -> any any (msg:"ua"; quic.ua; content:"Chrome/79"; startswith; '
    'sid:2;)',
    'alert quic any any -> any any (msg:"ua kept"; quic.ua; bsize:1024; sid:3;)',
    'alert quic any any -> any any (msg:"late"; quic.ua; content:"LATE"; sid:4;)',
]


@pytest.mark.parametrize("ntags", [64, 70])
def test_gquic_tags_limit(tmp_path, ntags):
    # QUIC_TAGS_MAX (64) tags of a gQUIC message are read: the CYU string has the first 64,
    # the rest counted (quic_tags_shed); the values still come after all the tag entries (the
    # SNI is read right); a UAID past the limit is not read. QUIC_TEXT_MAX (1024) bytes of the
    # UAID kept (quic.ua, the record's ua)
    tags = [b"SNI\0", b"UAID"] + [b"P%03d" % i for i in range(ntags - 2)]
    vals = [b"many.example", b"Chrome/79 " + b"u" * 1100] + [b"x"] * (ntags - 2)
    if ntags > 64:
        tags[-1], vals[-1] = b"UAID", b"LATE"
    r = eve_run(tmp_path, [gquic_chlo(tags, vals)], GQUIC_RULES, ["quic"], "-k", "none")
    assert r.sids == [1, 2, 3]
    cyu = "46," + "-".join(t.rstrip(b"\0").decode() for t in tags[:64])
    (rec,) = r.of("quic")
    assert rec["quic"] == {"version": "Q046", "sni": "many.example",
                           "ua": ("Chrome/79 " + "u" * 1100)[:1024],
                           "cyu": [{"hash": hashlib.md5(cyu.encode()).hexdigest(),
                                    "string": cyu}]}
    assert r.counters("quic")["quic_tags_shed"] == ntags - 64
