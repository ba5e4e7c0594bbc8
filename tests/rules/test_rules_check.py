"""`osprey -T`: which files are loaded, what is printed for each rejected rule, the summary, the
exit status, and the configuration files behind classtypes, references and thresholds."""
import re
import shutil

from conftest import binary, run
from rules_helpers import check_files, check_text, osprey, parse_check, write_rules

GOOD = 'alert tcp any any -> any any (msg:"ok {0}"; sid:{0}; rev:1; classtype:misc-activity;)\n'


def test_everything_accepted_exits_0(tmp_path):
    proc, lines, s = check_text(tmp_path, GOOD.format(1) + GOOD.format(2))
    assert proc.returncode == 0 and lines == []
    assert (s["read"], s["enabled"], s["accepted"], s["rejected"]) == (2, 2, 2, 0)


def test_one_line_per_rejected_rule_and_the_others_still_load(tmp_path):
    # tls.store is parsed but not implemented
    text = (GOOD.format(1) + 'alert tcp any any -> any any (msg:"x"; tls.store; sid:2;)\n'
            + 'alert tcp any any -> any any (msg:"y"; bogus; sid:3;)\n' + GOOD.format(4))
    proc, lines, s = check_text(tmp_path, text)
    assert proc.returncode == 1
    assert lines == ["t.rules:2: sid 2: unsupported option tls.store",
                     "t.rules:3: sid 3: unknown option 'bogus' (col 40)"]
    assert (s["accepted"], s["rejected"], s["malformed"], s["unsupported"]) == (2, 2, 1, 1)


def test_first_unsupported_option_is_named_and_all_are_counted(tmp_path):
    text = ('alert tcp any any -> any any (msg:"x"; flow:to_server; tls.store; '
            'content:"a"; nocase; sid:1;)\n')
    path = write_rules(tmp_path, text)
    proc, lines, s, reasons, keywords = check_files([path])
    assert lines[0].endswith("sid 1: unsupported option tls.store")
    assert reasons == {"unsupported option tls.store": 1}
    assert keywords["flow"] == (1, 0, True) and keywords["content"] == (1, 0, True)
    assert keywords["tls.store"] == (1, 0, False)
    assert keywords["nocase"] == (1, 0, True) and keywords["msg"] == (1, 0, True)


def test_summary_layout(tmp_path):
    text = GOOD.format(1) + '#alert tcp any any -> any any (msg:"d"; content:"|0|"; sid:2;)\n'
    proc, _, _ = check_text(tmp_path, text)
    out = proc.stdout.replace(str(tmp_path / "t.rules"), "t.rules")
    assert out == (
        "t.rules:2: sid 2: disabled rule: content: odd number of hex digits in |...| (col 50)\n"
        "\n"
        "Rule check: 2 rules read from 1 file\n"
        "  enabled               1\n"
        "    accepted            1\n"
        "    rejected            0\n"
        "      malformed         0\n"
        "      unsupported only  0\n"
        "      duplicate sid     0\n"
        "      older revision    0\n"
        "  disabled              1\n"
        "    parse               0\n"
        "    malformed           1\n"
        "  configuration errors  0\n"
        "Option keywords (rules using each):\n"
        "  keyword                     enabled  disabled  implemented\n"
        "  msg                               1         1  yes\n"
        "  sid                               1         1  yes\n"
        "  classtype                         1         0  yes\n"
        "  rev                               1         0  yes\n"
        "  content                           0         1  yes\n")
    # a malformed disabled rule is reported but never loaded and does not fail the check
    assert proc.returncode == 0


