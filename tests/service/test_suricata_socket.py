"""Osprey's control socket speaks Suricata's unix-socket protocol: the version hello, the
commands with Suricata's names, arguments and reply shapes, checked with a client of our own
(tests/lib/suricata_sc.py) and with Suricata's own suricatasc where it is installed."""
import json
import shutil
import subprocess
import time

import pytest

from reload_helpers import BATCH, rule, stream, udp_frames  # noqa: F401 (stream: fixture)
from suricata_sc import SuricataSocket

A, B = b"..AAAA..", b"..BBBB.."
SURICATASC = shutil.which("suricatasc")
# a rule Osprey rejects, so ruleset-stats and ruleset-failed-rules have one to show
BAD = 'alert tcp any any -> any any (msg:"bad"; nosuchkeyword; sid:9; rev:1;)\n'


def test_handshake_and_commands(stream):
    o = stream(rule(1, "AAAA") + "\n" + BAD, "--runmode", "single")
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    sc = SuricataSocket(o.sock)
    assert sc.hello["return"] == "OK"
    listed = sc.command("command-list")
    assert listed["return"] == "OK"
    commands = listed["message"]["commands"]
    assert listed["message"]["count"] == len(commands)
    for name in ("version", "uptime", "running-mode", "capture-mode", "iface-list", "iface-stat",
                 "dump-counters", "reload-rules", "ruleset-reload-nonblocking", "ruleset-stats",
                 "ruleset-failed-rules", "reopen-log-files", "conf-get", "memcap-show",
                 "memcap-set", "memcap-list", "shutdown"):
        assert name in commands, name
    assert sc.command("version")["message"].startswith("osprey ")
    assert isinstance(sc.command("uptime")["message"], int)
    assert sc.command("running-mode") == {"return": "OK", "message": "single"}
    assert sc.command("capture-mode") == {"return": "OK", "message": "PCAP_FILE"}
    assert sc.command("iface-list") == {"return": "OK", "message": {"count": 0, "ifaces": []}}
    assert sc.command("iface-stat", iface="eth9") == {
        "return": "NOK", "message": "Interface 'eth9' not found"}
    counters = sc.command("dump-counters")["message"]
    assert counters["total"]["packets"] == BATCH and counters["detect"]["rules"] == 1
    assert sc.command("ruleset-stats") == {"return": "OK", "message": [
        {"id": 0, "rules_loaded": 1, "rules_failed": 1, "rules_skipped": 0}]}
    failed = sc.command("ruleset-failed-rules")["message"]
    assert [(f["sid"], f["line"], f["filename"].endswith("rules.rules")) for f in failed] == [
        (9, 2, True)]
    assert "nosuchkeyword" in failed[0]["rule"]
    assert sc.command("conf-get", variable="flow.memcap") == {"return": "OK",
                                                             "message": str(128 * 2**20)}
    assert sc.command("conf-get", variable="vars.address-groups.HOME_NET")["return"] == "OK"
    assert sc.command("conf-get", variable="no.such.key") == {
        "return": "NOK", "message": "Variable 'no.such.key' not found"}
    memcaps = sc.command("memcap-list")["message"]
    assert {m["name"] for m in memcaps} >= {"flow", "stream-reassembly", "defrag"}
    assert sc.command("memcap-show", config="flow") == {"return": "OK",
                                                       "message": {"value": str(128 * 2**20)}}
    assert sc.command("memcap-show", config="nope")["return"] == "NOK"
    refused = sc.command("memcap-set", config="flow", memcap="1gb")
    assert refused["return"] == "NOK" and "flow.memcap" in refused["message"]
    assert sc.command("reopen-log-files") == {"return": "OK", "message": "done"}
    # a reload that waits, then one that does not: both end with the new rules in force (the
    # workers switch at their next packet, so a few more go through)
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB") + "\n")
    assert sc.command("reload-rules")["return"] == "OK"
    o.write(udp_frames(BATCH, [A, B], start_port=30000))
    wait_loaded(sc, 2)
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB") + "\n" + rule(3, "CCCC") + "\n")
    assert sc.command("ruleset-reload-nonblocking") == {"return": "OK", "message": "done"}
    wait_reloads(sc, 2)
    o.write(udp_frames(BATCH, [A, B], start_port=40000))
    wait_loaded(sc, 3)
    assert sc.command("shutdown") == {"return": "OK", "message": "Closing Osprey"}
    sc.close()
    rc, out, err = o.close()
    assert rc == 0, err


