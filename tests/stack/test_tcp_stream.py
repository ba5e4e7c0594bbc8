"""TCP reassembly through osprey-trace --streams: the exact bytes of each direction under
reordering, holes and gaps, retransmissions (same and different bytes), every overlap
policy, buffer outrun, depth, no buffer, memcap, max-fragments, IP fragments and tunnels
feeding TCP, IPv6."""
import random

import pytest
from scapy.all import (GRE, IP, UDP, VXLAN, Dot1Q, Ether, IPv6, IPv6ExtHdrFragment, fragment,
                       fragment6)

from conftest import stamp
from test_tcp_state import Conn, events, run, stream

POLICIES = ["first", "last", "bsd", "linux", "windows", "solaris"]


def data_events(t, name="CONN_NEW_DATA"):
    return [e for e in events(t) if e.endswith(" " + name)]


# ---- order, holes, gaps ------------------------------------------------------------------

def test_out_of_order_and_holes(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"AAAA", off=0)   # 4: in order
    c.c("PA", b"CCCC", off=8)   # 5: a hole before it
    c.c("PA", b"EEEE", off=16)  # 6
    c.c("PA", b"BBBB", off=4)   # 7: fills the first hole
    c.c("PA", b"DDDD", off=12)  # 8: fills the second
    c.close(20, 0)
    t = run(trace, tmp_path, c)
    assert data_events(t) == ["4 server CONN_NEW_DATA", "7 server CONN_NEW_DATA",
                              "8 server CONN_NEW_DATA"]
    assert stream(tmp_path / "s") == b"AAAABBBBCCCCDDDDEEEE"
    assert t.stats["tcp"]["gaps"] == 0


def test_reverse_order_and_shuffle(trace, tmp_path):
    payload = bytes(random.Random(5).randrange(256) for _ in range(3000))
    segs = [(o, payload[o:o + 100]) for o in range(0, 3000, 100)]
    random.Random(7).shuffle(segs)
    c = Conn().handshake()
    for o, d in segs:
        c.c("PA", d, off=o)
    c.close(3000, 0)
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == payload
    assert t.stats["tcp"]["rexmit"] == 0 and t.stats["tcp"]["overlaps"] == 0


def test_gap_acknowledged_data_never_seen(trace, tmp_path):
    """Capture loss: the server acknowledges bytes we never saw. The hole is skipped (ERROR,
    gap) and what follows is delivered."""
    c = Conn().handshake()
    c.c("PA", b"head-", off=0)
    c.c("PA", b"tail", off=10)          # 5: bytes 5..9 were lost by the capture
    c.s("A", off=0, ack=14)             # 6: the server got them
    c.c("PA", b"-more", off=14)         # 7
    c.close(19, 0)
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == b"head-tail-more"
    assert [e for e in events(t) if e.startswith("7 ")] == [
        "7 server CONN_NEW_DATA", "7 server ERROR"]
    assert t.stats["tcp"]["gaps"] == 1


def test_gap_at_reset(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"aa", off=0)
    c.c("PA", b"cc", off=4)
    c.c("RA", off=6)
    t = run(trace, tmp_path, c)
    assert [e for e in events(t) if e.startswith("6 ")] == [
        "6 client TCP_STATE_CHANGE", "6 server TCP_STATE_CHANGE", "6 server CONN_NEW_DATA",
        "6 server ERROR", "6 server CONN_END"]
    assert stream(tmp_path / "s") == b"aacc"


def test_max_fragments(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"b", off=2)
    c.c("PA", b"d", off=4)
    c.c("PA", b"f", off=6)   # 6: a third run: the oldest hole is given up
    c.c("PA", b"c", off=3)   # 7
    t = run(trace, tmp_path, c, "--set", "stream.reassembly.max-fragments=2")
    assert [e for e in events(t) if e[0] in "67"] == [
        "6 server CONN_NEW_DATA", "6 server ERROR", "7 server CONN_NEW_DATA"]
    # the flow ends without a close: "f", held after the hole at 5, is read then
    assert stream(tmp_path / "s") == b"bcdf"


# ---- retransmissions -------------------------------------------------------------------------