def test_duplicate_sids_and_revisions(tmp_path):
    text = (GOOD.format(1)                                                    # line 1
            + GOOD.format(1)                                                  # 2: duplicate
            + GOOD.format(1).replace("rev:1", "rev:0")                        # 3: older
            + GOOD.format(5).replace("rev:1", "rev:2")                        # 4
            + GOOD.format(5).replace("rev:1", "rev:3")                        # 5: newer wins
            + GOOD.format(1).replace("sid:1", "sid:1; gid:3"))                # 6: other gid
    proc, lines, s = check_text(tmp_path, text)
    assert lines == [
        "t.rules:2: sid 1: duplicate sid 1 (gid 1 rev 1): first at t.rules:1",
        "t.rules:3: sid 1: sid 1 rev 0 is older than rev 1 at t.rules:1",
        "t.rules:4: sid 5: sid 5 rev 2 superseded by rev 3 at t.rules:5",
    ]
    assert (s["accepted"], s["rejected"], s["duplicate"], s["older"]) == (3, 3, 1, 2)
    assert proc.returncode == 1


def test_superseding_a_rule_rejected_for_unsupported_options(tmp_path):
    text = ('alert tcp any any -> any any (msg:"a"; tls.store; sid:7; rev:1;)\n'
            'alert tcp any any -> any any (msg:"b"; sid:7; rev:2;)\n')
    proc, lines, s = check_text(tmp_path, text)
    assert lines == ["t.rules:1: sid 7: sid 7 rev 1 superseded by rev 2 at t.rules:2"]
    assert (s["accepted"], s["unsupported"], s["older"]) == (1, 0, 1)


def test_rule_files_from_the_configuration(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "a.rules").write_text(GOOD.format(1))
    (rules / "b.rules").write_text(GOOD.format(2))
    other = write_rules(tmp_path, GOOD.format(3), "other.rules")
    cfg = tmp_path / "osprey.yaml"
    cfg.write_text(f"default-rule-path: {rules}\nrule-files:\n  - a.rules\n  - b.rules\n"
                   f"  - {other}\n")
    proc = osprey("-c", str(cfg), "-T")
    _, s = parse_check(proc.stdout)[:2]
    assert proc.returncode == 0 and (s["files"], s["accepted"]) == (3, 3)
    # -S replaces the configured list
    proc = osprey("-c", str(cfg), "-T", "-S", str(other))
    _, s = parse_check(proc.stdout)[:2]
    assert (s["files"], s["accepted"]) == (1, 1)


def test_no_rule_files(tmp_path):
    proc = osprey("-T")
    assert proc.returncode == 1
    assert proc.stdout.startswith("osprey: no rule files: give -S FILE or set rule-files in the "
                                  "configuration\n")


def test_unreadable_rule_file(tmp_path):
    missing = tmp_path / "missing.rules"
    proc = osprey("-T", "-S", str(missing), "-S", str(write_rules(tmp_path, GOOD.format(1))))
    lines, s = parse_check(proc.stdout)[:2]
    assert lines == [f"{missing}: cannot open rule file: No such file or directory"]
    assert proc.returncode == 1 and s["config_errors"] == 1 and s["accepted"] == 1


def test_bad_variable_is_reported_once_and_rejects_its_rules(tmp_path):
    text = ('alert tcp $LAN any -> any any (msg:"a"; sid:1;)\n'
            'alert tcp any any -> $LAN any (msg:"b"; sid:2;)\n')
    proc, lines, s = check_text(tmp_path, text, "--set", "vars.address-groups.LAN=[10.0.0.0/8")
    assert lines == [
        "--set: vars.address-groups.LAN: missing ']'",
        "t.rules:1: sid 1: variable $LAN is invalid: missing ']' (col 11)",
        "t.rules:2: sid 2: variable $LAN is invalid: missing ']' (col 22)",
    ]
    assert s["config_errors"] == 1 and proc.returncode == 1


def test_variable_loops_and_kinds(tmp_path):
    proc, lines, s = check_text(
        tmp_path, 'alert tcp $A any -> any $P (msg:"a"; sid:1;)\n',
        "--set", "vars.address-groups.A=[$B,1.1.1.1]", "--set", "vars.address-groups.B=$A",
        "--set", "vars.port-groups.P=$A")
    assert lines[:3] == [
        "--set: vars.address-groups.A: variable $B is invalid: variable $A refers to itself",
        "--set: vars.address-groups.B: variable $A refers to itself",
        "--set: vars.port-groups.P: $A is an address variable, used as port",
    ]
    assert lines[3] == ("t.rules:1: sid 1: variable $A is invalid: variable $B is invalid: "
                        "variable $A refers to itself (col 11)")


