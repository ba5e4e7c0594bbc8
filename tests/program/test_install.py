"""`cmake --install` gives a working Osprey laid out as Suricata is: programs in bin/, the shipped
configuration in etc/osprey/ (read without -c, from any directory), the systemd unit, the
logrotate file and osprey(8); relative table names in a config file are found beside it whatever
the working directory (a relative name in a config file is relative to the file)."""
import json
import re
import subprocess

import pytest

from conftest import BUILD, run, stamp, write_pcap
from detect_helpers import http_conv

CLIENT, SERVER = "192.168.1.10", "203.0.113.80"  # HOME_NET -> EXTERNAL_NET, as in the demo
REQUEST = b"GET /index.html HTTP/1.1\r\nHost: demo\r\nUser-Agent: osprey-demo\r\n\r\n"


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    dest = tmp_path_factory.mktemp("prefix")
    proc = subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(dest)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return dest


def demo_pcap(path):
    return write_pcap(path, stamp(http_conv(req=REQUEST, src=CLIENT, dst=SERVER)))


def alerts_of(logs):
    recs = [json.loads(l) for l in (logs / "eve.json").read_text().splitlines()]
    return [r for r in recs if r["event_type"] == "alert"]


def test_install_puts_programs_and_config_in_place(prefix):
    for name in ("osprey", "osprey-trace", "osprey-ctl", "osprey-report"):
        assert (prefix / "bin" / name).stat().st_mode & 0o111, name
    conf = prefix / "etc" / "osprey"
    assert sorted(p.name for p in conf.iterdir()) == [
        "classification.config", "osprey.yaml", "reference.config", "rules", "threshold.config"]
    assert [p.name for p in (conf / "rules").iterdir()] == ["osprey-demo.rules"]
    assert (prefix / "var" / "lib" / "osprey" / "rules").is_dir()
    assert (prefix / "var" / "log" / "osprey").is_dir()


def test_install_puts_service_files_in_place(prefix):
    """systemd unit, logrotate file and osprey(8), naming the configured prefix's paths."""
    unit = (prefix / "lib" / "systemd" / "system" / "osprey.service").read_text()
    assert re.search(r"^ExecStart=/\S+/bin/osprey -c /\S+/osprey/osprey.yaml ", unit, re.M)
    assert "ExecReload=/bin/kill -USR2 $MAINPID" in unit and "@" not in unit
    rotate = (prefix / "etc" / "logrotate.d" / "osprey").read_text()
    assert re.search(r"^/\S+/log/osprey/\*.log /\S+/log/osprey/\*.json", rotate, re.M) and "kill -HUP" in rotate
    page = (prefix / "share" / "man" / "man8" / "osprey.8").read_text()
    assert page.startswith(".\\\" osprey.8") and ".TH OSPREY 8" in page and "@" not in page
    man = subprocess.run(["man", "-l", str(prefix / "share" / "man" / "man8" / "osprey.8")],
                         capture_output=True, text=True, env={"MANWIDTH": "80", "PATH": "/usr/bin:/bin"})
    if man.returncode == 0 or "not found" not in man.stderr:  # man-db renders it where present
        assert man.returncode == 0 and "suricata-update" in man.stdout, man.stderr
    # the installed osprey.yaml names the prefix's rule and log directories
    yaml = (prefix / "etc" / "osprey" / "osprey.yaml").read_text()
    assert re.search(r"^default-rule-path: /\S+/lib/osprey/rules$", yaml, re.M)
    assert re.search(r"^default-log-dir: /\S+/log/osprey/$", yaml, re.M)


def test_installed_osprey_needs_no_config_option(prefix, tmp_path):
    """No -c, another working directory: the installed etc/osprey/osprey.yaml and its tables
    are read (classtypes resolved, no warning), as suricata reads its installed yaml."""
    pcap = demo_pcap(tmp_path / "demo.pcap")
    logs = tmp_path / "logs"
    logs.mkdir()
    conf = prefix / "etc" / "osprey"
    proc = run([str(prefix / "bin" / "osprey"), "-r", str(pcap),
                "-S", str(conf / "rules" / "osprey-demo.rules"), "-l", str(logs)], cwd=tmp_path)
    assert proc.stderr == "" and "warning" not in proc.stdout
    assert "10 packets, 1 flows, 4 alerts" in proc.stdout
    assert [(a["alert"]["signature_id"], a["alert"]["category"]) for a in alerts_of(logs)][-1] \
        == (9000001, "Potentially Bad Traffic")
    dump = run([str(prefix / "bin" / "osprey"), "--dump-config"], cwd=tmp_path).stdout
    # the installed file was loaded (its default-log-dir, not the built-in /var/log/osprey/)
    assert re.search(r"^default-log-dir: \"/\S*/var/log/osprey/\"$", dump, re.M)


def test_build_info_as_suricata_prints_it(prefix):
    """--build-info: the lines suricata-update reads (Features, --prefix, --sysconfdir,
    --localstatedir, --datarootdir) in Suricata's layout."""
    out = run([str(prefix / "bin" / "osprey"), "--build-info"]).stdout
    lines = out.splitlines()
    assert lines[0] == "This is Osprey version 0.1.0 RELEASE"
    assert lines[1] == "This is Suricata version 8.0.0 compatible (Osprey 0.1.0)"
    assert lines[2].startswith("Features: ") and "AF_PACKET" in lines[2].split()
    assert lines[3].startswith("SIMD support:")
    assert re.search(r"^(GCC|Clang) version \S+.*, C version \d+$", out, re.M)
    paths = {m[0]: m[1] for m in re.findall(r"^  (--\w+) +(\S+)$", out, re.M)}
    assert set(paths) == {"--prefix", "--sysconfdir", "--localstatedir", "--datarootdir"}
    assert all(p.startswith("/") for p in paths.values())
    assert run([str(prefix / "bin" / "osprey"), "-V"]).stdout == "osprey 0.1.0\n"


