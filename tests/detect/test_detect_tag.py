"""tag: after a tagging rule alerts, the following packets of its flow (session) or to and
from a host are logged as EVE "packet" records (Suricata's alert.tagged-packets), for N
packets (the alert's own packet counts, and is not logged), bytes or seconds."""
import base64
import json

import pytest
from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from detect_helpers import check_rejected_alone, CLI, SRV, Conv, detect, rule, udp

OTHER = "10.0.0.9"


def packets(tmp_path, name="t"):
    eve = tmp_path / f"{name}-log" / "eve.json"
    return [r for r in map(json.loads, eve.read_text().splitlines())
            if r["event_type"] == "packet"]


def cnts(tmp_path, name="t"):
    return [r["pcap_cnt"] for r in packets(tmp_path, name)]


def test_session_tag_logs_the_flow_packets_after_the_alert(tmp_path):
    conv = Conv().handshake().send(True, b"GET / HTTP/1.0\r\n\r\n").close().pkts
    other = udp(b"x", src=CLI, dst=SRV)  # same hosts, another flow: not in the session
    rules = [rule("flags:S; tag:session,4,packets;", sid=1)]
    r = detect(tmp_path, conv[:3] + [other] + conv[3:], rules)
    assert [a["pcap_cnt"] for a in r.alerts] == [1]
    assert cnts(tmp_path) == [2, 3, 5]  # 4 packets with the SYN: three more of the flow


def test_session_tag_default_is_256_packets(tmp_path):
    rules = [rule('content:"go"; tag:session;', sid=1, proto="udp")]
    pkts = [udp(b"go")] + [udp(b"more") for _ in range(300)]
    detect(tmp_path, pkts, rules)
    assert cnts(tmp_path) == list(range(2, 257))


def test_host_tag_src_and_dst_cover_both_directions(tmp_path):
    rules = [rule('content:"hit"; tag:host,3,packets,dst;', sid=1, proto="udp")]
    pkts = [udp(b"hit"),                            # SRV is tagged for 3 packets (this one too)
            udp(b"a", src=OTHER, dst=CLI),          # near miss: SRV not in it
            udp(b"b", src=SRV, dst=OTHER),          # from SRV
            udp(b"c", src=OTHER, dst=SRV),          # to SRV: the third
            udp(b"d", src=OTHER, dst=SRV)]          # used up
    detect(tmp_path, pkts, rules)
    assert cnts(tmp_path) == [3, 4]


def test_host_tag_seconds_and_bytes(tmp_path):
    rules = [rule('content:"sec"; tag:host,3,seconds,src;', sid=1, proto="udp"),
             rule('content:"byt"; tag:host,200,bytes,src;', sid=2, proto="udp")]
    # one packet a second: the seconds tag of CLI covers 1 s and 2 s after the alert
    pkts = [udp(b"sec"), udp(b"x"), udp(b"x"), udp(b"x"), udp(b"x")]
    detect(tmp_path, pkts, rules, step=1.0, name="s")
    assert cnts(tmp_path, "s") == [2, 3]
    # 200 bytes: the alert packet (31 bytes) and then packets of 100 bytes while any is left
    big = udp(b"y" * 72, src=OTHER, dst=CLI)
    detect(tmp_path, [udp(b"byt"), big, big, big], rules, name="b")
    assert cnts(tmp_path, "b") == [2, 3]


def test_packet_record_holds_the_frame(tmp_path):
    rules = [rule('content:"hit"; tag:session,2,packets;', sid=1, proto="udp")]
    second = udp(b"payload-2")
    detect(tmp_path, [udp(b"hit"), second], rules)
    (rec,) = packets(tmp_path)
    assert base64.b64decode(rec["packet"]) == bytes(second)
    assert rec["packet_info"] == {"linktype": 228}  # raw IPv4 capture
    assert (rec["src_ip"], rec["src_port"], rec["dest_ip"], rec["dest_port"], rec["proto"]) == \
        (CLI, 5353, SRV, 53, "UDP")


def test_tagged_packets_off_writes_no_packet_records(tmp_path):
    rules = [rule('content:"hit"; tag:session,5,packets;', sid=1, proto="udp")]
    r = detect(tmp_path, [udp(b"hit"), udp(b"x")], rules, "--set",
               "outputs.eve-log.tagged-packets=no")
    assert r.sids == [1] and cnts(tmp_path) == []


@pytest.mark.parametrize("body,why", [
    ("tag:host,3,packets;", "host tags end with src or dst"),
    ("tag:session,3;", "missing metric"),
    ("tag:session,3,minutes;", "metric"),
    ("tag:host,3,packets,up;", "direction"),
])
def test_bad_tag_rejects_that_rule_only(tmp_path, body, why):
    check_rejected_alone(tmp_path, body, why, udp(b"x"))


def test_full_host_table_drops_tags_and_says_so(tmp_path):
    rules = [rule('content:"hit"; tag:host,1000,packets,src;', sid=1, proto="udp")]
    # 4,500 hosts each start a tag that lasts: the table of 4,096 cannot hold them all
    pkts = [IP(src=f"10.{1 + i // 250}.{i % 250}.1", dst=SRV) / UDP(sport=1, dport=2) /
            Raw(b"hit") for i in range(4500)]
    r = detect(tmp_path, pkts, rules)
    assert len(r.alerts) == 4500
    line = [l for l in r.proc.stderr.splitlines() if "tag: host table full" in l]
    assert len(line) == 1
    dropped = int(line[0].split("full, ")[1].split()[0])
    assert 4500 - 4096 <= dropped < 4500
