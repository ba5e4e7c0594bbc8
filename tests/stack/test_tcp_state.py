"""TCP through osprey-trace --events: both endpoints' states as a middlebox infers them, the
exact events of each packet (sender phase, REXMIT, receiver phase), closes, resets,
midstream pick-up, one-sided captures, IPv6 and sequence wraparound.

Conn (used by test_tcp_stream.py too) builds a connection's packets by stream offsets: data at
offset o of the client's stream has sequence number client ISN + 1 + o."""
from pathlib import Path

import pytest
from scapy.all import IP, TCP, Ether, IPv6, Raw

from conftest import stamp

C4, S4 = "10.0.0.1", "10.0.0.2"
C6, S6 = "2001:db8::1", "2001:db8::2"
M32 = 2 ** 32


class Conn:
    """Packets of one connection. c(...) sends from the client, s(...) from the server.

    flags: scapy's letters ("S", "SA", "A", "PA", "FA", "R", "RA"). off: stream offset of the
    data (ignored for SYNs, whose seq is the ISN). ack: offset of the peer's stream
    acknowledged. seq=/acknum= give raw numbers instead."""

    def __init__(self, v=4, cisn=1000, sisn=5000, cport=40000, sport=80, win=65535):
        self.v, self.ci, self.si = v, cisn, sisn
        self.cip, self.sip = (C4, S4) if v == 4 else (C6, S6)
        self.cport, self.sport, self.win = cport, sport, win
        self.pkts = []

    def _pkt(self, from_client, flags, data, off, ack, seq, acknum, win, opts, wrap):
        isn, peer = (self.ci, self.si) if from_client else (self.si, self.ci)
        if seq is None:
            seq = isn if "S" in flags else isn + 1 + off
        if acknum is None:
            acknum = (peer + 1 + ack) if "A" in flags else 0
        src, dst = (self.cip, self.sip) if from_client else (self.sip, self.cip)
        sp, dp = (self.cport, self.sport) if from_client else (self.sport, self.cport)
        ip = IP(src=src, dst=dst) if self.v == 4 else IPv6(src=src, dst=dst)
        tcp = TCP(sport=sp, dport=dp, flags=flags, seq=seq % M32, ack=acknum % M32,
                  window=self.win if win is None else win, options=opts or [])
        p = ip / tcp
        if data:
            p = p / Raw(data)
        p = wrap(p) if wrap else Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / p
        self.pkts.append(p)
        return p

    def c(self, flags, data=b"", off=0, ack=0, seq=None, acknum=None, win=None, opts=None,
          wrap=None):
        return self._pkt(True, flags, data, off, ack, seq, acknum, win, opts, wrap)

    def s(self, flags, data=b"", off=0, ack=0, seq=None, acknum=None, win=None, opts=None,
          wrap=None):
        return self._pkt(False, flags, data, off, ack, seq, acknum, win, opts, wrap)

    def handshake(self, **kw):
        self.c("S", **kw)
        self.s("SA", ack=0, **kw)
        self.c("A", **kw)
        return self

    def close(self, coff, soff, **kw):
        """Client closes first: FIN, ACK, FIN, ACK (coff/soff: each stream's length)."""
        self.c("FA", off=coff, ack=soff, **kw)
        self.s("A", off=soff, ack=coff + 1, **kw)
        self.s("FA", off=soff, ack=coff + 1, **kw)
        self.c("A", off=coff + 1, ack=soff + 1, **kw)
        return self

    def packets(self):
        return stamp(self.pkts)


def events(t, skip=("PKT_IN",), at_end=False):
    """['n side EVENT', ...] in the order raised (PKT_IN left out unless skip=()). Events of
    flows ending with the capture (no packet: "end side EVENT") only with at_end=True."""
    return [f"{r.get('pcap_cnt', 'end')} {r['side']} {r['event']}" for r in t.records
            if r.get("event_type") == "mon_event" and r["event"] not in skip
            and (at_end or "pcap_cnt" in r)]


def states(t):
    """pcap_cnt -> (client_state, server_state) after the packet (its last event)."""
    out = {}
    for r in t.records:
        if r.get("event_type") == "mon_event" and "pcap_cnt" in r:
            out[r["pcap_cnt"]] = (r["client_state"], r["server_state"])
    return out


def stream(d, flow=1, direction="toserver"):
    p = Path(d) / f"{flow}.{direction}"
    return p.read_bytes() if p.exists() else None


