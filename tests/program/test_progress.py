"""The progress line of `osprey -r` on a terminal: packets, the share of the captures' bytes
read, the rate and the time left — shown on stderr when it is a tty (here a pty), never in a
pipe or a log."""
import os
import pty
import re
import subprocess

from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from conftest import SAN_ENV, binary, stamp, write_pcap

LINE = re.compile(rb"osprey: (\d+) packets, (\d+)% of ([\d.]+) MB, (\d+) packets/s, "
                  rb"(\d+):(\d\d):(\d\d) left \(file (\d+)/(\d+)\)")


def captures(tmp_path):
    (tmp_path / "t.rules").write_text(
        'alert udp any any -> any 9 (msg:"x"; content:"xxxx"; sid:1; rev:1;)\n')
    d = tmp_path / "caps"
    d.mkdir()
    for k in range(2):
        pkts = [IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=2000 + i % 50, dport=9) /
                Raw(b"x" * 200) for i in range(1500)]
        write_pcap(d / f"{k}.pcap", stamp(pkts, start=1_600_000_000.0 + 10 * k))
    return d


def run_on_pty(args):
    """Run with stderr on a pty (stdout piped); what the terminal got, stdout, status."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave,
                            env=dict(os.environ, **SAN_ENV))
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        got += chunk
    out = proc.stdout.read().decode()
    proc.wait(timeout=120)
    os.close(master)
    return got, out, proc.returncode


def test_progress_line_on_a_terminal(tmp_path):
    d = captures(tmp_path)
    total_mb = sum(p.stat().st_size for p in d.iterdir()) / 1e6
    term, out, rc = run_on_pty([binary("osprey"), "-r", str(d), "-l", str(tmp_path), "-S", str(tmp_path / "t.rules")])
    assert rc == 0, term
    lines = LINE.findall(term)
    assert lines, term
    # the first batch is shown at once, the last state (everything read) before the summary
    first, last = lines[0], lines[-1]
    assert int(first[0]) > 0 and first[7:] == (b"1", b"2")
    assert int(last[0]) == 3000 and last[1] == b"100" and last[7:] == (b"2", b"2")
    assert float(last[2]) == round(total_mb, 1)
    assert last[4:7] == (b"0", b"00", b"00")  # nothing left
    assert int(last[3]) > 0
    # percentages never go back, and the line is cleared before the summary on stdout
    pcts = [int(x[1]) for x in lines]
    assert pcts == sorted(pcts)
    assert term.rstrip().endswith(b"\r\x1b[K")
    assert "osprey: 3000 packets" in out


def test_no_progress_line_when_not_a_terminal(tmp_path):
    d = captures(tmp_path)
    proc = subprocess.run([binary("osprey"), "-r", str(d), "-l", str(tmp_path), "-S", str(tmp_path / "t.rules")],
                          capture_output=True, env=dict(os.environ, **SAN_ENV), timeout=120)
    assert proc.returncode == 0
    assert b"packets/s" not in proc.stderr and b"\x1b[K" not in proc.stderr
