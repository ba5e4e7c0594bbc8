"""Inline IPS on AF_PACKET: `osprey --af-packet-inline IF1:IF2`.

Topology: side A (here) — veth — [osprey in a middle namespace, IF1 … IF2] — veth — side B
(here, or a namespace with a real server). Frames are sent on one side and read on the other
with raw sockets (netns_helpers.Wire), so forwarding is checked byte for byte and in order;
each frame of a conversation is sent once the previous one has crossed (or, when it is meant
to be dropped, after a pause), as real endpoints would."""
import hashlib
import os
import signal
import subprocess
import time
from contextlib import ExitStack

import pytest
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import ARP, Dot1Q, Ether
from scapy.packet import Raw

from netns_helpers import netns, no_offloads, osprey_running, read_eve, sh, summary_counts, veth_pair
from detect_helpers import Conv
from inline_helpers import IP_A, IP_B, MAC_A, MAC_B, bridge, converse, wrap


def sids(alerts):
    return sorted(a["alert"]["signature_id"] for a in alerts)


DROP_RULES = 'drop tcp any any -> any 80 (msg:"blocked request"; flow:to_server; content:"BLOCKME"; sid:5001;)\n'


def test_inline_forwards_identical_and_drops_exactly_the_flow(tmp_path):
    good = Conv(src=IP_A, dst=IP_B, sport=40001, dport=80, wrap=wrap).handshake()
    good.send(True, b"GET /fine HTTP/1.0\r\n\r\n").send(False, b"HTTP/1.0 200 OK\r\n\r\n" + bytes(range(256)) * 4)
    good.close()
    bad = Conv(src=IP_A, dst=IP_B, sport=40002, dport=80, wrap=wrap).handshake()
    nbad_ok = len(bad.pkts)  # the handshake crosses
    bad.send(True, b"GET /BLOCKME HTTP/1.0\r\n\r\n")   # request + the server's ACK: dropped
    bad.send(True, b"more")                           # later frames of the flow: dropped
    other = [
        Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / UDP(sport=5000, dport=6000) / Raw(b"udp BLOCKME is not tcp"),
        Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc=IP_A, pdst=IP_B, hwsrc=MAC_A),
        Ether(src=MAC_B, dst=MAC_A) / Dot1Q(vlan=42) / IP(src=IP_B, dst=IP_A) / UDP(sport=6000, dport=5000) / Raw(b"tagged"),
        Ether(src=MAC_A, dst=MAC_B) / IPv6(src="fd00::1", dst="fd00::2") / UDP(sport=1, dport=2) / Raw(b"v6"),
    ]
    frames = good.pkts + other + bad.pkts
    first_bad = len(good.pkts) + len(other) + nbad_ok
    with bridge(tmp_path, DROP_RULES) as (o, wa, wb, logdir):
        converse(wa, wb, frames, expect_drop=lambda i, f: i >= first_bad)
        out, err = o.stop()
    sent_ab = [bytes(f) for f in frames[:first_bad] if f[Ether].src == MAC_A]
    sent_ba = [bytes(f) for f in frames[:first_bad] if f[Ether].src == MAC_B]
    assert wb.frames == sent_ab  # byte-identical, in order, nothing of the blocked tail
    assert wa.frames == sent_ba
    forwarded, dropped, dropped_flow, rejects, fail_open, fail_closed, tx_err = summary_counts(out)
    assert (forwarded, dropped, rejects, tx_err) == (first_bad, len(frames) - first_bad, 0, 0), out
    assert dropped_flow == len(frames) - first_bad - 1  # all but the matching frame
    alerts = read_eve(logdir)
    assert sids(alerts) == [5001]
    assert alerts[0]["alert"]["action"] == "blocked"
    assert alerts[0]["src_port"] == 40002