def run(trace, tmp_path, conn_or_pkts, *args):
    pkts = conn_or_pkts.packets() if isinstance(conn_or_pkts, Conn) else conn_or_pkts
    return trace(pkts, "--events", "--streams", str(tmp_path / "s"), *args)


# ---- handshakes and closes ---------------------------------------------------------------

@pytest.mark.parametrize("v", [4, 6])
def test_handshake_data_close_exact_events(trace, tmp_path, v):
    c = Conn(v=v).handshake()
    c.c("PA", b"hello", off=0, ack=0)
    c.s("PA", b"world!", off=0, ack=5)
    c.close(5, 6)
    t = run(trace, tmp_path, c)
    assert events(t, skip=()) == [
        "1 client PKT_IN", "1 client CONN_START", "1 client TCP_STATE_CHANGE",
        "1 server TCP_STATE_CHANGE",
        "2 server PKT_IN", "2 client TCP_STATE_CHANGE",
        "3 client PKT_IN", "3 server TCP_STATE_CHANGE",
        "4 client PKT_IN", "4 server CONN_NEW_DATA",
        "5 server PKT_IN", "5 client CONN_NEW_DATA",
        "6 client PKT_IN", "6 client TCP_STATE_CHANGE", "6 server TCP_STATE_CHANGE",
        "7 server PKT_IN", "7 client TCP_STATE_CHANGE",
        "8 server PKT_IN", "8 server TCP_STATE_CHANGE", "8 client TCP_STATE_CHANGE",
        "9 client PKT_IN", "9 server TCP_STATE_CHANGE", "9 server CONN_END",
    ]
    st = states(t)
    assert st[1] == ("SYN_SENT", "SYN_RCVD")
    assert st[2] == ("ESTABLISHED", "SYN_RCVD")
    assert st[3] == ("ESTABLISHED", "ESTABLISHED")
    assert st[6] == ("FIN_WAIT_1", "CLOSE_WAIT")
    assert st[7] == ("FIN_WAIT_2", "CLOSE_WAIT")
    assert st[8] == ("TIME_WAIT", "LAST_ACK")
    assert st[9] == ("TIME_WAIT", "CLOSED")
    assert stream(tmp_path / "s") == b"hello"
    assert stream(tmp_path / "s", direction="toclient") == b"world!"
    tcp = t.stats["tcp"]
    assert tcp["sessions"] == 1 and tcp["invalid_state"] == 0 and tcp["rexmit"] == 0
    assert t.stats["events"]["raised"]["CONN_END"] == 1
    assert not [e for e in events(t, at_end=True) if e.startswith("end")]


def test_simultaneous_open(trace, tmp_path):
    c = Conn()
    c.c("S")
    c.s("S")               # crossed the client's SYN
    c.c("SA", acknum=5001)
    c.s("SA", acknum=1001)
    c.c("PA", b"hi", off=0, ack=0)
    t = run(trace, tmp_path, c)
    assert events(t) == [
        "1 client CONN_START", "1 client TCP_STATE_CHANGE", "1 server TCP_STATE_CHANGE",
        "2 client TCP_STATE_CHANGE",
        "3 server TCP_STATE_CHANGE",
        "4 client TCP_STATE_CHANGE",
        "5 server CONN_NEW_DATA",
    ]
    st = states(t)
    assert st[2] == ("SYN_RCVD", "SYN_RCVD")
    assert st[4] == ("ESTABLISHED", "ESTABLISHED")
    assert t.stats["tcp"]["rexmit"] == 0 and t.stats["tcp"]["invalid_state"] == 0
    assert stream(tmp_path / "s") == b"hi"


def test_syn_and_synack_retransmits(trace, tmp_path):
    c = Conn()
    c.c("S")
    c.c("S")              # SYN again
    c.s("SA")
    c.s("SA")             # SYN-ACK again
    c.c("A")
    t = run(trace, tmp_path, c)
    assert events(t) == [
        "1 client CONN_START", "1 client TCP_STATE_CHANGE", "1 server TCP_STATE_CHANGE",
        "2 server REXMIT",
        "3 client TCP_STATE_CHANGE",
        "4 client REXMIT",
        "5 server TCP_STATE_CHANGE",
    ]
    assert t.stats["tcp"]["rexmit"] == 2
    # never closed: it ends with the capture, once
    assert events(t, at_end=True)[-1:] == ["end client CONN_END"]


