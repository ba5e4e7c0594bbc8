"""Live IDS: `osprey -i IFACE` (AF_PACKET) and `--pcap-live IFACE` on traffic crossing a veth.

Topology: a veth pair; one end stays here (scapy sends on it, like a mirror port that
delivers both directions of every conversation), the other end is in a namespace where
osprey captures. SIGTERM right after the traffic: the drain must still see every frame."""
import re
import signal
import subprocess
import time

import pytest
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.sendrecv import sendp

from conftest import binary, run
from netns_helpers import (netns, no_offloads, osprey_running, read_eve, sh, summary_counts,
                           unique, veth_pair)
from detect_helpers import Conv
from reload_helpers import ctl, wait_for

RULES = """\
alert tcp any any -> any 80 (msg:"live GET secret"; flow:to_server,established; content:"GET /secret"; sid:1001;)
alert udp any any -> any 53 (msg:"live evil dns"; content:"evil"; sid:1002;)
alert icmp any any -> any any (msg:"live ping"; itype:8; sid:1003;)
"""
MAC_C, MAC_S = "02:00:00:00:00:0c", "02:00:00:00:00:05"


def eth(client):
    return (lambda p: Ether(src=MAC_C, dst=MAC_S) / p) if client else None


def frames(nconv=1):
    """nconv HTTP conversations (GET /secret on the first, /public on the others), DNS with
    and without "evil", two pings; both directions of each, in order."""
    out = []
    for i in range(nconv):
        c = Conv(src="10.7.0.1", dst="10.7.0.2", sport=40000 + i, dport=80,
                 wrap=lambda p: Ether(src=MAC_C, dst=MAC_S) / p if p[IP].src == "10.7.0.1"
                 else Ether(src=MAC_S, dst=MAC_C) / p)
        c.handshake().send(True, b"GET /secret HTTP/1.0\r\n\r\n" if i == 0
                           else b"GET /public HTTP/1.0\r\n\r\n")
        c.send(False, b"HTTP/1.0 200 OK\r\n\r\nhello")
        c.close()
        out += c.pkts
    e = Ether(src=MAC_C, dst=MAC_S)
    out.append(e / IP(src="10.7.0.1", dst="10.7.0.53") / UDP(sport=5353, dport=53) / Raw(b"\x12\x34evil.example"))
    out.append(e / IP(src="10.7.0.1", dst="10.7.0.53") / UDP(sport=5354, dport=53) / Raw(b"\x12\x35good.example"))
    for seq in (1, 2):
        out.append(e / IP(src="10.7.0.1", dst="10.7.0.9") / ICMP(type=8, id=7, seq=seq))
    return out


def sids(alerts):
    return sorted(a["alert"]["signature_id"] for a in alerts)


@pytest.fixture
def mirror():
    """(namespace, capture interface there, sending interface here)."""
    with netns() as ns, veth_pair(None, ns) as (here, there):
        no_offloads(here)
        yield ns, there, here


def run_ids(tmp_path, ns, args, send, settle=0.0):
    rules = tmp_path / "live.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    with osprey_running([*args, "-S", rules, "-l", logdir], ns=ns) as o:
        send()
        time.sleep(settle)
        out, err = o.stop()
    return out, read_eve(logdir)


@pytest.mark.parametrize("mode", ["-i", "--pcap-live"])
def test_live_alerts_exact(tmp_path, mirror, mode):
    ns, there, here = mirror
    pkts = frames()
    out, alerts = run_ids(tmp_path, ns, [mode, there, "--set", "af-packet.threads=1"],
                          lambda: sendp(pkts, iface=here, verbose=False))
    assert sids(alerts) == [1001, 1002, 1003, 1003], out
    get = next(a for a in alerts if a["alert"]["signature_id"] == 1001)
    assert (get["src_ip"], get["src_port"], get["dest_ip"], get["dest_port"]) == \
        ("10.7.0.1", 40000, "10.7.0.2", 80)
    assert get["alert"]["action"] == "allowed"  # IDS: nothing is blocked
    dns = next(a for a in alerts if a["alert"]["signature_id"] == 1002)
    assert dns["src_port"] == 5353
    # every frame was read (SIGTERM came right after the traffic: the drain read the rings)
    line = next(l for l in out.splitlines() if l.startswith("osprey: live stopped"))
    assert f" {len(pkts)} packets" in line, out


