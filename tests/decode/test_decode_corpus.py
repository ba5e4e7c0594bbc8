"""The decoder on every real capture of the corpus: every link type is supported, the tunnel
captures show the encapsulations they hold, the malformed/ fuzz reproducers decode without a
crash under every option, and each anomaly-free capture of a kind decodes as that kind."""
import json
from collections import Counter

import pytest

from conftest import CORPUS, binary, run

PCAPS = sorted(p for p in (CORPUS / "pcaps").rglob("*") if p.suffix in (".pcap", ".pcapng"))
IDS = [str(p.relative_to(CORPUS / "pcaps")) for p in PCAPS]
MALFORMED = [p for p in PCAPS if p.parent.name == "malformed"]


def trace_packets(pcap, *args):
    proc = run([binary("osprey-trace"), "-r", str(pcap), "--packets", *args], check=False)
    assert proc.returncode in (0, 1), proc.stderr  # 1: a capture cut short by its producer
    recs = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    packets = [r for r in recs if r["event_type"] == "packet"]
    stats = [r for r in recs if r["event_type"] == "stats"][-1]["stats"]["decoder"]
    return packets, stats


@pytest.mark.parametrize("pcap", PCAPS, ids=IDS)
def test_linktype_supported_and_counts_consistent(pcap):
    packets, dec = trace_packets(pcap)
    # every capture's link type is decoded (Ethernet, NULL, raw IPv4/IPv6, SLL2, NFLOG,
    # PPP_SERIAL, FDDI occur in the corpus)
    assert dec["anomalies"]["link.unsupported_linktype"] == 0
    assert len(packets) == dec["pkts"]
    assert sum(dec["outcomes"].values()) == dec["pkts"]
    assert Counter(p["outcome"] for p in packets) == {k: v for k, v in dec["outcomes"].items() if v}
    # an invalid packet always names its anomaly, and every anomaly is counted
    counted = Counter()
    for p in packets:
        if p["outcome"] == "invalid":
            assert "anomaly" in p, p
    for name, n in dec["anomalies"].items():
        counted[name] += n
    invalid = sum(1 for p in packets if p["outcome"] == "invalid")
    assert sum(counted.values()) >= invalid


# Expected encapsulations (as sets of "tunnels" lists seen) for the real tunnel captures.
TUNNELS = {
    "tcpdump__802.1ad_QinQ.pcap": {("vlan",)},
    "tcpdump__erspan-type-ii-3.pcap": {("gre", "erspan"), ("gre", "erspan", "vlan")},
    "tcpdump__mpls-over-udp.pcap": {("mpls",)},
    "zeek__erspanII.pcap": {("gre", "erspan")},
    "zeek__erspanIII.pcap": {("gre", "erspan")},
    "zeek__http-qinq-0.pcap": {("vlan",)},
    "zeek__http-vlan-0.pcap": {("vlan",)},
    "zeek__mpls-in-vlan.pcap": {("vlan",), ("vlan", "mpls")},
    "zeek__mixed-vlan-mpls.pcap": {(), ("vlan",), ("mpls",)},
    "zeek__pppoe-over-qinq.pcap": {("vlan", "pppoe")},
    "zeek__pppoe.pcap": {(), ("pppoe",)},
    "zeek__q-in-q.pcap": {("vlan",)},
    "zeek__vlan-qinqinq.pcap": {("vlan",)},
    "zeek__tunnels__4in4.pcap": {("ipip",)},
    "zeek__tunnels__4in6.pcap": {("ipip",)},
    "zeek__tunnels__6in4.pcap": {("ipip",)},
    "zeek__tunnels__6in6.pcap": {("ipip",)},
    "zeek__tunnels__6in6in6.pcap": {("ipip", "ipip")},
    "zeek__tunnels__ping6-in-ipv4.pcap": {("ipip",)},
    # only the packets to/from the Teredo server port (3544) are tunnels; relay traffic on
    # other ports is not recognised (port-based, like Suricata's decoder.teredo.ports)
    "zeek__tunnels__Teredo.pcap": {(), ("teredo",)},
    "zeek__tunnels__geneve.pcap": {("geneve",)},
    "zeek__tunnels__gre-over-udp-4754.pcap": {("gre",)},
    "zeek__tunnels__gre-pptp.pcap": {("vlan", "ipip", "gre")},
    "zeek__tunnels__gre-sample.pcap": {("gre",)},
    "zeek__tunnels__gre-within-gre.pcap": {("gre", "gre")},
    "zeek__tunnels__vxlan-encapsulated-http.pcap": {("vxlan",)},
    "zeek__tunnels__vxlan.pcap": {("vxlan",)},
    # fragmented GTP packets are held until reassembled (and then are tunnels too)
    "zeek__tunnels_gtp__gtp1_gn_normal_incl_fragmentation.pcap": {(), ("gtpu",)},
    "tcpdump__various_gre.pcap": {(), ("vlan",), ("vlan", "gre")},
    # not decoded (not in scope): AYIYA (UDP 5072) and SOCKS are plain UDP / TCP
    "zeek__tunnels__ayiya3.pcap": {()},
    "zeek__tunnels__socks.pcap": {()},
    "zeek__linux_dlt_sll2.pcap": {()},
    "zeek__nflog-http.pcap": {()},
    "tcpdump__ppp_ip_udp_dns.pcap": {()},
}