def test_syn_again_after_synack(trace, tmp_path):
    """The SYN-ACK we saw never reached the client: it sends its SYN again (same ISN). A
    retransmission, not an invalid SYN in an established connection."""
    c = Conn()
    c.c("S")
    c.s("SA")
    c.c("S", acknum=12345)   # a stale ACK field without the ACK flag, as real stacks leave it
    c.s("SA")
    c.c("A")
    c.c("S", seq=777)        # another ISN now: invalid (RFC 5961)
    t = run(trace, tmp_path, c)
    assert events(t) == [
        "1 client CONN_START", "1 client TCP_STATE_CHANGE", "1 server TCP_STATE_CHANGE",
        "2 client TCP_STATE_CHANGE", "3 server REXMIT", "4 client REXMIT",
        "5 server TCP_STATE_CHANGE",
    ]
    assert t.stats["tcp"]["invalid_state"] == 1


def test_crossing_fins(trace, tmp_path):
    """Both FINs left before either arrived; we saw the client's first, so the server looks
    LAST_ACK → CLOSED to us while it really is CLOSING → TIME_WAIT and acknowledges the
    client's FIN afterwards: still part of the connection, which ends once."""
    c = Conn().handshake()
    c.c("FA", off=0, ack=0)
    c.s("FA", off=0, ack=0)
    c.c("FA", off=0, ack=1)   # its FIN again, now acknowledging the server's
    c.s("A", off=1, ack=1)
    c.c("A", off=1, ack=1)
    t = run(trace, tmp_path, c)
    st = states(t)
    assert st[5] == ("CLOSING", "LAST_ACK")
    assert st[6] == ("CLOSING", "CLOSED")
    assert st[7] == ("TIME_WAIT", "CLOSED")
    assert [e for e in events(t) if "CONN_END" in e or "ORPHAN" in e] == ["7 client CONN_END"]
    assert t.stats["tcp"]["invalid_state"] == 0


@pytest.mark.parametrize("first", ["client", "server"])
def test_half_close(trace, tmp_path, first):
    c = Conn().handshake()
    if first == "client":
        c.c("FA", b"req", off=0, ack=0)          # 4: the client is done sending
        c.s("PA", b"resp-1", off=0, ack=4)       # 5: the server still sends
        c.s("PA", b"resp-2", off=6, ack=4)       # 6
        c.c("A", off=4, ack=12)                  # 7
        c.s("FA", off=12, ack=4)                 # 8
        c.c("A", off=4, ack=13)                  # 9
        want_states = {4: ("FIN_WAIT_1", "CLOSE_WAIT"), 5: ("FIN_WAIT_2", "CLOSE_WAIT"),
                       8: ("TIME_WAIT", "LAST_ACK"), 9: ("TIME_WAIT", "CLOSED")}
        want_ts, want_tc = b"req", b"resp-1resp-2"
    else:
        c.s("FA", b"banner", off=0, ack=0)
        c.c("PA", b"cmd-1", off=0, ack=7)
        c.c("PA", b"cmd-2", off=5, ack=7)
        c.s("A", off=7, ack=10)
        c.c("FA", off=10, ack=7)
        c.s("A", off=7, ack=11)
        want_states = {4: ("CLOSE_WAIT", "FIN_WAIT_1"), 5: ("CLOSE_WAIT", "FIN_WAIT_2"),
                       8: ("LAST_ACK", "TIME_WAIT"), 9: ("CLOSED", "TIME_WAIT")}
        want_ts, want_tc = b"cmd-1cmd-2", b"banner"
    t = run(trace, tmp_path, c)
    st = states(t)
    for n, s in want_states.items():
        assert st[n] == s, n
    assert stream(tmp_path / "s") == want_ts
    assert stream(tmp_path / "s", direction="toclient") == want_tc
    assert events(t).count("9 " + ("server" if first == "client" else "client") + " CONN_END") == 1
    assert t.stats["tcp"]["invalid_state"] == 0


def test_simultaneous_close(trace, tmp_path):
    c = Conn().handshake()
    c.c("FA", off=0, ack=0)
    c.s("FA", off=0, ack=0)   # crossed: does not acknowledge the client's FIN
    c.s("A", off=1, ack=1)
    c.c("A", off=1, ack=1)
    t = run(trace, tmp_path, c)
    st = states(t)
    assert st[5] == ("CLOSING", "LAST_ACK")
    assert st[6] == ("TIME_WAIT", "LAST_ACK")
    assert st[7] == ("TIME_WAIT", "CLOSED")
    assert events(t)[-1] == "7 server CONN_END"


