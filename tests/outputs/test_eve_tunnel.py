"""Alerts on tunnelled traffic: the inner packet's addresses, and Suricata's "pkt_src" and
"tunnel" keys (the outermost packet on the wire, how deep, its pcap_cnt). The expected objects
are what Suricata 7.0.10 writes for the same packets (suricata -k none -r), kept here so the
test runs without it. One difference on purpose: Suricata leaves the top-level pcap_cnt out of
a tunnelled packet's alert; Osprey keeps it (the same number as the tunnel's)."""
import pytest
from scapy.all import GRE, IP, UDP, VXLAN, Ether, IPv6, PPP, PPPoE, Raw, fragment
from scapy.contrib.erspan import ERSPAN_II
from scapy.contrib.geneve import GENEVE
from scapy.contrib.mpls import MPLS

from outputs_helpers import osprey_out

E = dict(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
RULE = 'alert udp any any -> any 2222 (msg:"inner"; content:"TUNNELPAYLOAD"; sid:1;)'


def inner(s, d):
    return IP(src=s, dst=d) / UDP(sport=1111, dport=2222) / Raw(b"TUNNELPAYLOAD")


def outer4(*, proto=None):
    return Ether(**E) / (IP(src="1.1.1.1", dst="2.2.2.2") if proto is None
                         else IP(src="1.1.1.1", dst="2.2.2.2", proto=proto))


def tun(src, dst, proto, depth, sport=0, dport=0):
    return dict(src_ip=src, src_port=sport, dest_ip=dst, dest_port=dport, proto=proto,
                depth=depth, pkt_src="wire/pcap")


V6A, V6B = "fd00:0000:0000:0000:0000:0000:0000:0001", "fd00:0000:0000:0000:0000:0000:0000:0002"
CASES = [  # (name, packet, inner src, pkt_src, tunnel without pcap_cnt; None = on the wire)
    ("gre", outer4() / GRE() / inner("10.0.0.1", "10.0.0.2"), "10.0.0.1",
     "gre tunnel", tun("1.1.1.1", "2.2.2.2", "GRE", 1)),
    ("gre-teb", outer4() / GRE(proto=0x6558) / Ether() / inner("10.0.5.1", "10.0.5.2"),
     "10.0.5.1", "gre tunnel", tun("1.1.1.1", "2.2.2.2", "GRE", 1)),
    ("erspan2", outer4() / GRE(proto=0x88be, seqnum_present=1) / ERSPAN_II(vlan=3) / Ether() /
     inner("10.0.7.1", "10.0.7.2"), "10.0.7.1", "gre tunnel",
     tun("1.1.1.1", "2.2.2.2", "GRE", 1)),
    ("vxlan", outer4() / UDP(sport=5555, dport=4789) / VXLAN(vni=5) / Ether() /
     inner("10.0.1.1", "10.0.1.2"), "10.0.1.1", "vxlan encapsulation",
     tun("1.1.1.1", "2.2.2.2", "UDP", 1, 5555, 4789)),
    ("geneve", outer4() / UDP(sport=5555, dport=6081) / GENEVE(proto=0x6558) / Ether() /
     inner("10.0.2.1", "10.0.2.2"), "10.0.2.1", "geneve encapsulation",
     tun("1.1.1.1", "2.2.2.2", "UDP", 1, 5555, 6081)),
    ("6in4", outer4() / IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=1111, dport=2222) /
     Raw(b"TUNNELPAYLOAD"), V6A, "ipv4 tunnel", tun("1.1.1.1", "2.2.2.2", "IPv6", 1)),
    ("4in6", Ether(**E) / IPv6(src="fd00::1", dst="fd00::2") / inner("10.4.0.1", "10.4.0.2"),
     "10.4.0.1", "ipv6 tunnel", tun(V6A, V6B, "IP-in-IP", 1)),
    ("gre6", Ether(**E) / IPv6(src="fd00::1", dst="fd00::2") / GRE() /
     inner("10.5.0.1", "10.5.0.2"), "10.5.0.1", "gre tunnel", tun(V6A, V6B, "GRE", 1)),
    ("teredo", outer4() / UDP(sport=5555, dport=3544) /
     IPv6(src="2001::1", dst="2001::2") / UDP(sport=1111, dport=2222) / Raw(b"TUNNELPAYLOAD"),
     "2001:0000:0000:0000:0000:0000:0000:0001", "teredo tunnel",
     tun("1.1.1.1", "2.2.2.2", "UDP", 1, 5555, 3544)),
    ("gre-vxlan", outer4() / GRE() / IP(src="3.3.3.3", dst="4.4.4.4") /
     UDP(sport=7777, dport=4789) / VXLAN(vni=5) / Ether() / inner("10.2.0.1", "10.2.0.2"),
     "10.2.0.1", "vxlan encapsulation", tun("1.1.1.1", "2.2.2.2", "GRE", 2)),
    # not tunnels to Suricata: the same packet, no "tunnel", pcap_cnt at the top
    ("mpls", Ether(**E) / MPLS(label=16, s=1) / inner("10.0.3.1", "10.0.3.2"), "10.0.3.1",
     "wire/pcap", None),
    ("pppoe", Ether(type=0x8864, **E) / PPPoE(sessionid=1) / PPP(proto=0x21) /
     inner("10.0.4.1", "10.0.4.2"), "10.0.4.1", "wire/pcap", None),
    # beyond Suricata (its GRE leaves this payload): Aruba's 802.11 in GRE
    ("aruba", outer4() / GRE(proto=0x8200) /
     Raw(b"\x88\x01\0\0" + bytes(range(1, 19)) + b"\x80\x7d\0\0" + b"\xaa\xaa\x03\0\0\0\x08\x00") /
     inner("10.0.8.1", "10.0.8.2"), "10.0.8.1", "gre tunnel", tun("1.1.1.1", "2.2.2.2", "GRE", 1)),
]


@pytest.mark.parametrize("name,pkt,src,pkt_src,tunnel", CASES, ids=[c[0] for c in CASES])
def test_alert_in_tunnel_names_its_source(tmp_path, name, pkt, src, pkt_src, tunnel):
    out = osprey_out(tmp_path, [pkt], [RULE], "-k", "none")
    (a,) = out.of("alert")
    assert a["src_ip"] == src and a["src_port"] == 1111 and a["dest_port"] == 2222
    assert a["pkt_src"] == pkt_src
    if tunnel is None:
        assert "tunnel" not in a and a["pcap_cnt"] == 1
    else:
        assert a["tunnel"] == dict(tunnel, pcap_cnt=1) and a["pcap_cnt"] == 1
        assert list(a["tunnel"]) == ["src_ip", "src_port", "dest_ip", "dest_port", "proto",
                                     "depth", "pcap_cnt", "pkt_src"]  # Suricata's order


def test_alert_on_reassembled_datagram_is_from_defrag(tmp_path):
    frags = fragment(IP(src="10.1.0.1", dst="10.1.0.2", id=9) / UDP(sport=1111, dport=2222) /
                     Raw(b"TUNNELPAYLOAD" + b"x" * 100), fragsize=64)
    out = osprey_out(tmp_path, [Ether(**E) / f for f in frags], [RULE], "-k", "none")
    (a,) = out.of("alert")
    assert a["pkt_src"] == "defrag"
    assert a["tunnel"] == dict(tun("10.1.0.1", "10.1.0.2", "UDP", 0), pcap_cnt=2)
