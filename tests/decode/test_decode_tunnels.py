"""Encapsulations: GRE v0 and PPTP, ERSPAN I/II/III, IP-in-IP (4in4, 6in4, 4in6, 6in6), VXLAN,
Geneve, GTP-U, Teredo, GRE-in-UDP, MPLS (Ethernet, UDP, pseudowire), PPPoE, and the depth
limits. The innermost IP/transport fields win; each tunnel is listed outermost first. Each
header also comes truncated and malformed, with its exact anomaly."""
import pytest
from scapy.all import (GRE, GRE_PPTP, HDLC, ICMPv6EchoRequest, IP, PPP, UDP, Dot1AD, Dot1Q,
                       IPv6, IPv6ExtHdrDestOpt, PPPoE, PPPoED, Raw, VXLAN)
from scapy.contrib.mpls import MPLS

from decode_helpers import be16, be32, cut, eth, expect, expect_anomaly, patch, run1

OUT4 = dict(src="203.0.113.1", dst="203.0.113.2")
OUT6 = dict(src="2001:db8:ffff::1", dst="2001:db8:ffff::2")
IN4 = IP(src="10.1.1.1", dst="10.2.2.2") / UDP(sport=1111, dport=2222) / b"inner"
IN6 = IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=1111, dport=2222) / b"inner"
INNER4 = dict(src_ip="10.1.1.1", dest_ip="10.2.2.2", src_port=1111, dest_port=2222,
              proto="UDP", payload_len=5)
INNER6 = dict(INNER4, src_ip="fd00::1", dest_ip="fd00::2")


def o4(proto=None):
    return eth() / (IP(**OUT4) if proto is None else IP(proto=proto, **OUT4))


def o6(nh=None):
    return eth() / (IPv6(**OUT6) if nh is None else IPv6(nh=nh, **OUT6))


def udp4(dport, sport=40000):
    return o4() / UDP(sport=sport, dport=dport)


def ok(trace, pkt, layers, tunnels, inner=INNER4, *args):
    rec, t = run1(trace, pkt, "-k", "all", *args)
    expect(rec, layers=layers, tunnels=tunnels, **inner)
    assert t.anomalies() == {}, t.anomalies()
    return rec


# ---- GRE -----------------------------------------------------------------------------------

def test_gre_ipv4(trace):
    ok(trace, o4() / GRE() / IN4, ["ethernet", "ipv4", "gre", "ipv4", "udp"], ["gre"])


def test_gre_checksum_key_sequence(trace):
    pkt = o4() / GRE(chksum_present=1, key_present=1, seqnum_present=1, key=42,
                     sequence_number=7) / IN6
    ok(trace, pkt, ["ethernet", "ipv4", "gre", "ipv6", "udp"], ["gre"], INNER6)


def test_gre_transparent_ethernet_over_ipv6(trace):
    pkt = o6() / GRE(proto=0x6558) / eth() / Dot1Q(vlan=44) / IN4
    rec = ok(trace, pkt, ["ethernet", "ipv6", "gre", "ethernet", "vlan", "ipv4", "udp"],
             ["gre", "vlan"])
    assert rec["vlan"] == [44]


def test_gre_routing_entries(trace):
    # RFC 1701 source route: one IPv4 SRE, then the null SRE
    hdr = be16(0x4000) + be16(0x0800) + be16(0) + be16(0)
    hdr += be16(0x0800) + b"\x00\x04" + bytes([1, 2, 3, 4]) + be32(0)
    ok(trace, o4(47) / Raw(hdr + bytes(IN4)), ["ethernet", "ipv4", "gre", "ipv4", "udp"], ["gre"])


def test_gre_within_gre(trace):
    pkt = o4() / GRE() / IP(src="192.168.0.1", dst="192.168.0.2") / GRE() / IN4
    ok(trace, pkt, ["ethernet", "ipv4", "gre", "ipv4", "gre", "ipv4", "udp"], ["gre", "gre"])


def test_gre_keepalive_without_payload(trace):
    rec, t = run1(trace, o4() / GRE(proto=0))
    expect(rec, layers=["ethernet", "ipv4", "gre"], tunnels=[], proto="GRE")
    assert t.anomalies() == {}


