"""unified2: read back by an existing reader (idstools-u2json) and compared field by field with
the EVE alerts of the same run; rollover past the size limit into timestamped files."""
import base64
import ipaddress
import os
import re
from datetime import datetime, timezone

from scapy.layers.inet import IP, ICMP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw
from scapy.utils import rdpcap

from conftest import ROOT
from detect_helpers import http_conv
from outputs_helpers import osprey_out, rule, u2json

CLASSIFICATION = str(ROOT / "etc" / "classification.config")

RULES = [
    'alert tcp any any -> any any (msg:"GET"; content:"GET"; classtype:web-application-attack; '
    'sid:2000001; rev:4;)',
    'alert tcp any any -> any any (msg:"uid"; content:"uid=0"; classtype:bad-unknown; '
    'priority:1; sid:2000002; rev:1;)',
    'alert udp any any -> any any (msg:"v6 dns"; content:"v6q"; sid:2000003; rev:2;)',
    'alert icmp any any -> any any (msg:"ping"; itype:8; gid:7; sid:2000004; rev:1;)',
]


def traffic():
    pk = [Ether() / p for p in http_conv()]
    pk.append(Ether() / IPv6(src="2001:db8::10", dst="2001:db8::53") / UDP(sport=3333, dport=53)
              / Raw(b"v6q"))
    pk.append(Ether() / Dot1Q(vlan=42) / IP(src="10.9.0.1", dst="10.9.0.2") / ICMP(type=8)
              / Raw(b"x"))
    return pk


def class_ids():
    ids, n = {}, 0
    for line in open(CLASSIFICATION):
        m = re.match(r"\s*config classification:\s*([^,]+),", line)
        if m:
            n += 1
            ids[m.group(1).strip()] = n
    return ids


def eve_seconds(ts):
    dt = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f+0000").replace(tzinfo=timezone.utc)
    return int(dt.timestamp()), dt.microsecond


def test_unified2_matches_eve_field_by_field(tmp_path):
    out = osprey_out(tmp_path, traffic(), RULES, "--set", f"classification-file={CLASSIFICATION}",
                     "--set", "outputs.unified2-alert.sensor-id=5")
    alerts = out.of("alert")
    assert [a["alert"]["signature_id"] for a in alerts] == [2000001, 2000002, 2000003, 2000004]
    assert len(out.u2_files) == 1
    recs = u2json(out.u2_files)
    # each alert: its event, its packet, then (alerts in an HTTP transaction) the URI and the
    # hostname as extra data, as Snort logs them
    groups = []
    for r in recs:
        if r["type"] == "event":
            groups.append([])
        groups[-1].append(r)
    assert [[r["type"] for r in g] for g in groups] == \
        [["event", "packet", "extra-data", "extra-data"]] * 2 + [["event", "packet"]] * 2
    frames = rdpcap(str(tmp_path / "t.pcap"))
    cls = class_ids()
    classtype = {2000001: "web-application-attack", 2000002: "bad-unknown"}
    for i, a in enumerate(alerts):
        ev, pkt = groups[i][0]["event"], groups[i][1]["packet"]
        xd = [g["extra-data"] for g in groups[i][2:]]
        if "http" in a:
            assert [(x["extra-data-type"], base64.b64decode(x["data"]).decode()) for x in xd] == \
                [("http_uri", a["http"]["url"]), ("http_hostname", a["http"]["hostname"])]
            assert all(x["event-id"] == i + 1 for x in xd)
        else:
            assert xd == []
        sec, usec = eve_seconds(a["timestamp"])
        sid = a["alert"]["signature_id"]
        assert ev["sensor-id"] == 5 and ev["event-id"] == i + 1
        assert (ev["event-second"], ev["event-microsecond"]) == (sec, usec)
        assert ev["signature-id"] == sid
        assert ev["generator-id"] == a["alert"]["gid"]
        assert ev["signature-revision"] == a["alert"]["rev"]
        assert ev["priority"] == a["alert"]["severity"]
        assert ev["classification-id"] == cls.get(classtype.get(sid), 0)
        assert ipaddress.ip_address(ev["source-ip"]) == ipaddress.ip_address(a["src_ip"])
        assert ipaddress.ip_address(ev["destination-ip"]) == ipaddress.ip_address(a["dest_ip"])
        proto = {"TCP": 6, "UDP": 17, "ICMP": 1}[a["proto"]]
        assert ev["protocol"] == proto
        if proto == 1:
            assert (ev["sport-itype"], ev["dport-icode"]) == (8, 0)
            assert ev["vlan-id"] == 42
        else:
            assert (ev["sport-itype"], ev["dport-icode"]) == (a["src_port"], a["dest_port"])
            assert ev["vlan-id"] == 0
        assert (ev["blocked"], ev["impact-flag"]) == (0, 0)  # IDS mode
        # the packet record holds the alerting frame, byte for byte
        assert pkt["event-id"] == i + 1 and pkt["linktype"] == 1  # Ethernet
        assert (pkt["packet-second"], pkt["packet-microsecond"]) == (sec, usec)
        frame = bytes(frames[a["pcap_cnt"] - 1])
        assert base64.b64decode(pkt["data"]) == frame and pkt["length"] == len(frame)
    # the numbers known independently: GET is web-application-attack (priority 1)
    assert alerts[0]["alert"]["severity"] == 1 and alerts[1]["alert"]["severity"] == 1
    assert alerts[3]["alert"]["gid"] == 7