def test_retransmissions(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"0123456789", off=0)   # 4
    c.c("PA", b"KLMNO", off=20)       # 5: held out of order
    c.c("PA", b"0123456789", off=0)   # 6: full, same bytes
    c.c("PA", b"2x4", off=2)          # 7: full, different bytes
    c.c("PA", b"89ab", off=8)         # 8: partial, same, with new bytes
    c.c("PA", b"Ab", off=10)          # 9: partial, different
    c.c("PA", b"LM", off=21)          # 10: bytes held out of order
    c.c("PA", b"cd", off=12)          # 11: new
    t = run(trace, tmp_path, c)
    ev = events(t)
    assert [e for e in ev if "REXMIT" in e] == [
        f"{n} server REXMIT" for n in (6, 7, 8, 9, 10)]
    assert [e for e in ev if "NEW_DATA" in e] == [
        "4 server CONN_NEW_DATA", "8 server CONN_NEW_DATA", "11 server CONN_NEW_DATA"]
    tcp = t.stats["tcp"]
    assert tcp["rexmit"] == 5 and tcp["rexmit_diff"] == 2
    # bytes in order are final: the different copies changed nothing; KLMNO, held after the
    # hole at 14, is read when the flow ends without a close
    assert stream(tmp_path / "s") == b"0123456789abcdKLMNO"


def test_rexmit_past_depth_and_without_buffer(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"abcdef", off=0)
    c.c("PA", b"abcdef", off=0)
    t = run(trace, tmp_path, c, "--set", "stream.reassembly.buffer-size=0")
    assert [e for e in events(t) if e.startswith("5 ")] == ["5 server REXMIT"]
    assert stream(tmp_path / "s") is None


# ---- overlap policies --------------------------------------------------------------------------

# The Sturges/Novak pattern (stack/defrag/README.md) 8 bytes up; the first 8 bytes come last,
# so every segment before them is out of order and the receiver's policy decides.
NOVAK = [("A", 0, 24), ("B", 32, 16), ("C", 48, 24), ("D", 80, 8), ("E", 104, 16),
         ("F", 120, 24), ("G", 144, 16), ("H", 160, 16), ("I", 176, 8), ("J", 8, 32),
         ("K", 48, 24), ("L", 72, 24), ("M", 96, 24), ("N", 128, 8), ("O", 152, 8),
         ("P", 160, 8), ("Q", 176, 16)]
NOVAK_TCP = {
    "first":   "AAAJBBCCCLDLMEEFFFGGHHIQ",
    "last":    "AJJJJBKKKLLLMMMFNFGOPHQQ",
    "bsd":     "AAAJJBCCCLLLMMMFFFGGHHIQ",
    "linux":   "AAAJJBCCCLLLMMMFFFGGHHQQ",
    "windows": "AAAJJBCCCLLLMMMFFFGGHHIQ",
    "solaris": "AJJJBBKKKLLLMMMFFFGGHHQQ",
}


@pytest.mark.parametrize("v", [4, 6])
@pytest.mark.parametrize("policy", POLICIES)
def test_overlap_policies(trace, tmp_path, policy, v):
    c = Conn(v=v).handshake()
    for letter, off, n in NOVAK:
        c.c("PA", letter.encode() * n, off=8 + off)
    c.c("PA", b"Z" * 8, off=0)
    c.close(200, 0)
    t = run(trace, tmp_path, c, "--policy", policy)
    want = b"Z" * 8 + b"".join(ch.encode() * 8 for ch in NOVAK_TCP[policy])
    assert stream(tmp_path / "s") == want
    tcp = t.stats["tcp"]
    assert tcp["overlaps"] == 8 and tcp["overlap_diff"] == 8
    assert data_events(t) == [f"{len(NOVAK) + 4} server CONN_NEW_DATA"]


@pytest.mark.parametrize("policy,want", [
    ("bsd", b"__xxxxxxxxyy"),       # same start, longer: the original stays
    ("linux", b"__yyyyyyyyyy"),     # ... the longer new one wins
    ("solaris", b"__yyyyyyyyyy"),
    ("first", b"__xxxxxxxxyy"),
    ("last", b"__yyyyyyyyyy"),
])
def test_overlap_same_start(trace, tmp_path, policy, want):
    c = Conn().handshake()
    c.c("PA", b"x" * 8, off=2)
    c.c("PA", b"y" * 10, off=2)
    c.c("PA", b"__", off=0)
    t = run(trace, tmp_path, c, "--policy", policy)
    assert stream(tmp_path / "s") == want
    assert t.stats["tcp"]["overlap_diff"] == 1


