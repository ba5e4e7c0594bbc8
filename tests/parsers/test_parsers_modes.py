"""app-layer.protocols.<proto>.enabled, Suricata's switch, applied once in the parsers' core
for every registered protocol (parsers/core/drivers.c): yes (detected and parsed),
detection-only (the flow is told its protocol — app_proto, `alert <proto>`,
app-layer-protocol — but not parsed: no sticky buffers, app events or EVE records of its
own), no (not detected at all)."""
import pytest
from scapy.layers.dns import DNS, DNSQR

from detect_helpers import http_conv, rule
from outputs_helpers import osprey_out
from parsers_helpers import dns_packet

QUERY = bytes(DNS(id=7, rd=1, qd=DNSQR(qname="www.example.com", qtype="A")))
RULES = [
    rule('content:"example";', sid=1, proto="dns"),             # the header's protocol
    rule('dns.query; content:"example";', sid=2, proto="dns"),  # the parser's buffer
    rule('app-layer-protocol:dns;', sid=3, proto="udp"),
    rule('content:"example";', sid=4, proto="udp"),              # the packet alone
]
TYPES = "outputs.eve-log.types=[alert,flow,dns]"


def run(tmp_path, mode, name):
    args = ["--set", TYPES]
    if mode:
        args += ["--set", f"app-layer.protocols.dns.enabled={mode}"]
    return osprey_out(tmp_path, [dns_packet(QUERY)], RULES, *args, name=name)


def sids(out):
    return sorted(a["alert"]["signature_id"] for a in out.of("alert"))


def test_dns_enabled_by_default(tmp_path):
    out = run(tmp_path, None, "on")
    assert sids(out) == [1, 2, 3, 4]
    assert [r["dns"]["rrname"] for r in out.of("dns")] == ["www.example.com"]
    assert out.of("flow")[0]["app_proto"] == "dns"
    assert sids(run(tmp_path, "yes", "yes")) == [1, 2, 3, 4]


@pytest.mark.parametrize("word", ["no", "false", "off"])
def test_dns_disabled(tmp_path, word):
    """no: the flow is not DNS — a dns rule does not match, no dns record, no app_proto."""
    out = run(tmp_path, word, word)
    assert sids(out) == [4]
    assert out.of("dns") == []
    assert out.of("flow")[0].get("app_proto") in (None, "failed")


def test_dns_detection_only(tmp_path):
    """detection-only: alerts on what detection gives (the header's protocol,
    app-layer-protocol), none on the parser's buffers, and no dns records."""
    out = run(tmp_path, "detection-only", "det")
    assert sids(out) == [1, 3, 4]
    assert out.of("dns") == []
    assert out.of("flow")[0]["app_proto"] == "dns"
    assert all(a["app_proto"] == "dns" for a in out.of("alert"))


def test_other_protocols_unaffected(tmp_path):
    """turning dns off leaves HTTP detected and parsed"""
    rules = [rule('http.uri; content:"/index.html";', sid=9, proto="http")]
    out = osprey_out(tmp_path, http_conv(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,http]", "--set",
                     "app-layer.protocols.dns.enabled=no", name="http")
    assert sids(out) == [9]
    assert len(out.of("http")) == 1


def test_http_detection_only_over_tcp(tmp_path):
    """detection-only on a TCP protocol: told from its first bytes, its stream no longer read
    by the parser — no http.uri match, no http record, the flow still http"""
    rules = [rule('content:"GET";', sid=1, proto="http"),
             rule('http.uri; content:"/index.html";', sid=2, proto="http")]
    out = osprey_out(tmp_path, http_conv(), rules, "--set",
                     "outputs.eve-log.types=[alert,flow,http]", "--set",
                     "app-layer.protocols.http.enabled=detection-only", name="h")
    assert sids(out) == [1]
    assert out.of("http") == []
    assert out.of("flow")[0]["app_proto"] == "http"