def test_after_close(trace, tmp_path):
    """The final ACK and a FIN retransmission after the end are normal; anything else is an
    orphan."""
    c = Conn().handshake().close(0, 0)
    c.c("A", off=1, ack=1)          # 8: the final ACK again
    c.s("FA", off=0, ack=1)         # 9: the server's FIN again
    c.c("PA", b"late", off=1, ack=1)  # 10: data after the close
    t = run(trace, tmp_path, c)
    ev = events(t)
    assert "7 server CONN_END" in ev
    assert not [e for e in ev if e.startswith("8 ")]
    assert [e for e in ev if e.startswith("9 ")] == ["9 client REXMIT"]
    assert [e for e in ev if e.startswith("10 ")] == ["10 client ORPHAN"]
    assert t.stats["tcp"]["orphans"] == 1


# ---- resets --------------------------------------------------------------------------------

def test_rst_in_and_out_of_window(trace, tmp_path):
    c = Conn().handshake()
    c.c("PA", b"abc", off=0, ack=0)
    c.s("R", off=200000)            # 5: blind RST far outside the window
    c.s("RA", seq=4000, acknum=1004)  # 6: before the window
    c.s("R", off=100)               # 7: inside the window: accepted
    c.c("A", off=3, ack=0)          # 8: nothing follows a reset
    t = run(trace, tmp_path, c)
    ev = events(t)
    assert [e for e in ev if e[0] in "56"] == []
    assert [e for e in ev if e.startswith("7 ")] == [
        "7 server TCP_STATE_CHANGE", "7 client TCP_STATE_CHANGE", "7 client CONN_END"]
    assert [e for e in ev if e.startswith("8 ")] == ["8 client ORPHAN"]
    assert states(t)[7] == ("CLOSED", "CLOSED")
    tcp = t.stats["tcp"]
    assert tcp["rst_out_of_window"] == 2
    assert stream(tmp_path / "s") == b"abc"


def test_connection_refused(trace, tmp_path):
    c = Conn()
    c.c("S")
    c.s("RA", seq=0, acknum=1002)   # does not acknowledge the SYN: ignored
    c.s("RA", seq=0, acknum=1001)
    t = run(trace, tmp_path, c)
    assert events(t) == [
        "1 client CONN_START", "1 client TCP_STATE_CHANGE", "1 server TCP_STATE_CHANGE",
        "3 server TCP_STATE_CHANGE", "3 client TCP_STATE_CHANGE", "3 client CONN_END",
    ]
    assert t.stats["tcp"]["rst_out_of_window"] == 1


# ---- midstream, one-sided, invalid -------------------------------------------------------------

def midstream_conn():
    c = Conn()
    c.c("PA", b"GET / HTTP/1.1\r\n", off=100, ack=50)
    c.s("PA", b"HTTP/1.1 200 OK\r\n", off=50, ack=116)
    c.c("PA", b"\r\n", off=116, ack=67)
    return c


def test_midstream_off(trace, tmp_path):
    t = run(trace, tmp_path, midstream_conn())
    assert events(t) == ["1 client ORPHAN", "2 server ORPHAN", "3 client ORPHAN"]
    assert t.stats["tcp"]["sessions"] == 0
    assert stream(tmp_path / "s") is None


def test_midstream_on(trace, tmp_path):
    t = run(trace, tmp_path, midstream_conn(), "--set", "stream.midstream=true")
    assert events(t) == [
        "1 client CONN_START", "1 client TCP_STATE_CHANGE", "1 server TCP_STATE_CHANGE",
        "1 server CONN_NEW_DATA",
        "2 client CONN_NEW_DATA",
        "3 server CONN_NEW_DATA",
    ]
    assert states(t)[1] == ("ESTABLISHED", "ESTABLISHED")
    assert stream(tmp_path / "s") == b"GET / HTTP/1.1\r\n\r\n"
    assert stream(tmp_path / "s", direction="toclient") == b"HTTP/1.1 200 OK\r\n"
    assert t.stats["tcp"]["midstream"] == 1


def test_midstream_synack_first(trace, tmp_path):
    c = Conn()
    c.s("SA")
    c.c("A")
    c.c("PA", b"x", off=0, ack=0)
    t = run(trace, tmp_path, c, "--set", "stream.midstream=true")
    assert states(t)[1] == ("ESTABLISHED", "ESTABLISHED")
    assert t.flows[0]["src_ip"] == C4  # the SYN-ACK's sender is the server
    assert stream(tmp_path / "s") == b"x"