def test_installed_osprey_runs_from_another_directory(prefix, tmp_path):
    elsewhere = tmp_path / "elsewhere"  # no etc/ here: the tables must come from etc/osprey/
    elsewhere.mkdir()
    pcap = demo_pcap(tmp_path / "demo.pcap")
    logs = tmp_path / "logs"
    logs.mkdir()
    conf = prefix / "etc" / "osprey"
    proc = run([str(prefix / "bin" / "osprey"), "-c", str(conf / "osprey.yaml"), "-r", str(pcap),
                "-S", str(conf / "rules" / "osprey-demo.rules"), "-l", str(logs)], cwd=elsewhere)
    assert proc.stderr == ""
    assert "10 packets, 1 flows, 4 alerts; rules: 5 loaded, 5 compiled, 0 not compiled" in proc.stdout
    alerts = alerts_of(logs)
    # Suricata's IDS mode: 9000002 (startswith) on the request's own payload (4); the others
    # with the packet of their direction after the ACK (request 4, ACK 5: 7; response 6, ACK
    # 7: 9)
    assert [(a["alert"]["signature_id"], a["src_ip"], a["pcap_cnt"]) for a in alerts] == [
        (9000002, CLIENT, 4), (9000003, CLIENT, 7), (9000004, CLIENT, 7), (9000001, SERVER, 9)]
    # classtypes resolved through the installed classification.config
    web = ("Access to a Potentially Vulnerable Web Application", 2)
    assert [(a["alert"]["category"], a["alert"]["severity"]) for a in alerts] == [
        web, ("", 3), web, ("Potentially Bad Traffic", 2)]


def test_installed_osprey_finds_its_report_companion(prefix, tmp_path):
    """--report runs the osprey-report installed beside the binary (not the build tree's)."""
    pcap = demo_pcap(tmp_path / "demo.pcap")
    logs = tmp_path / "logs"
    logs.mkdir()
    conf = prefix / "etc" / "osprey"
    page = tmp_path / "run.html"
    proc = run([str(prefix / "bin" / "osprey"), "-r", str(pcap), "-S",
                str(conf / "rules" / "osprey-demo.rules"), "-l", str(logs), "--report", str(page)],
               cwd=tmp_path)
    assert f"osprey: report in {page}" in proc.stdout
    assert re.search(r'id="card-alerts"><b>4</b>', page.read_text())
    # without the companion the run says so and fails
    (prefix / "bin" / "osprey-report").rename(prefix / "bin" / "osprey-report.off")
    try:
        proc = run([str(prefix / "bin" / "osprey"), "-r", str(pcap), "-S",
                    str(conf / "rules" / "osprey-demo.rules"), "-l", str(logs), "--report",
                    str(page)], cwd=tmp_path, check=False)
    finally:
        (prefix / "bin" / "osprey-report.off").rename(prefix / "bin" / "osprey-report")
    assert proc.returncode == 1 and "osprey-report is not installed beside osprey" in proc.stderr


def test_installed_config_checks_rules_from_another_directory(prefix, tmp_path):
    """osprey -T with the installed config: the tables load (no 'cannot open' warning)."""
    conf = prefix / "etc" / "osprey"
    proc = run([str(prefix / "bin" / "osprey"), "-c", str(conf / "osprey.yaml"), "-T",
                "-S", str(conf / "rules" / "osprey-demo.rules")], cwd=tmp_path)
    assert proc.stderr == "" and "cannot open" not in proc.stdout


def test_rule_files_beside_a_relative_config(prefix, tmp_path):
    """default-rule-path "" + rule-files: names are relative to the config file's directory,
    also when the config is named relative to the working directory."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "local.rules").write_text(
        'alert tcp any any -> any 80 (msg:"local UA"; content:"osprey-demo"; sid:1; rev:1;)\n')
    (site / "local.classification").write_text("config classification: my-class,My class,1\n")
    (site / "osprey.yaml").write_text('default-rule-path: ""\nrule-files: [local.rules]\n'
                                      "classification-file: local.classification\n"
                                      "reference-config-file: \"\"\nthreshold-file: \"\"\n")
    pcap = demo_pcap(tmp_path / "demo.pcap")
    logs = tmp_path / "logs"
    logs.mkdir()
    proc = run([str(prefix / "bin" / "osprey"), "-c", "site/osprey.yaml", "-r", str(pcap),
                "-l", str(logs)], cwd=tmp_path)
    assert proc.stderr == ""
    # (the request, 4, inspected with the client's packet after its ACK: 7, IDS mode)
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in alerts_of(logs)] == [(1, 7)]


def test_set_values_stay_relative_to_the_working_directory(prefix, tmp_path):
    """--set classification-file=NAME is taken from the working directory, not etc/osprey/."""
    conf = prefix / "etc" / "osprey"
    proc = run([str(prefix / "bin" / "osprey"), "-c", str(conf / "osprey.yaml"), "-T",
                "--set", "classification-file=classification.config",
                "-S", str(conf / "rules" / "osprey-demo.rules")], cwd=tmp_path, check=False)
    assert proc.returncode == 1
    assert ("classification.config: cannot open the classification file (classification-file: "
            "No such file or directory)") in proc.stdout
