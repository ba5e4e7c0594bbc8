"""EVE records besides alerts: flow (when a flow ends), anomaly (decoder / stream), stats
(periodically and at exit), community_id, and the types list that picks them."""
import base64
import hashlib
import ipaddress
import json
import struct

from scapy.layers.inet import IP, ICMP, TCP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import GRE, Ether
from scapy.packet import Raw

from detect_helpers import Conv, http_conv, udp
from outputs_helpers import osprey_out, rule

GET = rule('content:"GET";', sid=1)


def traffic():
    return (http_conv()                                                  # flow 1: alerts
            + [udp(b"hello", dst="10.0.0.3")]                            # flow 2: quiet
            + [IP(src="10.0.0.1", dst="10.0.0.4") / ICMP(type=8) / Raw(b"ping"),
               IP(src="10.0.0.4", dst="10.0.0.1") / ICMP(type=0) / Raw(b"ping")])


def test_flow_records_have_suricatas_keys_and_counts(tmp_path):
    out = osprey_out(tmp_path, traffic(), [GET])
    flows = {f["flow_id"]: f for f in out.of("flow")}
    assert sorted(flows) == [1, 2, 3]
    tcp = flows[1]
    assert list(tcp) == ["timestamp", "flow_id", "event_type", "src_ip", "src_port", "dest_ip",
                         "dest_port", "proto", "app_proto", "flow", "tcp"]
    assert tcp["app_proto"] == "http"  # the parsers recognised the request
    assert (tcp["src_ip"], tcp["src_port"], tcp["dest_ip"], tcp["dest_port"], tcp["proto"]) == \
        ("10.0.0.1", 40000, "10.0.0.2", 80, "TCP")
    # handshake 3 + request 1 + ack 1 + response 1 + ack 1 + FIN/FIN/ACK 3 = 10 packets
    assert tcp["flow"] == {
        "pkts_toserver": 6, "pkts_toclient": 4, "bytes_toserver": 277, "bytes_toclient": 211,
        "start": "2020-09-13T12:26:40.000000+0000", "end": "2020-09-13T12:26:40.009000+0000",
        "age": 0, "state": "closed", "reason": "shutdown", "alerted": True}
    assert tcp["tcp"] == {"tcp_flags": "1b", "tcp_flags_ts": "1b", "tcp_flags_tc": "1b",
                          "syn": True, "fin": True, "psh": True, "ack": True,
                          "state": "closed"}  # Suricata's one state, named from the server's side
    # stamped when written: every flow here ends with the input, after its last packet (ICMP)
    assert tcp["timestamp"] == "2020-09-13T12:26:40.012000+0000"
    u = flows[2]
    assert (u["proto"], u["dest_port"], u["flow"]["pkts_toserver"], u["flow"]["pkts_toclient"],
            u["flow"]["state"], u["flow"]["alerted"]) == ("UDP", 53, 1, 0, "new", False)
    assert "tcp" not in u
    icmp = flows[3]
    assert "src_port" not in icmp and "dest_port" not in icmp
    assert (icmp["icmp_type"], icmp["icmp_code"], icmp["response_icmp_type"],
            icmp["response_icmp_code"]) == (8, 0, 0, 0)
    assert icmp["flow"]["state"] == "established" and icmp["flow"]["alerted"] is False
    # flow records come after the alert of their flow (the flow ends at the end of input)
    types = [r["event_type"] for r in out.records]
    assert types.index("alert") < types.index("flow")


def test_tunnelled_flow_lists_its_encapsulation(tmp_path):
    outer = lambda p: IP(src="192.0.2.1", dst="192.0.2.2") / GRE() / p
    out = osprey_out(tmp_path, Conv(wrap=outer).handshake().close().pkts, [GET])
    (f,) = out.of("flow")
    assert f["encapsulation"] == ["gre"] and f["src_ip"] == "10.0.0.1"


# decoder and stream anomaly records are off by default, as in Suricata (anomaly.types)
ANOMALIES = ["--set", "outputs.eve-log.anomaly.types.decode=yes",
             "--set", "outputs.eve-log.anomaly.types.stream=yes"]


