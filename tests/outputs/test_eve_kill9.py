"""kill -9 in the middle of a run leaves eve.json with whole lines only: every record reaches
the file in one write(2) (outputs/log_file.c), so a SIGKILL between two writes leaves the
last record whole and none half-written. osprey -r reads the benchmark capture, over and
over, from a FIFO (so the run is surely still going), with a rule that alerts on every packet;
it is killed once eve.json has grown past a mark, at three marks."""
import json
import os
import signal
import subprocess
import threading
import time

import pytest

from conftest import CORPUS, SAN_ENV, binary

CAPTURE = CORPUS / "pcaps" / "benchmark" / "mixed-zeek-chrissanders-merged.pcap"
RULES = 'alert ip any any -> any any (msg:"every packet"; sid:1;)\n'


def feed(fifo, stop):
    """The capture's header once, then its packets again and again until stop is set."""
    data = CAPTURE.read_bytes()
    try:
        with open(fifo, "wb") as f:
            f.write(data)
            while not stop.is_set():
                f.write(data[24:])
    except (BrokenPipeError, OSError):
        pass  # osprey was killed


@pytest.mark.parametrize("mark_mb", [1, 4, 9])
def test_sigkill_mid_run_leaves_whole_eve_lines(tmp_path, mark_mb):
    fifo = tmp_path / "in.pcap"
    os.mkfifo(fifo)
    (tmp_path / "r.rules").write_text(RULES)
    logdir = tmp_path / "log"
    logdir.mkdir()
    eve = logdir / "eve.json"
    stop = threading.Event()
    writer = threading.Thread(target=feed, args=(fifo, stop), daemon=True)
    writer.start()
    proc = subprocess.Popen([binary("osprey"), "-k", "none", "-r", str(fifo), "-S",
                             str(tmp_path / "r.rules"), "-l", str(logdir)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, **SAN_ENV))
    try:
        deadline = time.monotonic() + 120
        while (not eve.exists() or eve.stat().st_size < mark_mb << 20) and \
                time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.002)
        assert proc.poll() is None, "osprey ended before it was killed"
        assert eve.stat().st_size >= mark_mb << 20, "eve.json did not grow"
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        writer.join(timeout=30)
    text = eve.read_bytes()
    assert text.endswith(b"\n"), text[-200:]  # the last record is whole
    lines = text.split(b"\n")[:-1]
    alerts = 0
    for i, line in enumerate(lines):
        rec = json.loads(line)  # fails on a cut record
        alerts += rec["event_type"] == "alert"
    assert alerts > 1000, alerts