def test_policy_applies_per_receiver(trace, tmp_path):
    """Each direction is reassembled under its receiver's policy; both directions here."""
    c = Conn().handshake()
    c.c("PA", b"x" * 8, off=2)
    c.c("PA", b"y" * 10, off=0)     # starts before: bsd takes it, first does not
    c.s("PA", b"p" * 8, off=2)
    c.s("PA", b"q" * 10, off=0)
    t = run(trace, tmp_path, c, "--policy", "first")
    assert stream(tmp_path / "s") == b"yyxxxxxxxx"
    assert stream(tmp_path / "s", direction="toclient") == b"qqpppppppp"
    (tmp_path / "b").mkdir()
    t = run(trace, tmp_path / "b", c, "--policy", "bsd")
    assert stream(tmp_path / "b" / "s") == b"y" * 10
    assert t.stats["tcp"]["overlaps"] == 2


# ---- buffer limits ------------------------------------------------------------------------------

def test_outrun(trace, tmp_path):
    """A 16-byte buffer and a 40-byte segment: its first bytes are overwritten before anyone
    can read them. ERROR; mon_peek reports the overwrite once and goes on from the oldest
    byte held."""
    data = bytes(range(65, 65 + 50))
    c = Conn().handshake()
    c.c("PA", data[:10], off=0)
    c.c("PA", data[10:50], off=10)
    t = run(trace, tmp_path, c, "--set", "stream.reassembly.buffer-size=16")
    assert [e for e in events(t) if e.startswith("5 ")] == [
        "5 server CONN_NEW_DATA", "5 server ERROR"]
    assert stream(tmp_path / "s") == data[:10] + data[34:50]
    assert "buffer outrun" in t.proc.stderr
    assert t.stats["tcp"]["outruns"] == 1


def test_depth(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"012345", off=0)
    c.c("PA", b"6789ab", off=6)       # 5: reaches the depth
    c.c("PA", b"cdef", off=12)        # 6: not reassembled
    c.c("PA", b"cd", off=12)          # 7: still known as a retransmission
    c.close(16, 0)
    t = run(trace, tmp_path, c, "--set", "stream.reassembly.depth=10")
    ev = events(t)
    assert [e for e in ev if e.startswith("5 ")] == ["5 server CONN_NEW_DATA", "5 server DEPTH"]
    assert [e for e in ev if e.startswith("6 ")] == []
    assert [e for e in ev if e.startswith("7 ")] == ["7 server REXMIT"]
    assert ev[-1] == "11 server CONN_END"
    assert stream(tmp_path / "s") == b"0123456789"
    assert t.stats["tcp"]["depth_reached"] == 1


def test_no_buffer(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"abc", off=0)
    c.s("PA", b"def", off=0, ack=3)
    c.close(3, 3)
    t = run(trace, tmp_path, c, "--set", "stream.reassembly.buffer-size=0")
    assert data_events(t) == []
    assert stream(tmp_path / "s") is None and stream(tmp_path / "s", direction="toclient") is None
    assert events(t)[-1] == "9 server CONN_END"
    assert t.stats["tcp"]["reasm_memuse_peak"] == 0


def test_memcap(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"abc", off=0)
    c.c("PA", b"def", off=3)
    t = run(trace, tmp_path, c, "--set", "stream.reassembly.memcap=1kb")
    assert [e for e in events(t) if e[0] in "45"] == ["4 server ERROR"]
    assert t.stats["tcp"]["memcap_hits"] == 1
    assert stream(tmp_path / "s") is None


# ---- what feeds TCP: IP fragments, tunnels, IPv6 -------------------------------------------------

def test_ip_fragments_feed_tcp(trace, tmp_path):
    payload = bytes(range(256)) * 2
    c = Conn().handshake()
    seg = c.c("PA", payload, off=0)
    c.pkts.pop()
    frags = fragment(seg[IP], fragsize=64)
    frags.reverse()
    c.pkts += [Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / f for f in frags]
    c.close(len(payload), 0)
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == payload
    assert t.stats["defrag"]["reassembled"] == 1