@pytest.mark.parametrize("n", [0, 3])
def test_gre_truncated(trace, n):
    expect_anomaly(trace, o4(47) / Raw(bytes(GRE(key_present=1, key=1) / IN4)[:n]),
                   "gre.truncated", layers=["ethernet", "ipv4"])


def test_gre_optional_fields_truncated(trace):
    # key and sequence flags set, 4 bytes of them present
    expect_anomaly(trace, o4(47) / Raw(be16(0x3000) + be16(0x0800) + be32(1)), "gre.truncated")
    # routing entries never terminated
    hdr = be16(0x4000) + be16(0x0800) + be32(0) + be16(0x0800) + b"\x00\x08" + b"\0" * 4
    expect_anomaly(trace, o4(47) / Raw(hdr), "gre.truncated")


def test_gre_malformed(trace):
    expect_anomaly(trace, o4(47) / Raw(be16(0x0003) + be16(0x0800) + bytes(IN4)),
                   "gre.wrong_version", layers=["ethernet", "ipv4"])
    expect_anomaly(trace, o4() / GRE(recursion_control=2) / IN4, "gre.bad_flags")
    expect_anomaly(trace, o4() / GRE(flags=1) / IN4, "gre.bad_flags")


def test_gre_unknown_payload(trace):
    # e.g. CDP or a local experimental ethertype: GRE itself is fine, its payload is not decoded
    expect_anomaly(trace, o4() / GRE(proto=0x88b5) / Raw(b"\x88\x01" + b"\0" * 40),
                   "gre.unknown_payload", outcome="ip", layers=["ethernet", "ipv4", "gre"])


def wlan(fc=0x88, flags=0x01, four=False, htc=False):
    """An 802.11 MAC header as Aruba APs send it in GRE: frame control, duration, addresses,
    sequence control (+ a fourth address, + QoS control for QoS subtypes, + HT control)."""
    h = bytes([fc, flags | (0x80 if htc else 0)]) + b"\0\0" + bytes(range(1, 19)) + b"\x80\x7d"
    if four:
        h += bytes(range(20, 26))
    if fc >> 4 & 0x8:
        h += b"\0\0" + (b"\0" * 4 if htc else b"")
    return Raw(h)


SNAP_IP = Raw(b"\xaa\xaa\x03\x00\x00\x00\x08\x00")
LAYERS_ARUBA = ["ethernet", "ipv4", "gre", "ieee80211", "ipv4", "udp"]


@pytest.mark.parametrize("proto", [0x8200, 0x8210, 0x83f0])
@pytest.mark.parametrize("fc,flags,four,htc", [(0x88, 0x01, False, False),  # QoS data, to DS
                                               (0x08, 0x02, False, False),  # data, from DS
                                               (0x88, 0x03, True, False),   # WDS: 4 addresses
                                               (0x88, 0x01, False, True)])  # + HT control
def test_gre_aruba_80211_data(trace, proto, fc, flags, four, htc):
    """Aruba's 802.11-in-GRE (the benchmark capture's 2,410 gre.unknown_payload per copy):
    the wireless client's IP traffic is decoded and inspected."""
    pkt = o4() / GRE(proto=proto) / wlan(fc, flags, four, htc) / SNAP_IP / IN4
    ok(trace, pkt, LAYERS_ARUBA, ["gre"])


@pytest.mark.parametrize("frame", [
    wlan(0x80, 0x00) / Raw(b"\0" * 20),             # beacon (management)
    wlan(0xc8, 0x01) / Raw(b""),                    # QoS null data: no body
    wlan(0x88, 0x41) / SNAP_IP / IN4,               # protected: the body is encrypted
    wlan(0x88, 0x01) / Raw(b"\xf0\xf0\x03" + b"\0" * 20),  # not SNAP
])
def test_gre_aruba_80211_without_ip(trace, frame):
    rec, t = run1(trace, o4() / GRE(proto=0x8200) / frame, "-k", "all")
    expect(rec, outcome="ip", layers=["ethernet", "ipv4", "gre", "ieee80211", "other"],
           tunnels=["gre"], src_ip="203.0.113.1", dest_ip="203.0.113.2")
    assert t.anomalies() == {}, t.anomalies()


