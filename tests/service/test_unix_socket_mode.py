"""`osprey --unix-socket[=PATH]`: the rules loaded once, capture files analysed as the control
socket's pcap-file commands queue them, each job's records in its own output directory, as
Suricata's unix-socket mode (pcap-file, pcap-file-continuous, pcap-file-number, pcap-file-list,
pcap-current, pcap-last-processed, pcap-interrupt), driven by our client of the protocol."""
import json
import os
import subprocess
import time

import pytest

from conftest import SAN_ENV, ROOT, binary, stamp, write_pcap
from detect_helpers import http_conv
from reload_helpers import BATCH, rule, stream, udp_frames  # noqa: F401 (stream: fixture)
from suricata_sc import SuricataSocket

CLIENT, SERVER = "192.168.1.10", "203.0.113.80"
REQUEST = b"GET /index.html HTTP/1.1\r\nHost: demo\r\nUser-Agent: osprey-demo\r\n\r\n"
RULES = ROOT / "etc" / "rules" / "osprey-demo.rules"


def demo_pcap(path, start=1_600_000_000.0):
    return write_pcap(path, stamp(http_conv(req=REQUEST, src=CLIENT, dst=SERVER), start=start))


def alerts_in(d):
    eve = d / "eve.json"
    if not eve.exists():
        return []
    return [r["alert"]["signature_id"] for r in map(json.loads, eve.read_text().splitlines())
            if r["event_type"] == "alert"]


def wait(cond, what, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def server(tmp_path):
    sock = tmp_path / "osprey.socket"
    logs = tmp_path / "logs"
    logs.mkdir()
    env = dict(os.environ, **SAN_ENV)
    proc = subprocess.Popen([binary("osprey"), f"--unix-socket={sock}", "-S", str(RULES),
                             "-l", str(logs)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        wait(lambda: sock.exists() or proc.poll() is not None, "the socket")
        assert proc.poll() is None, proc.communicate()
        sc = wait(lambda: _connect(sock), "a connection")
        yield proc, sc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _connect(sock):
    try:
        return SuricataSocket(sock)
    except OSError:
        return None


def idle(sc):
    return (sc.command("pcap-file-number")["message"] == 0
            and sc.command("pcap-current")["message"] == "None")


def test_pcap_file_jobs_with_rules_loaded_once(server, tmp_path):
    proc, sc = server
    assert sc.command("capture-mode")["message"] == "PCAP_FILE"
    one, two = tmp_path / "out1", tmp_path / "out2"
    one.mkdir(), two.mkdir()
    p1 = demo_pcap(tmp_path / "a.pcap")
    p2 = demo_pcap(tmp_path / "b.pcap", start=1_700_000_000.0)
    assert sc.command("pcap-last-processed") == {"return": "OK", "message": 0}
    ok = {"return": "OK", "message": "Successfully added file to list"}
    assert sc.command("pcap-file", **{"filename": str(p1), "output-dir": str(one)}) == ok
    assert sc.command("pcap-file", **{"filename": str(p2), "output-dir": str(two)}) == ok
    listed = sc.command("pcap-file-list")["message"]
    assert listed["count"] == len(listed["files"]) and set(listed["files"]) <= {str(p1), str(p2)}
    wait(lambda: idle(sc), "both jobs")
    # each job's records in its own directory, the same alerts in both
    assert sorted(alerts_in(one)) == sorted(alerts_in(two)) == [9000001, 9000002, 9000003,
                                                                 9000004]
    assert sc.command("ruleset-stats")["message"][0]["rules_loaded"] == 5
    last = sc.command("pcap-last-processed")["message"]
    assert 1_700_000_000_000 <= last < 1_700_000_001_000  # the second capture's packet time
    # errors answered NOK, as Suricata does
    assert sc.command("pcap-file", **{"filename": str(tmp_path / "nope.pcap"),
                                      "output-dir": str(one)})["return"] == "NOK"
    assert sc.command("pcap-file", **{"filename": str(p1),
                                      "output-dir": str(tmp_path / "nodir")})["return"] == "NOK"
    assert sc.command("shutdown")["return"] == "OK"
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.count("rules: ") <= 1  # the rules were compiled once, at start


def test_continuous_directory_until_interrupted(server, tmp_path):
    proc, sc = server
    watched, out = tmp_path / "watched", tmp_path / "out"
    watched.mkdir(), out.mkdir()
    demo_pcap(watched / "1.pcap")
    assert sc.command("pcap-file-continuous", **{
        "filename": str(watched), "output-dir": str(out),
        "delete-when-done": True})["return"] == "OK"
    wait(lambda: len(alerts_in(out)) >= 4, "the first file's alerts")
    assert sc.command("pcap-current")["message"] == str(watched)
    demo_pcap(tmp_path / "2.tmp", start=1_650_000_000.0).rename(watched / "2.pcap")
    wait(lambda: not (watched / "2.pcap").exists(), "the new file read and deleted")
    assert not (watched / "1.pcap").exists()
    assert sc.command("pcap-interrupt") == {"return": "OK", "message": "Interrupted"}
    wait(lambda: sc.command("pcap-current")["message"] == "None", "the job to end")
    assert sorted(alerts_in(out)) == sorted([9000001, 9000002, 9000003, 9000004] * 2)
    assert sc.command("shutdown")["return"] == "OK"
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "no capture files" not in err  # an empty watched directory is no news


def test_pcap_commands_need_the_mode(stream):
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [b"..AAAA.."]))
    o.wait_processed(BATCH)
    sc = SuricataSocket(o.sock)
    assert sc.command("pcap-file-number") == {
        "return": "NOK", "message": "pcap-file-number: only in osprey --unix-socket mode"}
    sc.close()
    rc, _, err = o.close()
    assert rc == 0, err


def test_unix_socket_takes_no_capture_option(tmp_path):
    from conftest import run
    p = run([binary("osprey"), "--unix-socket", "-r", "x.pcap"], check=False)
    assert p.returncode == 2 and "--unix-socket takes its captures from pcap-file" in p.stderr
