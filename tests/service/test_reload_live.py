"""Rule reload under live traffic (`osprey -i` on a veth): frames keep arriving while the new
rules compile (a few thousand rules, so it takes a while) and while the workers switch; no
frame is lost, the old rules fire on every frame, and once a worker runs the new rules it
keeps them (the frames the new rule matches form an unbroken tail of the traffic)."""
import re
import socket
import threading
import time

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from netns_helpers import netns, no_offloads, osprey_running, read_eve, sh, summary_counts, veth_pair
from reload_helpers import ctl, wait_for

N = 3000
FILLER = "".join(f'alert udp any any -> any any (msg:"f{i}"; content:"zq{i:05d}x"; '
                 f'sid:{100000 + i}; rev:1;)\n' for i in range(3000))
OLD = 'alert udp any any -> any any (msg:"A"; content:"AAAA"; sid:1; rev:1;)\n'
NEW = OLD + 'alert udp any any -> any any (msg:"B"; content:"BBBB"; sid:2; rev:1;)\n'


def frame(i):
    """Frame i: its own flow (source port 10000 + i), A on even i, B on odd i."""
    return bytes(Ether(src="02:00:00:00:00:0c", dst="02:00:00:00:00:05") /
                 IP(src="10.9.0.1", dst="10.9.0.2") / UDP(sport=10000 + i, dport=7777) /
                 (b"AAAA" if i % 2 == 0 else b"BBBB"))


@pytest.fixture
def mirror():
    with netns() as ns, veth_pair(None, ns) as (here, there):
        no_offloads(here)
        yield ns, there, here


@pytest.mark.parametrize("threads", [1, 2])
def test_reload_under_live_traffic_loses_nothing(tmp_path, mirror, threads):
    ns, there, here = mirror
    rules = tmp_path / "live.rules"
    rules.write_text(FILLER + OLD)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    sock = tmp_path / "ctl.sock"
    frames = [frame(i) for i in range(N)]
    answer = {}
    with osprey_running(["-i", there, "--set", f"af-packet.threads={threads}", "-S", rules,
                         "-l", logdir, "--set", "unix-command.enabled=yes",
                         "--set", f"unix-command.filename={sock}"], ns=ns) as o:
        tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        tx.bind((here, 0))
        reloader = None
        for i, f in enumerate(frames):
            tx.send(f)
            if i == N // 4:  # the new rules compile while the rest streams in
                rules.write_text(FILLER + NEW)
                reloader = threading.Thread(
                    target=lambda: answer.update(ctl(sock, "reload-rules", timeout=300)[0]))
                reloader.start()
            time.sleep(0.0005)
        tx.close()
        reloader.join(timeout=300)
        assert answer.get("return") == "OK", answer
        try:
            wait_for(lambda: ctl(sock, "stats")[0]["message"]["total"]["packets"] >= N, 30,
                     "every frame to be read")
        except BaseException:
            # tell a frame osprey lost from one the veth never delivered (a starved softirq
            # drops on a loaded machine before any socket sees the frame)
            rx = sh("cat", f"/sys/class/net/{there}/statistics/rx_packets", ns=ns).stdout
            drops = sh("cat", f"/sys/class/net/{there}/statistics/rx_dropped", ns=ns).stdout
            pytest.fail(f"{there} received {rx.strip()} of {N} frames ({drops.strip()} "
                        f"dropped); osprey: {ctl(sock, 'stats')[0]['message']['workers']}")
        st = ctl(sock, "stats")[0]["message"]
        out, err = o.stop()
    assert st["reload"]["reloads"] == 1
    line = next(l for l in out.splitlines() if l.startswith("osprey: live stopped"))
    assert f" {N} packets" in line and "0 drops" in line, out
    alerts = read_eve(logdir)
    a = sorted(x["src_port"] - 10000 for x in alerts if x["alert"]["signature_id"] == 1)
    b = sorted(x["src_port"] - 10000 for x in alerts if x["alert"]["signature_id"] == 2)
    assert a == list(range(0, N, 2))          # the old rule on every frame, reload or not
    assert b and b[0] > N // 4                # nothing before the reload was asked for
    if threads == 1:
        assert b == list(range(b[0], N, 2))   # from the switch on, every B frame
    else:
        # each worker switches at its first frame after the new rules are published: a B frame
        # the other worker handled just before its own switch may lack the alert, nothing later
        missed = sorted(set(range(b[0], N, 2)) - set(b))
        assert not missed or missed[-1] < b[0] + 200, (b[0], missed)
    assert re.search(r"every worker runs the new rules \(the slowest switch held its "
                     r"packets [\d.]+ ms\); old rules freed", err), err
