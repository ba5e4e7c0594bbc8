"""flow.recyclers: flow records written by a thread of their own (engine/emit/flow_writer.c),
as Suricata's flow recycler writes them. The records must be exactly those the worker writes
itself (flow.recyclers: 0): every key, addresses of both families, tunnels, community_id,
flows that time out during the run and flows ended by the end of the input; none lost when
more end at once than the queue holds (4,096); each after its flow's alerts; the stats
record's flow.recycler counters say how many the thread wrote."""
import os

from scapy.layers.inet import IP, ICMP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import GRE, Ether
from scapy.packet import Raw

from detect_helpers import Conv, http_conv
from outputs_helpers import osprey_out, rule

GET = rule('content:"GET";', sid=1)
PING = rule('itype:8;', sid=2, proto="icmp")
CID = ["--set", "outputs.eve-log.community-id=yes"]


def mixed():
    """Flows of every kind; the first ten UDP flows end by timeout, mid-run."""
    e = lambda p: Ether() / p
    pk = []
    for i in range(10):  # quiet UDP flows, timed out by the packets 10 minutes later
        p = e(IP(src="10.1.0.1", dst="10.1.0.2") / UDP(sport=2000 + i, dport=53) / Raw(b"q"))
        p.time = 1600000000 + i * 0.001
        pk.append(p)
    late = 1600000600
    conv = http_conv(wrap=e)
    conv += Conv(src="10.0.0.5", dst="10.0.0.6", sport=41000,
                 wrap=lambda p: Ether() / IP(src="192.0.2.1", dst="192.0.2.2") / GRE() / p) \
        .handshake().send(True, b"GET / HTTP/1.1\r\n\r\n").close().pkts
    conv += [e(IPv6(src="2001:db8::2", dst="2001:db8::1") / UDP(sport=53, dport=1053) /
               Raw(b"x")),
             e(IP(src="10.0.0.1", dst="10.0.0.4") / ICMP(type=8) / Raw(b"ping")),
             e(IP(src="10.0.0.4", dst="10.0.0.1") / ICMP(type=0) / Raw(b"ping"))]
    for i, p in enumerate(conv):
        p.time = late + i * 0.001
    return pk + conv


def run(tmp_path, packets, recyclers, *args, name):
    return osprey_out(tmp_path, packets, [GET, PING], "--set", f"flow.recyclers={recyclers}",
                      *args, name=name, keep_times=True)


def test_recycler_writes_the_records_the_worker_would(tmp_path):
    pk = mixed()
    own = run(tmp_path, pk, 1, *CID, name="own")
    inline = run(tmp_path, pk, 0, *CID, name="inline")
    flows = lambda out: sorted(out.of("flow"), key=lambda f: f["flow_id"])
    assert flows(own) == flows(inline)
    f = {(r["proto"], r.get("dest_port")): r for r in own.of("flow") if "encapsulation" not in r}
    assert len(own.of("flow")) == 14
    assert sum(r["flow"]["reason"] == "timeout" for r in own.of("flow")) == 10
    assert f[("TCP", 80)]["src_ip"] == "10.0.0.1" and f[("TCP", 80)]["flow"]["alerted"]
    gre = [r for r in own.of("flow") if r.get("encapsulation")]
    assert len(gre) == 1 and gre[0]["encapsulation"] == ["gre"] and \
        gre[0]["src_ip"] == "10.0.0.5"
    v6 = f[("UDP", 1053)]
    assert v6["src_ip"] == "2001:0db8:0000:0000:0000:0000:0000:0002"
    assert all(r["community_id"].startswith("1:") for r in own.of("flow"))
    assert f[("TCP", 80)]["community_id"] == inline.of("alert")[0]["community_id"]
    # each flow's alerts come before its record
    at = {}
    for i, r in enumerate(own.records):
        at.setdefault((r["event_type"], r.get("flow_id")), i)
    for a in own.of("alert"):
        assert at[("alert", a["flow_id"])] < at[("flow", a["flow_id"])]
    # the last stats record counts them, written after them; no counters without the thread
    st = own.of("stats")[-1]["stats"]
    assert st["flow"]["recycler"]["recycled"] == 14
    assert 1 <= st["flow"]["recycler"]["queue_max"] <= 14
    assert own.records.index(own.of("stats")[-1]) > max(at[k] for k in at if k[0] == "flow")
    assert "recycler" not in inline.of("stats")[-1]["stats"]["flow"]


def test_more_flows_end_at_once_than_the_queue_holds(tmp_path):
    pk = [IP(src=f"10.{i >> 8 & 255}.{i & 255}.1", dst="10.255.0.1") /
          UDP(sport=1024 + i % 60000, dport=53) / Raw(b"q") for i in range(5000)]
    out = osprey_out(tmp_path, pk, [GET], "--set", "flow.recyclers=1")
    flows = out.of("flow")
    assert len(flows) == 5000
    assert sorted(f["flow_id"] for f in flows) == list(range(1, 5001))
    rec = out.of("stats")[-1]["stats"]["flow"]["recycler"]
    assert rec["recycled"] == 5000 and rec["queue_max"] <= 4096


def test_auto_takes_the_thread_when_a_cpu_is_free(tmp_path):
    single = osprey_out(tmp_path, http_conv(), [GET], "--runmode", "single", name="s")
    has = "recycler" in single.of("stats")[-1]["stats"]["flow"]
    assert has == ((os.cpu_count() or 1) > 1)
    if has:
        assert single.of("stats")[-1]["stats"]["flow"]["recycler"]["recycled"] == 1
