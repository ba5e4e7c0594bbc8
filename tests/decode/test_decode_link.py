"""Link layers: Ethernet (II, 802.3/SNAP), VLAN stacks, raw IP link types, NULL/LOOP, Linux
SLL/SLL2, PPP, Cisco HDLC, PPPoE link type, NFLOG, FDDI; and for each header a truncated and
a malformed variant with its exact anomaly."""
import struct

import pytest
from scapy.all import (ARP, IP, LLC, SNAP, STP, UDP, CookedLinux, CookedLinuxV2, Dot1AD, Dot1Q,
                       Dot3, IPv6, Loopback, Padding, Raw, RawVal)

from decode_helpers import (DLT_C_HDLC, DLT_EN10MB, DLT_FDDI, DLT_IPV4, DLT_IPV6, DLT_LOOP,
                                 DLT_NFLOG, DLT_NULL, DLT_PPP, DLT_PPP_ETHER, DLT_PPP_SERIAL,
                                 DLT_RAW, DLT_RAW_BSD, DLT_SLL, DLT_SLL2, LINKTYPE_RAW, be16,
                                 cut, eth, expect, expect_anomaly, patch, raw, run1)

V4 = IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=1234, dport=53) / b"hello"
V6 = IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP(sport=1234, dport=53) / b"hello"
UDP_FIELDS = dict(src_port=1234, dest_port=53, proto="UDP", payload_len=5)


def expect_v4(rec, layers, **kw):
    expect(rec, layers=layers, src_ip="192.0.2.1", dest_ip="192.0.2.2", **UDP_FIELDS, **kw)


def expect_v6(rec, layers, **kw):
    expect(rec, layers=layers, src_ip="2001:db8::1", dest_ip="2001:db8::2", **UDP_FIELDS, **kw)


# ---- Ethernet ------------------------------------------------------------------------------

def test_ethernet_ipv4_udp(trace):
    rec, t = run1(trace, eth() / V4)
    expect_v4(rec, ["ethernet", "ipv4", "udp"], tunnels=[], ttl=64)
    assert t.anomalies() == {}
    dec = t.stats["decoder"]
    assert dec["pkts"] == 1 and dec["outcomes"]["ip"] == 1
    assert dec["layers"]["ethernet"] == 1 and dec["layers"]["udp"] == 1


def test_ethernet_padding_is_ignored(trace):
    pkt = eth() / IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=1, dport=2) / b"x"
    pkt = pkt / Padding(b"\0" * (60 - len(pkt)))
    rec, t = run1(trace, pkt)
    expect(rec, layers=["ethernet", "ipv4", "udp"], payload_len=1)
    assert t.anomalies() == {}


def test_8023_snap_ipv4(trace):
    rec, _ = run1(trace, Dot3(src="00:00:00:00:00:01", dst="00:00:00:00:00:02") /
                  LLC(dsap=0xaa, ssap=0xaa, ctrl=3) / SNAP(OUI=0, code=0x0800) / V4)
    expect_v4(rec, ["ethernet", "ipv4", "udp"])


def test_8023_stp_is_non_ip(trace):
    rec, t = run1(trace, Dot3(dst="01:80:c2:00:00:00") / LLC() / STP())
    expect(rec, outcome="non_ip", layers=["ethernet", "other"])
    assert t.anomalies() == {}


def test_arp_and_unknown_ethertype_are_non_ip(trace):
    t = trace([eth() / ARP(), eth(type=0x88cc) / Raw(b"\0" * 40)], "--packets")
    expect(t.packets[0], outcome="non_ip", layers=["ethernet", "arp"])
    expect(t.packets[1], outcome="non_ip", layers=["ethernet", "other"])
    assert t.anomalies() == {}
    assert t.stats["decoder"]["outcomes"]["non_ip"] == 2


@pytest.mark.parametrize("n", [0, 1, 13])
def test_ethernet_truncated(trace, n):
    expect_anomaly(trace, cut(eth() / V4, n), "ethernet.truncated", layers=[])


