"""The README's first command: the demo capture and the bundled demo rules give exactly the
alerts it shows."""
import json
import subprocess
import sys

from conftest import ROOT, binary, run


def test_demo_capture_and_rules(tmp_path):
    pcap = tmp_path / "demo.pcap"
    subprocess.run([sys.executable, str(ROOT / "tools" / "make-demo-pcap.py"), str(pcap)], check=True,
                   timeout=300)
    logs = tmp_path / "logs"
    logs.mkdir()
    proc = run([binary("osprey"), "-c", str(ROOT / "etc" / "osprey.yaml"), "-r", str(pcap),
                "-S", str(ROOT / "etc" / "rules" / "osprey-demo.rules"), "-l", str(logs)], cwd=ROOT)
    assert "39 packets, 7 flows, 8 alerts; rules: 5 loaded, 5 compiled, 0 not compiled" in proc.stdout
    recs = [json.loads(l) for l in (logs / "eve.json").read_text().splitlines()]
    alerts = [r for r in recs if r["event_type"] == "alert"]
    got = [(a["alert"]["signature_id"], a["src_ip"], a["dest_ip"], a["pcap_cnt"]) for a in alerts]
    assert got == [
        # Suricata's IDS mode: 9000002 (startswith) on the request's own payload (4); the
        # request's other alerts with the client's packet after its ACK (6), the response's
        # with the server's packet after its ACK (7)
        (9000002, "192.168.1.10", "203.0.113.80", 4),   # GET /index.html, HOME_NET -> EXTERNAL_NET
        (9000003, "192.168.1.10", "203.0.113.80", 6),   # the demo User-Agent
        (9000004, "192.168.1.10", "203.0.113.80", 6),   # http.method GET + http.uri /index.html
        (9000001, "203.0.113.80", "192.168.1.10", 7),   # uid=0(root) in the response
        (9000005, "192.168.1.10", "192.168.1.1", 9),    # dns.query demo.example
        (9000003, "172.16.0.1", "172.16.0.2", 26),      # inside the GRE tunnel
        (9000004, "172.16.0.1", "172.16.0.2", 26),
        (9000001, "172.16.0.2", "172.16.0.1", 27),      # (both ends in HOME_NET: no 9000002)
    ]
    # the app-layer rules' alerts carry the parsers' records
    # (the first, on the request's arrival, comes before the parsers decided the protocol at
    # the ACK: no app_proto, as Suricata's IDS mode)
    assert [a.get("app_proto") for a in alerts] == [None] + ["http"] * 3 + ["dns"] + ["http"] * 3
    assert alerts[2]["http"]["url"] == "/index.html" and alerts[4]["dns"]["rrname"] == "demo.example"