def test_gre_aruba_80211_truncated(trace):
    expect_anomaly(trace, o4() / GRE(proto=0x8200) / Raw(b"\x88\x01" + b"\0" * 10),
                   "gre.unknown_payload", outcome="ip", layers=["ethernet", "ipv4", "gre", "other"])


def test_gre_bad_inner(trace):
    expect_anomaly(trace, o4() / GRE(proto=0x0800) / Raw(bytes(IN4)[:15]), "ipv4.truncated",
                   layers=["ethernet", "ipv4", "gre"])


# ---- PPTP (enhanced GRE) -------------------------------------------------------------------

def pptp(**kw):
    return GRE_PPTP(seqnum_present=1, sequence_number=5, call_id=7, **kw)


def test_pptp(trace):
    pkt = o4() / pptp() / HDLC() / PPP(proto=0x0021) / IN4
    ok(trace, pkt, ["ethernet", "ipv4", "gre", "ppp", "ipv4", "udp"], ["gre"])
    pkt = o4() / pptp(acknum_present=1, ack_number=3) / PPP(proto=0x0057) / IN6
    ok(trace, pkt, ["ethernet", "ipv4", "gre", "ppp", "ipv6", "udp"], ["gre"], INNER6)


def test_pptp_ack_only(trace):
    rec, t = run1(trace, o4() / GRE_PPTP(seqnum_present=0, acknum_present=1, call_id=7,
                                        ack_number=3, payload_len=0))
    expect(rec, layers=["ethernet", "ipv4", "gre"], tunnels=[])
    assert t.anomalies() == {}


def test_pptp_malformed(trace):
    pkt = o4() / pptp(payload_len=500) / HDLC() / PPP(proto=0x0021) / IN4
    expect_anomaly(trace, pkt, "gre.truncated", layers=["ethernet", "ipv4"])
    pkt = o4() / pptp(key_present=0) / HDLC() / PPP(proto=0x0021) / IN4
    expect_anomaly(trace, pkt, "gre.bad_flags")
    pkt = o4() / pptp(proto=0x0800) / IN4
    expect_anomaly(trace, pkt, "gre.bad_flags")


def test_pptp_ppp_unsupported(trace):
    # MPPE-compressed data: decoding stops at PPP, the packet stays an IP packet
    pkt = o4() / pptp() / HDLC() / PPP(proto=0x00fd) / Raw(b"\x90\x00" + b"\0" * 30)
    expect_anomaly(trace, pkt, "ppp.unsupported_proto", outcome="ip",
                   layers=["ethernet", "ipv4", "gre", "ppp"])


# ---- ERSPAN --------------------------------------------------------------------------------

def erspan2(vlan=0, version=1):
    return Raw(be16(version << 12 | vlan) + be16(0x0001) + be32(0))


def erspan3(o=False, version=2, ft=0):
    return Raw(be16(version << 12) + be16(1) + be32(0x12345678) + be16(0) +
               bytes([ft << 2, 1 if o else 0]) + (b"\0" * 8 if o else b""))


LAYERS_ERSPAN = ["ethernet", "ipv4", "gre", "erspan", "ethernet", "ipv4", "udp"]


def test_erspan_type1(trace):
    ok(trace, o4() / GRE(proto=0x88be) / eth() / IN4, LAYERS_ERSPAN, ["gre", "erspan"])


def test_erspan_type2(trace):
    pkt = o4() / GRE(proto=0x88be, seqnum_present=1, sequence_number=1) / erspan2(10) / \
        eth() / IN4
    ok(trace, pkt, LAYERS_ERSPAN, ["gre", "erspan"])


@pytest.mark.parametrize("o", [False, True])
def test_erspan_type3(trace, o):
    pkt = o4() / GRE(proto=0x22eb, seqnum_present=1) / erspan3(o) / eth() / IN4
    ok(trace, pkt, LAYERS_ERSPAN, ["gre", "erspan"])