def test_ethernet_ipv4_truncated_by_snaplen(trace):
    # the capture holds less than the IP total length: invalid, as in Suricata
    expect_anomaly(trace, cut(eth() / V4, 14 + 25), "ipv4.trunc_pkt", layers=["ethernet"])


# ---- VLAN ----------------------------------------------------------------------------------

def test_vlan_single(trace):
    rec, _ = run1(trace, eth() / Dot1Q(vlan=10, prio=5) / V4)
    expect_v4(rec, ["ethernet", "vlan", "ipv4", "udp"], tunnels=["vlan"], vlan=[10])


def test_qinq_8021ad(trace):
    rec, _ = run1(trace, eth() / Dot1AD(vlan=100) / Dot1Q(vlan=200) / V6)
    expect_v6(rec, ["ethernet", "vlan", "vlan", "ipv6", "udp"], tunnels=["vlan"],
              vlan=[100, 200])


@pytest.mark.parametrize("tpid", [0x8100, 0x88a8, 0x9100, 0x9200])
def test_qinqinq(trace, tpid):
    pkt = eth(type=tpid) / Dot1Q(vlan=1) / Dot1Q(vlan=2) / Dot1Q(vlan=3) / V4
    rec, _ = run1(trace, pkt)
    expect_v4(rec, ["ethernet", "vlan", "vlan", "vlan", "ipv4", "udp"], tunnels=["vlan"],
              vlan=[1, 2, 3])


def test_vlan_arp_is_non_ip(trace):
    rec, _ = run1(trace, eth() / Dot1AD(vlan=5) / Dot1Q(vlan=6) / ARP())
    expect(rec, outcome="non_ip", layers=["ethernet", "vlan", "vlan", "arp"], vlan=[5, 6])


def test_vlan_too_many(trace):
    pkt = eth() / Dot1Q(vlan=1) / Dot1Q(vlan=2) / Dot1Q(vlan=3) / Dot1Q(vlan=4) / V4
    expect_anomaly(trace, pkt, "vlan.too_many_layers",
                   layers=["ethernet", "vlan", "vlan", "vlan"])


@pytest.mark.parametrize("n", [14, 15, 17])
def test_vlan_truncated(trace, n):
    expect_anomaly(trace, cut(eth() / Dot1Q(vlan=1) / V4, n), "vlan.truncated",
                   layers=["ethernet"])


# ---- VN-Tag and IEEE 802.1ah (decoded as Suricata does: decoder.vntag, decoder.ieee8021ah) ----

def vntag(next_type):
    return Raw(bytes.fromhex("80010002") + be16(next_type))  # d, dst vif 1, src vif 2


def itag(isid=0x123456):
    return Raw(bytes([0x00]) + isid.to_bytes(3, "big"))


def test_vntag_to_ipv4_and_vlan(trace):
    rec, _ = run1(trace, eth(type=0x8926) / vntag(0x0800) / V4)
    expect_v4(rec, ["ethernet", "vntag", "ipv4", "udp"])
    rec, _ = run1(trace, eth(type=0x8926) / vntag(0x8100) / Dot1Q(vlan=250) / V4)
    expect_v4(rec, ["ethernet", "vntag", "vlan", "ipv4", "udp"], vlan=[250])


def test_vntag_unknown_type_is_non_ip_and_short_is_truncated(trace):
    rec, t = run1(trace, eth(type=0x8926) / vntag(0x88b5) / Raw(b"x" * 20))
    expect(rec, outcome="non_ip", layers=["ethernet", "vntag", "other"])
    assert t.anomalies() == {}
    expect_anomaly(trace, eth(type=0x8926) / Raw(b"\x80\x01\x00"), "link.truncated",
                   layers=["ethernet"])


