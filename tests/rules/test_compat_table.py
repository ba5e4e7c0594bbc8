"""docs/compatibility.md's "Suricata compatibility" table is what tools/compat-table.py makes of the current
build, so it cannot go stale: a keyword that changes status fails this test until the table is
regenerated. Also checks the tool's verdicts on a few keywords and its input file's form."""
import re
import subprocess
import sys

from conftest import ROOT, binary

TOOL = ROOT / "tools" / "compat-table.py"
KEYWORDS = ROOT / "tools" / "suricata-keywords.txt"
BEGIN, END = "<!-- compat-table begin -->", "<!-- compat-table end -->"


def generated():
    proc = subprocess.run([sys.executable, str(TOOL), "--stdout", "--osprey", binary("osprey")],
                          capture_output=True, text=True, check=True)
    return proc.stdout.rstrip("\n").split("\n")


def page_block():
    lines = (ROOT / "docs" / "compatibility.md").read_text().split("\n")
    assert lines.count(BEGIN) == 1 and lines.count(END) == 1
    return lines[lines.index(BEGIN) + 1:lines.index(END)]


def table_rows(block):
    """{keyword: (status, note)} from the generated Markdown."""
    out = {}
    for line in block:
        m = re.fullmatch(r"\| `([^`]+)` \| ([^|]+) \| (.*) \|", line)
        if m:
            assert m.group(1) not in out, f"{m.group(1)} listed twice"
            out[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return out


def test_page_table_is_current():
    want, have = generated(), page_block()
    assert have == want, (
        "docs/compatibility.md's Suricata compatibility table is stale: run "
        "`python3 tools/compat-table.py` (after building build/bin/osprey) and commit it")


def test_summary_counts_the_rows():
    block = generated()
    rows = table_rows(block)
    m = re.match(r"\*\*(\d+) of (\d+) Suricata 8 rule keywords supported\*\* "
                 r"\((\d+) more parsed, not compiled; (\d+) not recognised\)", block[0])
    assert m, block[0]
    supported, total, parsed, unknown = map(int, m.groups())
    statuses = [s for s, _ in rows.values()]
    assert total == len(rows) == supported + parsed + unknown
    assert supported == statuses.count("supported")
    assert parsed == statuses.count("parsed, not compiled")
    assert unknown == statuses.count("not recognised")


def test_verdicts_on_known_keywords():
    rows = table_rows(generated())
    assert rows["content"] == ("supported", "")
    assert rows["http.uri"] == ("supported", "")
    assert rows["tcp.seq"] == ("supported", "")  # Suricata's name, beside Snort's seq
    assert rows["ssh.proto"] == ("supported", "")  # the SSH parser registers it
    assert rows["sip.uri"] == ("supported", "")  # the SIP parser registers it
    assert rows["sdp.media.media"] == ("supported", "")
    assert rows["rfb.name"] == ("supported", "")  # the RFB parser registers it
    assert rows["websocket.opcode"] == ("supported", "")  # the WebSocket parser's field
    assert rows["ssh.hassh"] == ("supported", "")  # the SSH parser reads KEXINIT (parsers/ssh/kex.c)
    assert rows["tls_store"] == ("parsed, not compiled",
                                 "as `tls.store`; needs the TLS parser (parsers/tls)")
    assert rows["ldap.request.operation"] == ("supported", "")  # the LDAP parser's field
    assert rows["krb5_msg_type"] == ("supported", "")
    assert rows["mdns.queries.rrname"] == ("supported", "")  # the mDNS parser registers it
    assert rows["pgsql.query"] == ("supported", "")  # the PostgreSQL parser registers it


def test_keyword_list_lines_have_a_section_and_a_source():
    names = []
    for n, line in enumerate(KEYWORDS.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        body, sep, source = line.partition("  # ")
        assert sep and source.strip(), f"line {n}: no source comment"
        words = body.split()
        assert len(words) >= 2, f"line {n}"
        assert all(w.startswith("alias=") for w in words[2:]), f"line {n}"
        names.append(words[0])
    assert len(names) == len(set(names))
    assert len(names) > 300


def test_splice_keeps_the_rest_of_the_page(tmp_path):
    page = tmp_path / "compatibility.md"
    page.write_text(f"# x\nbefore\n{BEGIN}\nold line\n{END}\nafter\n")
    subprocess.run([sys.executable, str(TOOL), "--osprey", binary("osprey"), "--page",
                    str(page)], capture_output=True, text=True, check=True)
    text = page.read_text().split("\n")
    assert text[:3] == ["# x", "before", BEGIN]
    assert text[-3:] == [END, "after", ""]
    assert "old line" not in text
    assert text[3:-3] == generated()
