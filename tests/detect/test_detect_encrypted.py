"""Encrypted payload is no longer for content rules, as in Suricata 7: once a TLS flow carries
application data (app-layer.protocols.tls.encryption-handling: default) or both SSH sides sent
NEWKEYS, its packets' payload and its stream are not inspected any more, while the
protocol's own buffers (tls.sni, ssh.software) still are. Each expected list is what
Suricata 7.0.10 gives on the same capture and rules: (sid, pcap_cnt) of every alert, 0 for
none (an alert at the flow's end)."""
import json
import struct

import pytest

from detect_helpers import Conv, detect
from tls_helpers import _hs, chain, hello, server, tls_record

CHAIN = chain()

RULES = [
    'alert tcp any any -> any any (msg:"stream"; content:"SECRETMARKER"; sid:1;)',
    # a content with an offset: inspected on each packet too (Suricata's packet rules)
    'alert tcp any any -> any any (msg:"packet"; content:"SECRETMARKER"; offset:3; sid:2;)',
    'alert tcp any any -> any any (msg:"dsize"; dsize:>10; content:"SECRETMARKER"; sid:3;)',
    'alert tcp any any -> any any (msg:"clear"; content:"CLEARMARKER"; sid:5;)',
    'alert tcp any any -> any any (msg:"early"; content:"EARLYMARKER"; sid:6;)',
]
TLS_RULES = [r.replace('"CLEARMARKER"', '"www.example.org"') for r in RULES] + [
    'alert tls any any -> any any (msg:"sni"; tls.sni; content:"www.example.org"; sid:4;)',
    'alert tls any any -> any any (msg:"tls content"; content:"SECRETMARKER"; sid:7;)',
]
SSH_RULES = RULES + [
    'alert ssh any any -> any any (msg:"sw"; ssh.software; content:"libssh"; sid:4;)',
    'alert ssh any any -> any any (msg:"ssh content"; content:"SECRETMARKER"; sid:7;)',
]


def tls_flow(early=False):
    """A TLS 1.2 handshake (its ClientHello names www.example.org), then three application
    data records each way carrying SECRETMARKER; early: a ClientHello offering 0-RTT data and
    one such record (EARLYMARKER) before the ServerHello."""
    c = Conv(sport=40443, dport=443).handshake()
    c.send(True, hello(early_data=early))
    if early:
        c.send(True, tls_record(b"e0 EARLYMARKER e0", ctype=23, version=0x0303))
    c.send(False, server(CHAIN))
    c.send(True, tls_record(_hs(16, b"\x01\x04"), version=0x0303) +
           tls_record(b"\x01", ctype=20, version=0x0303) + tls_record(b"\x00" * 40, version=0x0303))
    c.send(False, tls_record(b"\x01", ctype=20, version=0x0303) +
           tls_record(b"\x00" * 40, version=0x0303))
    for i in range(3):
        c.send(True, tls_record(b"c%d SECRETMARKER c%d" % (i, i), ctype=23, version=0x0303))
        c.send(False, tls_record(b"s%d SECRETMARKER s%d" % (i, i), ctype=23, version=0x0303))
    return c.close().pkts


def alerts(tmp_path, pkts, rules, *args):
    res = detect(tmp_path, pkts, rules, *args)
    assert "not compiled" not in res.proc.stderr, res.proc.stderr
    return sorted((a["alert"]["signature_id"], a.get("pcap_cnt") or 0) for a in res.alerts)


def test_tls_application_data_ends_payload_inspection(tmp_path):
    # the first client record is inspected as a packet on arrival (sids 2, 3 on packet 12);
    # its parse at the server's ACK turns the payload off, the stream's pending bytes too
    # (sid 1 never); tls.sni and the ClientHello's clear bytes still alert
    got = alerts(tmp_path, tls_flow(), TLS_RULES)
    assert got == [(2, 12), (3, 12), (4, 7), (5, 7), (5, 9)]


def test_tls_encryption_handling_full_inspects_the_payload(tmp_path):
    got = alerts(tmp_path, tls_flow(), TLS_RULES,
                 "--set", "app-layer.protocols.tls.encryption-handling=full")
    sids = {s for s, _ in got}
    assert sids == {1, 2, 3, 4, 5, 7}
    # every data packet of both sides, as Suricata's packet inspection
    assert [n for s, n in got if s == 3] == [12, 14, 16, 18, 20, 22]
    # the stream rules at the first records' ends, as Suricata's raw stream (each side)
    assert (1, 15) in got and (7, 15) in got