def test_classification_and_reference_files(tmp_path):
    cls = write_rules(tmp_path, "# mine\nconfig classification: mine,My Class,3\n"
                                "config classification: bad line\n"
                                "config classification: x,y,0\n", "cls.config")
    ref = write_rules(tmp_path, "config reference: mine https://example.org/\n"
                                "config reference: nourl\n", "ref.config")
    text = ('alert tcp any any -> any any (msg:"a"; classtype:MINE; reference:Mine,1; sid:1;)\n'
            'alert tcp any any -> any any (msg:"b"; classtype:trojan-activity; sid:2;)\n')
    proc, lines, s = check_text(tmp_path, text, "--set", f"classification-file={cls}",
                                "--set", f"reference-config-file={ref}")
    assert lines == [
        f"{cls}:3: expected 'config classification: NAME,DESCRIPTION,PRIORITY'",
        f"{cls}:4: priority must be a number 1..255, got '0'",
        f"{ref}:2: expected 'config reference: SYSTEM URL'",
        "t.rules:2: sid 2: unknown classtype 'trojan-activity' (not in the classification file) "
        "(col 50)",
    ]
    assert s["config_errors"] == 3 and s["accepted"] == 1


def test_missing_configuration_files(tmp_path):
    # the built-in defaults name the program's shipped tables (for build/bin/osprey the source
    # etc/), whatever the working directory: no warning from elsewhere
    proc = osprey("-T", "-S", str(write_rules(tmp_path, GOOD.format(1))), cwd=tmp_path)
    lines, s = parse_check(proc.stdout)[:2]
    assert lines == [] and proc.returncode == 0 and s["accepted"] == 1
    # a copy of the program with no etc/osprey/ beside it: the defaults name nothing, a warning
    (tmp_path / "bin").mkdir()
    copy = tmp_path / "bin" / "osprey"
    shutil.copy2(binary("osprey"), copy)
    proc = run([str(copy), "-T", "-S", str(write_rules(tmp_path, GOOD.format(1)))], cwd=tmp_path)
    lines, s = parse_check(proc.stdout)[:2]
    home = tmp_path / "bin" / ".." / "etc" / "osprey"
    assert lines == [
        f"warning: {home}/classification.config: cannot open the classification file "
        "(classification-file: No such file or directory); its names are not checked",
        f"warning: {home}/reference.config: cannot open the reference file (reference-config-file: "
        "No such file or directory); its names are not checked",
        f"warning: {home}/threshold.config: cannot open the threshold file (threshold-file: No such "
        "file or directory)",
    ]
    assert proc.returncode == 0 and s["accepted"] == 1
    # a file that was asked for is an error
    proc, lines, s = check_text(tmp_path, GOOD.format(1), "--set",
                                f"classification-file={tmp_path}/nope.config")
    assert lines == [f"{tmp_path}/nope.config: cannot open the classification file "
                     "(classification-file: No such file or directory); its names are not "
                     "checked"]
    assert proc.returncode == 1 and s["accepted"] == 1


