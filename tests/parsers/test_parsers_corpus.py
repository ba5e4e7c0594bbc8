"""The parsers over every real capture of the corpus (osprey-trace --app, sanitizers on in
CI): no crash, hang or sanitizer report; and on the protocol folders, the parsers find what
those captures hold."""
import pytest

from conftest import CORPUS
from parsers_helpers import App

PCAPS = sorted(p for p in (CORPUS / "pcaps").rglob("*") if p.suffix in (".pcap", ".pcapng"))


@pytest.mark.parametrize("pcap", PCAPS, ids=[str(p.relative_to(CORPUS / "pcaps")) for p in PCAPS])
def test_parsers_run_clean(trace, pcap):
    t = trace(pcap, "--app", check=False)
    assert t.proc.returncode in (0, 1)
    if t.proc.returncode == 1:
        assert "read error" in t.proc.stderr
    a = App(t)
    # every app event names a protocol that agrees with its flow's record (its app_proto, or
    # its app_proto_orig before a protocol change: SMTP's STARTTLS)
    protos = {f["flow_id"]: (f.get("app_proto"), f.get("app_proto_orig")) for f in a.flows}
    for e in a.events:
        assert e["app_proto"] in protos[e["flow_id"]]


def folder_totals(trace, folder):
    tot = {}
    for p in sorted((CORPUS / "pcaps" / folder).glob("*.pcap*")):
        a = App(trace(p, "--app", check=False))
        for k in ("http_requests", "dns_messages", "tls_handshakes"):
            tot[k] = tot.get(k, 0) + a.stats[k]
        tot["events"] = tot.get("events", []) + a.events
    return tot


def test_corpus_protocols_are_found(trace):
    http = folder_totals(trace, "http")
    assert http["http_requests"] > 50
    assert any(e["event"] == "http_response_body" for e in http["events"])
    dns = folder_totals(trace, "dns")
    assert dns["dns_messages"] > 20
    assert all(e["buffers"].get("dns.query", "") != "" or e["event"] == "app_detected"
               for e in dns["events"] if e["app_proto"] == "dns")
    tls = folder_totals(trace, "tls")
    assert tls["tls_handshakes"] > 5
    assert any(len(e["buffers"].get("ja3.hash", "")) == 32 for e in tls["events"])