def test_every_tunnel_capture_listed():
    present = {p.name for p in PCAPS if p.parent.name == "tunnels"}
    assert present == set(TUNNELS)


@pytest.mark.parametrize("name", sorted(TUNNELS))
def test_tunnel_capture(name):
    packets, dec = trace_packets(CORPUS / "pcaps" / "tunnels" / name)
    seen = {tuple(p["tunnels"]) for p in packets}
    assert seen == TUNNELS[name]


def test_tunnel_capture_details():
    t = CORPUS / "pcaps" / "tunnels"
    packets, _ = trace_packets(t / "zeek__vlan-qinqinq.pcap")
    assert {tuple(p["vlan"]) for p in packets} == {tuple(packets[0]["vlan"])}
    assert len(packets[0]["vlan"]) == 3
    packets, dec = trace_packets(t / "zeek__tunnels__vxlan-encapsulated-http.pcap")
    assert all(p["layers"][:5] == ["ethernet", "ipv4", "udp", "vxlan", "ethernet"]
               for p in packets)
    assert any(p.get("dest_port") == 80 for p in packets)
    packets, _ = trace_packets(t / "zeek__tunnels__gre-pptp.pcap")
    assert packets[0]["layers"] == ["ethernet", "vlan", "ipv6", "ipv4", "gre", "ppp", "ipv4",
                                    "udp"]
    packets, _ = trace_packets(t / "zeek__linux_dlt_sll2.pcap")
    assert {p["layers"][0] for p in packets} == {"sll2"}
    packets, _ = trace_packets(t / "zeek__nflog-http.pcap")
    assert all(p["layers"][:3] == ["nflog", "ipv4", "tcp"] for p in packets)
    packets, dec = trace_packets(t / "tcpdump__ppp_ip_udp_dns.pcap")
    # a fuzzed HDLC frame whose protocol field (0xff) is no PPP protocol
    assert dec["anomalies"]["ppp.unsupported_proto"] == 1
    packets, _ = trace_packets(CORPUS / "pcaps" / "dns" / "zeek__dns-inverse-query.pcap")
    assert all(p["layers"][:2] == ["fddi", "ipv4"] for p in packets)
    packets, _ = trace_packets(CORPUS / "pcaps" / "ipv6" / "tcpdump__ipv6_jumbogram_1.pcap")
    assert packets[0]["layers"] == ["ethernet", "ipv6", "ipv6_ext", "icmpv6"]
    assert packets[0]["outcome"] == "ip"


@pytest.mark.parametrize("args", [[], ["-k", "all"], ["-k", "none"], ["--no-defrag"]],
                         ids=["default", "k-all", "k-none", "no-defrag"])
@pytest.mark.parametrize("pcap", MALFORMED, ids=[p.name for p in MALFORMED])
def test_malformed_captures(pcap, args):
    packets, dec = trace_packets(pcap, *args)
    assert dec["pkts"] == len(packets)
    assert dec["anomalies"]["link.unsupported_linktype"] == 0