def test_threshold_file(tmp_path):
    thr = write_rules(tmp_path, (
        "# comments and blank lines\n\n"
        "threshold gen_id 1, sig_id 1, type limit, track by_src, count 1, seconds 60\n"
        "event_filter gen_id 1, sig_id 1, type both, track by_dst, count 2, seconds 5\n"
        "suppress gen_id 1, sig_id 1\n"
        "suppress gen_id 1, sig_id 1, track by_either, ip [10.0.0.0/8, $HOME_NET]\n"
        "rate_filter gen_id 1, sig_id 1, track by_rule, count 50, seconds 1, \\\n"
        "    new_action drop, timeout 30\n"
        "threshold gen_id 1, sig_id 2, type limit, track by_src, count 1, seconds 60\n"
        "threshold gen_id 1, sig_id 1, type often, track by_src, count 1, seconds 60\n"
        "threshold gen_id 1, sig_id 1, type limit, track by_src, count 1\n"
        "suppress gen_id 1, sig_id 1, track by_src\n"
        "suppress gen_id 1, sig_id 1, track by_src, ip 300.1.1.1\n"
        "rate_filter gen_id 1, sig_id 1, track by_rule, count 5, seconds 1, new_action boom, "
        "timeout 3\n"
        "threshold gen_id x, sig_id 1, type limit, track by_src, count 1, seconds 60\n"
        "threshold gen_id 1, gen_id 1\n"
        "suppress gen_id 1, sig_id 1, count 3\n"
        "limit gen_id 1\n"), "thr.config")
    proc, lines, s = check_text(tmp_path, GOOD.format(1), "--set", f"threshold-file={thr}")
    assert lines == [
        f"{thr}:10: type must be limit, threshold or both, got 'often'",
        f"{thr}:11: threshold needs 'seconds'",
        f"{thr}:12: suppress takes track and ip together, or neither",
        f"{thr}:13: ip: invalid address '300.1.1.1'",
        f"{thr}:14: invalid new_action 'boom'",
        f"{thr}:15: gen_id: expected a number, got 'x'",
        f"{thr}:16: 'gen_id' given twice",
        f"{thr}:17: suppress does not take 'count'",
        f"{thr}:18: unknown command 'limit' (threshold, event_filter, suppress, rate_filter)",
        f"warning: {thr}:9: no rule with gen_id 1, sig_id 2 was read",
    ]
    assert s["config_errors"] == 9 and proc.returncode == 1


def test_shipped_configuration_files_load_cleanly(tmp_path):
    proc, lines, s = check_text(tmp_path, GOOD.format(1))
    assert lines == [] and s["config_errors"] == 0


def test_dump_rules_json(tmp_path):
    path = write_rules(tmp_path, GOOD.format(1) + "#" + GOOD.format(2)
                       + 'alert tcp any any -> any any (msg:"x"; tls.store; sid:3;)\n')
    proc = osprey("--dump-rules", "-S", str(path))
    import json
    rules = [json.loads(l) for l in proc.stdout.splitlines()]
    assert [(r["sid"], r["status"]) for r in rules] == [(1, "accepted"), (2, "disabled"),
                                                        (3, "rejected")]
    assert rules[2]["reason"] == "unsupported option tls.store"
    assert set(rules[0]) >= {"file", "line", "dialect", "action", "proto", "src", "sport", "dir",
                             "dst", "dport", "src_ranges", "dst_ranges", "sport_ranges",
                             "dport_ranges", "gid", "sid", "rev", "msg", "classtype",
                             "priority", "options"}
    assert proc.returncode == 1


def test_help_lists_the_rule_options():
    out = osprey("--help", check=True).stdout
    for opt in ("-S, --rule-file FILE", "-T, --test", "--dump-rules"):
        assert re.search(re.escape(opt), out), opt


def test_implemented_option_with_an_unsupported_form(tmp_path):
    """pcre is implemented, but not with a flag for a buffer Osprey does not fill (K, the raw
    cookie): -T rejects the rule with the reason osprey -r gives, so -T's 'accepted' is
    exactly what -r runs."""
    from conftest import binary, run
    f = tmp_path / "r.rules"
    f.write_text('alert tcp any any -> any any (msg:"m"; content:"GET"; pcre:"/index/K"; sid:7;)\n'
                 'alert tcp any any -> any any (msg:"m"; content:"GET"; pcre:"/index/i"; sid:8;)\n')
    p = run([binary("osprey"), "-T", "-S", str(f)], check=False)
    assert p.returncode == 1
    assert (f"{f}:1: sid 7: unsupported option pcre: an HTTP buffer flag for a buffer Osprey "
            "does not fill yet") in p.stdout + p.stderr
    assert "sid 8" not in p.stdout + p.stderr