def test_data_before_handshake_completes(trace, tmp_path):
    c = Conn()
    c.c("S")
    c.c("PA", b"early", off=0, ack=0)   # acknowledges a SYN-ACK nobody saw
    c.c("P", b"noack", off=5)           # no ACK at all
    t = run(trace, tmp_path, c)
    assert events(t) == ["1 client CONN_START", "1 client TCP_STATE_CHANGE",
                         "1 server TCP_STATE_CHANGE"]
    assert t.stats["tcp"]["invalid_state"] == 2
    assert stream(tmp_path / "s") is None


def test_one_sided_async(trace, tmp_path):
    """Only the client's direction is captured: with async-oneside the client's ACK is
    believed, both become ESTABLISHED, data is reassembled; ONE_SIDED after 10 packets."""
    c = Conn()
    c.c("S")
    c.c("A", ack=0)
    for i in range(10):
        c.c("PA", b"%02d" % i, off=2 * i, ack=0)
    t = run(trace, tmp_path, c, "--set", "stream.async-oneside=true")
    st = states(t)
    assert st[2] == ("ESTABLISHED", "ESTABLISHED")
    assert stream(tmp_path / "s") == b"".join(b"%02d" % i for i in range(10))
    assert [e for e in events(t) if "ONE_SIDED" in e] == ["10 server ONE_SIDED"]
    assert t.stats["tcp"]["invalid_state"] == 0

    (tmp_path / "x").mkdir()
    t = run(trace, tmp_path / "x", c)  # without it: data before the handshake
    assert t.stats["tcp"]["invalid_state"] == 11
    assert stream(tmp_path / "x" / "s") is None


def test_one_sided_async_from_the_syn_ack(trace, tmp_path):
    """Only the server's direction is captured, from its SYN-ACK: with async-oneside the
    SYN-ACK starts the session (its sender the server, as Suricata picks it up) and the
    server's data is reassembled; without it nothing is picked up."""
    c = Conn()
    c.s("SA", ack=0)
    c.s("A", ack=0)
    c.s("PA", b"HTTP/1.0 200 OK\r\n\r\n", off=0, ack=0)
    t = run(trace, tmp_path, c, "--set", "stream.async-oneside=true")
    assert stream(tmp_path / "s", direction="toclient") == b"HTTP/1.0 200 OK\r\n\r\n"
    assert t.stats["tcp"]["sessions"] == 1

    (tmp_path / "x").mkdir()
    t = run(trace, tmp_path / "x", c)
    assert t.stats["tcp"]["sessions"] == 0
    assert stream(tmp_path / "x" / "s", direction="toclient") is None


def test_wraparound(trace, tmp_path):
    c = Conn(cisn=M32 - 6, sisn=M32 - 1).handshake()
    c.c("PA", b"01234", off=0, ack=0)
    c.c("PA", b"abcde", off=10, ack=0)    # out of order, beyond 2^32
    c.c("PA", b"56789", off=5, ack=0)
    c.s("PA", b"reply", off=0, ack=15)     # the server's first byte has sequence 0
    c.close(15, 5)
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == b"0123456789abcde"
    assert stream(tmp_path / "s", direction="toclient") == b"reply"
    assert events(t)[-1].endswith("server CONN_END")
    assert t.stats["tcp"]["invalid_state"] == 0


def test_window_scaling_and_out_of_window(trace, tmp_path):
    c = Conn(win=8)
    c.c("S", opts=[("WScale", 2)])
    c.s("SA", opts=[("WScale", 1)])         # windows in SYNs are not scaled
    c.c("A", ack=0)
    c.s("A", off=0, ack=0, win=4)           # the server offers 4 << 1 = 8 bytes
    c.c("PA", b"01234567", off=0, ack=0)    # fits
    c.c("PA", b"89", off=8, ack=0)          # beyond the window: dropped
    c.s("A", off=0, ack=8, win=4)           # window moves to 16
    c.c("PA", b"89abcdefXY", off=8, ack=0)  # 2 bytes too many
    t = run(trace, tmp_path, c)
    assert stream(tmp_path / "s") == b"0123456789abcdef"
    assert t.stats["tcp"]["out_of_window"] == 2


def test_orphan_stray_packets(trace, tmp_path):
    c = Conn()
    c.c("A", off=0, ack=0)
    c.c("R", off=0)
    t = run(trace, tmp_path, c)
    assert events(t) == ["1 client ORPHAN", "2 client ORPHAN"]
