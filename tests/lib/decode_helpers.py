"""Helpers shared by the test_decode_*.py files (no tests here).

Every decoder test builds its traffic with scapy, runs `osprey-trace --packets` on it through
conftest's `trace` fixture and compares the per-packet records and the decoder counters."""
import struct

from scapy.all import Ether, Raw
from conftest import eve_ip

# Link types as written into pcap files.
DLT_NULL, DLT_EN10MB, DLT_PPP, DLT_FDDI, DLT_RAW, DLT_RAW_BSD = 0, 1, 9, 10, 12, 14
DLT_PPP_SERIAL, DLT_PPP_ETHER, LINKTYPE_RAW, DLT_C_HDLC, DLT_LOOP = 50, 51, 101, 104, 108
DLT_SLL, DLT_IPV4, DLT_IPV6, DLT_NFLOG, DLT_SLL2 = 113, 228, 229, 239, 276

MAC_A, MAC_B = "00:00:00:00:00:01", "00:00:00:00:00:02"


def eth(**kw):
    """Ethernet with both addresses given: scapy would otherwise resolve the destination
    (ARP, routing table) for every packet it builds."""
    return Ether(src=MAC_A, dst=MAC_B, **kw)


def one(t):
    """The only packet record of a trace."""
    assert len(t.packets) == 1, t.packets
    return t.packets[0]


def run1(trace, pkt, *args, linktype=None):
    """Decode one packet; returns (record, trace). Raw frames default to Ethernet."""
    if linktype is None and isinstance(pkt, Raw):
        linktype = DLT_EN10MB
    t = trace([pkt], "--packets", *args, linktype=linktype)
    return one(t), t


def expect(rec, *, outcome="ip", layers=None, tunnels=None, anomaly=None, **fields):
    """Compare a packet record; fields not named are not compared."""
    assert rec["outcome"] == outcome, rec
    if layers is not None:
        assert rec["layers"] == layers, rec
    if tunnels is not None:
        assert rec["tunnels"] == tunnels, rec
    assert rec.get("anomaly") == anomaly, rec
    for k, v in fields.items():
        if k in ("src_ip", "dest_ip"):
            v = eve_ip(v)
        assert rec.get(k) == v, (k, rec)


def expect_anomaly(trace, pkt, name, *, outcome="invalid", layers=None, linktype=None,
                   args=("-k", "none")):
    """A malformed packet: exactly one anomaly, `name`, counted once."""
    rec, t = run1(trace, pkt, *args, linktype=linktype)
    assert rec["outcome"] == outcome, rec
    assert rec.get("anomaly") == name, rec
    assert t.anomalies() == {name: 1}, t.anomalies()
    if layers is not None:
        assert rec["layers"] == layers, rec
    outcomes = t.stats["decoder"]["outcomes"]
    assert outcomes[outcome] == 1, outcomes
    return rec


def raw(b):
    return Raw(bytes(b))


def cut(pkt, n):
    """The first n bytes of a packet, as a raw frame (a short capture)."""
    return Raw(bytes(pkt)[:n])


def patch(pkt, off, data):
    """Overwrite bytes at off (negative counts from the end) in a copy of the frame."""
    b = bytearray(bytes(pkt))
    if off < 0:
        off += len(b)
    b[off:off + len(data)] = data
    return Raw(bytes(b))


def be16(v):
    return struct.pack(">H", v)


def be32(v):
    return struct.pack(">I", v)