def test_inline_reject_sends_rst_both_ways_and_icmp_for_udp(tmp_path):
    """rejectboth: a RST to each end; reject (= rejectsrc): an ICMP error to the sender."""
    rules = ('rejectboth tcp any any -> any 80 (msg:"rej tcp"; flow:to_server; content:"REJECTME"; sid:5002;)\n'
             'reject udp any any -> any 5353 (msg:"rej udp"; content:"REJU"; sid:5003;)\n')
    c = Conv(src=IP_A, dst=IP_B, sport=40003, dport=80, wrap=wrap).handshake()
    n_ok = len(c.pkts)
    c.send(True, b"GET /REJECTME HTTP/1.0\r\n\r\n")
    req = c.pkts[n_ok]
    udp = Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B, id=77) / UDP(sport=5555, dport=5353) / Raw(b"REJU!")
    with bridge(tmp_path, rules) as (o, wa, wb, logdir):
        converse(wa, wb, c.pkts[:n_ok + 1], expect_drop=lambda i, f: i >= n_ok)
        na = len(wa.frames)
        wa.send(udp)
        wa.wait(na + 1, timeout=3)  # the ICMP error
        out, err = o.stop()
    to_a = [Ether(f) for f in wa.frames]
    rst_a = [f for f in to_a if TCP in f and f[TCP].flags.R]
    icmp_a = [f for f in to_a if ICMP in f]
    rst_b = [Ether(f) for f in wb.frames if TCP in Ether(f) and Ether(f)[TCP].flags.R]
    assert len(rst_a) == 1 and len(rst_b) == 1 and len(icmp_a) == 1, (to_a, out)
    ra, rb, ic = rst_a[0], rst_b[0], icmp_a[0]
    # towards the client: from the server, seq = what the client expects, MACs swapped
    assert (ra[Ether].src, ra[Ether].dst, ra[IP].src, ra[IP].dst) == (MAC_B, MAC_A, IP_B, IP_A)
    assert (ra[TCP].sport, ra[TCP].dport, ra[TCP].seq) == (80, 40003, req[TCP].ack)
    assert ra[TCP].ack == req[TCP].seq + len(req[Raw].load)
    # towards the server: from the client, seq = the dropped request's seq
    assert (rb[IP].src, rb[IP].dst, rb[TCP].sport, rb[TCP].dport) == (IP_A, IP_B, 40003, 80)
    assert rb[TCP].seq == req[TCP].seq
    for f in (ra, rb):  # valid checksums: scapy recomputes them when the fields are deleted
        again = f.copy()
        del again[IP].chksum, again[TCP].chksum
        assert bytes(Ether(bytes(again))) == bytes(f)
    assert (ic[IP].src, ic[IP].dst, ic[ICMP].type, ic[ICMP].code) == (IP_B, IP_A, 3, 3)
    assert bytes(ic[ICMP].payload)[:28] == bytes(udp[IP])[:28]  # the datagram's header + 8
    forwarded, dropped, _, rejects, _, _, tx_err = summary_counts(out)
    assert (dropped, rejects, tx_err) == (2, 3, 0), out
    assert sids(read_eve(logdir)) == [5002, 5003]


def test_inline_two_workers_flow_directions_meet(tmp_path):
    """The fanout groups of both interfaces map a flow to the same worker: a flowbit set by
    the client's data (read on IF1) is seen by the reply (read on IF2)."""
    rules = ('alert tcp any any -> any 80 (msg:"mark"; flow:to_server; content:"MARK"; flowbits:set,m; flowbits:noalert; sid:6001;)\n'
             'drop tcp any 80 -> any any (msg:"reply to marked"; flow:to_client; content:"REPLY"; flowbits:isset,m; sid:6002;)\n')
    convs = []
    for i in range(12):
        c = Conv(src=IP_A, dst=IP_B, sport=41000 + i * 17, dport=80, wrap=wrap).handshake()
        c.send(True, b"MARK")
        n = len(c.pkts)
        c.send(False, b"REPLY")
        convs.append((c.pkts, n))
    with bridge(tmp_path, rules, "--set", "af-packet.threads=2") as (o, wa, wb, logdir):
        for pkts, n in convs:
            converse(wa, wb, pkts, expect_drop=lambda i, f, n=n: i >= n, pause=0.15)
        out, err = o.stop()
    assert sids(read_eve(logdir)) == [6002] * 12, out
    per_worker = [summary_counts(out, f"osprey: worker {i}:")[0] for i in (0, 1)]
    assert min(per_worker) > 0, out  # both workers had flows


