"""`pcap-file.read-ahead` (stack/io/pcap_file_ahead.c): a capture file read on a thread of its
own gives exactly the alerts, packet numbers and summary of one read in turn — across many
read-ahead slots (one frame larger than a slot's usual room among them), from a FIFO (read in
turn), and for a capture cut in the middle of a record (its frames, then the read error)."""
import glob
import json
import os
import struct
import subprocess
import threading
import time

from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from conftest import SAN_ENV, binary, run, stamp, write_pcap

RULES = "".join(
    f'alert udp any any -> any any (msg:"m{i}"; content:"payload-{i}-"; sid:{i}; rev:1;)\n'
    for i in range(1, 6))
N = 6000  # about 6 slots of 1024 frames


def capture(path):
    pkts = []
    for k in range(N):
        size = 60000 if k == 2500 else k % 700
        pkts.append(IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1000 + k % 50, dport=53) /
                    Raw(f"payload-{k % 5 + 1}-".encode() + b"x" * size))
    return write_pcap(path, stamp(pkts))


def alerts(logdir):
    return [(r["alert"]["signature_id"], r["pcap_cnt"])
            for r in map(json.loads, (logdir / "eve.json").read_text().splitlines())
            if r["event_type"] == "alert"]


def osprey(tmp_path, name, src, ahead, check=True):
    rules = tmp_path / "t.rules"
    rules.write_text(RULES)
    logdir = tmp_path / name
    logdir.mkdir()
    proc = run([binary("osprey"), "-r", str(src), "-S", str(rules), "-l", str(logdir),
                "--set", f"pcap-file.read-ahead={ahead}"], check=check)
    # the first summary line without its compile time: packets, flows, alerts, rules
    summary = proc.stdout.splitlines()[0].split(" (load+compile")[0] if proc.stdout else ""
    return proc, alerts(logdir), summary


def test_read_ahead_gives_the_same_alerts_and_numbers(tmp_path):
    pcap = capture(tmp_path / "c.pcap")
    _, on, sum_on = osprey(tmp_path, "on", pcap, "yes")
    _, off, sum_off = osprey(tmp_path, "off", pcap, "no")
    assert on == [(k % 5 + 1, k + 1) for k in range(N)]
    assert on == off
    assert sum_on.startswith(f"osprey: {N} packets, ") and sum_on == sum_off


def test_a_fifo_is_read_in_turn(tmp_path):
    pcap = capture(tmp_path / "c.pcap")
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as w:
            w.write(pcap.read_bytes())
    t = threading.Thread(target=feed)
    t.start()
    _, got, _ = osprey(tmp_path, "fifo", fifo, "yes")
    t.join()
    assert got == [(k % 5 + 1, k + 1) for k in range(N)]


def test_a_cut_capture_gives_its_frames_then_the_error(tmp_path):
    pcap = capture(tmp_path / "c.pcap")
    data = pcap.read_bytes()
    cut = tmp_path / "cut.pcap"
    cut.write_bytes(data[:len(data) * 2 // 3 + 7])  # inside a record
    p_on, on, _ = osprey(tmp_path, "on", cut, "yes", check=False)
    p_off, off, _ = osprey(tmp_path, "off", cut, "no", check=False)
    assert 3000 < len(on) < N and on == off
    assert on == [(k % 5 + 1, k + 1) for k in range(len(on))]
    assert p_on.returncode == p_off.returncode != 0
    assert "read error" in p_on.stderr and "read error" in p_off.stderr


def read_ahead_seen(tmp_path, name, pcap, *args):
    """Run osprey on pcap and look at its threads until it exits: was one reading ahead?"""
    logdir = tmp_path / name
    logdir.mkdir()
    rules = tmp_path / "t.rules"
    rules.write_text(RULES)
    proc = subprocess.Popen([binary("osprey"), "-r", str(pcap), "-S", str(rules), "-l",
                             str(logdir), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=SAN_ENV)
    seen, looks = False, 0
    while proc.poll() is None:
        for comm in glob.glob(f"/proc/{proc.pid}/task/*/comm"):
            try:
                seen |= open(comm).read().strip() == "mon-read-ahead"
            except OSError:
                pass  # (the thread or the process ended meanwhile)
        looks += 1
        time.sleep(0.005)
    assert proc.wait() == 0, proc.stderr.read()
    return seen, looks


def test_workers_read_without_a_read_ahead_thread(tmp_path):
    # the workers' reader is a thread of its own already: a second one copying every frame
    # only took CPU from the workers. The same look finds the thread in single mode.
    pcap = tmp_path / "big.pcap"
    frames = [bytes(IP(src=f"10.1.{k}.1", dst="10.0.0.2") / UDP(sport=1000, dport=53) /
                    Raw(b"x" * 1200)) for k in range(200)]
    with open(pcap, "wb") as f:  # 60,000 raw-IP frames (linktype 101), written as bytes
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 101))
        for k in range(60000):
            fr = frames[k % 200]
            f.write(struct.pack("<IIII", 1_600_000_000 + k // 1000, k % 1000 * 1000,
                                len(fr), len(fr)) + fr)
    single, looks = read_ahead_seen(tmp_path, "single", pcap, "--runmode", "single")
    assert single and looks > 3
    workers, looks = read_ahead_seen(tmp_path, "workers", pcap, "--runmode", "workers",
                                     "--set", "threading.workers=2")
    assert not workers and looks > 3


def test_a_regular_file_is_not_synced_after_every_read(tmp_path):
    """The outputs batch whole records into page-bounded writes; from a FIFO every read batch
    of 32 frames is written out before the next read (it may wait), from a regular file only
    every 0.1 s and at its end. One alert per read batch: 100 alerts, 16 pages of eve.json
    (fast.log and unified2 off), are about 30 writes; a sync after each read would be 100.
    Counted with the kernel's write-syscall count of the process (/proc/PID/io), taken while
    a continuous run waits for the next file of its directory."""
    d = tmp_path / "dir"
    d.mkdir()
    pkts = [IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1000, dport=53) /
            Raw((b"payload-1-" if k % 32 == 0 else b"quiet-") + b"x" * 40) for k in range(3200)]
    write_pcap(d / "a.pcap", stamp(pkts))
    rules = tmp_path / "t.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "log"
    logdir.mkdir()
    env = dict(os.environ, **SAN_ENV)
    proc = subprocess.Popen([binary("osprey"), "-r", str(d), "--pcap-file-continuous", "-S",
                             str(rules), "-l", str(logdir), "--set", "outputs.fast.enabled=no",
                             "--set", "outputs.unified2-alert.enabled=no"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(alerts(logdir) if (
                logdir / "eve.json").exists() else []) < 100:
            time.sleep(0.2)
        time.sleep(0.5)
        writes = int(dict(line.split(": ") for line in
                          open(f"/proc/{proc.pid}/io").read().splitlines())["syscw"])
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert len(alerts(logdir)) == 100
    assert writes < 60, writes