def test_8021ah_customer_frame_inside(trace):
    inner = Raw(bytes.fromhex("020000000c01020000000c02"))  # customer destination, source
    rec, _ = run1(trace, eth(type=0x88e7) / itag() / inner / Raw(be16(0x0800)) / V4)
    expect_v4(rec, ["ethernet", "ieee8021ah", "ethernet", "ipv4", "udp"])
    rec, _ = run1(trace, eth() / Dot1AD(vlan=7, type=0x88e7) / itag() / inner /
                  Raw(be16(0x8100)) / Dot1Q(vlan=8) / V4)
    expect_v4(rec, ["ethernet", "vlan", "ieee8021ah", "ethernet", "vlan", "ipv4", "udp"],
              vlan=[7, 8])
    expect_anomaly(trace, eth(type=0x88e7) / itag() / Raw(b"\0" * 10), "link.truncated",
                   layers=["ethernet"])


# ---- raw IP link types ---------------------------------------------------------------------

@pytest.mark.parametrize("lt", [DLT_RAW, DLT_RAW_BSD, LINKTYPE_RAW])
def test_raw_ip(trace, lt):
    t = trace([raw(V4), raw(V6)], "--packets", linktype=lt)
    expect_v4(t.packets[0], ["ipv4", "udp"])
    expect_v6(t.packets[1], ["ipv6", "udp"])
    assert t.anomalies() == {}


def test_dlt_ipv4_ipv6(trace):
    rec, _ = run1(trace, raw(V4), linktype=DLT_IPV4)
    expect_v4(rec, ["ipv4", "udp"])
    rec, _ = run1(trace, raw(V6), linktype=DLT_IPV6)
    expect_v6(rec, ["ipv6", "udp"])
    # each accepts only its own version
    expect_anomaly(trace, raw(V6), "ipv4.wrong_ip_version", linktype=DLT_IPV4)
    expect_anomaly(trace, raw(bytes(V4) + b"\0" * 20), "ipv6.wrong_ip_version",
                   linktype=DLT_IPV6)


def test_raw_bad_version_and_empty(trace):
    expect_anomaly(trace, patch(raw(V4), 0, b"\x55"), "ipraw.invalid_ip_version",
                   linktype=DLT_RAW, layers=[])
    expect_anomaly(trace, raw(b""), "link.truncated", linktype=DLT_RAW, layers=[])


# ---- NULL / LOOP ---------------------------------------------------------------------------

def null_frame(frame, lt=DLT_NULL):
    """scapy writes link type 0 only for its own Loopback class (0 reads as "unset")."""
    if lt != DLT_NULL or len(frame) < 4:
        return raw(frame)
    return Loopback(type=RawVal(frame[:4])) / Raw(frame[4:])


@pytest.mark.parametrize("lt", [DLT_NULL, DLT_LOOP])
@pytest.mark.parametrize("order", ["<I", ">I"])
def test_null_loop_all_families(trace, lt, order):
    pkts = [null_frame(struct.pack(order, 2) + bytes(V4), lt)]
    pkts += [null_frame(struct.pack(order, af) + bytes(V6), lt) for af in (10, 23, 24, 28, 30)]
    t = trace(pkts, "--packets", linktype=lt)
    expect_v4(t.packets[0], ["null", "ipv4", "udp"])
    for rec in t.packets[1:]:
        expect_v6(rec, ["null", "ipv6", "udp"])
    assert t.anomalies() == {}


def test_null_other_family_and_truncated(trace):
    rec, _ = run1(trace, null_frame(struct.pack("<I", 7) + b"\0" * 20), linktype=DLT_NULL)
    expect(rec, outcome="non_ip", layers=["null", "other"])
    expect_anomaly(trace, raw(b"\x02\0\0"), "link.truncated", linktype=DLT_LOOP, layers=[])


def test_null_malformed_ip(trace):
    expect_anomaly(trace, null_frame(struct.pack("<I", 2) + bytes(V4)[:19]), "ipv4.truncated",
                   linktype=DLT_NULL, layers=["null"])


# ---- Linux cooked --------------------------------------------------------------------------

