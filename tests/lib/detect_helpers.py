"""Helpers of the detection tests: scapy conversations, and `osprey -r` with rules → alerts.

Each test is traffic + rules + the exact alerts expected in eve.json (suricata-verify style)."""
import json

from scapy.layers.inet import IP, TCP, UDP, ICMP
from scapy.packet import Raw

from conftest import binary, run, stamp, write_pcap

CLI, SRV = "10.0.0.1", "10.0.0.2"


class Conv:
    """A TCP connection built packet by packet with correct sequence numbers."""

    def __init__(self, src=CLI, dst=SRV, sport=40000, dport=80, wrap=None):
        self.src, self.dst, self.sport, self.dport = src, dst, sport, dport
        self.seq = {True: 1000, False: 5000}  # True: client
        self.wrap = wrap or (lambda p: p)
        self.pkts = []

    def _pkt(self, client, flags, payload=b"", seq=None):
        ip = IP(src=self.src, dst=self.dst) if client else IP(src=self.dst, dst=self.src)
        sp, dp = (self.sport, self.dport) if client else (self.dport, self.sport)
        # a 64 KiB window: scapy's default (8192) would put bulk data outside the receiver's
        # window, which libmon (like a real receiver) does not reassemble
        tcp = TCP(sport=sp, dport=dp, flags=flags, seq=self.seq[client] if seq is None else seq,
                  ack=self.seq[not client], window=65535)
        p = ip / tcp / Raw(payload) if payload else ip / tcp
        return self.wrap(p)

    def handshake(self):
        self.pkts.append(self._pkt(True, "S"))
        self.seq[True] += 1
        self.pkts.append(self._pkt(False, "SA"))
        self.seq[False] += 1
        self.pkts.append(self._pkt(True, "A"))
        return self

    def send(self, client, data, seg=None, order=None):
        """Send data in segments of seg bytes (all in one by default), optionally reordered:
        order is a list of segment indexes in sending order."""
        seg = seg or len(data)
        base = self.seq[client]
        parts = [(base + i, data[i:i + seg]) for i in range(0, len(data), seg)]
        for k in (order if order is not None else range(len(parts))):
            s, chunk = parts[k]
            self.pkts.append(self._pkt(client, "PA", chunk, seq=s))
        self.seq[client] += len(data)
        self.pkts.append(self._pkt(not client, "A"))
        return self

    def raw(self, client, data, seq_off):
        """A segment at seq base+seq_off that does not advance the sequence (overlaps)."""
        self.pkts.append(self._pkt(client, "PA", data, seq=self.seq[client] + seq_off))
        return self

    def close(self):
        self.pkts.append(self._pkt(True, "FA"))
        self.seq[True] += 1
        self.pkts.append(self._pkt(False, "FA"))
        self.seq[False] += 1
        self.pkts.append(self._pkt(True, "A"))
        return self


def http_conv(req=b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n",
              resp=b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nuid=0(root)\n", **kw):
    return Conv(**kw).handshake().send(True, req).send(False, resp).close().pkts


def udp(payload, src=CLI, dst=SRV, sport=5353, dport=53):
    return IP(src=src, dst=dst) / UDP(sport=sport, dport=dport) / Raw(payload)


class Result:
    def __init__(self, proc, alerts, stats=None):
        self.proc = proc
        self.alerts = alerts
        self.stats = stats or {}  # the last EVE stats record's "stats"

    @property
    def sids(self):
        return sorted(a["alert"]["signature_id"] for a in self.alerts)


def detect(tmp_path, packets, rules, *args, check=True, name="t", step=0.001):
    """Write packets (scapy list, or a capture path) and rules, run osprey -r; alerts.
    Packets get timestamps step seconds apart."""
    if isinstance(packets, list):
        pcap = tmp_path / f"{name}.pcap"
        write_pcap(pcap, stamp(packets, step=step))
    else:
        pcap = packets
    rf = tmp_path / f"{name}.rules"
    rf.write_text(rules if isinstance(rules, str) else "\n".join(rules) + "\n")
    logdir = tmp_path / f"{name}-log"
    logdir.mkdir(exist_ok=True)
    proc = run([binary("osprey"), "-r", str(pcap), "-S", str(rf), "-l", str(logdir), *args],
               check=check)
    eve = logdir / "eve.json"
    recs = [json.loads(l) for l in eve.read_text().splitlines()] if eve.exists() else []
    alerts = [r for r in recs if r["event_type"] == "alert"]  # eve.json also has flow, stats …
    stats = [r["stats"] for r in recs if r["event_type"] == "stats"]
    return Result(proc, alerts, stats[-1] if stats else None)


def rule(body, sid=1, proto="tcp", hdr="any any -> any any", action="alert"):
    return f'{action} {proto} {hdr} (msg:"t{sid}"; {body} sid:{sid}; rev:1;)'


def check_rejected_alone(tmp_path, body, why, packet, proto="udp", other='content:"x";'):
    """A rule with a bad option (sid 7) is reported with why and left out; the rule beside it
    (sid 8, `other`) still loads and alerts on packet."""
    r = detect(tmp_path, [packet], [rule(body, sid=7, proto=proto), rule(other, sid=8,
                                                                          proto=proto)])
    assert r.sids == [8]
    assert "sid 7" in r.proc.stderr and why in r.proc.stderr