def test_erspan_malformed(trace):
    gre2 = GRE(proto=0x88be, seqnum_present=1)
    expect_anomaly(trace, o4() / gre2 / erspan2(version=2) / eth() / IN4,
                   "erspan.unsupported_version", layers=["ethernet", "ipv4", "gre"])
    expect_anomaly(trace, o4() / gre2 / Raw(b"\x10\x00\x00"), "erspan.truncated")
    gre3 = GRE(proto=0x22eb, seqnum_present=1)
    expect_anomaly(trace, o4() / gre3 / erspan3(version=1) / eth() / IN4,
                   "erspan.unsupported_version")
    expect_anomaly(trace, o4() / gre3 / Raw(bytes(erspan3(o=True))[:16]), "erspan.truncated")
    expect_anomaly(trace, o4() / gre2 / erspan2() / Raw(b"\0" * 10), "ethernet.truncated")


# ---- IP in IP ------------------------------------------------------------------------------

@pytest.mark.parametrize("outer,inner,layers", [
    ("4", IN4, ["ethernet", "ipv4", "ipv4", "udp"]),
    ("4", IN6, ["ethernet", "ipv4", "ipv6", "udp"]),
    ("6", IN4, ["ethernet", "ipv6", "ipv4", "udp"]),
    ("6", IN6, ["ethernet", "ipv6", "ipv6", "udp"]),
], ids=["4in4", "6in4", "4in6", "6in6"])
def test_ipip(trace, outer, inner, layers):
    pkt = (o4() if outer == "4" else o6()) / inner
    ok(trace, pkt, layers, ["ipip"], INNER4 if inner is IN4 else INNER6)


def test_6in6in6_with_ext_header(trace):
    pkt = o6() / IPv6ExtHdrDestOpt() / IPv6(src="fd00::9", dst="fd00::8") / IN6
    ok(trace, pkt, ["ethernet", "ipv6", "ipv6_ext", "ipv6", "ipv6", "udp"], ["ipip", "ipip"],
       INNER6)


def test_ipip_inner_transport_replaces_outer(trace):
    # the innermost header has no transport: no port of any outer layer may leak into it
    pkt = udp4(4754) / GRE() / IP(src="10.1.1.1", dst="10.2.2.2", proto=50) / (b"\0" * 16)
    rec, _ = run1(trace, pkt)
    expect(rec, layers=["ethernet", "ipv4", "udp", "gre", "ipv4"], proto="ESP",
           src_ip="10.1.1.1", payload_len=16)
    assert "src_port" not in rec


@pytest.mark.parametrize("outer", ["4", "6"])
def test_ipip_inner_truncated(trace, outer):
    pkt = (o4(4) if outer == "4" else o6(4)) / Raw(bytes(IN4)[:30])
    expect_anomaly(trace, pkt, "ipv4.trunc_pkt")
    pkt = (o4(41) if outer == "4" else o6(41)) / Raw(bytes(IN6)[:39])
    expect_anomaly(trace, pkt, "ipv6.truncated")


# ---- VXLAN ---------------------------------------------------------------------------------

LAYERS_VXLAN = ["ethernet", "ipv4", "udp", "vxlan", "ethernet", "ipv4", "udp"]


def test_vxlan(trace):
    ok(trace, udp4(4789) / VXLAN(vni=4242) / eth() / IN4, LAYERS_VXLAN, ["vxlan"])


def test_vxlan_arp_inside(trace):
    from scapy.all import ARP
    rec, _ = run1(trace, udp4(4789) / VXLAN(vni=1) / eth() / ARP())
    # the outer datagram is still IP
    expect(rec, layers=["ethernet", "ipv4", "udp", "vxlan", "ethernet", "arp"],
           tunnels=["vxlan"], dest_port=4789, proto="UDP")


def test_vxlan_config(trace):
    pkt = udp4(4789) / VXLAN(vni=1) / eth() / IN4
    rec, _ = run1(trace, pkt, "--set", "decoder.vxlan.enabled=no")
    expect(rec, layers=["ethernet", "ipv4", "udp"], tunnels=[], dest_port=4789)
    pkt = udp4(8472) / VXLAN(vni=1) / eth() / IN4
    rec, _ = run1(trace, pkt, "--set", "decoder.vxlan.ports=8472")
    expect(rec, layers=LAYERS_VXLAN, tunnels=["vxlan"], **INNER4)
    rec, _ = run1(trace, pkt)
    expect(rec, layers=["ethernet", "ipv4", "udp"], dest_port=8472)