def offloads(iface, ns):
    """ethtool -k of iface: {feature: on?}."""
    out = sh("ethtool", "-k", iface, ns=ns).stdout
    return {l.split(":")[0].strip(): l.split(":")[1].split()[0] == "on"
            for l in out.splitlines()[1:] if ":" in l and l.split(":")[1].split()}


@pytest.mark.parametrize("offl", ["off", "default"])
def test_inline_real_tcp_conversation_intact_while_a_flow_is_blocked(tmp_path, offl):
    """curl in namespace A downloads a file from python's http.server in namespace B through
    osprey: the file arrives whole; a request for /blocked is dropped (and only it).
    offl=default: the veths keep the kernel's offloads, as containers and VMs have them — the
    senders hand over frames with only a partial TCP checksum and 64 KiB TSO super-frames,
    which osprey forwards with their offload metadata for the kernel to complete."""
    payload = os.urandom(300_000)
    (tmp_path / "www").mkdir()
    (tmp_path / "www" / "data.bin").write_bytes(payload)
    (tmp_path / "www" / "blocked").write_bytes(b"secret")
    rules = 'drop tcp any any -> any 8080 (msg:"no blocked"; flow:to_server; content:"GET /blocked"; sid:7001;)\n'
    rf = tmp_path / "r.rules"
    rf.write_text(rules)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    with ExitStack() as st:
        na, nm, nb = (st.enter_context(netns()) for _ in range(3))
        a0, ia = st.enter_context(veth_pair(na, nm))
        ib, b0 = st.enter_context(veth_pair(nm, nb))
        for ifc, ns in ((a0, na), (ia, nm), (ib, nm), (b0, nb)):
            if offl == "off":
                no_offloads(ifc, ns)
            else:  # what the test is about: partial checksums and TSO from both senders
                f = offloads(ifc, ns)
                assert f["tx-checksumming"] and f["tcp-segmentation-offload"], f
        sh("ip", "addr", "add", "10.10.0.1/24", "dev", a0, ns=na)
        sh("ip", "addr", "add", "10.10.0.2/24", "dev", b0, ns=nb)
        server = subprocess.Popen(["ip", "netns", "exec", nb, "python3", "-m", "http.server", "8080",
                                   "--bind", "10.10.0.2", "--directory", str(tmp_path / "www")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        st.callback(lambda: (server.kill(), server.wait(timeout=10)))
        o = st.enter_context(osprey_running(
            ["--af-packet-inline", f"{ia}:{ib}", "-S", rf, "-l", logdir,
             "--set", "af-packet.threads=2",  # offloads off: MTU-sized slots are enough
             "--set", f"af-packet.offload-metadata={'no' if offl == 'off' else 'yes'}"], ns=nm))
        out_file = tmp_path / "got.bin"
        ok = None
        for _ in range(50):
            r = sh("curl", "-s", "--max-time", "10", "-o", out_file, "http://10.10.0.2:8080/data.bin",
                   ns=na, check=False)
            if r.returncode == 0:
                ok = True
                break
            time.sleep(0.1)
        assert ok
        assert hashlib.sha256(out_file.read_bytes()).digest() == hashlib.sha256(payload).digest()
        blocked = sh("curl", "-s", "--max-time", "2", "http://10.10.0.2:8080/blocked", ns=na, check=False)
        assert blocked.returncode == 28 and "secret" not in blocked.stdout  # timed out
        again = sh("curl", "-s", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}",
                   "http://10.10.0.2:8080/data.bin", ns=na, check=False)
        assert again.stdout == "200"  # other flows still pass
        out, err = o.stop()
    alerts = read_eve(logdir)
    assert sids(alerts) == [7001] and alerts[0]["alert"]["action"] == "blocked"
    forwarded, dropped, dropped_flow, rejects, fail_open, fail_closed, tx_err = summary_counts(out)
    assert tx_err == 0, out  # no frame too large for a slot, none the kernel refused


@pytest.mark.parametrize("mode", ["open", "closed"])
def test_inline_fail_mode_when_behind(tmp_path, mode):
    """A worker that falls behind (here: osprey is stopped with SIGSTOP while frames queue in
    its rings) applies inline.fail-mode to frames older than inline.max-delay: open forwards
    them uninspected (even one a drop rule matches), closed drops them."""
    rules = 'drop udp any any -> any 9999 (msg:"udp drop"; content:"DROPME"; sid:8001;)\n'
    frames = [Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / UDP(sport=7000 + i, dport=9999) /
              Raw(b"DROPME" if i == 2 else b"fine") for i in range(5)]
    with bridge(tmp_path, rules, "--set", f"inline.fail-mode={mode}",
                "--set", "inline.max-delay=200") as (o, wa, wb, logdir):
        # inspected normally first: the drop rule works
        wa.send(frames[2])
        # inspected before osprey is stopped: its alert is out (a fixed sleep is not enough
        # on a loaded machine, and read late the frame would meet the fail-mode instead)
        deadline = time.monotonic() + 30
        while not read_eve(logdir) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert wb.frames == []
        o.pause()
        try:
            for f in frames:
                wa.send(f)
            time.sleep(0.6)  # older than max-delay when osprey reads them
        finally:
            o.signal(signal.SIGCONT)
        got = wb.wait(len(frames) if mode == "open" else 1, timeout=2 if mode == "open" else 0.5)
        out, err = o.stop()
    forwarded, dropped, _, _, fail_open, fail_closed, _ = summary_counts(out)
    if mode == "open":
        # order is kept per flow; these five flows may be spread over the workers
        assert sorted(got) == sorted(bytes(f) for f in frames)
        assert (fail_open, fail_closed, dropped) == (5, 0, 1), out
    else:
        assert got == []
        assert (fail_open, fail_closed, dropped) == (0, 5, 1), out
    assert sids(read_eve(logdir)) == [8001]  # uninspected frames raise nothing


@pytest.mark.parametrize("mode", ["open", "closed"])
def test_inline_fail_mode_when_stopping(tmp_path, mode):
    """Frames still in the rings when SIGTERM arrives are not inspected: open forwards them,
    closed drops them. (Which frames a worker read before seeing the signal depends on
    scheduling, so the test checks that every frame is accounted for and that exactly the
    forwarded ones arrived.)"""
    frames = [Ether(src=MAC_A, dst=MAC_B) / IP(src=IP_A, dst=IP_B) / UDP(sport=7100 + i, dport=9998) /
              Raw(b"x" * 10) for i in range(40)]
    with bridge(tmp_path, 'alert udp any any -> any 1 (msg:"none"; sid:8101;)\n',
                "--set", f"inline.fail-mode={mode}") as (o, wa, wb, logdir):
        o.pause()
        for f in frames:
            wa.send(f)
        time.sleep(0.1)
        o.signal(signal.SIGTERM)
        o.signal(signal.SIGCONT)
        out, err = o.stop()
        time.sleep(0.2)
    forwarded, dropped, _, _, fail_open, fail_closed, _ = summary_counts(out)
    assert forwarded + fail_closed == len(frames), out
    assert len(wb.frames) == forwarded
    assert set(wb.frames) <= {bytes(f) for f in frames}
    if mode == "open":
        assert fail_closed == 0 and forwarded == len(frames)
    else:
        assert fail_open == 0


def test_inline_fragments_pass_until_the_datagram_is_judged(tmp_path):
    """Held fragments are forwarded; the fragment that completes a datagram carries the
    datagram's verdict: a dropped datagram loses its last fragment and never reassembles."""
    from scapy.layers.inet import fragment
    rules = 'drop udp any any -> any 7777 (msg:"frag drop"; content:"FRAGBAD"; sid:9001;)\n'
    bad = fragment(IP(src=IP_A, dst=IP_B, id=4242) / UDP(sport=1234, dport=7777) / Raw(b"a" * 100 + b"FRAGBAD" + b"b" * 100), fragsize=64)
    good = fragment(IP(src=IP_A, dst=IP_B, id=4243) / UDP(sport=1235, dport=7777) / Raw(b"c" * 207), fragsize=64)
    bad = [Ether(src=MAC_A, dst=MAC_B) / f for f in bad]
    good = [Ether(src=MAC_A, dst=MAC_B) / f for f in good]
    assert len(bad) == 4
    with bridge(tmp_path, rules, "--set", "af-packet.threads=1") as (o, wa, wb, logdir):
        converse(wa, wb, good + bad, expect_drop=lambda i, f: f is bad[-1])
        out, err = o.stop()
    assert wb.frames == [bytes(f) for f in good + bad[:-1]]
    assert sids(read_eve(logdir)) == [9001]


def test_inline_reject_ipv6(tmp_path):
    """IPv6: rejectsrc on TCP answers the sender with a RST, reject on UDP with an ICMPv6 port
    unreachable quoting the datagram; both with valid checksums."""
    from scapy.layers.inet6 import ICMPv6DestUnreach
    A6, B6 = "fd00::a", "fd00::b"
    rules = ('rejectsrc tcp any any -> any 80 (msg:"rej6 tcp"; content:"NOPE6"; sid:9101;)\n'
             'reject udp any any -> any 53 (msg:"rej6 udp"; content:"NOPE6"; sid:9102;)\n')
    e = Ether(src=MAC_A, dst=MAC_B)
    syn = e / IPv6(src=A6, dst=B6) / TCP(sport=42000, dport=80, flags="S", seq=100)
    synack = Ether(src=MAC_B, dst=MAC_A) / IPv6(src=B6, dst=A6) / TCP(sport=80, dport=42000, flags="SA", seq=900, ack=101)
    ack = e / IPv6(src=A6, dst=B6) / TCP(sport=42000, dport=80, flags="A", seq=101, ack=901)
    data = e / IPv6(src=A6, dst=B6) / TCP(sport=42000, dport=80, flags="PA", seq=101, ack=901) / Raw(b"NOPE6")
    udp = e / IPv6(src=A6, dst=B6) / UDP(sport=5353, dport=53) / Raw(b"NOPE6?")
    with bridge(tmp_path, rules, "--set", "af-packet.threads=1") as (o, wa, wb, logdir):
        converse(wa, wb, [syn, synack, ack, data], expect_drop=lambda i, f: i == 3)
        n = len(wa.frames)
        wa.send(udp)
        wa.wait(n + 1, timeout=3)
        out, err = o.stop()
    back = [Ether(f) for f in wa.frames]
    rst = [f for f in back if TCP in f and f[TCP].flags.R]
    icmp = [f for f in back if ICMPv6DestUnreach in f]
    assert len(rst) == 1 and len(icmp) == 1, back
    r, ic = rst[0], icmp[0]
    assert (r[IPv6].src, r[IPv6].dst, r[TCP].sport, r[TCP].dport, r[TCP].seq, r[TCP].ack) == \
        (B6, A6, 80, 42000, 901, 106)
    assert (ic[IPv6].src, ic[IPv6].dst, ic[ICMPv6DestUnreach].code) == (B6, A6, 4)
    assert bytes(ic[ICMPv6DestUnreach].payload) == bytes(udp[IPv6])
    for f, layer, field in ((r, TCP, "chksum"), (ic, ICMPv6DestUnreach, "cksum")):
        again = f.copy()
        delattr(again[layer], field)  # scapy recomputes it
        assert bytes(Ether(bytes(again))) == bytes(f)
    assert not any(TCP in Ether(f) and Ether(f)[TCP].flags.R for f in wb.frames)  # src only
    assert sids(read_eve(logdir)) == [9101, 9102]
