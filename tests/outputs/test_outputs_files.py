"""Where records go: fast.log's format, Unix sockets, SIGHUP reopen without losing or
splitting a record, periodic stats, an output directory that is not writable and a full disk."""
import json
import os
import signal
import socket
import subprocess
import threading
import time

import pytest
from scapy.layers.inet import IP, ICMP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from conftest import ROOT, eve_ip, stamp
from detect_helpers import http_conv, udp
from outputs_helpers import Feeder, osprey_out, rule, u2json

GET = rule('content:"GET";', sid=1)


def test_fast_log_is_suricatas_format(tmp_path):
    rules = [
        'alert tcp any any -> any any (msg:"web GET"; content:"GET"; '
        'classtype:web-application-attack; sid:1000; rev:3;)',
        'alert icmp any any -> any any (msg:"ping"; itype:8; priority:2; sid:1001; rev:1;)',
        'alert udp any any -> any any (msg:"v6 udp"; content:"v6"; sid:1002; rev:1;)',
    ]
    pk = [Ether() / p for p in http_conv()]
    pk.append(Ether() / IP(src="10.0.0.1", dst="10.0.0.4") / ICMP(type=8, code=0))
    pk.append(Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2")
              / UDP(sport=5000, dport=53) / Raw(b"v6"))
    out = osprey_out(tmp_path, pk, rules,
                     "--set", "classification-file=" + str(ROOT / "etc" / "classification.config"))
    # the GET (packet 4, .003) is an HTTP request: Suricata's IDS mode parses it at the
    # server's ACK and inspects it with the client's next packet (packet 7, .006)
    assert out.fast == [
        "09/13/2020-12:26:40.006000  [**] [1:1000:3] web GET [**] "
        "[Classification: Web Application Attack] [Priority: 1] "
        "{TCP} 10.0.0.1:40000 -> 10.0.0.2:80",
        "09/13/2020-12:26:40.010000  [**] [1:1001:1] ping [**] [Classification: (null)] "
        "[Priority: 2] {ICMP} 10.0.0.1:8 -> 10.0.0.4:0",
        "09/13/2020-12:26:40.011000  [**] [1:1002:1] v6 udp [**] [Classification: (null)] "
        f"[Priority: 3] {{UDP}} {eve_ip('2001:db8::1')}:5000 -> {eve_ip('2001:db8::2')}:53",
    ]
    # the same alerts as EVE, in the same order
    assert [a["alert"]["signature_id"] for a in out.of("alert")] == [1000, 1001, 1002]


def test_fast_log_append_and_off(tmp_path):
    osprey_out(tmp_path, http_conv(), [GET])
    out = osprey_out(tmp_path, http_conv(), [GET])  # same log dir: fast.log appends
    assert len(out.fast) == 2 and len(out.of("alert")) == 1  # eve.json starts afresh
    out = osprey_out(tmp_path, http_conv(), [GET], "--set", "outputs.fast.append=no")
    assert len(out.fast) == 1
    out = osprey_out(tmp_path, http_conv(), [GET], "--set", "outputs.fast.enabled=no", name="n")
    assert not (out.logdir / "fast.log").exists() and len(out.of("alert")) == 1


