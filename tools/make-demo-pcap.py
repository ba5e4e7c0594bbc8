#!/usr/bin/env python3
"""Writes Osprey's demo capture: a few small conversations a sensor typically sees, built with
scapy so nothing opaque ships with the project.

usage: make-demo-pcap.py OUT.pcap
"""
import sys

from scapy.all import (DNS, DNSQR, DNSRR, GRE, ICMP, IP, TCP, UDP, Dot1Q, Ether, IPv6, Raw,
                       fragment, wrpcap)

CLIENT, SERVER, RESOLVER = "192.168.1.10", "203.0.113.80", "192.168.1.1"
MAC_C, MAC_S = "02:00:00:00:00:01", "02:00:00:00:00:02"


def eth(pkt):
    return Ether(src=MAC_C, dst=MAC_S) / pkt


def tcp_conversation(ip_c, ip_s, sport, dport, request, response, l2=eth, ipcls=IP):
    """A full TCP conversation: handshake, one request, one response, FIN both ways."""
    c, s = 1000, 5000
    out = [
        l2(ipcls(src=ip_c, dst=ip_s) / TCP(sport=sport, dport=dport, flags="S", seq=c)),
        l2(ipcls(src=ip_s, dst=ip_c) / TCP(sport=dport, dport=sport, flags="SA", seq=s, ack=c + 1)),
        l2(ipcls(src=ip_c, dst=ip_s) / TCP(sport=sport, dport=dport, flags="A", seq=c + 1, ack=s + 1)),
        l2(ipcls(src=ip_c, dst=ip_s) / TCP(sport=sport, dport=dport, flags="PA", seq=c + 1, ack=s + 1) / request),
        l2(ipcls(src=ip_s, dst=ip_c) / TCP(sport=dport, dport=sport, flags="PA", seq=s + 1,
                                           ack=c + 1 + len(request)) / response),
    ]
    c2, s2 = c + 1 + len(request), s + 1 + len(response)
    out += [
        l2(ipcls(src=ip_c, dst=ip_s) / TCP(sport=sport, dport=dport, flags="FA", seq=c2, ack=s2)),
        l2(ipcls(src=ip_s, dst=ip_c) / TCP(sport=dport, dport=sport, flags="FA", seq=s2, ack=c2 + 1)),
        l2(ipcls(src=ip_c, dst=ip_s) / TCP(sport=sport, dport=dport, flags="A", seq=c2 + 1, ack=s2 + 1)),
    ]
    return out


def main(out):
    pkts = []
    http_req = b"GET /index.html HTTP/1.1\r\nHost: demo.example\r\nUser-Agent: osprey-demo\r\n\r\n"
    http_resp = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 39\r\n\r\n"
                 b"uid=0(root) gid=0(root) groups=0(root)\n")
    pkts += tcp_conversation(CLIENT, SERVER, 49152, 80, http_req, http_resp)
    q = DNS(id=0x1234, rd=1, qd=DNSQR(qname="demo.example"))
    r = DNS(id=0x1234, qr=1, aa=1, qd=DNSQR(qname="demo.example"),
            an=DNSRR(rrname="demo.example", rdata=SERVER))
    pkts += [eth(IP(src=CLIENT, dst=RESOLVER) / UDP(sport=53000, dport=53) / q),
             eth(IP(src=RESOLVER, dst=CLIENT) / UDP(sport=53, dport=53000) / r)]
    pkts += [eth(IP(src=CLIENT, dst=SERVER) / ICMP(type=8, id=7, seq=1) / b"ping"),
             eth(IP(src=SERVER, dst=CLIENT) / ICMP(type=0, id=7, seq=1) / b"ping")]
    # the same kind of conversation on VLAN 42, and one inside a GRE tunnel
    pkts += tcp_conversation("10.1.1.5", "10.1.1.6", 40000, 22, b"SSH-2.0-demo\r\n",
                             b"SSH-2.0-server\r\n", l2=lambda p: Ether(src=MAC_C, dst=MAC_S) / Dot1Q(vlan=42) / p)
    pkts += tcp_conversation("172.16.0.1", "172.16.0.2", 41000, 80, http_req, http_resp,
                             l2=lambda p: eth(IP(src="198.51.100.1", dst="198.51.100.2") / GRE() / p))
    # a fragmented UDP datagram and an IPv6 conversation
    big = IP(src=CLIENT, dst=SERVER, id=99) / UDP(sport=5000, dport=5001) / Raw(b"x" * 3000)
    pkts += [eth(f) for f in fragment(big, fragsize=1200)]
    pkts += tcp_conversation("2001:db8::10", "2001:db8::80", 50000, 443, b"\x16\x03\x01hello",
                             b"\x16\x03\x03world", ipcls=IPv6)
    for i, p in enumerate(pkts):
        p.time = 1_700_000_000 + i * 0.01
    wrpcap(out, pkts)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
