"""osprey --dpdk: inline IPS on DPDK ports (engine/run/run_dpdk.c, stack/io/dpdk.c).

The EAL runs without hugepages or NICs: --no-huge --no-pci and virtual devices. net_pcap
ports read a scapy-built capture and write what osprey forwards into another, which is
compared packet by packet; net_af_packet ports sit on veths between two network namespaces,
so real TCP connections cross osprey. Each test has its own --file-prefix and names.
"""
import os
import shutil
import subprocess
import time

import pytest
from scapy.all import ARP, IP, TCP, UDP, Ether, Raw, rdpcap, wrpcap

from conftest import SAN_ENV, binary
from netns_helpers import (netns, no_offloads, osprey_running, read_eve, sh, summary_counts,
                           unique, veth_pair)


CLIENT, SERVER = "10.0.0.1", "10.0.0.2"
CMAC, SMAC = "02:00:00:00:00:01", "02:00:00:00:00:02"


def dpdk_args(tmp_path, eal, interfaces, rules=(), extra=()):
    """osprey --dpdk arguments: rules in tmp_path/test.rules, logs in tmp_path/logs."""
    logs = tmp_path / "logs"
    logs.mkdir(exist_ok=True)
    rules_file = tmp_path / "test.rules"
    rules_file.write_text("\n".join(rules) + "\n")
    return ["--dpdk", "-S", rules_file, "-l", logs, "-k", "none",
            "--set", "dpdk.eal-args=[" + ",".join(eal) + "]",
            "--set", "dpdk.interfaces=[" + ",".join(interfaces) + "]", *extra]


def verdicts(alerts):
    return [(a["alert"]["signature_id"], a["alert"]["action"]) for a in alerts]


def no_sanitizer_report(stderr):
    assert "runtime error:" not in stderr and "Sanitizer" not in stderr, stderr


_prefixes = []


def new_prefix(tag):
    """A --file-prefix of its own; its runtime directory (the EAL leaves it) goes afterwards."""
    name = unique(tag)
    _prefixes.append(name)
    return name


@pytest.fixture(autouse=True)
def remove_dpdk_runtime_dirs():
    yield
    while _prefixes:
        shutil.rmtree(f"/var/run/dpdk/{_prefixes.pop()}", ignore_errors=True)


def base_eal(prefix):
    return ["--no-huge", "--no-pci", "-m", "256", f"--file-prefix={prefix}", "-l", "0",
            "--no-telemetry", "--log-level=lib.eal:error"]


def tcp_conversation(sport, payloads, dport=80):
    """A whole TCP conversation: handshake, each (direction, bytes) segment ACKed, FINs."""
    c = Ether(src=CMAC, dst=SMAC) / IP(src=CLIENT, dst=SERVER)
    s = Ether(src=SMAC, dst=CMAC) / IP(src=SERVER, dst=CLIENT)
    cseq, sseq = 1000, 5000
    pkts = [c / TCP(sport=sport, dport=dport, flags="S", seq=cseq),
            s / TCP(sport=dport, dport=sport, flags="SA", seq=sseq, ack=cseq + 1)]
    cseq += 1
    sseq += 1
    pkts.append(c / TCP(sport=sport, dport=dport, flags="A", seq=cseq, ack=sseq))
    for to_server, data in payloads:
        if to_server:
            pkts.append(c / TCP(sport=sport, dport=dport, flags="PA", seq=cseq, ack=sseq) / data)
            cseq += len(data)
            pkts.append(s / TCP(sport=dport, dport=sport, flags="A", seq=sseq, ack=cseq))
        else:
            pkts.append(s / TCP(sport=dport, dport=sport, flags="PA", seq=sseq, ack=cseq) / data)
            sseq += len(data)
            pkts.append(c / TCP(sport=sport, dport=dport, flags="A", seq=cseq, ack=sseq))
    pkts += [c / TCP(sport=sport, dport=dport, flags="FA", seq=cseq, ack=sseq),
             s / TCP(sport=dport, dport=sport, flags="FA", seq=sseq, ack=cseq + 1),
             c / TCP(sport=sport, dport=dport, flags="A", seq=cseq + 1, ack=sseq + 1)]
    return pkts


