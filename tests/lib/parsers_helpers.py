"""Helpers of the app-layer parser tests: scapy conversations run through
`osprey-trace --app`, whose app events carry the parsers' buffers (bytes escaped:
printable ASCII as is, a backslash doubled, any other byte as \\xHH)."""
import re

from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from conftest import stamp
from detect_helpers import CLI, SRV, Conv  # noqa: F401  (re-exported)


def unescape(s):
    """osprey-trace's escaped buffer text back to bytes."""
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1] == "\\":
            out += b"\\"
            i += 2
        elif s[i] == "\\" and s[i + 1] == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        else:
            out += s[i].encode()
            i += 1
    return bytes(out)


class App:
    """The app events, flows and app_layer stats of one osprey-trace --app run."""

    def __init__(self, t):
        self.trace = t
        self.events = [r for r in t.records if r.get("event_type") == "app"]
        self.flows = t.flows
        self.stats = t.stats["app_layer"]

    def of(self, name):
        return [e for e in self.events if e["event"] == name]

    def bufs(self, name):
        """[{buffer: bytes}] of every event called name, in order (a multi-buffer: a list of
        its elements)."""
        return [{k: [unescape(x) for x in v] if isinstance(v, list) else unescape(v)
                 for k, v in e["buffers"].items()} for e in self.of(name)]


def app_trace(trace, packets, *args):
    return App(trace(stamp(packets), "--app", *args))


def conversation(req=b"", resp=b"", dport=80, seg=None, rseg=None, close=True, sport=40000):
    """A TCP conversation: the handshake, the client's bytes then the server's (each in
    segments of seg / rseg bytes), then a FIN exchange."""
    c = Conv(dport=dport, sport=sport).handshake()
    if req:
        c.send(True, req, seg=seg)
    if resp:
        c.send(False, resp, seg=rseg)
    if close:
        c.close()
    return c.pkts


def dns_packet(payload, sport=5353, dport=53, src=CLI, dst=SRV):
    return IP(src=src, dst=dst) / UDP(sport=sport, dport=dport) / Raw(payload)


def hex_no_space(s):
    return re.sub(r"\s+", "", s)