def test_live_two_workers_keep_flows_whole(tmp_path, mirror):
    """Two workers in one fanout group: each conversation's two directions meet on one worker
    (a stream rule needs the handshake from both sides), and the flows are spread."""
    ns, there, here = mirror
    rules_extra = 'alert tcp any any -> any 80 (msg:"every GET"; flow:to_server,established; content:"GET /"; sid:2001;)\n'
    pkts = frames(nconv=16)
    rules = tmp_path / "w.rules"
    rules.write_text(RULES + rules_extra)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    with osprey_running(["-i", there, "--set", "af-packet.threads=2", "-S", rules, "-l", logdir],
                        ns=ns) as o:
        sendp(pkts, iface=here, verbose=False)
        out, err = o.stop()
    alerts = read_eve(logdir)
    assert sids(alerts).count(2001) == 16, out
    assert sids(alerts).count(1001) == 1
    per_worker = [summary_counts(out, f"osprey: worker {i}:")[0] for i in (0, 1)]
    assert sum(per_worker) == len(pkts) and min(per_worker) > 0, out


def test_live_real_tcp_between_namespaces(tmp_path):
    """A real HTTP exchange (python http.server, curl) between two namespaces; osprey captures
    on the server's interface, which carries both directions."""
    rules = tmp_path / "r.rules"
    rules.write_text(
        'alert tcp any any -> any 8080 (msg:"req"; flow:to_server,established; content:"GET /osprey-probe"; sid:3001;)\n'
        'alert tcp any 8080 -> any any (msg:"resp"; flow:to_client,established; content:"404"; sid:3002;)\n')
    logdir = tmp_path / "logs"
    logdir.mkdir()
    with netns() as na, netns() as nb, veth_pair(na, nb) as (a, b):
        for ifc, ns, addr in ((a, na, "10.8.0.1/24"), (b, nb, "10.8.0.2/24")):
            no_offloads(ifc, ns)
            sh("ip", "addr", "add", addr, "dev", ifc, ns=ns)
        server = subprocess.Popen(["ip", "netns", "exec", nb, "python3", "-m", "http.server",
                                   "8080", "--bind", "10.8.0.2", "--directory", str(tmp_path)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with osprey_running(["-i", b, "-S", rules, "-l", logdir], ns=nb) as o:
                body = None
                for _ in range(50):  # the server may take a moment to listen
                    r = sh("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                           "http://10.8.0.2:8080/osprey-probe", ns=na, check=False)
                    if r.returncode == 0:
                        body = r.stdout
                        break
                    time.sleep(0.1)
                assert body == "404"
                out, err = o.stop()
        finally:
            server.kill()
            server.wait(timeout=10)
    alerts = read_eve(logdir)
    # "404" is in the status line and in the error page: once per packet that holds it (the
    # server's writes decide whether that is one segment or two), and never twice for one
    got = sids(alerts)
    assert got.count(3001) == 1 and got.count(3002) in (1, 2) and set(got) == {3001, 3002}, out
    pkts_3002 = [a["pcap_cnt"] for a in alerts if a["alert"]["signature_id"] == 3002]
    assert len(set(pkts_3002)) == len(pkts_3002), alerts
    assert alerts[0]["dest_ip"] == "10.8.0.2" or alerts[1]["dest_ip"] == "10.8.0.2"


def test_live_bad_interface_is_a_clear_error(tmp_path):
    name = unique("nox")
    rules = tmp_path / "r.rules"
    rules.write_text(RULES)
    p = run([binary("osprey"), "-i", name, "-S", str(rules), "-l", str(tmp_path)], check=False)
    assert p.returncode == 1
    assert f"{name}: no such interface" in p.stderr
    p = run([binary("osprey"), "--af-packet-inline", "eth0:eth0"], check=False)
    assert p.returncode == 2 and "two different interfaces" in p.stderr


def test_live_stats_and_kernel_drops(tmp_path, mirror):
    """EVE stats carry the capture counters; a ring too small for a burst (osprey stopped
    while it arrives) is counted as kernel drops, and osprey carries on."""
    ns, there, here = mirror
    rules = tmp_path / "r.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    burst = [Ether(src=MAC_C, dst=MAC_S) / IP(src="10.7.0.1", dst="10.7.0.2") /
             UDP(sport=1000 + i, dport=2000) / Raw(b"z" * 64) for i in range(600)]
    sock = tmp_path / "ctl.sock"
    with osprey_running(["-i", there, "-S", rules, "-l", logdir, "--set", "af-packet.threads=1",
                         "--set", "af-packet.block-size=4kb", "--set", "af-packet.blocks=2",
                         "--set", "unix-command.enabled=yes",
                         "--set", f"unix-command.filename={sock}"], ns=ns) as o:
        o.pause()
        try:
            sendp(burst, iface=here, verbose=False)
        finally:
            o.signal(signal.SIGCONT)

        def drained():  # what the ring kept is read (the kernel's counters: once a second)
            t = ctl(sock, "stats")[0]["message"]["total"]
            return (t["kernel_packets"] == len(burst) and
                    t["packets"] + t["kernel_drops"] == t["kernel_packets"])
        wait_for(drained, 30, "osprey to read what its ring kept of the burst")
        pkts = frames()
        sendp(pkts, iface=here, verbose=False)  # after the overload: inspected as usual
        out, err = o.stop()
    assert sids(read_eve(logdir)) == [1001, 1002, 1003, 1003], (out, read_eve(logdir))
    line = next(l for l in out.splitlines() if l.startswith("osprey: live stopped"))
    read = int(re.search(r"s: (\d+) packets", line).group(1))
    stats = read_eve(logdir, "stats")[-1]["stats"]
    kp, kd = stats["capture"]["kernel_packets"], stats["capture"]["kernel_drops"]
    assert kp == len(burst) + len(pkts)  # everything the socket saw, dropped or not
    assert kd > 0 and read + kd == kp, out  # what it read + what the full ring lost
    assert stats["decoder"]["pkts"] == read
    assert f"kernel: {kp} packets, {kd} drops" in line


def test_live_two_interfaces(tmp_path):
    """-i twice: each interface has its own fanout group; traffic on either is inspected."""
    rules = tmp_path / "r.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    with netns() as ns, veth_pair(None, ns) as (h1, t1), veth_pair(None, ns) as (h2, t2):
        dns = [Ether(src=MAC_C, dst=MAC_S) / IP(src="10.7.0.1", dst="10.7.0.53") /
               UDP(sport=6000 + i, dport=53) / Raw(b"evil") for i in range(2)]
        with osprey_running(["-i", t1, "-i", t2, "--set", "af-packet.threads=2", "-S", rules,
                             "-l", logdir], ns=ns) as o:
            assert f"live on {t1} {t2} (af-packet, 2 workers)" in o.stdout_lines[-1]
            sendp(dns[0], iface=h1, verbose=False)
            sendp(dns[1], iface=h2, verbose=False)
            out, err = o.stop()
    assert sorted(a["src_port"] for a in read_eve(logdir)) == [6000, 6001], out


def test_live_link_down_and_up_again(tmp_path, mirror):
    """The capture interface going down is reported once and capture resumes when it is up."""
    ns, there, here = mirror
    rules = tmp_path / "r.rules"
    rules.write_text(RULES)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    dns = [Ether(src=MAC_C, dst=MAC_S) / IP(src="10.7.0.1", dst="10.7.0.53") /
           UDP(sport=6100 + i, dport=53) / Raw(b"evil") for i in range(2)]
    with osprey_running(["-i", there, "--set", "af-packet.threads=2", "-S", rules, "-l", logdir],
                        ns=ns) as o:
        sendp(dns[0], iface=here, verbose=False)
        sh("ip", "link", "set", there, "down", ns=ns)
        time.sleep(0.5)
        sh("ip", "link", "set", there, "up", ns=ns)
        time.sleep(0.5)
        sendp(dns[1], iface=here, verbose=False)
        out, err = o.stop()
    assert sorted(a["src_port"] for a in read_eve(logdir)) == [6100, 6101], (out, err)
    assert err.count(f"osprey: {there}: Network is down (capture goes on when it is back)") == 1, err


BURST_SENDER = """
import socket
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.bind(("127.0.0.1", 7777))  # a listener: no ICMP port-unreachable frames in the capture
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(200):
    tx.sendto(b"BURST%03d" % i + b"." * 60000, ("127.0.0.1", 7777))
"""


@pytest.mark.parametrize("buffer_size, lossless", [(None, True), ("2mb", False)])
def test_pcap_live_buffer_holds_a_burst_on_loopback(tmp_path, buffer_size, lossless):
    """--pcap-live on lo (64 KiB MTU) while osprey is stopped: 200 datagrams of 60 KB (12 MB)
    arrive at once. The default pcap.buffer-size (32mb) keeps every one (kernel drops 0,
    200 alerts); libpcap's own 2 MiB holds ~32 such frames, the rest are kernel drops. (The
    kernel counts each frame twice on lo: its outgoing copy, which libpcap skips, too.)"""
    rules = tmp_path / "b.rules"
    rules.write_text('alert udp any any -> any 7777 (msg:"burst"; content:"BURST"; '
                     'depth:5; sid:7001;)\n')
    logdir = tmp_path / "logs"
    logdir.mkdir()
    extra = ["--set", f"pcap.buffer-size={buffer_size}"] if buffer_size else []
    with netns() as ns:  # -k none: loopback leaves UDP checksums to be filled in (partial)
        with osprey_running(["--pcap-live", "lo", "-k", "none", "-S", rules, "-l", logdir,
                             *extra],
                            ns=ns) as o:
            o.pause()
            try:
                sh("python3", "-c", BURST_SENDER, ns=ns)
            finally:
                o.signal(signal.SIGCONT)
            time.sleep(1.5)  # the kernel's counters are read once a second
            out, err = o.stop()
    line = next(l for l in out.splitlines() if l.startswith("osprey: live stopped"))
    read = int(re.search(r"s: (\d+) packets", line).group(1))
    drops = int(re.search(r"kernel: \d+ packets, (\d+) drops", line).group(1))
    alerts = read_eve(logdir)
    if lossless:
        assert read == 200 and drops == 0, line
        assert len(alerts) == 200 and {a["alert"]["signature_id"] for a in alerts} == {7001}
    else:
        assert drops > 0 and read < 200 and len(alerts) == read, line


def test_pcap_live_bad_capture_sizes_are_clear_errors(tmp_path):
    """pcap.snaplen outside 64..262144 is refused by the configuration; a buffer over 2 GiB
    by the capture, naming the interface."""
    rules = tmp_path / "r.rules"
    rules.write_text(RULES)
    p = run([binary("osprey"), "--pcap-live", "lo", "-S", rules, "--set", "pcap.snaplen=10"],
            check=False)
    assert p.returncode != 0 and "pcap.snaplen" in p.stderr, p.stderr
    with netns() as ns:
        p = sh(binary("osprey"), "--pcap-live", "lo", "-S", rules, "--set",
               "pcap.buffer-size=3gb", "-l", tmp_path, ns=ns, check=False)
    assert p.returncode == 1, p.stderr
    assert "cannot capture: lo: snaplen 65535 (64..262144) or buffer size" in p.stderr, p.stderr