def wait_reloads(sc, n, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sc.command("dump-counters")["message"]["reload"]["reloads"] >= n:
            return
        time.sleep(0.05)
    pytest.fail("timed out waiting for the non-blocking reload")


def wait_loaded(sc, n, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if sc.command("ruleset-stats")["message"][0]["rules_loaded"] == n:
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {n} rules loaded")


def suricatasc(sock, command):
    proc = subprocess.run([SURICATASC, "-c", command, str(sock)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.skipif(SURICATASC is None, reason="suricatasc is not installed (Debian's suricata)")
def test_suricatasc_unchanged(stream):
    o = stream(rule(1, "AAAA") + "\n", "--runmode", "single")
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    assert suricatasc(o.sock, "version")["message"].startswith("osprey ")
    assert suricatasc(o.sock, "capture-mode") == {"return": "OK", "message": "PCAP_FILE"}
    assert suricatasc(o.sock, "conf-get flow.memcap") == {"return": "OK",
                                                         "message": str(128 * 2**20)}
    assert suricatasc(o.sock, "memcap-show flow")["message"] == {"value": str(128 * 2**20)}
    assert suricatasc(o.sock, "iface-list")["message"] == {"count": 0, "ifaces": []}
    assert suricatasc(o.sock, "dump-counters")["message"]["total"]["packets"] == BATCH
    assert suricatasc(o.sock, "shutdown") == {"return": "OK", "message": "Closing Osprey"}
    rc, out, err = o.close()
    assert rc == 0, err


def test_dataset_commands(stream):
    """dataset-add/-lookup/-remove on a set a rule opened (strings in base64, as Suricata)."""
    ds_rule = ('alert dns any any -> any any (msg:"listed"; dns.query; '
               'dataset:isset,badnames,type string; sid:5; rev:1;)\n')
    o = stream(rule(1, "AAAA") + "\n" + ds_rule)
    o.write(udp_frames(BATCH, [A]))
    o.wait_processed(BATCH)
    sc = SuricataSocket(o.sock)
    assert sc.command("ruleset-stats")["message"][0]["rules_loaded"] == 2
    name = "ZXZpbC5leGFtcGxl"  # base64 of evil.example
    args = {"setname": "badnames", "settype": "string", "datavalue": name}
    assert sc.command("dataset-lookup", **args) == {"return": "NOK",
                                                    "message": "item not found in set"}
    assert sc.command("dataset-add", **args) == {"return": "OK", "message": "data added"}
    assert sc.command("dataset-add", **args) == {"return": "NOK",
                                                 "message": "data already in set"}
    assert sc.command("dataset-lookup", **args) == {"return": "OK",
                                                    "message": "item found in set"}
    assert sc.command("dataset-remove", **args) == {"return": "OK", "message": "data removed"}
    assert sc.command("dataset-lookup", **args)["return"] == "NOK"
    assert sc.command("dataset-add", setname="badnames", settype="md5", datavalue="00") == {
        "return": "NOK", "message": "set badnames is of type string, not md5"}
    assert sc.command("dataset-add", setname="nope", settype="string", datavalue=name) == {
        "return": "NOK", "message": "set nope not found (no rule names it)"}
    bad = sc.command("dataset-add", setname="badnames", settype="string", datavalue="x")
    assert bad["return"] == "NOK" and "base64" in bad["message"]
    sc.close()
    rc, out, err = o.close()
    assert rc == 0, err
