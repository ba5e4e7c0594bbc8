"""libmon's example applications (stack/examples) on scapy-built conversations."""
import re

from scapy.all import IP, TCP, Ether

from conftest import binary, run, stamp, write_pcap

C, S = "10.0.0.1", "10.0.0.2"


def seg(src, dst, sport, dport, flags, seq, ack, data=b""):
    return Ether() / IP(src=src, dst=dst) / TCP(sport=sport, dport=dport, flags=flags, seq=seq, ack=ack) / data


def conversation(client_data, server_data=b"", sport=40000, close=True):
    """Handshake, the client's segments [(offset, bytes)], the server's reply, FIN both ways."""
    pkts = [seg(C, S, sport, 80, "S", 100, 0), seg(S, C, 80, sport, "SA", 900, 101),
            seg(C, S, sport, 80, "A", 101, 901)]
    end = 0
    for off, data in client_data:
        pkts.append(seg(C, S, sport, 80, "PA", 101 + off, 901, data))
        end = max(end, off + len(data))
    if server_data:
        pkts.append(seg(S, C, 80, sport, "PA", 901, 101 + end, server_data))
    srv_end = 901 + len(server_data)
    if close:
        pkts += [seg(C, S, sport, 80, "FA", 101 + end, srv_end), seg(S, C, 80, sport, "FA", srv_end, 102 + end),
                 seg(C, S, sport, 80, "A", 102 + end, srv_end + 1)]
    return pkts


def run_example(tmp_path, name, pkts, *args):
    pcap = write_pcap(tmp_path / f"{name}.pcap", stamp(pkts))
    return run([binary(name), *args, str(pcap)]).stdout


def test_midstat_reports_both_final_states(tmp_path):
    out = run_example(tmp_path, "midstat", conversation([(0, b"GET / HTTP/1.0\r\n\r\n")], b"HTTP/1.0 200 OK\r\n\r\n"))
    lines = [l for l in out.splitlines() if "->" in l]
    assert len(lines) == 1
    line = lines[0]
    assert f"{C}:40000 -> {S}:80" in line
    assert re.search(r"client TIME_WAIT\s+server CLOSED", line), line
    assert "pkts 5/3" in line
    assert "connections: 1 started, 1 ended" in out


def test_mabacus_flags_only_fake_retransmissions(tmp_path):
    fake = conversation([(0, b"hello world"), (0, b"HELLO WORLD")], sport=40001)
    real = conversation([(0, b"hello world"), (0, b"hello world")], sport=40002)
    out = run_example(tmp_path, "mabacus", fake + real)
    flagged = [l for l in out.splitlines() if l.startswith("flow ")]
    assert len(flagged) == 1, out
    assert "1 fake retransmission(s)" in flagged[0]
    assert "billed 11 bytes to server" in flagged[0]
    assert "flows with fake retransmissions: 1" in out


def test_strsearch_finds_across_segments_and_reordering(tmp_path):
    # "attack" split in three segments that arrive out of order
    data = [(4, b"tt"), (0, b"xx a"), (9, b" here"), (6, b"ack")]  # "xx attack here"
    out = run_example(tmp_path, "strsearch", conversation(data, b"no match"), "attack")
    assert "flow 1 toserver offset 3" in out
    assert "1 match(es)" in out


def test_strsearch_usage_error():
    assert run([binary("strsearch")], check=False).returncode == 2
