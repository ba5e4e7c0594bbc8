"""Helpers shared by the test_rules_*.py files (no tests here).

The rule parser is driven through `osprey -T` (check mode) and `osprey --dump-rules` (the AST as
JSON lines), run from the repository root so the shipped etc/classification.config and
etc/reference.config are the ones in force."""
import json
import re

from conftest import CORPUS, ROOT, binary, run

RULES = CORPUS / "rules"

RULESETS = {
    "et2019": RULES / "et-open-suricata-4.0-2019-04",
    "et2025": RULES / "et-open-suricata-5.0-2025-08",
    "snort3": RULES / "snort3-community",
    "snort2": RULES / "snort2-community",
    "suricata": RULES / "suricata-builtin",
    "snort3-file-magic": RULES / "snort3-defaults",
}

SUMMARY_KEYS = {
    "enabled": ("enabled",), "accepted": ("accepted",), "rejected": ("rejected",),
    "malformed": ("malformed",), "unsupported only": ("unsupported",),
    "duplicate sid": ("duplicate",), "older revision": ("older",),
    "disabled": ("disabled",), "parse": ("disabled_parse",),
    "configuration errors": ("config_errors",), "skipped (requires)": ("skipped",),
}


def ruleset_files(name):
    return sorted(str(p) for p in RULESETS[name].glob("*.rules"))


def osprey(*args, check=False, cwd=ROOT):
    return run([binary("osprey"), *args], check=check, cwd=cwd)


def rule_args(files):
    out = []
    for f in files:
        out += ["-S", str(f)]
    return out


def parse_check(stdout):
    """(diagnostic lines, summary dict, reasons dict, keywords dict) of `osprey -T` output."""
    head, _, tail = stdout.partition("\nRule check: ")
    lines = [l for l in head.splitlines() if l]
    summary = {}
    m = re.match(r"(\d+) rules read from (\d+) files?", tail)
    summary["read"], summary["files"] = int(m.group(1)), int(m.group(2))
    malformed_seen = 0
    reasons, keywords = {}, {}
    section = "counts"
    for line in tail.splitlines()[1:]:
        if line.startswith("Rejected by reason:"):
            section = "reasons"
            continue
        if line.startswith("Option keywords"):
            section = "keywords"
            continue
        if section == "counts":
            m = re.match(r"\s+(\D+?)\s+(\d+)$", line)
            name, value = m.group(1), int(m.group(2))
            if name == "malformed":
                name = "malformed" if malformed_seen == 0 else "disabled_malformed"
                malformed_seen += 1
                summary[name] = value
                continue
            summary[SUMMARY_KEYS[name][0]] = value
        elif section == "reasons":
            m = re.match(r"\s+(\d+)  (.+)$", line)
            reasons[m.group(2)] = int(m.group(1))
        else:
            parts = line.split()
            if parts[0] == "keyword":
                continue
            keywords[parts[0]] = (int(parts[1]), int(parts[2]), parts[3] == "yes")
    return lines, summary, reasons, keywords


def check_files(files, *extra):
    """Run check mode on files; returns (proc, lines, summary, reasons, keywords)."""
    proc = osprey(*extra, "-T", *rule_args(files))
    assert proc.returncode in (0, 1), proc.stderr
    return (proc, *parse_check(proc.stdout))


def write_rules(tmp_path, text, name="t.rules"):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def check_text(tmp_path, text, *extra):
    """Check-mode diagnostics of a rules text, with the file name shortened to t.rules."""
    path = write_rules(tmp_path, text)
    proc, lines, summary, reasons, keywords = check_files([path], *extra)
    lines = [l.replace(str(path), "t.rules") for l in lines]
    return proc, lines, summary


def dump_text(tmp_path, text, *extra):
    """Every rule of text as parsed (status, header, options …) via --dump-rules."""
    path = write_rules(tmp_path, text)
    proc = osprey(*extra, "--dump-rules", "-S", str(path))
    return [json.loads(l) for l in proc.stdout.splitlines()]


def dump1(tmp_path, rule, *extra):
    rules = dump_text(tmp_path, rule + "\n", *extra)
    assert len(rules) == 1, rules
    return rules[0]


def options(rule, keyword):
    return [o for o in rule["options"] if o["keyword"] == keyword]


def reason(tmp_path, rule, *extra):
    """The one diagnostic of a one-rule file, without 't.rules:1: '."""
    proc, lines, summary = check_text(tmp_path, rule + "\n", *extra)
    assert len(lines) == 1, lines
    assert lines[0].startswith("t.rules:1: "), lines
    return lines[0][len("t.rules:1: "):]