def test_sll(trace):
    rec, _ = run1(trace, CookedLinux(pkttype=0, lladdrtype=1, lladdrlen=6, proto=0x0800) / V4)
    expect_v4(rec, ["sll", "ipv4", "udp"])
    rec, _ = run1(trace, CookedLinux(proto=0x0806) / ARP())
    expect(rec, outcome="non_ip", layers=["sll", "arp"])
    # ARPHRD_NETLINK: netlink messages, not packets
    rec, _ = run1(trace, CookedLinux(lladdrtype=824, proto=0) / Raw(b"\0" * 20))
    expect(rec, outcome="non_ip", layers=["sll", "other"])


def test_sll2(trace):
    rec, _ = run1(trace, CookedLinuxV2(proto=0x86dd, ifindex=3) / V6)
    expect_v6(rec, ["sll2", "ipv6", "udp"])
    rec, _ = run1(trace, CookedLinuxV2(proto=0x0800) / V4)
    expect_v4(rec, ["sll2", "ipv4", "udp"])


@pytest.mark.parametrize("lt,n", [(DLT_SLL, 15), (DLT_SLL2, 19), (DLT_SLL2, 0)])
def test_sll_truncated(trace, lt, n):
    frame = bytes(CookedLinux(proto=0x0800) / V4) if lt == DLT_SLL else \
        bytes(CookedLinuxV2(proto=0x0800) / V4)
    expect_anomaly(trace, raw(frame[:n]), "link.truncated", linktype=lt, layers=[])


def test_sll_malformed_ip(trace):
    frame = bytes(CookedLinux(proto=0x0800) / V4)
    expect_anomaly(trace, patch(raw(frame), 16, b"\x65"), "ipv4.wrong_ip_version",
                   linktype=DLT_SLL, layers=["sll"])


# ---- PPP, Cisco HDLC, PPPoE link type ------------------------------------------------------

@pytest.mark.parametrize("hdr,ver", [
    (b"\xff\x03\x00\x21", 4),   # address, control, protocol
    (b"\x00\x21", 4),           # address/control omitted (ACFC)
    (b"\x21", 4),               # protocol compressed (PFC)
    (b"\xff\x03\x00\x57", 6),
])
@pytest.mark.parametrize("lt", [DLT_PPP, DLT_PPP_SERIAL])
def test_ppp(trace, hdr, ver, lt):
    rec, t = run1(trace, raw(hdr + bytes(V4 if ver == 4 else V6)), linktype=lt)
    (expect_v4 if ver == 4 else expect_v6)(rec, ["ppp", "ipv4" if ver == 4 else "ipv6", "udp"])
    assert t.anomalies() == {}


def test_ppp_control_protocol_is_non_ip(trace):
    rec, t = run1(trace, raw(b"\xff\x03\xc0\x21\x01\x01\x00\x04"), linktype=DLT_PPP)
    expect(rec, outcome="non_ip", layers=["ppp"])
    assert t.anomalies() == {}


def test_ppp_unsupported_protocol(trace):
    # Van Jacobson compressed TCP/IP: the frame is fine, its content is not decoded
    expect_anomaly(trace, raw(b"\xff\x03\x00\x2d" + b"\0" * 10), "ppp.unsupported_proto",
                   linktype=DLT_PPP, outcome="non_ip", layers=["ppp"])


@pytest.mark.parametrize("frame", [b"", b"\xff\x03", b"\xff\x03\x00"])
def test_ppp_truncated(trace, frame):
    expect_anomaly(trace, raw(frame), "ppp.truncated", linktype=DLT_PPP, layers=[])


@pytest.mark.parametrize("lt", [DLT_C_HDLC, DLT_PPP_SERIAL])
def test_cisco_hdlc(trace, lt):
    rec, _ = run1(trace, raw(b"\x0f\x00\x08\x00" + bytes(V4)), linktype=lt)
    expect_v4(rec, ["chdlc", "ipv4", "udp"])
    rec, _ = run1(trace, raw(b"\x8f\x00\x86\xdd" + bytes(V6)), linktype=lt)
    expect_v6(rec, ["chdlc", "ipv6", "udp"])


def test_cisco_hdlc_truncated(trace):
    expect_anomaly(trace, raw(b"\x0f\x00\x08"), "link.truncated", linktype=DLT_C_HDLC, layers=[])


