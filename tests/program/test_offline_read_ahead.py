"""`pcap-file.read-ahead` (stack/io/pcap_file_ahead.c): a capture file read on a thread of its
own gives exactly the alerts, packet numbers and summary of one read in turn — across many
read-ahead slots (one frame larger than a slot's usual room among them), from a FIFO (read in
turn), and for a capture cut in the middle of a record (its frames, then the read error)."""
import json
import os
import subprocess
import threading

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
