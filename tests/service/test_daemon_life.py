"""Daemon life: -D detaches once set up and writes the pid file, logs go to the configured
file, a second instance with the same pid file refuses, SIGTERM drains the packets in hand,
ends every flow, removes the pid file and exits 0; SIGHUP reopens the log files; a stale pid
file is replaced."""
import json
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import binary, run
from reload_helpers import BATCH, FifoOsprey, gone, rule, stream, udp_frames, wait_for  # noqa: F401 (stream: fixture)

A, B = b"..AAAA..", b"..BBBB.."






def test_daemon_pid_file_log_file_and_sigterm(stream, tmp_path):
    pidfile = tmp_path / "osprey.pid"
    o = stream(rule(1, "AAAA") + "\n", "--pidfile", str(pidfile),
               "--set", "logging.outputs.file.enabled=yes",
               "--set", "logging.default-log-level=info", daemon=True)
    rc, err = o.wait_parent()  # the starting process returns once the daemon runs
    assert rc == 0, err
    pid = int(pidfile.read_text())
    o.daemon_pid = pid
    assert pid != o.proc.pid and not gone(pid)
    log = o.logdir / "osprey.log"
    assert re.search(rf"<notice> running as a daemon, pid {pid}$", log.read_text(), re.M)

    # a second instance with the same pid file refuses, naming the running one
    other = tmp_path / "other.pcap"
    other.write_bytes(b"")
    second = run([binary("osprey"), "-r", str(other), "-S", str(o.rules), "-l",
                  str(tmp_path), "--pidfile", str(pidfile), "-D"], check=False)
    assert second.returncode == 1
    assert f"pid file {pidfile} names process {pid}, which is running" in second.stderr
    assert int(pidfile.read_text()) == pid

    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    os.kill(pid, signal.SIGTERM)
    # the daemon is blocked reading the pipe: the next batch is processed, then it stops
    o.write(udp_frames(BATCH, [A, B], start_port=30000))
    wait_for(lambda: gone(pid), 60, "the daemon to exit")
    os.close(o.fd)
    o.fd = None
    o.check_sanitizers()
    assert not pidfile.exists()
    assert not o.sock.exists()
    text = log.read_text()
    assert "<notice> stopping: finishing the packets in hand" in text
    assert re.search(r"<info> exiting with status 0$", text, re.M), text
    alerts = o.alerts()
    assert sorted(a["pcap_cnt"] for a in alerts) == list(range(1, 2 * BATCH + 1, 2))
    # every flow ended at the stop and its record was written (64 frames, 64 flows)
    import json
    recs = [json.loads(l) for l in (o.logdir / "eve.json").read_text().splitlines()]
    flows = [r for r in recs if r["event_type"] == "flow"]
    assert len(flows) == 2 * BATCH
    assert {r["flow"]["reason"] for r in flows} == {"shutdown"}


def reading_pipe(pid, fifo):
    """True while pid's main thread is blocked in read() on its descriptor of fifo."""
    fds = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(fifo):
                fds.add(int(fd))
        except OSError:
            pass
    call = open(f"/proc/{pid}/syscall").read().split()
    return len(call) > 1 and call[0] == "0" and int(call[1], 16) in fds


def test_sigterm_stops_runmode_workers(stream):
    """--runmode workers looks at the signals between batches as single mode does: SIGTERM
    while the reader waits on the pipe, then one more batch: that batch is processed, every
    flow ends, exit 0 — without the pipe being closed."""
    o = stream(rule(1, "AAAA") + "\n", "--runmode", "workers", "--set", "threading.workers=2")
    o.write(udp_frames(BATCH, [A, B]))
    # the reader hands frames on in batches of 64 per worker, so the control socket cannot
    # tell when these 32 were read: wait until the reader is blocked reading the pipe again
    wait_for(lambda: reading_pipe(o.proc.pid, o.fifo), 60, "the reader to wait on the pipe")
    o.proc.send_signal(signal.SIGTERM)
    o.write(udp_frames(BATCH, [A, B], start_port=30000))
    try:
        o.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("--runmode workers ignored SIGTERM (still reading the pipe)")
    rc, out, err = o.close()
    assert rc == 0, err
    assert "osprey: 64 packets, 64 flows, 32 alerts" in out, out
    assert "osprey: 2 workers" in out
    assert sorted(a["pcap_cnt"] for a in o.alerts()) == list(range(1, 2 * BATCH + 1, 2))


def test_sighup_reopens_log_files(stream, tmp_path):
    o = stream(rule(1, "AAAA") + "\n", "--set", "logging.outputs.file.enabled=yes")
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    log, eve = o.logdir / "osprey.log", o.logdir / "eve.json"
    os.rename(log, o.logdir / "osprey.log.1")   # what logrotate does
    os.rename(eve, o.logdir / "eve.json.1")
    os.kill(o.proc.pid, signal.SIGHUP)
    o.write(udp_frames(BATCH, [A, B], start_port=30000))   # seen after this batch
    o.wait_processed(2 * BATCH)
    o.write(udp_frames(BATCH, [A, B], start_port=40000))
    rc, out, err = o.close()
    assert rc == 0, err
    old = (o.logdir / "osprey.log.1").read_text()
    assert "<notice> SIGHUP: reopening the log files" in old
    assert log.exists()
    assert "<info>" not in old + log.read_text()  # below logging.default-log-level: notice
    assert sorted(a["pcap_cnt"] for a in o.alerts()) == list(range(2 * BATCH + 1, 3 * BATCH + 1, 2))


