"""`osprey -r DIR`: the directory walked recursively, its captures read in the capture-time order
of their first packets (not by name); pcap-file.delete-when-done and pcap-file.continuous as
Suricata names them."""
import json
import os
import signal
import subprocess
import time

from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from conftest import SAN_ENV, binary, run, stamp, write_pcap

RULES = "".join(
    f'alert udp any any -> any any (msg:"m{i}"; content:"payload-{i}"; sid:{i}; rev:1;)\n'
    for i in range(1, 6))


def capture(path, i, start):
    """A capture of two datagrams carrying payload-i, the first at time start."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pkts = [IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1000 + i, dport=53) /
            Raw(f"payload-{i}".encode()) for _ in range(2)]
    return write_pcap(path, stamp(pkts, start=start))


def alerts(logdir):
    eve = logdir / "eve.json"
    if not eve.exists():
        return []
    return [r for r in map(json.loads, eve.read_text().splitlines()) if r["event_type"] == "alert"]


def osprey_dir(tmp_path, d, *args):
    rules = tmp_path / "t.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "log"
    logdir.mkdir(exist_ok=True)
    proc = run([binary("osprey"), "-r", str(d), "-S", str(rules), "-l", str(logdir), *args])
    return proc, alerts(logdir)


def tree(tmp_path):
    """Names sort in the reverse of the capture times; one file two levels down; a hidden file
    and a hidden directory that are left out."""
    d = tmp_path / "caps"
    capture(d / "zz-first.pcap", 1, 1_600_000_100.0)
    capture(d / "b" / "deep" / "mm-second.pcap", 2, 1_600_000_200.0)
    capture(d / "a" / "aa-third.pcap", 3, 1_600_000_300.0)
    capture(d / ".hidden.pcap", 4, 1_600_000_000.0)
    capture(d / ".snap" / "old.pcap", 5, 1_600_000_000.0)
    return d


def test_directory_recursive_in_capture_time_order(tmp_path):
    proc, got = osprey_dir(tmp_path, tree(tmp_path))
    # pcap_cnt runs on across the files in the order they were read: by capture time
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in got] == [
        (1, 1), (1, 2), (2, 3), (2, 4), (3, 5), (3, 6)]
    assert "osprey: 6 packets" in proc.stdout


def test_directory_in_capture_time_order_with_workers(tmp_path):
    _, got = osprey_dir(tmp_path, tree(tmp_path), "--runmode", "workers",
                        "--set", "threading.workers=2")
    assert sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in got) == [
        (1, 1), (1, 2), (2, 3), (2, 4), (3, 5), (3, 6)]


def test_delete_when_done(tmp_path):
    d = tree(tmp_path)
    _, got = osprey_dir(tmp_path, d, "--set", "pcap-file.delete-when-done=yes")
    assert sorted({a["alert"]["signature_id"] for a in got}) == [1, 2, 3]
    left = sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())
    assert left == [".hidden.pcap", ".snap/old.pcap"]  # only what was not read stays


def test_not_deleted_by_default(tmp_path):
    d = tree(tmp_path)
    osprey_dir(tmp_path, d)
    assert (d / "zz-first.pcap").exists() and (d / "a" / "aa-third.pcap").exists()


def wait_for(pred, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return False


def test_continuous_watches_until_signalled(tmp_path):
    d = tmp_path / "caps"
    capture(d / "one.pcap", 1, 1_600_000_100.0)
    rules = tmp_path / "t.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "log"
    logdir.mkdir()
    proc = subprocess.Popen(
        [binary("osprey"), "-r", str(d), "-S", str(rules), "-l", str(logdir),
         "--set", "pcap-file.continuous=yes", "--set", "pcap-file.delete-when-done=yes"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, **SAN_ENV))
    try:
        assert wait_for(lambda: {a["alert"]["signature_id"] for a in alerts(logdir)} == {1})
        assert wait_for(lambda: not (d / "one.pcap").exists())
        # a new capture appears (written under a hidden name, then renamed: never read half)
        tmp = capture(d / "sub" / ".two.part", 2, 1_600_000_200.0)
        tmp.rename(d / "sub" / "two.pcap")
        assert wait_for(lambda: {a["alert"]["signature_id"] for a in alerts(logdir)} == {1, 2})
        assert proc.poll() is None  # still watching
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "osprey: 4 packets" in out
    assert not (d / "sub" / "two.pcap").exists()


def test_continuous_needs_single_runmode(tmp_path):
    d = tree(tmp_path)
    rules = tmp_path / "t.rules"
    rules.write_text(RULES)
    proc = run([binary("osprey"), "-r", str(d), "-S", str(rules), "-l", str(tmp_path),
                "--runmode", "workers", "--set", "pcap-file.continuous=yes"], check=False)
    assert proc.returncode == 1
    assert "pcap-file.continuous runs with --runmode single" in proc.stderr


def test_suricata_option_names(tmp_path):
    """--pcap-file-delete is Suricata's command-line name of pcap-file.delete-when-done."""
    d = tree(tmp_path)
    _, got = osprey_dir(tmp_path, d, "--pcap-file-delete")
    assert sorted({a["alert"]["signature_id"] for a in got}) == [1, 2, 3]
    assert not (d / "zz-first.pcap").exists() and (d / ".hidden.pcap").exists()


def test_delete_non_alerts(tmp_path):
    """Suricata 8's delete-when-done: non-alerts — a run with an alert keeps its captures, one
    without deletes them."""
    d = tree(tmp_path)
    _, got = osprey_dir(tmp_path, d, "--set", "pcap-file.delete-when-done=non-alerts")
    assert got and (d / "zz-first.pcap").exists() and (d / "a" / "aa-third.pcap").exists()
    quiet = tmp_path / "quiet"
    pkts = [IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1, dport=53) / Raw(b"nothing")]
    write_pcap(quiet / "q.pcap" if quiet.mkdir() is None else None, stamp(pkts))
    _, got = osprey_dir(tmp_path, quiet, "--set", "pcap-file.delete-when-done=non-alerts")
    assert got == [] and not (quiet / "q.pcap").exists()
