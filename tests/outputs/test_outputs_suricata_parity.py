"""EVE fields as Suricata 7 writes them, where bench/compare/suricata_diff.py found Osprey
different on the corpus: flow record timestamp, age and TCP state; http_content_type,
http_port, length, CONNECT tunnels and HTTP/0.9; dns version 2 layout, grouped answers, TXT
strings and type names; tls version spelling, certificate attribute names, tx_id, and a
client that opens with an SSLv2-framed hello. The expected values are what Suricata 7.0.10
printed for the same traffic (checked once with `suricata -r`; Suricata is not needed here)."""
import datetime
import gzip
import hashlib
import struct

from cryptography.x509.oid import NameOID
from scapy.layers.dns import DNS, DNSQR, DNSRR, DNSRRSOA
from scapy.layers.inet import IP, UDP

from detect_helpers import Conv
from outputs_helpers import osprey_out
from tls_hello_helpers import client_hello, ext, make_cert, record, u16

ALL = ("--set", "outputs.eve-log.types=[flow,http,dns,tls]")
T0 = 1_600_000_000.9  # 2020-09-13T12:26:40.9: a tenth of a second before a boundary


def iso(t):
    return datetime.datetime.fromtimestamp(round(t, 6), datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.%f+0000")


def stamped(packets, start=T0, step=0.05):
    for i, p in enumerate(packets):
        p.time = start + i * step
    return packets


def flow_traffic():
    closed = Conv(sport=40001).handshake().send(True, b"hi").close().pkts
    half = Conv(sport=40002).handshake().send(True, b"hi")  # the server closes, the client not
    half.pkts.append(half._pkt(False, "FA"))
    half.seq[False] += 1
    half.pkts.append(half._pkt(True, "A"))
    syn = Conv(sport=40003)
    syn.pkts.append(syn._pkt(True, "S"))
    synack = Conv(sport=40004)
    synack.pkts.append(synack._pkt(True, "S"))
    synack.seq[True] += 1
    synack.pkts.append(synack._pkt(False, "SA"))
    last = IP(src="10.0.0.1", dst="10.0.0.3") / UDP(sport=5000, dport=6000) / b"x"
    return stamped(closed + half.pkts + syn.pkts + synack.pkts + [last])


def test_flow_timestamp_age_and_tcp_state(tmp_path):
    pk = flow_traffic()
    out = osprey_out(tmp_path, pk, [], *ALL, keep_times=True)
    flows = {f.get("src_port"): f for f in out.of("flow")}
    c = flows[40001]
    # 0.35 s over a second boundary is an age of 1: Suricata subtracts whole seconds
    assert (c["flow"]["start"], c["flow"]["end"]) == (iso(T0), iso(pk[7].time))
    assert c["flow"]["age"] == 1
    assert c["tcp"]["state"] == "closed"
    # every record is stamped with the time it is written at: here the end of the input, the
    # last packet read (not the flow's start)
    for port in (40001, 40002, 40003, 40004, 5000):
        assert flows[port]["timestamp"] == iso(pk[-1].time), port
    assert flows[40002]["tcp"]["state"] == "fin_wait2"  # named from the server's side
    assert flows[40003]["tcp"]["state"] == "syn_sent"
    assert flows[40004]["tcp"]["state"] == "syn_recv"


def chunked(body, size):
    out = b"".join(b"%x\r\n" % len(body[i:i + size]) + body[i:i + size] + b"\r\n"
                   for i in range(0, len(body), size))
    return out + b"0\r\n\r\n"


def test_http_content_type_port_and_wire_length(tmp_path):
    body = gzip.compress(b"hello world " * 40, mtime=0)
    wire = chunked(body, 20)
    req = b"GET /a HTTP/1.1\r\nHost: Example.COM:8080\r\n\r\n"
    resp = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\n"
            b"Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + wire)
    pk = Conv(dport=8080).handshake().send(True, req).send(False, resp, seg=50).close().pkts
    out = osprey_out(tmp_path, stamped(pk), [], *ALL, keep_times=True)
    (h,) = out.of("http")
    # length: the body as sent, chunk lines included, the final empty line not (libhtp's
    # count), neither decompressed nor dechunked
    # hostname as sent (the http.host buffer is lower case), without the port
    assert h["http"] == {"hostname": "Example.COM", "http_port": 8080, "url": "/a",
                         "http_content_type": "text/html", "http_method": "GET",
                         "protocol": "HTTP/1.1", "status": 200, "length": len(wire) - 2}
    assert list(h["http"])[:3] == ["hostname", "http_port", "url"]


def test_connect_tunnel_is_not_an_http_body(tmp_path):
    hello, _ = client_hello(sni=b"secure.example")
    req = b"CONNECT secure.example:443 HTTP/1.1\r\nHost: secure.example:443\r\n\r\n"
    resp = b"HTTP/1.1 200 Connection established\r\n\r\n"
    c = Conv().handshake().send(True, req).send(False, resp)
    c.send(True, record(hello)).send(False, b"\x16\x03\x03\x00\x04\x0e\x00\x00\x00" * 30)
    out = osprey_out(tmp_path, stamped(c.close().pkts), [], *ALL, keep_times=True)
    (h,) = out.of("http")  # the tunnelled bytes are neither a body nor a second request
    assert h["http"] == {"hostname": "secure.example", "http_port": 443,
                         "url": "secure.example:443", "http_method": "CONNECT",
                         "protocol": "HTTP/1.1", "status": 200, "length": 0}


def test_http_09_request_gets_a_record(tmp_path):
    pk = Conv().handshake().send(True, b"GET /old.html\n").send(False, b"<html>old</html>\n")
    # a request line with a protocol and no URI is no 0.9 request: its answer has a head
    pk2 = Conv(sport=40001).handshake().send(True, b"GET HTTP/1.1\r\nHost: h\r\n\r\n")
    pk2.send(False, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
    out = osprey_out(tmp_path, stamped(pk.close().pkts + pk2.close().pkts), [], *ALL,
                     keep_times=True)
    h, h2 = out.of("http")  # a response without status line: its bytes are the body
    assert h["http"] == {"url": "/old.html", "http_method": "GET", "length": 17}
    assert out.of("flow")[0]["app_proto"] == "http"
    assert (h2["src_port"], h2["http"]["status"], h2["http"]["length"]) == (40001, 200, 2)


def dns_traffic():
    q = IP(src="10.0.0.1", dst="10.0.0.53") / UDP(sport=33333, dport=53) / DNS(
        id=0x1234, rd=1, qd=DNSQR(qname="txt.example", qtype="TXT"))
    r = IP(src="10.0.0.53", dst="10.0.0.1") / UDP(sport=53, dport=33333) / DNS(
        id=0x1234, qr=1, rd=1, ra=1, qd=DNSQR(qname="txt.example", qtype="TXT"),
        an=[DNSRR(rrname="txt.example", type="CNAME", ttl=60, rdata="key.example"),
            DNSRR(rrname="key.example", type="TXT", ttl=300, rdata=[b"k=rsa; p=AB", b"CD"]),
            DNSRR(rrname="key.example", type="CNAME", ttl=60, rdata="other.example")])
    q2 = IP(src="10.0.0.1", dst="10.0.0.53") / UDP(sport=33333, dport=53) / DNS(
        id=0x1235, rd=1, qd=DNSQR(qname="svc.example", qtype=64))
    q3 = IP(src="10.0.0.1", dst="10.0.0.53") / UDP(sport=33334, dport=53) / DNS(
        id=7, rd=1, qd=DNSQR(qname="fp.example", qtype=44))
    q4 = IP(src="10.0.0.1", dst="10.0.0.53") / UDP(sport=33335, dport=53) / DNS(
        id=8, rd=1, qd=DNSQR(qname="https.example", qtype=65))
    return stamped([q, r, q2, q3, q4])


def test_dns_version_2_layout(tmp_path):
    out = osprey_out(tmp_path, dns_traffic(), [], *ALL, keep_times=True)
    d = out.of("dns")
    assert "tx_id" not in d[0]  # dns carries its own
    assert d[0]["dns"] == {"version": 2, "type": "query", "id": 0x1234, "rrname": "txt.example",
                           "rrtype": "TXT", "tx_id": 0, "opcode": 0}
    assert list(d[1]["dns"]) == ["version", "type", "id", "flags", "qr", "rd", "ra", "opcode",
                                 "rrname", "rrtype", "rcode", "answers", "grouped"]
    assert d[1]["dns"]["answers"] == [
        {"rrname": "txt.example", "rrtype": "CNAME", "ttl": 60, "rdata": "key.example"},
        # one answer per string of the TXT record
        {"rrname": "key.example", "rrtype": "TXT", "ttl": 300, "rdata": "k=rsa; p=AB"},
        {"rrname": "key.example", "rrtype": "TXT", "ttl": 300, "rdata": "CD"},
        {"rrname": "key.example", "rrtype": "CNAME", "ttl": 60, "rdata": "other.example"}]
    assert d[1]["dns"]["grouped"] == {"CNAME": ["key.example", "other.example"],
                                      "TXT": ["k=rsa; p=AB", "CD"]}
    # each message is a transaction of the flow: the second query is the third
    assert (d[2]["dns"]["tx_id"], d[2]["dns"]["rrtype"]) == (2, "64")  # SVCB: no name in 7
    assert d[3]["dns"]["rrtype"] == "SSHFP" and d[4]["dns"]["rrtype"] == "HTTPS"


def test_dns_authorities_and_soa(tmp_path):
    soa = DNSRRSOA(rrname="example.org", ttl=3511, mname="ns0.example.org",
                   rname="hostmaster.example.org", serial=2011031816, refresh=43200,
                   retry=7200, expire=1209600, minimum=600)
    r = IP(src="10.0.0.53", dst="10.0.0.1") / UDP(sport=53, dport=33333) / DNS(
        id=9, qr=1, rd=1, ra=1, rcode=3, qd=DNSQR(qname="none.example.org", qtype="AAAA"),
        ns=[soa, DNSRR(rrname="example.org", type="NS", ttl=60, rdata="ns1.example.org")])
    q = IP(src="10.0.0.1", dst="10.0.0.53") / UDP(sport=33333, dport=53) / DNS(
        id=9, rd=1, qd=DNSQR(qname="none.example.org", qtype="AAAA"))
    out = osprey_out(tmp_path, stamped([q, r]), [], *ALL, keep_times=True)
    d = out.of("dns")[1]
    assert d["dns"]["rcode"] == "NXDOMAIN" and "answers" not in d["dns"]
    assert d["dns"]["authorities"] == [
        {"rrname": "example.org", "rrtype": "SOA", "ttl": 3511,
         "soa": {"mname": "ns0.example.org", "rname": "hostmaster.example.org",
                 "serial": 2011031816, "refresh": 43200, "retry": 7200, "expire": 1209600,
                 "minimum": 600}},
        {"rrname": "example.org", "rrtype": "NS", "ttl": 60, "rdata": "ns1.example.org"}]
    assert list(d["dns"])[-1] == "authorities"


def ev_cert():
    return make_cert(subject=[(NameOID.BUSINESS_CATEGORY, "Private Organization"),
                              (NameOID.STREET_ADDRESS, "1 Main St"),
                              (NameOID.COMMON_NAME, "www.example.com"),
                              (NameOID.EMAIL_ADDRESS, "admin@example.com")],
                     issuer=[(NameOID.COMMON_NAME, "Test CA")], serial=0x42)


def server_flight_tls10(der):
    sh_body = u16(0x0301) + b"\x22" * 32 + b"\x00" + u16(0x002f) + b"\x00"
    sh = b"\x02" + struct.pack(">I", len(sh_body))[1:] + sh_body
    certs = struct.pack(">I", len(der))[1:] + der
    cbody = struct.pack(">I", len(certs))[1:] + certs
    cert = b"\x0b" + struct.pack(">I", len(cbody))[1:] + cbody
    return record(sh + cert + b"\x0e\x00\x00\x00")


def test_tls_version_and_certificate_names(tmp_path):
    hello, _ = client_hello(sni=b"www.example.com")
    pk = Conv(dport=443).handshake().send(True, record(hello))
    pk.send(False, server_flight_tls10(ev_cert()))
    out = osprey_out(tmp_path, stamped(pk.close().pkts), [], *ALL, keep_times=True)
    (t,) = out.of("tls")
    assert "tx_id" not in t
    assert t["tls"]["version"] == "TLSv1"
    assert t["tls"]["subject"] == ("businessCategory=Private Organization, "
                                   "streetAddress=1 Main St, CN=www.example.com, "
                                   "Email=admin@example.com")
    assert t["tls"]["issuerdn"] == "CN=Test CA" and t["tls"]["serial"] == "42"


def sslv2_client_hello():
    """An SSLv2-framed ClientHello offering TLS 1.0 (what old clients sent first)."""
    ciphers = b"".join(bytes([0, 0, c]) for c in (0x35, 0x2f, 0x0a))
    challenge = b"\x33" * 16
    body = b"\x01" + u16(0x0301) + u16(len(ciphers)) + u16(0) + u16(len(challenge))
    body += ciphers + challenge
    return u16(0x8000 | len(body)) + body


def test_sslv2_framed_client_hello_then_tls(tmp_path):
    exts = ext(0xff01, b"\0")
    sh_body = u16(0x0301) + b"\x22" * 32 + b"\x00" + u16(0x002f) + b"\x00" + u16(len(exts)) + exts
    sh = b"\x02" + struct.pack(">I", len(sh_body))[1:] + sh_body
    pk = Conv(dport=443).handshake().send(True, sslv2_client_hello())
    pk.send(False, record(sh + b"\x0e\x00\x00\x00"))
    out = osprey_out(tmp_path, stamped(pk.close().pkts), [], *ALL, keep_times=True)
    assert out.of("flow")[0]["app_proto"] == "tls"
    (t,) = out.of("tls")  # the server's hello is read; the SSLv2 hello gives no JA3
    assert t["tls"] == {"version": "TLSv1",
                        "ja3s": {"hash": hashlib.md5(b"769,47,65281").hexdigest(),
                                 "string": "769,47,65281"}}


def test_protocol_names_are_ianas(tmp_path):
    esp = IP(src="10.0.0.1", dst="10.0.0.9", proto=50) / (b"\x00\x00\x10\x01" + b"\x00" * 28)
    out = osprey_out(tmp_path, stamped([esp]), [], *ALL, keep_times=True)
    (f,) = out.of("flow")
    assert (f["proto"], "src_port" in f) == ("ESP", False)  # not "50"
