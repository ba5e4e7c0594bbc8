"""osprey --list-keywords: the rule keyword registry as CSV, checked against the rule loader.

The listing's status must be what `osprey -T` does with a rule using the keyword: an
"implemented" keyword's rule is accepted, a "parsed-only" one is rejected as `unsupported option
KEYWORD`, and no listed keyword is an unknown option.
"""
import csv
import io
import re

from conftest import binary, run

HEADER = "keyword,dialects,kind,status,buffer"


def listing():
    proc = run([binary("osprey"), "--list-keywords"])
    assert proc.stderr == ""
    return proc.stdout


def rows():
    return list(csv.DictReader(io.StringIO(listing())))


def check_rules(tmp_path, lines):
    path = tmp_path / "k.rules"
    path.write_text("".join(line + "\n" for line in lines))
    return run([binary("osprey"), "-T", "-S", str(path)], check=False)


def test_header_and_known_rows_exactly():
    lines = listing().splitlines()
    assert lines[0] == HEADER
    for row in [
        "msg,snort2|snort3|suricata,meta,implemented,",
        "content,snort2|snort3|suricata,payload,implemented,",
        "nocase,snort2|snort3|suricata,modifier,implemented,",
        "http_uri,snort2|snort3|suricata,http-legacy,implemented,http.uri",
        "http.uri,suricata,sticky,implemented,http.uri",
        "dns.query,suricata,sticky,implemented,dns.query",
        "to_lowercase,suricata,transform,implemented,",
        "flow,snort2|snort3|suricata,match,implemented,",
        "ssh.proto,suricata,sticky,implemented,ssh.proto",  # a parser registers it
        "sip.uri,suricata,sticky,implemented,sip.uri",  # the SIP parser registers it
        "rfb.name,suricata,sticky,implemented,rfb.name",  # the RFB parser registers it
        "ssh.hassh,suricata,sticky,implemented,ssh.hassh",  # the SSH parser reads KEXINIT
        "raw_data,snort3,sticky,implemented,raw_data",  # the payload: Osprey normalizes none
        "filestore,suricata,match,implemented,",  # the file layer (parsers/core/files.c)
        "tls.store,suricata,match,parsed-only,",
    ]:
        assert lines.count(row) == 1, row


def test_every_keyword_once_and_well_formed():
    lines = listing().splitlines()
    assert lines[0] == HEADER
    names = []
    for line in lines[1:]:
        fields = line.split(",")
        assert len(fields) == 5, line
        name, dialects, kind, status, _ = fields
        assert re.fullmatch(r"[a-z0-9_.\-]+", name), line
        assert dialects and set(dialects.split("|")) <= {"snort2", "snort3", "suricata"}, line
        assert kind in {"meta", "match", "payload", "modifier", "sticky", "http-legacy",
                        "transform"}, line
        assert status in {"implemented", "parsed-only"}, line
        names.append(name)
    assert len(names) == len(set(names)), "a keyword is listed twice"
    assert len(names) > 200


def test_listing_needs_no_configuration(tmp_path):
    # works from any directory and ignores -c: the registry is compiled in
    proc = run([binary("osprey"), "--list-keywords", "-c", str(tmp_path / "absent.yaml")],
               cwd=tmp_path)
    assert proc.stdout == listing()


def test_every_listed_keyword_is_known_to_the_loader_with_the_same_status(tmp_path):
    """One rule per keyword through -T: none is an unknown option, and -T's keyword table
    (every keyword seen, and whether it is implemented) matches the listing row for row."""
    listed = rows()
    rules = [f'alert tcp any any -> any any (msg:"k"; {r["keyword"]}; sid:{i + 1};)'
             for i, r in enumerate(listed)]
    proc = check_rules(tmp_path, rules)
    assert "unknown option" not in proc.stdout
    table = proc.stdout.split("Option keywords (rules using each):")[1].splitlines()[2:]
    seen = {}
    for line in table:
        f = line.split()
        if len(f) == 4 and f[3] in ("yes", "no"):
            seen[f[0]] = f[3] == "yes"
    assert set(seen) == {r["keyword"] for r in listed}
    for r in listed:
        assert seen[r["keyword"]] == (r["status"] == "implemented"), r["keyword"]


def test_status_is_what_a_rule_using_it_gets(tmp_path):
    status = {r["keyword"]: r["status"] for r in rows()}
    cases = {
        "content": 'alert tcp any any -> any any (msg:"a"; content:"abc"; nocase; sid:1;)',
        "http.uri": 'alert http any any -> any any (msg:"b"; http.uri; content:"/x"; sid:2;)',
        "dsize": 'alert udp any any -> any any (msg:"c"; dsize:>10; sid:3;)',
        "filestore": 'alert http any any -> any any (msg:"d"; filestore; sid:4;)',
        "ssh.hassh": 'alert tcp any any -> any any (msg:"e"; ssh.hassh; content:"x"; sid:5;)',
        "tls.store": 'alert tls any any -> any any (msg:"f"; tls.store; sid:6;)',
    }
    proc = check_rules(tmp_path, list(cases.values()))
    for sid, kw in enumerate(cases, 1):
        rejected = f"sid {sid}: unsupported option {kw}" in proc.stdout
        assert rejected == (status[kw] == "parsed-only"), (kw, proc.stdout)
        assert f"sid {sid}:" not in proc.stdout or rejected, proc.stdout
    assert "accepted            5" in proc.stdout


def test_help_documents_the_option():
    proc = run([binary("osprey"), "--help"])
    assert "--list-keywords" in proc.stdout