def test_anomaly_records_follow_suricatas_defaults_and_its_yaml_form(tmp_path):
    truncated = IP(src="10.0.0.1", dst="10.0.0.5", len=400) / TCP() / Raw(b"x" * 10)
    c = Conv().handshake().send(True, b"AAAAAAAA")
    c.raw(True, b"BBBBBBBB", -8)
    pkts = [truncated, *c.close().pkts]
    assert osprey_out(tmp_path, pkts, [GET], name="default").of("anomaly") == []
    conf = tmp_path / "suricata-form.yaml"
    conf.write_text("outputs:\n  - eve-log:\n      enabled: yes\n      filename: eve.json\n"
                    "      types:\n        - alert\n        - anomaly:\n            enabled: yes\n"
                    "            types:\n              decode: yes\n              stream: no\n")
    out = osprey_out(tmp_path, pkts, [GET], "-c", str(conf), name="yaml")
    assert {a["anomaly"]["type"] for a in out.of("anomaly")} == {"decode"}
    off = osprey_out(tmp_path, pkts, [GET], *ANOMALIES, "--set",
                     "outputs.eve-log.anomaly.enabled=no", name="off")
    assert off.of("anomaly") == []


def test_decoder_anomaly_records(tmp_path):
    truncated = IP(src="10.0.0.1", dst="10.0.0.5", len=400) / TCP() / Raw(b"x" * 10)
    bad_tcp_hlen = IP(src="10.0.0.1", dst="10.0.0.6") / TCP(dataofs=2) / Raw(b"y" * 8)
    out = osprey_out(tmp_path, [udp(b"fine"), truncated, bad_tcp_hlen], [GET], *ANOMALIES)
    an = out.of("anomaly")
    assert [(a["pcap_cnt"], a["anomaly"]) for a in an] == [
        (2, {"type": "decode", "event": "decoder.ipv4.trunc_pkt"}),
        (3, {"type": "decode", "event": "decoder.tcp.hlen_too_small"}),
    ]
    # the second packet's IP header is usable: the record names its addresses
    assert (an[1]["src_ip"], an[1]["dest_ip"], an[1]["proto"]) == ("10.0.0.1", "10.0.0.6", "TCP")
    assert "src_ip" not in an[0]  # the IPv4 header claimed more than was captured
    assert out.records[0]["event_type"] == "anomaly"  # written as the packet is seen


def test_stream_anomaly_record(tmp_path):
    c = Conv().handshake().send(True, b"AAAAAAAA")
    # the same bytes again with different content: overlap with different data
    c.raw(True, b"BBBBBBBB", -8)
    c.close()
    out = osprey_out(tmp_path, c.pkts, [GET], *ANOMALIES)
    events = [(a["anomaly"]["type"], a["anomaly"]["event"]) for a in out.of("anomaly")]
    assert ("stream", "stream.reassembly_overlap_different_data") in events
    stats = out.of("stats")[-1]["stats"]
    assert stats["tcp"]["overlap_diff_data"] == 1


def test_decoder_notes_and_stream_events_are_anomaly_records(tmp_path):
    """What the decoders note without stopping and the stream events of the TCP state
    machine are anomaly records too, named as Suricata's; a note that names the layer of an
    anomaly libmon words its own way stands for it. None under the default configuration."""
    from scapy.layers.inet6 import ICMPv6EchoRequest, IPv6ExtHdrRouting
    rh0 = (IPv6(src="2001:db8::1", dst="2001:db8::2") /
           IPv6ExtHdrRouting(type=0, addresses=["2001:db8::3"]) / ICMPv6EchoRequest())
    # an MPLS bottom label 5 (reserved): libmon's mpls.bad_label, Suricata's bad_label_reserved
    reserved = (Raw(struct.pack("!I", (5 << 12) | 0x100 | 64)) /
                IP(src="10.0.0.1", dst="10.0.0.2") / UDP())
    c = Conv().handshake()
    c.pkts.append(c._pkt(True, "S", seq=1000))  # the client's SYN again, once established
    mac = dict(src="00:00:00:00:00:01", dst="00:00:00:00:00:02")
    pkts = ([Ether(**mac) / rh0, Ether(type=0x8847, **mac) / reserved] +
            [Ether(**mac) / p for p in c.pkts])
    out = osprey_out(tmp_path, pkts, [GET], *ANOMALIES)
    assert [(a["pcap_cnt"], a["anomaly"]) for a in out.of("anomaly")] == [
        (1, {"type": "decode", "event": "decoder.ipv6.rh_type_0"}),
        (2, {"type": "decode", "event": "decoder.mpls.bad_label_reserved"}),
        (6, {"type": "stream", "event": "stream.est_syn_resend"}),
        # (and libmon's own counter: the server, established, takes no SYN)
        (6, {"type": "stream", "event": "stream.pkt_invalid_state"}),
    ]
    assert osprey_out(tmp_path, pkts, [GET], name="default").of("anomaly") == []


