"""EVE to syslog (outputs.eve-log.filetype: syslog): one datagram per record to the local
syslog socket (outputs.eve-log.syslog.socket; here one the test binds), byte for byte
"<PRI>Mmm dd hh:mm:ss IDENTITY[PID]: RECORD" as syslog(3) writes, PRI = facility*8 + level."""
import os
import socket
import subprocess
import time

from conftest import SAN_ENV, binary, stamp, write_pcap
from detect_helpers import http_conv
from outputs_helpers import osprey_out, rule

GET = rule('content:"GET";', sid=1)
TRAFFIC = http_conv() + http_conv(sport=40001)


def run_to_syslog(tmp_path, *sets):
    """Run osprey with EVE to a datagram socket bound here; (datagrams, pid, stamps, proc)."""
    path = tmp_path / "log.sock"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(str(path))
    s.settimeout(10)
    pcap, rf, logdir = tmp_path / "t.pcap", tmp_path / "t.rules", tmp_path / "log"
    write_pcap(pcap, stamp(TRAFFIC))
    rf.write_text(GET + "\n")
    logdir.mkdir()
    args = ["outputs.eve-log.filetype=syslog", f"outputs.eve-log.syslog.socket={path}", *sets]
    t0 = time.time()
    proc = subprocess.Popen([binary("osprey"), "-r", str(pcap), "-S", str(rf), "-l", str(logdir),
                             *[a for x in args for a in ("--set", x)]],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **SAN_ENV))
    out, err = proc.communicate(timeout=60)
    t1 = time.time()
    assert proc.returncode == 0, err
    grams = []
    while not grams or b'"event_type":"stats"' not in grams[-1]:  # the last record of a run
        grams.append(s.recv(1 << 20))
    s.close()
    # the stamps syslog(3) would have written during the run (local time, "%b %e %T")
    stamps = {time.strftime("%b %e %T", time.localtime(t)).encode()
              for t in range(int(t0), int(t1) + 2)}
    return grams, proc.pid, stamps, out


def check(grams, want, pri, ident, pid, stamps):
    assert len(grams) == len(want) + 1  # and the stats record at exit, last
    for g, line in zip(grams, want + [None]):
        head = b"<%d>" % pri
        assert g.startswith(head)
        stamp_, rest = g[len(head):len(head) + 15], g[len(head) + 15:]
        assert stamp_ in stamps
        tag = b" %s[%d]: " % (ident.encode(), pid)
        assert rest.startswith(tag)
        body = rest[len(tag):]
        if line is None:
            assert b'"event_type":"stats"' in body and not body.endswith(b"\n")
        else:
            assert body == line.encode()  # the EVE line, without its newline


def test_eve_to_syslog_exact_bytes(tmp_path):
    want = [l for l in osprey_out(tmp_path, TRAFFIC, [GET], name="file").eve_text.splitlines()
            if '"event_type":"stats"' not in l]
    assert len(want) == 4
    grams, pid, stamps, out = run_to_syslog(
        tmp_path, "outputs.eve-log.identity=osprey-test", "outputs.eve-log.facility=local3",
        "outputs.eve-log.level=Warning")
    check(grams, want, 19 * 8 + 4, "osprey-test", pid, stamps)
    assert "syslog " in out


def test_eve_to_syslog_defaults_suricatas_facility_and_level(tmp_path):
    grams, pid, stamps, _ = run_to_syslog(tmp_path)
    assert grams and all(g.startswith(b"<174>") for g in grams)  # local5 (21) * 8 + info (6)
    assert all(b" osprey[%d]: {" % pid in g for g in grams)


def test_eve_to_syslog_bad_facility_is_a_clear_error(tmp_path):
    out = osprey_out(tmp_path, TRAFFIC, [GET], "--set", "outputs.eve-log.filetype=syslog",
                     "--set", "outputs.eve-log.facility=local9", check=False)
    assert out.proc.returncode == 1
    assert "outputs.eve-log.facility: unknown syslog facility 'local9'" in out.proc.stderr


def test_eve_to_syslog_nobody_listening_counts_the_lost_records(tmp_path):
    out = osprey_out(tmp_path, TRAFFIC, [GET], "--set", "outputs.eve-log.filetype=syslog",
                     "--set", f"outputs.eve-log.syslog.socket={tmp_path / 'none.sock'}",
                     check=False)
    assert out.proc.returncode == 1
    assert "syslog" in out.proc.stderr and "5 records could not be written" in out.proc.stderr
    assert "No such file or directory" in out.proc.stderr