def test_vxlan_malformed(trace):
    expect_anomaly(trace, udp4(4789) / Raw(b"\x00\0\0\0\0\0\x01\0") / eth() / IN4,
                   "vxlan.bad_flags", layers=["ethernet", "ipv4", "udp"])
    expect_anomaly(trace, udp4(4789) / Raw(b"\x08\0\0\0\0\0\x01"), "vxlan.truncated",
                   layers=["ethernet", "ipv4", "udp"])
    expect_anomaly(trace, udp4(4789) / VXLAN() / Raw(b"\0" * 13), "ethernet.truncated",
                   layers=["ethernet", "ipv4", "udp", "vxlan"])


# ---- Geneve --------------------------------------------------------------------------------

def geneve(proto=0x6558, opt_words=0, version=0):
    opts = b"".join(be16(0x0101) + bytes([0x80, 1]) + be32(0xabcdef01)
                    for _ in range(opt_words // 2))
    return Raw(bytes([version << 6 | opt_words, 0]) + be16(proto) + be32(0x00123400) + opts)


def test_geneve(trace):
    layers = ["ethernet", "ipv4", "udp", "geneve", "ethernet", "ipv4", "udp"]
    ok(trace, udp4(6081) / geneve() / eth() / IN4, layers, ["geneve"])
    ok(trace, udp4(6081) / geneve(opt_words=4) / eth() / IN4, layers, ["geneve"])
    ok(trace, udp4(6081) / geneve(proto=0x86dd, opt_words=2) / IN6,
       ["ethernet", "ipv4", "udp", "geneve", "ipv6", "udp"], ["geneve"], INNER6)


def test_geneve_malformed(trace):
    expect_anomaly(trace, udp4(6081) / geneve(version=1) / eth() / IN4,
                   "geneve.wrong_version", layers=["ethernet", "ipv4", "udp"])
    # 63 words of options announced, a few bytes present
    expect_anomaly(trace, udp4(6081) / Raw(b"\x3f\x00\x65\x58" + b"\0" * 20), "geneve.truncated")
    expect_anomaly(trace, udp4(6081) / Raw(b"\x00\x00\x65\x58\x00"), "geneve.truncated")


# ---- GTP-U ---------------------------------------------------------------------------------

def gtpu(msg_type=255, body=b"", seq=None, ext=None, version=1, length=None):
    """GTPv1-U header; ext = list of extension header contents (without length/next)."""
    flags = version << 5 | 0x10
    opt = b""
    if seq is not None or ext:
        flags |= (0x02 if seq is not None else 0) | (0x04 if ext else 0)
        first_ext = ext[0][0] if ext else 0
        opt = be16(seq or 0) + b"\x00" + bytes([first_ext])
        for i, (_, content) in enumerate(ext or []):
            nxt = ext[i + 1][0] if i + 1 < len(ext) else 0
            unit = bytes([(len(content) + 2) // 4]) + content + bytes([nxt])
            opt += unit
    rest = opt + body
    return Raw(bytes([flags, msg_type]) + be16(len(rest) if length is None else length) +
               be32(0x1234) + rest)


def test_gtpu_gpdu(trace):
    layers = ["ethernet", "ipv4", "udp", "gtpu", "ipv4", "udp"]
    ok(trace, udp4(2152, 2152) / gtpu(body=bytes(IN4)), layers, ["gtpu"])
    # sequence number and a PDU session container extension header
    ok(trace, udp4(2152, 2152) / gtpu(body=bytes(IN4), seq=9, ext=[(0x85, b"\x10\x09")]),
       layers, ["gtpu"])
    ok(trace, udp4(2152) / gtpu(body=bytes(IN6)),
       ["ethernet", "ipv4", "udp", "gtpu", "ipv6", "udp"], ["gtpu"], INNER6)


def test_gtpu_echo_is_signalling(trace):
    rec, t = run1(trace, udp4(2152, 2152) / gtpu(msg_type=1, seq=3))
    expect(rec, layers=["ethernet", "ipv4", "udp", "gtpu"], tunnels=[], dest_port=2152)
    assert t.anomalies() == {}


def test_gtpu_only_by_destination_port(trace):
    # a DNS query from port 2152 is not GTP-U
    rec, t = run1(trace, udp4(53, 2152) / Raw(b"\x12\x34\x01\x00" + b"\0" * 8))
    expect(rec, layers=["ethernet", "ipv4", "udp"], src_port=2152, dest_port=53)
    assert t.anomalies() == {}


def test_gtpu_malformed(trace):
    expect_anomaly(trace, udp4(2152) / gtpu(body=bytes(IN4), version=2), "gtpu.wrong_version",
                   layers=["ethernet", "ipv4", "udp"])
    expect_anomaly(trace, udp4(2152) / gtpu(body=bytes(IN4), length=900), "gtpu.truncated")
    expect_anomaly(trace, udp4(2152) / Raw(b"\x30\xff\x00\x00\x00\x00"), "gtpu.truncated")
    bad_ext = bytearray(bytes(gtpu(body=bytes(IN4), ext=[(0x85, b"\x10\x09")])))
    bad_ext[12] = 0  # extension header of length 0
    expect_anomaly(trace, udp4(2152) / Raw(bytes(bad_ext)), "gtpu.malformed")
    expect_anomaly(trace, udp4(2152) / gtpu(body=bytes(IN4)[:30]), "ipv4.trunc_pkt",
                   layers=["ethernet", "ipv4", "udp", "gtpu"])


# ---- Teredo --------------------------------------------------------------------------------

ORIGIN = b"\x00\x00" + be16(0xffff ^ 3544) + bytes([0xff ^ 1, 0xff ^ 2, 0xff ^ 3, 0xff ^ 4])
AUTH = b"\x00\x01\x02\x03" + b"id" + b"abc" + b"\x11" * 8 + b"\x00"
PING6 = IPv6(src="2001:0:4136:e378::1", dst="2001:db8::5") / ICMPv6EchoRequest(id=77)


@pytest.mark.parametrize("indicators", [b"", ORIGIN, AUTH, AUTH + ORIGIN],
                         ids=["bare", "origin", "auth", "auth+origin"])
@pytest.mark.parametrize("server_side", ["sport", "dport"])
def test_teredo(trace, indicators, server_side):
    pkt = (udp4(40000, 3544) if server_side == "sport" else udp4(3544)) / \
        Raw(indicators + bytes(PING6))
    rec, t = run1(trace, pkt, "-k", "all")
    expect(rec, layers=["ethernet", "ipv4", "udp", "teredo", "ipv6", "icmpv6"],
           tunnels=["teredo"], src_ip="2001:0:4136:e378::1", proto="IPv6-ICMP", icmp_type=128)
    assert t.anomalies() == {}


def test_teredo_needs_a_whole_ipv6_packet(trace):
    # not IPv6, or an IPv6 payload length that does not match: just UDP on port 3544
    for payload in (bytes(IN4), bytes(PING6)[:-1], bytes(PING6) + b"\0",
                    b"\x60" + b"\0" * 10):
        rec, t = run1(trace, udp4(3544) / Raw(payload))
        expect(rec, layers=["ethernet", "ipv4", "udp"], tunnels=[], dest_port=3544)
        assert t.anomalies() == {}
    rec, _ = run1(trace, udp4(3544) / Raw(bytes(PING6)), "--set", "decoder.teredo.enabled=no")
    expect(rec, layers=["ethernet", "ipv4", "udp"])


@pytest.mark.parametrize("payload", [ORIGIN[:5], AUTH[:3], AUTH[:10]])
def test_teredo_truncated(trace, payload):
    expect_anomaly(trace, udp4(3544) / Raw(payload), "teredo.truncated",
                   layers=["ethernet", "ipv4", "udp"])


# ---- GRE / MPLS in UDP ---------------------------------------------------------------------

def test_gre_in_udp(trace):
    ok(trace, udp4(4754) / GRE() / IN4, ["ethernet", "ipv4", "udp", "gre", "ipv4", "udp"],
       ["gre"])
    expect_anomaly(trace, udp4(4754) / Raw(b"\x00"), "gre.truncated",
                   layers=["ethernet", "ipv4", "udp"])


def test_mpls_in_udp(trace):
    ok(trace, udp4(6635) / MPLS(label=100, s=1, ttl=9) / IN6,
       ["ethernet", "ipv4", "udp", "mpls", "ipv6", "udp"], ["mpls"], INNER6)
    expect_anomaly(trace, udp4(6635) / MPLS(label=100, s=0) / Raw(b"\0\0"), "mpls.truncated",
                   layers=["ethernet", "ipv4", "udp"])


# ---- MPLS ----------------------------------------------------------------------------------

def test_mpls_label_stack(trace):
    pkt = eth() / MPLS(label=16, s=0) / MPLS(label=17, s=1) / IN4
    rec = ok(trace, pkt, ["ethernet", "mpls", "ipv4", "udp"], ["mpls"])
    assert rec["ttl"] == 64


def test_mpls_explicit_null_and_vlan(trace):
    ok(trace, eth() / Dot1Q(vlan=3) / MPLS(label=2, s=1) / IN6,
       ["ethernet", "vlan", "mpls", "ipv6", "udp"], ["vlan", "mpls"], INNER6)
    ok(trace, eth() / MPLS(label=0, s=1) / IN4, ["ethernet", "mpls", "ipv4", "udp"], ["mpls"])


def test_mpls_ethernet_pseudowire(trace):
    pkt = eth() / MPLS(label=1000, s=1) / Raw(b"\0\0\0\0") / eth() / IN4
    ok(trace, pkt, ["ethernet", "mpls", "ethernet", "ipv4", "udp"], ["mpls"])


def test_mpls_malformed(trace):
    expect_anomaly(trace, eth(type=0x8847) / MPLS(label=16, s=0) / MPLS(label=17, s=0),
                   "mpls.truncated", layers=["ethernet"])
    expect_anomaly(trace, eth(type=0x8847) / MPLS(label=16, s=1), "mpls.truncated",
                   layers=["ethernet", "mpls"])
    expect_anomaly(trace, eth() / MPLS(label=5, s=1) / IN4, "mpls.bad_label",
                   layers=["ethernet"])
    expect_anomaly(trace, eth() / MPLS(label=3, s=0) / MPLS(label=20, s=1) / IN4,
                   "mpls.bad_label")
    expect_anomaly(trace, eth() / MPLS(label=20, s=1) / Raw(b"\x90" + b"\0" * 30),
                   "mpls.unknown_payload", outcome="non_ip", layers=["ethernet", "mpls"])


# ---- PPPoE ---------------------------------------------------------------------------------

def test_pppoe_session(trace):
    ok(trace, eth() / PPPoE(sessionid=0x10) / PPP(proto=0x0021) / IN4,
       ["ethernet", "pppoe", "ppp", "ipv4", "udp"], ["pppoe"])
    ok(trace, eth() / Dot1AD(vlan=7) / Dot1Q(vlan=8) / PPPoE() / PPP(proto=0x0057) / IN6,
       ["ethernet", "vlan", "vlan", "pppoe", "ppp", "ipv6", "udp"], ["vlan", "pppoe"], INNER6)


def test_pppoe_discovery_and_lcp_are_non_ip(trace):
    t = trace([eth() / PPPoED(code=0x09) / Raw(b"\x01\x01\x00\x00"),
               eth() / PPPoE() / PPP(proto=0xc021) / Raw(b"\x01\x01\x00\x04")], "--packets")
    expect(t.packets[0], outcome="non_ip", layers=["ethernet", "pppoe"], tunnels=[])
    expect(t.packets[1], outcome="non_ip", layers=["ethernet", "pppoe", "ppp"], tunnels=["pppoe"])
    assert t.anomalies() == {}


def test_pppoe_malformed(trace):
    pkt = eth() / PPPoE(sessionid=1) / PPP(proto=0x0021) / IN4
    expect_anomaly(trace, patch(pkt, 14, b"\x21"), "pppoe.malformed", layers=["ethernet"])
    expect_anomaly(trace, patch(pkt, 15, b"\x09"), "pppoe.malformed")
    expect_anomaly(trace, patch(pkt, 18, be16(0)), "pppoe.malformed")
    expect_anomaly(trace, patch(pkt, 18, be16(900)), "pppoe.truncated")
    expect_anomaly(trace, cut(pkt, 19), "pppoe.truncated", layers=["ethernet"])
    expect_anomaly(trace, eth() / PPPoED(code=0x42), "pppoe.malformed")
    expect_anomaly(trace, eth() / PPPoED(len=100), "pppoe.truncated")
    expect_anomaly(trace, eth() / PPPoE() / Raw(b"\x00"), "ppp.truncated",
                   layers=["ethernet", "pppoe"])


# ---- limits --------------------------------------------------------------------------------

def nested_ipip(n):
    pkt = IN4
    for i in range(n):
        pkt = IP(src=f"10.9.{i}.1", dst=f"10.9.{i}.2") / pkt
    return eth() / pkt


def test_tunnel_depth_limit(trace):
    ok(trace, nested_ipip(8), ["ethernet"] + ["ipv4"] * 9 + ["udp"], ["ipip"] * 8)
    rec = expect_anomaly(trace, nested_ipip(9), "tunnel.too_deep")
    assert rec["tunnels"] == ["ipip"] * 8
    rec = expect_anomaly(trace, nested_ipip(3), "tunnel.too_deep",
                         args=("--set", "decoder.max-layers=2"))
    assert rec["tunnels"] == ["ipip", "ipip"]


def test_too_many_layers(trace):
    pkt = eth() / IPv6(**OUT6)
    for i in range(3):
        for _ in range(8):
            pkt = pkt / IPv6ExtHdrDestOpt()
        pkt = pkt / IPv6(src="fd00::1", dst="fd00::2")
    pkt = pkt / UDP()
    rec = expect_anomaly(trace, pkt, "decoder.too_many_layers")
    assert len(rec["layers"]) == 24


# ---- NSH (RFC 8300) ------------------------------------------------------------------------

def nsh(np, md=1, words=None, ver=0, ctx=None):
    """Base + service path header (SPI 1, SI 255), then the context headers."""
    ctx = (b"\0" * 16 if md == 1 else b"") if ctx is None else ctx
    words = (8 + len(ctx)) // 4 if words is None else words
    return Raw(bytes([ver << 6, words & 0x3f, md, np]) + b"\x00\x00\x01\xff" + ctx)


@pytest.mark.parametrize("md,ctx", [(1, None), (2, b""), (2, b"\x00\x01\x02\x01abcd")])
def test_nsh_carries_ip_and_ethernet(trace, md, ctx):
    rec, t = run1(trace, eth(type=0x894f) / nsh(1, md, ctx=ctx) / IN4, "-k", "none")
    expect(rec, layers=["ethernet", "nsh", "ipv4", "udp"], **INNER4)
    assert t.anomalies() == {}
    rec, _ = run1(trace, eth(type=0x894f) / nsh(2, md, ctx=ctx) / IN6, "-k", "none")
    expect(rec, layers=["ethernet", "nsh", "ipv6", "udp"], **INNER6)
    rec, _ = run1(trace, eth(type=0x894f) / nsh(3, md, ctx=ctx) / eth() / IN4, "-k", "none")
    expect(rec, layers=["ethernet", "nsh", "ethernet", "ipv4", "udp"], **INNER4)


def test_nsh_malformed(trace):
    e = eth(type=0x894f)
    expect_anomaly(trace, e / Raw(b"\x00\x06\x01"), "nsh.header_too_small",
                   layers=["ethernet"])
    expect_anomaly(trace, e / nsh(1, ver=1) / IN4, "nsh.unsupported_version")
    expect_anomaly(trace, e / nsh(1, md=1, words=5) / IN4, "nsh.bad_header_length")
    expect_anomaly(trace, e / nsh(1, md=2, words=1) / IN4, "nsh.bad_header_length")
    expect_anomaly(trace, e / nsh(1, md=2, words=20), "nsh.header_too_small")
    expect_anomaly(trace, e / nsh(1, md=0) / IN4, "nsh.reserved_type")
    expect_anomaly(trace, e / nsh(1, md=3, ctx=b"") / IN4, "nsh.unsupported_type")
    expect_anomaly(trace, e / nsh(9) / IN4, "nsh.unknown_payload", outcome="non_ip",
                   layers=["ethernet", "nsh"])