def test_stale_pid_file_is_replaced_and_removed(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait(timeout=10)
    pidfile = tmp_path / "osprey.pid"
    pidfile.write_text(f"{dead.pid}\n")
    pcap = tmp_path / "t.pcap"
    from reload_helpers import pcap_header, pcap_records
    pcap.write_bytes(pcap_header() + pcap_records(udp_frames(3, [A])))
    rules = tmp_path / "r.rules"
    rules.write_text(rule(1, "AAAA") + "\n")
    p = run([binary("osprey"), "-r", str(pcap), "-S", str(rules), "-l", str(tmp_path),
             "--pidfile", str(pidfile)])
    assert f"pid file {pidfile} named process {dead.pid}, which is gone: replacing it" in p.stderr
    assert "osprey: 3 packets" in p.stdout
    assert not pidfile.exists()


def test_daemon_started_where_the_default_tables_are_missing(tmp_path):
    """-D with no shipped tables: the built-in table paths name nothing, which is
    a warning (as without -D), not an error that stops the rules loading."""
    from reload_helpers import pcap_header, pcap_records
    pcap = tmp_path / "t.pcap"
    pcap.write_bytes(pcap_header() + pcap_records(udp_frames(3, [A])))
    (tmp_path / "r.rules").write_text(rule(1, "AAAA") + "\n")
    pidfile = tmp_path / "osprey.pid"
    (tmp_path / "bin").mkdir()  # a copy of the program with no etc/osprey/ beside it
    shutil.copy2(binary("osprey"), tmp_path / "bin" / "osprey")
    p = run([str(tmp_path / "bin" / "osprey"), "-D", "--pidfile", str(pidfile), "-r", "t.pcap",
             "-S", "r.rules", "-l", "."], cwd=tmp_path)
    assert f"warning: {tmp_path}/bin/../etc/osprey/classification.config: cannot open" in p.stderr
    assert "could not be loaded" not in p.stderr
    wait_for(lambda: not pidfile.exists(), 60, "the daemon to finish the capture")
    recs = [json.loads(l) for l in (tmp_path / "eve.json").read_text().splitlines()]
    assert [r["alert"]["signature_id"] for r in recs if r["event_type"] == "alert"] == [1, 1, 1]


def test_daemon_needs_a_packet_mode(tmp_path):
    p = run([binary("osprey"), "-D", "--dump-config"], check=False)
    assert p.returncode == 2
    assert "-D needs a packet mode" in p.stderr


def test_unwritable_log_file_is_a_clear_error(tmp_path):
    pcap = tmp_path / "t.pcap"
    pcap.write_bytes(b"")
    p = run([binary("osprey"), "-r", str(pcap), "-l", str(tmp_path),
             "--set", "logging.outputs.file.enabled=yes",
             "--set", f"logging.outputs.file.filename={tmp_path}/no/such/dir/o.log"], check=False)
    assert p.returncode == 1
    assert f"logging.outputs.file: {tmp_path}/no/such/dir/o.log: No such file or directory" \
        in p.stderr


def test_daemon_with_relative_paths_reloads_from_its_start_directory(stream, tmp_path):
    """-D leaves its start directory: relative -S/-l/-r/--pidfile and relative paths in the
    configuration still name the same files, at start and on a reload."""
    (tmp_path / "my.classification").write_text("config classification: odd,Odd Traffic,2\n")
    (tmp_path / "etc").mkdir()  # decoys: the defaults are the shipped tables, not cwd etc/
    (tmp_path / "etc" / "reference.config").write_text("")
    (tmp_path / "etc" / "threshold.config").write_text("")
    o = stream(rule(1, "AAAA") + "\n", "--pidfile", "osprey.pid", "--set",
               "classification-file=my.classification", daemon=True, relative=True)
    rc, err = o.wait_parent()
    assert rc == 0, err
    pid = int((tmp_path / "osprey.pid").read_text())
    o.daemon_pid = pid
    assert os.readlink(f"/proc/{pid}/cwd") == "/"
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB")[:-1] + " classtype:odd;)\n")
    os.kill(pid, signal.SIGUSR2)
    wait_for(lambda: o.stats()["reload"]["reloads"] == 1, what="the reload")
    o.write(udp_frames(BATCH, [A, B], start_port=30000))
    o.wait_processed(2 * BATCH)
    os.kill(pid, signal.SIGTERM)
    o.write(udp_frames(BATCH, [b"-"], start_port=40000))
    wait_for(lambda: gone(pid), 60, "the daemon to exit")
    o.check_sanitizers()
    b = [a for a in o.alerts() if a["alert"]["signature_id"] == 2]
    assert [a["pcap_cnt"] for a in b] == list(range(BATCH + 2, 2 * BATCH + 1, 2))
    assert {a["alert"]["category"] for a in b} == {"Odd Traffic"}
    assert not (tmp_path / "osprey.pid").exists()


def test_failed_start_leaves_no_pid_file(tmp_path):
    pidfile = tmp_path / "osprey.pid"
    pcap = tmp_path / "t.pcap"
    pcap.write_bytes(b"")
    p = run([binary("osprey"), "-r", str(pcap), "-S", str(tmp_path / "missing.rules"),
             "-l", str(tmp_path), "--pidfile", str(pidfile), "-D"], check=False)
    assert p.returncode == 1  # the starting command reports the daemon's failure
    assert "missing.rules" in p.stderr
    assert not pidfile.exists()
