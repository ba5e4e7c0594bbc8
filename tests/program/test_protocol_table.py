"""parsers/README.md's table of every protocol, buffer and record is what
tools/protocol-table.py makes of the current build (so it cannot go stale), and the two
listings it reads — `--list-app-layer-protos` (Suricata's form and =csv) and `--list-buffers`
— say what the parsers register."""
import csv
import io
import subprocess
import sys

from conftest import ROOT, binary

TOOL = ROOT / "tools" / "protocol-table.py"
BEGIN, END = "<!-- protocol-table begin -->", "<!-- protocol-table end -->"


def run(*args):
    return subprocess.run([binary("osprey"), *args], capture_output=True, text=True, check=True)


def table(arg):
    return list(csv.DictReader(io.StringIO(run(arg).stdout)))


def test_readme_table_is_current():
    want = subprocess.run([sys.executable, str(TOOL), "--stdout", "--osprey", binary("osprey")],
                          capture_output=True, text=True, check=True).stdout.rstrip("\n")
    lines = (ROOT / "parsers" / "README.md").read_text().split("\n")
    assert lines.count(BEGIN) == 1 and lines.count(END) == 1
    have = "\n".join(lines[lines.index(BEGIN) + 1:lines.index(END)])
    assert have == want, ("parsers/README.md's protocol table is stale: run "
                          "`python3 tools/protocol-table.py` (after building build/bin/osprey)")


def test_protocol_list_in_suricatas_form():
    out = run("--list-app-layer-protos").stdout.split("\n")
    assert out[0] == "=========Supported App Layer Protocols========="
    assert out[1:4] == ["http", "dns", "tls"]  # the registry's first rows
    assert {"smb", "dcerpc", "ftp-data", "modbus", "quic"} <= set(out)
    assert "failed" not in out


def test_protocol_csv_rows():
    rows = {r["protocol"]: r for r in table("--list-app-layer-protos=csv")}
    assert rows["tls"] == {"protocol": "tls", "aliases": "ssl", "transport": "tcp",
                           "eve_record": "tls"}
    assert rows["ftp-data"]["eve_record"] == "ftp_data"
    assert rows["dns"]["transport"] == "tcp|udp" and rows["snmp"]["transport"] == "udp"
    assert rows["imap"]["eve_record"] == ""  # Suricata 8 writes no imap record either
    bad = subprocess.run([binary("osprey"), "--list-app-layer-protos=json"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "=csv" in bad.stderr


def test_buffer_rows():
    rows = table("--list-buffers")
    got = {(r["protocol"], r["buffer"], r["direction"]): r for r in rows}
    req = got[("dcerpc", "dcerpc.stub_data", "to_server")]
    assert req["event"] == "dcerpc_request" and req["multi"] == "no"
    assert got[("dcerpc", "dcerpc.stub_data", "to_client")]["event"] == "dcerpc_response"
    assert got[("dns", "dns.answers.rrname", "to_client")]["multi"] == "yes"
    # a request buffer's late copy (a to_client rule on http.uri) is not listed twice
    assert [r["direction"] for r in rows
            if (r["protocol"], r["buffer"]) == ("http", "http.uri")] == ["to_server"]
    # buffers kept for records only (EVE, osprey-trace) are not rules' buffers
    assert not {("dns", "dns.answers.rdata"), ("ftp", "ftp.request_line")} & \
        {(r["protocol"], r["buffer"]) for r in rows}
    # HTTP/2 registers the http.* buffers Suricata forms on its transactions
    assert ("http2", "http.uri", "to_server") in got