def test_tls_encryption_handling_bypass_keeps_what_the_stream_had(tmp_path):
    # bypass: the records are not read on, and the stream takes no more bytes; those it
    # had (the first client record) are still inspected (Suricata: at the flow's end)
    got = alerts(tmp_path, tls_flow(), TLS_RULES,
                 "--set", "app-layer.protocols.tls.encryption-handling=bypass")
    assert {s for s, _ in got} == {1, 2, 3, 4, 5, 7}
    assert [g for g in got if g[0] in (2, 3)] == [(2, 12), (3, 12)]
    assert [s for s, _ in got].count(1) == 1 and [s for s, _ in got].count(7) == 1


def test_tls_zero_rtt_data_before_the_server_hello_is_inspected(tmp_path):
    got = alerts(tmp_path, tls_flow(early=True), TLS_RULES)
    assert got == [(2, 14), (3, 14), (4, 6), (5, 6), (5, 11), (6, 9)]


def test_tls_encryption_handling_rejects_other_words(tmp_path):
    res = detect(tmp_path, tls_flow(), TLS_RULES,
                 "--set", "app-layer.protocols.tls.encryption-handling=maybe", check=False)
    assert res.proc.returncode != 0
    assert "encryption-handling" in res.proc.stderr


def kexinit():
    payload = b"\x14" + b"\x11" * 16 + b"".join(struct.pack("!I", 3) + b"abc" for _ in range(10)) \
        + b"\0" + b"\0\0\0\0"
    pad = 8 - (len(payload) + 5) % 8 + 4
    return struct.pack("!IB", len(payload) + pad + 1, pad) + payload + b"\0" * pad


NEWKEYS = b"\x00\x00\x00\x0c\x0a\x15" + b"\0" * 10


def ssh_flow(both=True):
    """Banners (the client's carries CLEARMARKER), KEXINITs, NEWKEYS of the server (and of
    the client: both), then three SECRETMARKER chunks each way."""
    c = Conv(sport=40022, dport=22).handshake()
    c.send(False, b"SSH-2.0-OpenSSH_8.9\r\n").send(True, b"SSH-2.0-libssh_0.9.6 CLEARMARKER\r\n")
    c.send(True, kexinit()).send(False, kexinit())
    c.send(False, NEWKEYS)
    if both:
        c.send(True, NEWKEYS)
    for i in range(3):
        c.send(True, b"c%d SECRETMARKER c%d" % (i, i))
        c.send(False, b"s%d SECRETMARKER s%d" % (i, i))
    return c.close().pkts


def test_ssh_newkeys_of_both_sides_ends_payload_inspection(tmp_path):
    # the bytes the stream had before are still inspected (the banner: sid 5, Suricata at
    # the flow's end); nothing after the NEWKEYS is
    got = alerts(tmp_path, ssh_flow(), SSH_RULES)
    assert {s for s, _ in got} == {4, 5}
    assert (4, 8) in got


def test_ssh_one_side_encrypted_is_still_inspected(tmp_path):
    got = alerts(tmp_path, ssh_flow(both=False), SSH_RULES)
    assert {s for s, _ in got} == {1, 2, 3, 4, 5, 7}


@pytest.mark.parametrize("flow", ["tls", "ssh"])
def test_encrypted_bytes_are_not_scanned(tmp_path, flow):
    # the prefilter's bytes (stats): the flow scans less once encrypted than when its
    # payload stays inspected (TLS encryption-handling full; SSH not parsed)
    pkts = tls_flow() if flow == "tls" else ssh_flow()
    rules = TLS_RULES if flow == "tls" else SSH_RULES
    detect(tmp_path, pkts, rules, name="off")
    detect(tmp_path, pkts, rules, "--set", "app-layer.protocols.tls.encryption-handling=full",
           "--set", "app-layer.protocols.ssh.enabled=no", name="on")

    def scanned(name):
        recs = [json.loads(l) for l in (tmp_path / f"{name}-log" / "eve.json").read_text()
                .splitlines()]
        return [r for r in recs if r["event_type"] == "stats"][-1]["stats"]["osprey"][
            "detect"]["prefilter"]["bytes"]
    # six data records of 20-odd bytes each way, scanned as packets and as stream in full
    assert scanned("on") - scanned("off") >= 5 * 20
