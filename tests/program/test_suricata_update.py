"""suricata-update with Osprey as the engine (`--suricata PATH_TO_OSPREY`), end to end and
offline: a file:// source made from the shared corpus's ET Open rules, suricata-update asking
osprey `-V`, `--build-info`, `-c osprey.yaml --dump-config` (Suricata's key = value form: the
rule variables it checks) and `-T -c … -S suricata.rules` (its test step), then osprey running
the merged suricata.rules from default-rule-path as an installed one would."""
import shutil
import subprocess
import tarfile

import pytest

from conftest import CORPUS, ROOT, binary, run

ET = CORPUS / "rules" / "et-open-suricata-5.0-2025-08"
# files every rule of which Osprey loads: suricata-update's test step is osprey -T, which
# fails (as suricata -T does) when a rule cannot be loaded
FILES = ("emerging-dns.rules", "emerging-icmp.rules", "emerging-telnet.rules")
SURICATA_UPDATE = shutil.which("suricata-update")


@pytest.fixture
def source(tmp_path):
    if not ET.is_dir():
        pytest.skip(f"no ET Open rules in {ET}")
    tarball = tmp_path / "et-open.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        for name in FILES:
            tar.add(ET / name, arcname=f"rules/{name}")
    return tarball


def rules_of(lines):
    """sid → enabled (a disabled rule is commented out: '#alert …' or '# alert …')."""
    out = {}
    for line in lines:
        text = line.lstrip("# ")
        if text.startswith("alert") and "sid:" in text:
            out[int(text.split("sid:")[1].split(";")[0])] = not line.startswith("#")
    return out


def expected_rules():
    return rules_of(l for name in FILES for l in (ET / name).read_text().splitlines())


def test_suricata_update_with_osprey_as_the_engine(source, tmp_path):
    assert SURICATA_UPDATE, "suricata-update is not installed (tools/install-deps.sh installs it)"
    data, rules, empty = tmp_path / "data", tmp_path / "rules", tmp_path / "empty"
    empty.mkdir()
    # no Suricata-provided rules (a machine with Suricata installed has /etc/suricata/rules)
    (tmp_path / "update.yaml").write_text(f"dist-rule-directory: {empty}\n")
    proc = subprocess.run(
        [SURICATA_UPDATE, "-c", str(tmp_path / "update.yaml"), "--suricata", binary("osprey"),
         "--suricata-conf", str(ROOT / "etc" / "osprey.yaml"), "-D", str(data), "-o", str(rules),
         "--no-reload", "--url", f"file://{source}"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert "Found Suricata version 0.1.0" in log  # -V
    assert "Testing with suricata -T." in log and "Suricata test failed" not in log
    assert "Failed to parse" not in log             # --dump-config in Suricata's form
    assert "unknown" not in log and "--prefix not found" not in log  # vars, --build-info
    assert "Rule check: " in log                     # osprey -T ran as its test step
    want = expected_rules()
    assert rules_of((rules / "suricata.rules").read_text().splitlines()) == want
    # the merged file runs from default-rule-path, as the installed osprey.yaml names it
    check = run([binary("osprey"), "-c", str(ROOT / "etc" / "osprey.yaml"), "-T",
                 "--set", f"default-rule-path={rules}", "--set", "rule-files=[suricata.rules]"],
                cwd=tmp_path)
    enabled = sum(want.values())
    assert f"Rule check: {len(want)} rules read from 1 file" in check.stdout
    assert f"    accepted            {enabled}\n    rejected            0\n" in check.stdout