def interleave(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        out += a[i:i + 1] + b[i:i + 1]
    return out


DROP_RULE = 'drop tcp any any -> any 80 (msg:"evil payload"; content:"EVIL"; sid:1001; rev:1;)'


def pcap_bridge(tmp_path, packets, rules, extra=(), config_file=False,
                interfaces=("net_pcap0:net_pcap1",)):
    """Feed packets into net_pcap0 of a net_pcap0:net_pcap1 bridge; returns (frames out of
    net_pcap1, frames out of net_pcap0, osprey's stdout, alerts). config_file: the dpdk:
    section in a YAML file (one list item per EAL argument) instead of --set."""
    inp, empty = tmp_path / "in.pcap", tmp_path / "empty.pcap"
    out1, out0 = tmp_path / "out1.pcap", tmp_path / "out0.pcap"
    wrpcap(str(inp), packets)
    wrpcap(str(empty), [])
    eal = base_eal(new_prefix("osp")) + [
        f"--vdev=net_pcap0,rx_pcap={inp},tx_pcap={out0}",
        f"--vdev=net_pcap1,rx_pcap={empty},tx_pcap={out1}"]
    args = dpdk_args(tmp_path, eal, list(interfaces), rules, extra)
    if config_file:
        cfg = tmp_path / "osprey.yaml"
        cfg.write_text("dpdk:\n  eal-args:\n" + "".join(f'    - "{a}"\n' for a in eal) +
                       "  interfaces: [net_pcap0:net_pcap1]\n")
        args = args[:args.index("--set")] + ["-c", cfg, *extra]
    # SIGTERM right after ready: the drain reads the capture to its end before stopping
    with osprey_running(args) as o:
        out, err = o.stop()
    no_sanitizer_report(err)
    return ([bytes(p) for p in rdpcap(str(out1))], [bytes(p) for p in rdpcap(str(out0))], out,
            read_eve(tmp_path / "logs"))


def test_pcap_bridge_drops_exactly_the_matching_flow(tmp_path):
    good = tcp_conversation(40000, [(True, b"GET / HTTP/1.0\r\n\r\n"),
                                    (False, b"HTTP/1.0 200 OK\r\n\r\nhi")])
    bad = tcp_conversation(40001, [(True, b"hello "), (True, b"this is EVIL stuff"),
                                   (False, b"reply"), (True, b"more")])
    other = [Ether(src=CMAC, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc=CLIENT, pdst=SERVER),
             Ether(src=CMAC, dst=SMAC) / IP(src=CLIENT, dst=SERVER) / UDP(sport=5353, dport=53) /
             b"q"]
    packets = other + interleave(good, bad)
    evil = next(i for i, p in enumerate(bad) if Raw in p and b"EVIL" in p[Raw].load)
    blocked = {bytes(p) for p in bad[evil:]}  # the matching packet and the rest of its flow
    expected = [bytes(p) for p in packets if bytes(p) not in blocked]

    forwarded, back, out, alerts = pcap_bridge(tmp_path, packets, [DROP_RULE])
    assert forwarded == expected  # byte-identical, in order, nothing else
    assert back == []
    assert summary_counts(out, "osprey: dpdk:")[:3] == [len(packets), len(expected), len(blocked)]
    assert [a["alert"]["signature_id"] for a in alerts] == [1001]
    assert alerts[0]["src_port"] == 40001
    assert alerts[0]["alert"]["action"] == "blocked"  # enforced, not just seen


def test_pcap_bridge_without_rules_forwards_everything(tmp_path):
    packets = tcp_conversation(40000, [(True, b"x" * 1400), (False, b"y" * 900)])
    packets.append(Ether(src=CMAC, dst=SMAC) / IP(src=CLIENT, dst=SERVER, flags="MF", frag=0) /
                   UDP(sport=1, dport=2) / (b"f" * 64))  # a fragment defrag keeps: forwarded
    forwarded, back, out, _ = pcap_bridge(tmp_path, packets, [], config_file=True)
    assert forwarded == [bytes(p) for p in packets]
    assert back == []
    assert summary_counts(out, "osprey: dpdk:")[:3] == [len(packets), len(packets), 0]


def test_pcap_tap_mode_forwards_matches_and_alerts(tmp_path):
    bad = tcp_conversation(40001, [(True, b"EVIL"), (False, b"ok")])
    forwarded, _, _, alerts = pcap_bridge(tmp_path, bad, [DROP_RULE],
                                          extra=("--set", "dpdk.copy-mode=tap"))
    assert forwarded == [bytes(p) for p in bad]
    assert verdicts(alerts) == [(1001, "allowed")]


@pytest.mark.parametrize("interfaces", [("net_pcap0:net_pcap1",), ("net_pcap0", "net_pcap1")])
def test_pcap_copy_mode_none_is_a_passive_ids(tmp_path, interfaces):
    bad = tcp_conversation(40001, [(True, b"EVIL"), (False, b"ok")])
    forwarded, back, out, alerts = pcap_bridge(tmp_path, bad, [DROP_RULE],
                                               extra=("--set", "dpdk.copy-mode=none"),
                                               interfaces=interfaces)
    assert forwarded == [] and back == []
    assert summary_counts(out, "osprey: dpdk:")[:3] == [len(bad), 0, 0]
    assert verdicts(alerts) == [(1001, "allowed")]


def test_pcap_rejectboth_sends_rsts_out_of_both_ports(tmp_path):
    good = tcp_conversation(40000, [(True, b"fine"), (False, b"ok")])
    bad = tcp_conversation(40001, [(True, b"hello"), (True, b"REJECTME"), (False, b"late")])
    rule = 'rejectboth tcp any any -> any 80 (msg:"rej"; content:"REJECTME"; sid:1002; rev:1;)'
    packets = interleave(good, bad)
    hit = next(i for i, p in enumerate(bad) if Raw in p and b"REJECTME" in p[Raw].load)
    trigger = bad[hit]
    blocked = {bytes(p) for p in bad[hit:]}
    forwarded, back, out, alerts = pcap_bridge(tmp_path, packets, [rule])
    # towards the server (out of net_pcap1): the other packets in order, then the RST
    assert forwarded[:-1] == [bytes(p) for p in packets if bytes(p) not in blocked]
    to_server = Ether(forwarded[-1])
    assert (to_server[IP].src, to_server[IP].dst, to_server[TCP].sport, to_server[TCP].dport) == \
        (CLIENT, SERVER, 40001, 80)
    assert to_server[TCP].flags.R and to_server[TCP].seq == trigger[TCP].seq
    # towards the client (back out of net_pcap0): only the RST, "from" the server
    assert len(back) == 1
    to_client = Ether(back[0])
    assert (to_client.src, to_client.dst) == (SMAC, CMAC)
    assert (to_client[IP].src, to_client[IP].dst, to_client[TCP].sport, to_client[TCP].dport) == \
        (SERVER, CLIENT, 80, 40001)
    assert to_client[TCP].flags.R and to_client[TCP].seq == trigger[TCP].ack
    assert summary_counts(out, "osprey: dpdk:")[3] == 2
    assert verdicts(alerts) == [(1002, "blocked")]


def run_osprey(args):
    proc = subprocess.run([binary("osprey"), *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, **SAN_ENV))
    no_sanitizer_report(proc.stderr)
    return proc


def test_second_instance_same_prefix_fails_clearly(tmp_path):
    prefix = new_prefix("ospdup")
    empty = tmp_path / "empty.pcap"
    wrpcap(str(empty), [])
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    first_dir.mkdir()
    second_dir.mkdir()

    def args(d):
        eal = base_eal(prefix) + [f"--vdev=net_pcap0,rx_pcap={empty},tx_pcap={d}/o0.pcap",
                                  f"--vdev=net_pcap1,rx_pcap={empty},tx_pcap={d}/o1.pcap"]
        return dpdk_args(d, eal, ["net_pcap0:net_pcap1"])

    with osprey_running(args(first_dir)) as first:
        second = run_osprey(args(second_dir))
        assert second.returncode == 1
        assert (f"another osprey (or DPDK process, pid {first.proc.pid}) is using file prefix "
                f"{prefix}") in second.stderr
        assert "osprey: ready" not in second.stdout
        preflight = run_osprey(["--preflight", *args(second_dir)])
        assert preflight.returncode == 1
        assert (f"FIX: DPDK file prefix {prefix} is in use by pid {first.proc.pid}"
                in preflight.stdout)
        assert first.proc.poll() is None  # the first one goes on
        first.stop()
    preflight = run_osprey(["--preflight", *args(second_dir)])
    assert f"ok: DPDK file prefix {prefix} is free" in preflight.stdout
    assert preflight.returncode == 0, preflight.stdout


def test_preflight_checks_devices_and_ports(tmp_path):
    capture = tmp_path / "in.pcap"
    wrpcap(str(capture), [])
    prefix = new_prefix("osppf")
    eal = base_eal(prefix) + [f"--vdev=net_pcap0,rx_pcap={capture},tx_pcap={tmp_path}/o.pcap",
                              f"--vdev=net_pcap1,rx_pcap={tmp_path}/missing.pcap",
                              "--vdev=net_af_packet0,iface=lo",
                              "--vdev=net_af_packet1,iface=osprnoif0"]
    proc = run_osprey(["--preflight", *dpdk_args(tmp_path, eal, [
        "net_pcap0:net_af_packet0", "net_pcap1:net_nope3"])])
    lines = proc.stdout.splitlines()
    for want in [f"ok: DPDK file prefix {prefix} is free",
                 f"ok: net_pcap0: capture {capture} is readable",
                 f"FIX: net_pcap1: cannot read the capture {tmp_path}/missing.pcap (rx_pcap=)",
                 "ok: net_af_packet0: interface lo exists",
                 "FIX: net_af_packet1: no interface osprnoif0 (ip link show; fix iface= in "
                 "dpdk.eal-args)",
                 "ok: dpdk.interfaces: net_pcap0:net_af_packet0: the EAL arguments declare its "
                 "ports",
                 "FIX: dpdk.interfaces: net_pcap1:net_nope3: a port that no --vdev or -a in "
                 "dpdk.eal-args declares",
                 "ok: hugepages not needed (--no-huge)"]:
        assert want in lines, proc.stdout
    assert proc.returncode == 1


def test_bad_port_name_is_a_clear_error(tmp_path):
    empty = tmp_path / "empty.pcap"
    wrpcap(str(empty), [])
    eal = base_eal(new_prefix("ospbad")) + [
        f"--vdev=net_pcap0,rx_pcap={empty},tx_pcap={tmp_path}/o.pcap"]
    proc = run_osprey(dpdk_args(tmp_path, eal, ["net_pcap0:net_nope7"]))
    assert proc.returncode == 1
    assert ("dpdk.interfaces: 'net_pcap0:net_nope7' is not a pair A:B of two DPDK ports: "
            "no DPDK port 'net_nope7'") in proc.stderr


# ---- net_af_packet ports on veths: real TCP connections between two namespaces ----

SERVER_PY = r"""
import socket, sys, threading
log = open(sys.argv[1], "a", buffering=1)
def serve(conn, port):
    try:
        while True:
            data = conn.recv(65536)
            if not data:
                log.write(f"{port} closed\n")
                break
            conn.sendall(data)
    except ConnectionResetError:
        log.write(f"{port} reset\n")
    conn.close()
def listen(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(8)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, port), daemon=True).start()
for p in (8080, 9090, 7070):
    threading.Thread(target=listen, args=(p,), daemon=True).start()
log.write("listening\n")
threading.Event().wait()
"""

CLIENT_PY = r"""
import os, socket, sys
server = sys.argv[1]
def echo(port, chunks, timeout=5):
    s = socket.create_connection((server, port), timeout=timeout)
    got = []
    try:
        for c in chunks:
            s.sendall(c)
            buf = b""
            while len(buf) < len(c):
                d = s.recv(65536)
                if not d:
                    return "closed", got
                buf += d
            got.append(buf)
        return "ok", got
    except socket.timeout:
        return "timeout", got
    except ConnectionResetError:
        return "reset", got
    finally:
        s.close()
big = os.urandom(300000)
st, got = echo(8080, [big[i:i + 30000] for i in range(0, len(big), 30000)])
print("big", st, b"".join(got) == big)
st, got = echo(9090, [b"hello", b"this is EVIL", b"again"], timeout=3)
print("evil", st, got)
st, got = echo(8080, [b"after"])
print("after", st, got)
st, got = echo(7070, [b"hi", b"REJECTME now"], timeout=5)
print("reject", st, got)
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_af_packet_bridge_between_namespaces(tmp_path, workers):
    """workers=2: two lcores, two queue pairs per port; the kernel's fanout hash is symmetric,
    so both directions of a connection reach the same queue number, hence the same worker."""
    rules = ['drop tcp any any -> any 9090 (msg:"evil"; content:"EVIL"; sid:2001; rev:1;)',
             'rejectboth tcp any any -> any 7070 (msg:"rej"; content:"REJECTME"; sid:2002; rev:1;)']
    (tmp_path / "server.py").write_text(SERVER_PY)
    (tmp_path / "client.py").write_text(CLIENT_PY)
    server_log = tmp_path / "server.log"
    with netns() as ns_a, netns() as ns_b, netns() as ns_m, \
            veth_pair(ns_a, ns_m) as (a0, m0), veth_pair(ns_b, ns_m) as (b0, m1):
        for ifc, ns in ((a0, ns_a), (m0, ns_m), (b0, ns_b), (m1, ns_m)):
            no_offloads(ifc, ns)
        sh("ip", "addr", "add", "10.77.0.1/24", "dev", a0, ns=ns_a)
        sh("ip", "addr", "add", "10.77.0.2/24", "dev", b0, ns=ns_b)
        qp = f",qpairs={workers}" if workers > 1 else ""
        eal = [a if a != "0" else f"0-{workers - 1}" for a in base_eal(new_prefix("ospaf"))]
        eal += [f"--vdev=net_af_packet0,iface={m0}{qp}", f"--vdev=net_af_packet1,iface={m1}{qp}"]
        server = subprocess.Popen(["ip", "netns", "exec", ns_b, "python3",
                                   str(tmp_path / "server.py"), str(server_log)])
        try:
            args = dpdk_args(tmp_path, eal, ["net_af_packet0:net_af_packet1"], rules,
                             ["--set", f"dpdk.threads={workers}"])
            with osprey_running(args, ns=ns_m) as o:
                deadline = time.time() + 20
                while "listening" not in (server_log.read_text() if server_log.exists() else ""):
                    assert time.time() < deadline, "echo server did not start"
                    time.sleep(0.05)
                client = sh("timeout", "120", "python3", tmp_path / "client.py", "10.77.0.2",
                            ns=ns_a)
                time.sleep(0.5)  # the server logs the reset
                out, err = o.stop()
        finally:
            server.kill()
            server.wait(timeout=10)
    lines = dict(line.split(" ", 1) for line in client.stdout.splitlines())
    assert lines["big"] == "ok True"              # 300 kB echoed intact both ways
    assert lines["evil"] == "timeout [b'hello']"   # the flow is blocked from EVIL on
    assert lines["after"] == "ok [b'after']"       # the other flows still cross
    assert lines["reject"] == "reset [b'hi']"      # the client got a RST ...
    assert "7070 reset" in server_log.read_text()  # ... and so did the server
    alerts = read_eve(tmp_path / "logs")
    assert sorted({a["alert"]["signature_id"] for a in alerts}) == [2001, 2002]
    assert all(a["dest_port"] in (9090, 7070) for a in alerts)
    counts = summary_counts(out, "osprey: dpdk:")
    assert counts[3] == 2  # two RSTs injected: one to each end
    assert f"{workers} workers" in out


def test_more_workers_than_lcores_is_a_clear_error(tmp_path):
    empty = tmp_path / "empty.pcap"
    wrpcap(str(empty), [])
    eal = base_eal(new_prefix("osplc")) + [
        f"--vdev=net_pcap0,rx_pcap={empty},tx_pcap={tmp_path}/o0.pcap",
        f"--vdev=net_pcap1,rx_pcap={empty},tx_pcap={tmp_path}/o1.pcap"]
    proc = run_osprey(dpdk_args(tmp_path, eal, ["net_pcap0:net_pcap1"],
                                extra=["--set", "dpdk.threads=2"]))
    assert proc.returncode == 1
    assert ("osprey: dpdk.threads is 2 but the EAL runs 1 lcores: give it more with -l in "
            "dpdk.eal-args") in proc.stderr