def test_stats_record_at_exit_adds_up_the_run(tmp_path):
    out = osprey_out(tmp_path, traffic(), [GET])
    (st,) = out.of("stats")  # a short run: only the one at exit
    assert out.records[-1] is not None and out.records[-1]["event_type"] == "stats"
    s = st["stats"]
    assert s["decoder"]["pkts"] == 13 and s["decoder"]["ipv4"] == 13
    assert (s["decoder"]["tcp"], s["decoder"]["udp"], s["decoder"]["icmpv4"]) == (10, 1, 2)
    # Suricata splits ICMP flows by IP version; libmon's one count is Osprey's own
    assert s["flow"]["total"] == 3 and (s["flow"]["tcp"], s["flow"]["udp"]) == (1, 1)
    assert s["osprey"]["flow"]["icmp"] == 1
    assert s["tcp"]["sessions"] == 1
    assert s["detect"]["alert"] == 1
    assert s["app_layer"]["flow"]["http"] == 1 and s["app_layer"]["tx"]["http"] == 1
    # "hello" to port 53 is no DNS message (DNS counted over both transports: Osprey's own)
    assert s["osprey"]["app_layer"]["tx"]["dns"] == 0
    assert s["decoder"]["event"]["ipv4"]["trunc_pkt"] == 0
    assert isinstance(s["uptime"], int)


def test_stats_record_counts_workers_together(tmp_path):
    pk = []
    for i in range(8):
        pk += http_conv(src=f"10.0.1.{i + 1}", sport=41000 + i)
    single = osprey_out(tmp_path, pk, [GET], name="s").of("stats")[-1]["stats"]
    multi = osprey_out(tmp_path, pk, [GET], "--runmode", "workers",
                       "--set", "threading.workers=3", name="w").of("stats")[-1]["stats"]
    for k in ("pkts", "bytes", "tcp"):
        assert multi["decoder"][k] == single["decoder"][k]
    assert multi["flow"]["total"] == single["flow"]["total"] == 8
    assert multi["detect"]["alert"] == single["detect"]["alert"] == 8
    assert "threads" not in multi  # stats.threads: no (the default)


def test_stats_threads_gives_each_workers_counters(tmp_path):
    pk = []
    for i in range(8):
        pk += http_conv(src=f"10.0.1.{i + 1}", sport=41000 + i)
    s = osprey_out(tmp_path, pk, [GET], "--runmode", "workers", "--set", "threading.workers=3",
                   "--set", "stats.threads=yes").of("stats")[-1]["stats"]
    threads = s["threads"]
    assert sorted(threads) == ["W#01", "W#02", "W#03"]
    # each worker's own counters add up to the totals beside them
    for sect, key in (("decoder", "pkts"), ("decoder", "bytes"), ("flow", "total"),
                      ("tcp", "sessions"), ("detect", "alert")):
        assert sum(t[sect][key] for t in threads.values()) == s[sect][key]
    assert s["flow"]["total"] == 8 and s["detect"]["alert"] == 8
    assert sum(1 for t in threads.values() if t["flow"]["total"]) >= 2  # the flows spread