def test_ipv6_fragments_feed_tcp(trace, tmp_path):
    payload = bytes(range(200, 256)) * 8
    c = Conn(v=6).handshake()
    seg = c.c("PA", payload, off=0)
    c.pkts.pop()
    ip6 = seg[IPv6]
    frags = fragment6(IPv6(src=ip6.src, dst=ip6.dst) / IPv6ExtHdrFragment() / ip6.payload, 200)
    c.pkts += [Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / f for f in frags[::-1]]
    c.close(len(payload), 0)
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == payload
    assert t.stats["defrag"]["reassembled"] == 1


def outer():
    return Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b")


TUNNELS = {
    "gre": lambda p: outer() / IP(src="192.0.2.1", dst="192.0.2.2") / GRE() / p,
    "ipip": lambda p: outer() / IP(src="192.0.2.1", dst="192.0.2.2") / p,
    "vxlan": lambda p: (outer() / IP(src="192.0.2.1", dst="192.0.2.2") /
                        UDP(sport=5555, dport=4789) / VXLAN(vni=7) /
                        Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p),
    "vlan": lambda p: (Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
                       Dot1Q(vlan=10) / p),
}


@pytest.mark.parametrize("tunnel", sorted(TUNNELS))
def test_tunnels_feed_tcp(trace, tmp_path, tunnel):
    w = TUNNELS[tunnel]
    c = Conn().handshake(wrap=w)
    c.c("PA", b"world", off=5, wrap=w)   # out of order, inside the tunnel
    c.c("PA", b"hello", off=0, wrap=w)
    c.s("PA", b"ok", off=0, ack=10, wrap=w)
    c.close(10, 2, wrap=w)
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == b"helloworld"
    assert stream(tmp_path / "s", direction="toclient") == b"ok"
    assert events(t)[-1] == "10 server CONN_END"


def test_interleaved_flows(trace, tmp_path):
    a = Conn(cport=40001).handshake()
    b = Conn(cport=40002, cisn=77, sisn=99).handshake()
    a.c("PA", b"flow-a ", off=0)
    b.c("PA", b"flow-b ", off=0)
    a.c("PA", b"second", off=7)
    b.c("PA", b"second", off=7)
    pkts = []
    for x, y in zip(a.pkts, b.pkts):
        pkts += [x, y]
    t = trace(stamp(pkts), "--events", "--streams", str(tmp_path / "s"))
    assert stream(tmp_path / "s", flow=1) == b"flow-a second"
    assert stream(tmp_path / "s", flow=2) == b"flow-b second"
    assert t.stats["tcp"]["sessions"] == 2


# ---- urgent data (stream.reassembly.urgent.policy) ---------------------------------------

@pytest.mark.parametrize("policy,expect", [
    ("inline", b"GET /malicXYious"),   # every byte is stream
    ("oob", b"GET /malicXious"),       # the last urgent byte (Y) taken out, the rest joins up
    ("gap", b"GET /malicXious"),       # taken out leaving a hole: a gap once acknowledged
])
def test_urgent_byte_policy(trace, tmp_path, policy, expect):
    c = Conn().handshake()
    c.c("PA", b"GET /malic", off=0)
    urg = c.c("PAU", b"XY", off=10)
    urg["TCP"].urgptr = 2          # RFC 6093: seq + 2 - 1 is the last urgent byte
    c.c("PA", b"ious", off=12)
    c.s("A", ack=16)
    t = run(trace, tmp_path, c, "--set", f"stream.reassembly.urgent.policy={policy}")
    assert stream(tmp_path / "s") == expect
    assert t.stats["tcp"]["gaps"] == (1 if policy == "gap" else 0)


def test_urgent_pointer_past_the_segment_or_without_urg_changes_nothing(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"ab", off=0)["TCP"].urgptr = 1          # a pointer without the URG flag
    c.c("PAU", b"cd", off=2)["TCP"].urgptr = 9         # the urgent byte is further on
    c.c("PA", b"ef", off=4)
    c.s("A", ack=6)
    run(trace, tmp_path, c, "--set", "stream.reassembly.urgent.policy=oob")
    assert stream(tmp_path / "s") == b"abcdef"