def sock_reader(path, kind):
    """Listen on a Unix socket; returns (thread, chunks) — chunks receives what arrives."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM if kind == "dgram" else socket.SOCK_STREAM)
    s.bind(str(path))
    chunks = []
    if kind == "dgram":
        s.settimeout(10)

        def loop():
            try:
                while True:
                    d = s.recv(65536)
                    chunks.append(d)
                    if b'"event_type":"stats"' in d:  # the last record of a run
                        break
            finally:
                s.close()
    else:
        s.listen(1)
        s.settimeout(10)

        def loop():
            conn, _ = s.accept()
            with conn:
                while True:
                    d = conn.recv(65536)
                    if not d:
                        break
                    chunks.append(d)
            s.close()
    t = threading.Thread(target=loop, daemon=True)
    t.start()
    return t, chunks


@pytest.mark.parametrize("kind", ["stream", "dgram"])
def test_eve_to_unix_socket(tmp_path, kind):
    sock = tmp_path / f"eve.{kind}.sock"
    t, chunks = sock_reader(sock, kind)
    out = osprey_out(tmp_path, http_conv() + http_conv(sport=40001), [GET],
                     "--set", f"outputs.eve-log.filetype=unix_{kind}",
                     "--set", f"outputs.eve-log.filename={sock}")
    t.join(15)
    if kind == "dgram":  # one datagram per record, each a whole line
        recs = [json.loads(c) for c in chunks]
        assert all(c.endswith(b"\n") and c.count(b"\n") == 1 for c in chunks)
    else:
        data = b"".join(chunks)
        assert data.endswith(b"\n")
        recs = [json.loads(l) for l in data.splitlines()]
    assert [r["event_type"] for r in recs] == ["alert", "alert", "flow", "flow", "stats"]
    assert not (out.logdir / "eve.json").exists()


def test_eve_socket_nobody_listens_is_a_clear_error(tmp_path):
    out = osprey_out(tmp_path, http_conv(), [GET], "--set", "outputs.eve-log.filetype=unix_stream",
                     "--set", f"outputs.eve-log.filename={tmp_path / 'none.sock'}", check=False)
    assert out.proc.returncode == 1
    assert "none.sock" in out.proc.stderr and "No such file or directory" in out.proc.stderr


def lines(path):
    return path.read_text().splitlines() if path.exists() else []


def alerting(n, base):
    """n UDP packets that each alert (MON_IO_BATCH is 32: 32 packets fill one batch)."""
    return [udp(b"GET %d" % (base + i), sport=10000 + base + i) for i in range(n)]


def test_sighup_reopens_every_output_without_losing_a_record(tmp_path):
    f = Feeder(tmp_path, [rule('content:"GET";', sid=1, proto="udp")],
               "--set", "outputs.eve-log.types=[alert]")
    eve, fast = f.logdir / "eve.json", f.logdir / "fast.log"
    f.send(alerting(32, 0))
    f.wait_for(lambda: len(lines(eve)) == 32 and len(lines(fast)) == 32, "the first alerts")
    os.rename(eve, f.logdir / "eve.json.1")  # what logrotate does, then it sends SIGHUP
    os.rename(fast, f.logdir / "fast.log.1")
    u2_before = set(os.listdir(f.logdir))
    f.proc.send_signal(signal.SIGHUP)
    time.sleep(0.2)
    # the signal is acted on between batches: these quiet packets make one go by
    f.send([udp(b"quiet", sport=9) for _ in range(32)])
    f.wait_for(lambda: eve.exists() and fast.exists(), "the reopened files")
    f.send(alerting(40, 100))
    f.finish()
    old = [json.loads(l) for l in lines(f.logdir / "eve.json.1")]
    new = [json.loads(l) for l in lines(eve)]
    assert [a["src_port"] for a in old] == list(range(10000, 10032))
    assert [a["src_port"] for a in new] == list(range(10100, 10140))
    assert len(lines(f.logdir / "fast.log.1")) == 32 and len(lines(fast)) == 40
    # unified2 starts a new timestamped file on reopen; both are read whole by idstools
    u2 = sorted(p for p in os.listdir(f.logdir) if p.startswith("unified2.alert."))
    assert len(u2) == 2 and set(u2) - u2_before
    events = [r for r in u2json([str(f.logdir / p) for p in u2]) if r["type"] == "event"]
    assert len(events) == 72


def test_periodic_stats_records(tmp_path):
    f = Feeder(tmp_path, [GET], "--set", "stats.interval=1",
               "--set", "outputs.eve-log.types=[stats]")
    eve = f.logdir / "eve.json"

    def pkts():
        return [json.loads(l)["stats"]["decoder"]["pkts"] for l in lines(eve)]

    f.send([udp(b"a", sport=1 + i) for i in range(32)])
    time.sleep(1.3)
    f.send([udp(b"b", sport=100 + i) for i in range(32)])  # the batch after the interval
    f.wait_for(lambda: len(pkts()) >= 1, "a periodic stats record while the input is open")
    time.sleep(1.3)
    f.send([udp(b"c", sport=200 + i) for i in range(32)])
    f.wait_for(lambda: pkts() and pkts()[-1] == 96, "a periodic record counting all 96")
    f.finish()
    recs = [json.loads(l) for l in lines(eve)]
    got = pkts()
    # periodic ones as the input went on, then the one at exit with the totals
    assert len(recs) >= 3 and got == sorted(got) and got[0] >= 32 and got[-2:] == [96, 96]
    assert recs[-1]["stats"]["flow"]["total"] == 96
    assert [r["stats"]["uptime"] for r in recs] == sorted(r["stats"]["uptime"] for r in recs)
    assert recs[-1]["stats"]["uptime"] >= 2


def test_unwritable_output_directory_is_a_clear_error(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(ro)], check=True)
    try:
        out = osprey_out(tmp_path, http_conv(), [GET], "-l", str(ro), check=False)
        assert out.proc.returncode == 1
        assert f"{ro}/eve.json: Read-only file system" in out.proc.stderr
        assert os.listdir(ro) == []
        # eve-log off: the next output to open is the one named
        out = osprey_out(tmp_path, http_conv(), [GET], "-l", str(ro), "--set",
                         "outputs.eve-log.enabled=no", check=False)
        assert out.proc.returncode == 1
        assert f"{ro}/fast.log: Read-only file system" in out.proc.stderr
    finally:
        subprocess.run(["umount", str(ro)], check=True)


def test_disk_full_loses_whole_records_only(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(small)], check=True)
    try:
        pk = []
        for i in range(150):
            pk += http_conv(sport=20000 + i)
        out = osprey_out(tmp_path, pk, [GET], "-l", str(small), check=False)
        # not a crash: a clear message and exit status 1, since records were lost
        assert out.proc.returncode == 1, out.proc.stderr
        assert "records could not be written" in out.proc.stderr
        assert "No space left on device" in out.proc.stderr
        text = (small / "eve.json").read_text()
        assert text.endswith("\n")
        recs = [json.loads(l) for l in text.splitlines()]  # every line a whole record
        assert recs and len(recs) < 150 * 2 + 1
        for line in (small / "fast.log").read_text().splitlines():
            assert line.endswith(":80") and "[1:1:1]" in line
        # the unified2 file holds whole event+packet pairs only
            u2 = [str(small / p) for p in os.listdir(small) if p.startswith("unified2.alert.")]
        recs2 = u2json(u2)
        assert len(recs2) % 2 == 0 and [r["type"] for r in recs2[:2]] == ["event", "packet"]
    finally:
        subprocess.run(["umount", str(small)], check=True)