def test_ppp_ether_link_type(trace):
    body = b"\x00\x21" + bytes(V4)
    rec, _ = run1(trace, raw(b"\x11\x00\x00\x07" + be16(len(body)) + body), linktype=DLT_PPP_ETHER)
    expect_v4(rec, ["pppoe", "ppp", "ipv4", "udp"], tunnels=["pppoe"])


# ---- NFLOG ---------------------------------------------------------------------------------

def nflog(payload, family=2, order="<", version=0, extra_tlvs=True):
    def tlv(t, v):
        b = struct.pack(order + "HH", 4 + len(v), t) + v
        return b + b"\0" * (-len(b) % 4)
    out = bytes([family, version]) + b"\x00\x2a"
    if extra_tlvs:
        out += tlv(1, b"\x08\x00\x03\x00")     # NFULA_PACKET_HDR
        out += tlv(10, b"\0\0\0\0")            # NFULA_PREFIX
    if payload is not None:
        out += tlv(9, payload)                 # NFULA_PAYLOAD
    return raw(out)


@pytest.mark.parametrize("order", ["<", ">"])
def test_nflog(trace, order):
    rec, t = run1(trace, nflog(bytes(V4), order=order), linktype=DLT_NFLOG)
    expect_v4(rec, ["nflog", "ipv4", "udp"])
    rec, t = run1(trace, nflog(bytes(V6), family=10, order=order), linktype=DLT_NFLOG)
    expect_v6(rec, ["nflog", "ipv6", "udp"])
    assert t.anomalies() == {}


def test_nflog_without_payload_is_non_ip(trace):
    rec, _ = run1(trace, nflog(None), linktype=DLT_NFLOG)
    expect(rec, outcome="non_ip", layers=["nflog"])


def test_nflog_malformed(trace):
    frame = bytearray(bytes(nflog(bytes(V4), extra_tlvs=False)))
    frame[4:6] = struct.pack("<H", 500)  # payload TLV longer than the frame, either order
    frame[6:8] = b"\xff\xff"
    expect_anomaly(trace, raw(frame), "nflog.malformed", linktype=DLT_NFLOG, layers=[])
    expect_anomaly(trace, nflog(bytes(V4), version=1), "nflog.malformed",
                   linktype=DLT_NFLOG, layers=[])
    expect_anomaly(trace, raw(b"\x02\x00\x00"), "link.truncated", linktype=DLT_NFLOG, layers=[])


# ---- FDDI ----------------------------------------------------------------------------------

FDDI_HDR = b"\x50" + b"\x00\x00\x00\x00\x00\x02" + b"\x00\x00\x00\x00\x00\x01"


def test_fddi(trace):
    rec, _ = run1(trace, raw(FDDI_HDR + b"\xaa\xaa\x03\x00\x00\x00\x08\x00" + bytes(V4)),
                  linktype=DLT_FDDI)
    expect_v4(rec, ["fddi", "ipv4", "udp"])
    rec, _ = run1(trace, raw(FDDI_HDR + b"\x42\x42\x03" + b"\0" * 30), linktype=DLT_FDDI)
    expect(rec, outcome="non_ip", layers=["fddi", "other"])
    expect_anomaly(trace, raw(FDDI_HDR[:12]), "link.truncated", linktype=DLT_FDDI, layers=[])


# ---- unsupported ---------------------------------------------------------------------------

def test_unsupported_linktype(trace):
    # LINKTYPE_USER0: nothing to decode
    expect_anomaly(trace, raw(bytes(V4)), "link.unsupported_linktype", linktype=147, layers=[])


def test_every_link_type_counts_one_outcome(trace):
    t = trace([eth() / V4, eth() / ARP(), cut(eth() / V4, 5)], "--packets",
              linktype=DLT_EN10MB)
    dec = t.stats["decoder"]
    assert dec["pkts"] == 3
    assert dec["outcomes"] == {"ip": 1, "non_ip": 1, "frag_held": 0, "invalid": 1}
    assert dec["bytes"] == len(eth() / V4) + len(eth() / ARP()) + 5