def test_types_list_picks_records(tmp_path):
    out = osprey_out(tmp_path, traffic(), [GET], "--set", "outputs.eve-log.types=[flow]")
    assert {r["event_type"] for r in out.records} == {"flow"}
    out = osprey_out(tmp_path, traffic(), [GET], "--set", "outputs.eve-log.types=alert,stats",
                     name="b")
    assert [r["event_type"] for r in out.records] == ["alert", "stats"]
    out = osprey_out(tmp_path, traffic(), [GET], "--set", "stats.enabled=no", name="c")
    assert "stats" not in {r["event_type"] for r in out.records}
    bad = osprey_out(tmp_path, traffic(), [GET], "--set", "outputs.eve-log.types=[alert,dns2]",
                     name="d", check=False)
    assert bad.proc.returncode == 1 and "unknown record type 'dns2'" in bad.proc.stderr
    # a type Suricata has and osprey does not write (from a suricata.yaml): a warning
    out = osprey_out(tmp_path, traffic(), [GET],
                     "--set", "outputs.eve-log.types=[alert,template]", name="e")
    assert "'template' records are not written by osprey (ignored)" in out.proc.stderr
    assert [r["event_type"] for r in out.records] == ["alert"]


def test_eve_off(tmp_path):
    out = osprey_out(tmp_path, traffic(), [GET], "--set", "outputs.eve-log.enabled=no")
    assert not (out.logdir / "eve.json").exists()
    assert len(out.fast) == 1  # the other outputs still work


def community_id(src, dst, proto, sport, dport, seed=0):
    """The Community ID spec (v1) written out independently, for comparison."""
    a, b = ipaddress.ip_address(src).packed, ipaddress.ip_address(dst).packed
    if (a, sport) > (b, dport):
        a, b, sport, dport = b, a, dport, sport
    data = struct.pack("!H", seed) + a + b + struct.pack("!BB", proto, 0) + \
        struct.pack("!HH", sport, dport)
    return "1:" + base64.b64encode(hashlib.sha1(data).digest()).decode()


def test_community_id(tmp_path):
    # the spec's own example tuple: 128.232.110.120:34855 -> 66.35.250.204:80 (TCP)
    assert community_id("128.232.110.120", "66.35.250.204", 6, 34855, 80) == \
        "1:LQU9qZlK+B5F3KDmev6m5PMibrg="
    # one link type for both (a pcap has one): Ethernet
    pk = http_conv(src="128.232.110.120", dst="66.35.250.204", sport=34855,
                   wrap=lambda p: Ether() / p)
    pk += [Ether() / IPv6(src="2001:db8::2", dst="2001:db8::1") / UDP(sport=53, dport=1053)
           / Raw(b"GET")]
    rules = [GET, rule('content:"GET";', sid=2, proto="udp")]
    out = osprey_out(tmp_path, pk, rules, "--set", "outputs.eve-log.community-id=yes")
    want_tcp = "1:LQU9qZlK+B5F3KDmev6m5PMibrg="
    want_udp = community_id("2001:db8::2", "2001:db8::1", 17, 53, 1053)
    got = {(r["event_type"], r["proto"]): r["community_id"] for r in out.records
           if r["event_type"] in ("alert", "flow")}
    assert got == {("alert", "TCP"): want_tcp, ("flow", "TCP"): want_tcp,
                   ("alert", "UDP"): want_udp, ("flow", "UDP"): want_udp}
    seeded = osprey_out(tmp_path, pk, rules, "--set", "outputs.eve-log.community-id=yes",
                        "--set", "outputs.eve-log.community-id-seed=7", name="s")
    assert seeded.of("alert")[0]["community_id"] == \
        community_id("128.232.110.120", "66.35.250.204", 6, 34855, 80, seed=7)
    plain = osprey_out(tmp_path, pk, rules, name="p")
    assert all("community_id" not in r for r in plain.records)


def test_every_line_is_one_json_object(tmp_path):
    out = osprey_out(tmp_path, traffic() * 3, [GET])
    assert out.eve_text.endswith("\n")
    for line in out.eve_text.splitlines():
        assert isinstance(json.loads(line), dict)


def test_bad_checksums_are_counted_not_logged(tmp_path):
    bad = IP(src="10.0.0.1", dst="10.0.0.7") / TCP(sport=1, dport=2, chksum=0x1234) / Raw(b"z")
    short = IP(src="10.0.0.1", dst="10.0.0.5", len=400) / TCP() / Raw(b"x" * 10)
    out = osprey_out(tmp_path, [bad, short], [GET], "-k", "all", *ANOMALIES)
    assert [a["anomaly"]["event"] for a in out.of("anomaly")] == ["decoder.ipv4.trunc_pkt"]
    assert out.of("stats")[-1]["stats"]["tcp"]["invalid_checksum"] == 1  # Suricata's name