def test_rollover_into_timestamped_files(tmp_path):
    pk = []
    for i in range(40):
        pk += http_conv(sport=30000 + i)
    out = osprey_out(tmp_path, pk, [rule('content:"GET";', sid=9)],
                     "--set", "outputs.unified2-alert.limit=1kb")
    names = [os.path.basename(f) for f in out.u2_files]
    stamps = [int(n.rsplit(".", 1)[1]) for n in names]
    assert len(names) > 5 and len(set(stamps)) == len(stamps)
    sizes = [os.path.getsize(f) for f in out.u2_files]
    assert all(s <= 1024 for s in sizes)  # each event+packet pair is ~200 bytes
    recs = u2json(out.u2_files)
    events = [r["event"] for r in recs if r["type"] == "event"]
    assert len(events) == len(out.of("alert")) == 40
    assert [e["event-id"] for e in events] == list(range(1, 41))
    assert [e["sport-itype"] for e in events] == list(range(30000, 30040))
    # no group split across two files: each file starts with an event and is read whole
    for f in out.u2_files:
        got = u2json([f])
        assert got[0]["type"] == "event" and len(got) % 2 == 0


def test_unified2_off(tmp_path):
    out = osprey_out(tmp_path, traffic(), RULES, "--set", "outputs.unified2-alert.enabled=no")
    assert out.u2_files == [] and len(out.of("alert")) == 4


def test_record_layouts_read_by_idstools(tmp_path):
    """The C builders' records (outputs/tests/test_unified2.c writes an IPv4 and an IPv6 event,
    a packet and an HTTP-URI extra-data record) as idstools reads them."""
    from conftest import BUILD, run
    path = tmp_path / "sample.u2"
    run([str(BUILD / "unit" / "test_unified2"), str(path)])
    recs = u2json([str(path)])
    assert [r["type"] for r in recs] == ["event", "event", "packet", "extra-data"]
    e4, e6 = recs[0]["event"], recs[1]["event"]
    assert (e4["source-ip"], e4["destination-ip"], e4["sport-itype"], e4["dport-icode"]) == \
        ("192.0.2.1", "198.51.100.7", 40000, 80)
    assert (e4["signature-id"], e4["signature-revision"], e4["classification-id"],
            e4["priority"], e4["blocked"], e4["mpls-label"], e4["vlan-id"]) == \
        (2000001, 4, 5, 1, 1, 77, 42)
    assert ipaddress.ip_address(e6["source-ip"]) == ipaddress.ip_address("2001:db8::1")
    assert recs[2]["packet"]["event-id"] == 10
    assert base64.b64decode(recs[2]["packet"]["data"]) == bytes([1, 2, 3, 4, 5])
    x = recs[3]["extra-data"]
    assert (x["extra-data-type"], x["event-id"], x["data-type"]) == ("http_uri", 10, 1)
    assert base64.b64decode(x["data"]) == b"/index.html"
