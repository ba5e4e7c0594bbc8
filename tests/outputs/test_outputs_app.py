"""EVE application-layer records (http, dns, tls: the parsers' completed transactions, enabled
by outputs.eve-log.types) and app_proto plus the same objects in alerts and flow records."""
import hashlib

from scapy.layers.dns import DNS, DNSQR, DNSRR
from scapy.layers.inet import IP, UDP

from detect_helpers import http_conv
from outputs_helpers import osprey_out
from parsers_helpers import conversation
from tls_hello_helpers import client_hello, ja3, make_cert, record, server_flight

ALL = ("--set", "outputs.eve-log.types=[alert,flow,http,dns,tls]")
REQ = (b"GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: curl/8.0\r\n"
       b"Referer: http://ref.example/\r\n\r\n")
RESP = (b"HTTP/1.1 301 Moved Permanently\r\nContent-Type: text/html\r\n"
        b"Location: http://example.com/new\r\nContent-Length: 12\r\n\r\nuid=0(root)\n")


def test_http_record_and_alert_object(tmp_path):
    rules = ['alert http any any -> any any (msg:"uri"; http.uri; content:"/index"; sid:1;)']
    out = osprey_out(tmp_path, http_conv(req=REQ, resp=RESP), rules, *ALL)
    (h,) = out.of("http")
    assert list(h) == ["timestamp", "flow_id", "pcap_cnt", "event_type", "src_ip", "src_port",
                       "dest_ip", "dest_port", "proto", "tx_id", "http"]
    assert (h["src_ip"], h["dest_port"], h["tx_id"], h["flow_id"]) == ("10.0.0.1", 80, 0, 1)
    assert h["http"] == {
        "hostname": "example.com", "url": "/index.html?q=1", "http_user_agent": "curl/8.0",
        "http_content_type": "text/html", "http_refer": "http://ref.example/",
        "http_method": "GET", "protocol": "HTTP/1.1", "status": 301,
        "redirect": "http://example.com/new", "length": 12}
    (a,) = out.of("alert")
    # raised on the request: the request's side of the object, app_proto after it
    assert a["http"]["url"] == "/index.html?q=1" and "status" not in a["http"]
    assert a["app_proto"] == "http" and list(a).index("http") < list(a).index("app_proto")
    (f,) = out.of("flow")
    assert f["app_proto"] == "http" and f["flow"]["alerted"] is True


def test_two_http_transactions_are_numbered(tmp_path):
    pk = conversation(req=REQ + REQ.replace(b"/index.html?q=1", b"/two"),
                      resp=RESP + RESP)
    out = osprey_out(tmp_path, pk, ['alert tcp any any -> any any (content:"zzz"; sid:1;)'],
                     *ALL)
    assert [(h["tx_id"], h["http"]["url"]) for h in out.of("http")] == \
        [(0, "/index.html?q=1"), (1, "/two")]


def test_dns_query_and_answer_records(tmp_path):
    q = IP(src="10.0.0.1", dst="10.0.0.53") / UDP(sport=33333, dport=53) / DNS(
        id=0x1234, rd=1, qd=DNSQR(qname="www.example.com", qtype="AAAA"))
    r = IP(src="10.0.0.53", dst="10.0.0.1") / UDP(sport=53, dport=33333) / DNS(
        id=0x1234, qr=1, rd=1, ra=1, qd=DNSQR(qname="www.example.com", qtype="AAAA"),
        an=[DNSRR(rrname="www.example.com", type="CNAME", ttl=60, rdata="web.example.com"),
            DNSRR(rrname="web.example.com", type="AAAA", ttl=300, rdata="2001:db8::80")])
    nx = IP(src="10.0.0.53", dst="10.0.0.1") / UDP(sport=53, dport=33334) / DNS(
        id=7, qr=1, rcode=3, qd=DNSQR(qname="none.example", qtype="A"))
    rules = ['alert dns any any -> any any (msg:"q"; dns.query; content:"example.com"; sid:2;)']
    out = osprey_out(tmp_path, [q, r, nx], rules, *ALL)
    d = out.of("dns")
    assert d[0]["dns"] == {"version": 2, "type": "query", "id": 0x1234,
                           "rrname": "www.example.com", "rrtype": "AAAA", "tx_id": 0, "opcode": 0}
    assert d[1]["dns"] == {
        "version": 2, "type": "answer", "id": 0x1234, "flags": "8180", "qr": True, "rd": True,
        "ra": True, "opcode": 0, "rrname": "www.example.com", "rrtype": "AAAA",
        "rcode": "NOERROR", "answers": [
            {"rrname": "www.example.com", "rrtype": "CNAME", "ttl": 60,
             "rdata": "web.example.com"},
            {"rrname": "web.example.com", "rrtype": "AAAA", "ttl": 300, "rdata": "2001:db8::80"}],
        "grouped": {"CNAME": ["web.example.com"], "AAAA": ["2001:db8::80"]}}
    # the flow's client and server in both records; the response from the server's side
    assert d[1]["src_ip"] == "10.0.0.1" and d[1]["pcap_cnt"] == 2
    assert d[2]["dns"]["rcode"] == "NXDOMAIN" and "answers" not in d[2]["dns"]
    (a,) = out.of("alert")
    assert a["dns"]["rrname"] == "www.example.com" and a["app_proto"] == "dns"


def test_tls_record(tmp_path):
    hs, exts = client_hello(sni=b"www.example.com")
    der = make_cert()
    pk = conversation(record(hs), server_flight(der), dport=443, rseg=7)
    out = osprey_out(tmp_path, pk, ['alert tls any any -> any any (tls.sni; content:"example";'
                                    ' sid:3;)'], *ALL)
    (t,) = out.of("tls")
    js, js_hash = ja3(exts)
    assert t["tls"] == {
        "subject": "C=US, ST=California, O=Example Inc, CN=www.example.com",
        "issuerdn": "C=US, O=Test CA, CN=Test CA Root",
        "serial": "01:23:45:67:89:AB:CD:EF",
        "fingerprint": ":".join("%02x" % x for x in hashlib.sha1(der).digest()),
        "sni": "www.example.com", "version": "TLS 1.2",
        "ja3": {"hash": js_hash, "string": js},
        "ja3s": {"hash": hashlib.md5(b"771,49199,65281").hexdigest(),
                 "string": "771,49199,65281"}}
    (a,) = out.of("alert")
    assert a["app_proto"] == "tls" and a["tls"]["sni"] == "www.example.com"


def test_app_records_follow_the_types_list(tmp_path):
    out = osprey_out(tmp_path, http_conv(req=REQ, resp=RESP), ['alert tcp any any -> any any '
                                                              '(content:"zzz"; sid:1;)'])
    assert not out.of("http")  # the default types: alert, anomaly, flow, stats
    assert out.of("flow")[0]["app_proto"] == "http"