def test_icmp_alert_has_type_and_code(tmp_path):
    ping = IP(src="10.0.0.1", dst="10.0.0.4") / ICMP(type=8, code=0) / Raw(b"ping")
    unreach = IP(src="10.0.0.4", dst="10.0.0.1") / ICMP(type=3, code=1) / Raw(b"x" * 28)
    rules = ['alert icmp any any -> any any (msg:"icmp"; sid:5;)']
    out = osprey_out(tmp_path, [ping, unreach], rules)
    a = out.of("alert")
    assert [(r["icmp_type"], r["icmp_code"]) for r in a] == [(8, 0), (3, 1)]
    assert list(a[0])[list(a[0]).index("proto") + 1:][:2] == ["icmp_type", "icmp_code"]
    assert "src_port" not in a[0]
    assert [l.split("{ICMP} ")[1] for l in out.fast] == ["10.0.0.1:8 -> 10.0.0.4:0",
                                                         "10.0.0.4:3 -> 10.0.0.1:1"]


def test_defrag_anomaly_record(tmp_path):
    # a UDP datagram in three fragments; the second rewrites bytes the first already gave
    udp_hdr = b"\x13\x88\x00\x35\x00\x20\x00\x00"  # 5000 -> 53, length 32, no checksum
    first = IP(src="10.0.0.1", dst="10.0.0.2", id=77, flags="MF", frag=0, proto=17) / Raw(
        udp_hdr + b"A" * 8)
    overlap = IP(src="10.0.0.1", dst="10.0.0.2", id=77, flags="MF", frag=1, proto=17) / Raw(
        b"B" * 16)
    last = IP(src="10.0.0.1", dst="10.0.0.2", id=77, frag=3, proto=17) / Raw(b"C" * 8)
    out = osprey_out(tmp_path, [first, overlap, last], [GET], *ANOMALIES)
    an = [(a["pcap_cnt"], a["anomaly"]) for a in out.of("anomaly")]
    # libmon's anomaly, and the overlap itself as Suricata names it (any overlap, a note)
    assert an == [(2, {"type": "decode", "event": "decoder.ipfrag.overlap_different_data"}),
                  (2, {"type": "decode", "event": "decoder.ipv4.frag_overlap"})]
    s = out.of("stats")[-1]["stats"]
    # Suricata counts fragments per IP version; libmon counts them together: Osprey's own
    d = s["osprey"]["defrag"]
    assert (d["fragments"], d["reassembled"], d["overlaps"]) == (3, 1, 1)


def test_max_frags_is_suricatas_defrag_counter(tmp_path):
    # a UDP datagram in 8 fragments with defrag.max-frags 4: dropped, counted under
    # Suricata's name (defrag.max_frags_reached), not as a decoder event
    whole = b"\x13\x88\x00\x35\x00\x40\x00\x00" + b"m" * 56  # 5000 -> 53, length 64
    frags = [IP(src="10.0.0.1", dst="10.0.0.2", id=78, proto=17, frag=o // 8,
                flags="MF" if o != 56 else 0) / Raw(whole[o:o + 8]) for o in range(0, 64, 8)]
    out = osprey_out(tmp_path, frags, [GET], "--set", "defrag.max-frags=4")
    s = out.of("stats")[-1]["stats"]
    assert s["defrag"]["max_frags_reached"] == 1
    assert "max_frags" not in s["osprey"]["decoder"]["event"]["ipfrag"]


def test_alerts_carry_the_ip_version_before_proto(tmp_path):
    # Suricata 8's ip_v: 4 or 6, the alerting packet's
    pkts = [Ether() / udp(b"hello"), Ether() / IPv6(src="2001:db8::1", dst="2001:db8::2") /
            UDP(sport=1, dport=2) / Raw(b"hello")]
    out = osprey_out(tmp_path, pkts, ['alert udp any any -> any any (msg:"h"; content:"hello"; '
                                      'sid:7;)'])
    alerts = out.of("alert")
    assert [a["ip_v"] for a in alerts] == [4, 6]
    keys = list(alerts[0])
    assert keys.index("ip_v") == keys.index("proto") - 1
