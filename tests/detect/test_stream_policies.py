"""Sessions whose handshake was not seen: stream.midstream, stream.midstream-policy and the
exception-policy master switch, in IDS mode, with --simulate-ips and inline on AF_PACKET;
and the suricata.yaml keys Osprey accepts without a use for them."""
import json

from scapy.layers.l2 import Ether

from conftest import binary, run
from detect_helpers import Conv, detect, rule
from inline_helpers import IP_A, IP_B, MAC_A, bridge, converse, wrap
from netns_helpers import summary_counts

REQ = b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n"
RESP = b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nuid=0(root)\n"
RULES = [rule('content:"uid=0(root)";', sid=1)]


def midstream_conv():
    """An HTTP exchange picked up after its handshake."""
    return Conv().send(True, REQ).send(False, RESP).close().pkts


def handshake_conv():
    return Conv().handshake().send(True, REQ).send(False, RESP).close().pkts


def run_case(tmp_path, name, pkts, *args):
    """(alert sids, http urls logged, stderr)."""
    res = detect(tmp_path, pkts, RULES, "--set", "outputs.eve-log.types=[alert,http]", *args,
                 name=name)
    eve = tmp_path / f"{name}-log" / "eve.json"
    recs = [json.loads(l) for l in eve.read_text().splitlines()]
    return res.sids, [r["http"]["url"] for r in recs if r["event_type"] == "http"], res.proc.stderr


MID = ("--set", "stream.midstream=true")


def test_midstream_sessions_are_inspected_by_default(tmp_path):
    for mode in ([], ["--simulate-ips"]):  # auto with midstream on: ignore, in both modes
        sids, urls, err = run_case(tmp_path, f"d{len(mode)}", midstream_conv(), *MID, *mode)
        assert (sids, urls) == ([1], ["/index.html"]), err
        assert "warning" not in err


def test_without_midstream_such_sessions_are_not_tracked(tmp_path):
    # no session, so no HTTP; but each packet's payload is inspected, as Suricata does (IDS:
    # the midstream policy is ignore)
    sids, urls, _ = run_case(tmp_path, "off", midstream_conv())
    assert (sids, urls) == ([1], [])


def test_pass_flow_tracks_and_parses_but_does_not_inspect(tmp_path):
    for mode in ([], ["--simulate-ips"]):
        sids, urls, err = run_case(tmp_path, f"p{len(mode)}", midstream_conv(), *MID, *mode,
                                   "--set", "stream.midstream-policy=pass-flow")
        assert (sids, urls) == ([], ["/index.html"]), err
    # sessions with a handshake are not concerned
    sids, urls, _ = run_case(tmp_path, "hs", handshake_conv(), *MID,
                             "--set", "stream.midstream-policy=pass-flow")
    assert (sids, urls) == ([1], ["/index.html"])


def test_master_switch_applies_when_the_policy_is_not_set(tmp_path):
    sids, urls, err = run_case(tmp_path, "m1", midstream_conv(), *MID,
                               "--set", "exception-policy=pass-flow")
    assert (sids, urls, "warning" in err) == ([], ["/index.html"], False)
    # the policy's own key wins over the master switch
    sids, urls, _ = run_case(tmp_path, "m2", midstream_conv(), *MID,
                             "--set", "exception-policy=pass-flow",
                             "--set", "stream.midstream-policy=ignore")
    assert (sids, urls) == ([1], ["/index.html"])
    # IDS mode: a drop-flow master switch means ignore (nothing is dropped, no warning)
    sids, urls, err = run_case(tmp_path, "m3", midstream_conv(), *MID,
                               "--set", "exception-policy=drop-flow")
    assert (sids, urls, "warning" in err) == ([1], ["/index.html"], False)


def test_a_policy_that_does_not_fit_midstream_warns_and_stops_the_pick_up(tmp_path):
    for value in ("drop-flow", "bypass", "reject"):
        sids, urls, err = run_case(tmp_path, value, midstream_conv(), *MID, "--simulate-ips",
                                   "--set", f"stream.midstream-policy={value}")
        assert (sids, urls) == ([], []), value
        assert (f"warning: --set: stream.midstream-policy: '{value}' with stream.midstream on: "
                "only ignore and pass-flow let such sessions be picked up") in err


def test_drop_flow_in_ids_mode_warns(tmp_path):
    _, _, err = run_case(tmp_path, "idsdrop", midstream_conv(),
                         "--set", "stream.midstream-policy=drop-flow")
    assert "'drop-flow' in IDS mode" in err


def test_a_bad_policy_is_an_error_naming_the_key(tmp_path):
    proc = run([binary("osprey"), "--set", "stream.midstream-policy=drop", "--dump-config"],
               check=False)
    assert proc.returncode == 1
    assert "stream.midstream-policy: expected one of" in proc.stderr


def test_suricata_keys_without_effect_are_accepted_quietly_typos_are_not(tmp_path):
    keys = ["stats.decoder-events=true", "stats.stream-events=true", "stream.inline=true",
            "detect.guess-applayer-tx=true", "detect.prefilter.default=auto",
            "exception-policy=ignore", "stream.midstream-policy=auto"]
    args = [a for k in keys for a in ("--set", k)]
    proc = run([binary("osprey"), *args, "--dump-config"])
    assert "warning" not in proc.stderr
    proc = run([binary("osprey"), "--set", "stream.inlin=true", "--dump-config"])
    assert "unknown key 'stream.inlin'" in proc.stderr


def test_inline_drops_sessions_it_did_not_see_start_unless_told_otherwise(tmp_path):
    """IPS, stream.midstream off, exception-policy auto: drop-flow. A connection already
    running when the sensor came up does not cross; a new one does."""
    rules = 'alert tcp any any -> any 80 (msg:"x"; content:"nothing-matches"; sid:9;)\n'
    old = Conv(src=IP_A, dst=IP_B, sport=40100, dport=80, wrap=wrap).send(True, b"mid-stream")
    new = Conv(src=IP_A, dst=IP_B, sport=40101, dport=80, wrap=wrap).handshake()
    new.send(True, b"fresh")
    with bridge(tmp_path, rules) as (o, wa, wb, _):
        converse(wa, wb, old.pkts + new.pkts, expect_drop=lambda i, f: i < len(old.pkts))
        out, _ = o.stop()
    assert wb.frames == [bytes(f) for f in new.pkts if f[Ether].src == MAC_A]
    forwarded, dropped, *_ = summary_counts(out)
    assert (forwarded, dropped) == (len(new.pkts), len(old.pkts)), out
    # the master switch set to ignore lets it through
    (tmp_path / "logs").rename(tmp_path / "logs-1")
    with bridge(tmp_path, rules, "--set", "exception-policy=ignore") as (o, wa, wb, _):
        converse(wa, wb, old.pkts)
        o.stop()
    assert len(wb.frames) == len([f for f in old.pkts if f[Ether].src == MAC_A])


def dropped_summary(res):
    line = [l for l in res.proc.stdout.splitlines() if "simulated IPS" in l]
    assert len(line) == 1, res.proc.stdout
    return line[0].split(": ", 2)[2]


def test_simulated_ips_drops_sessions_it_did_not_see_start(tmp_path):
    pkts = midstream_conv()
    res = detect(tmp_path, pkts, RULES, "--simulate-ips")
    assert dropped_summary(res) == (f"{len(pkts)} packets dropped (0 of dropped flows, "
                                    f"{len(pkts)} by the midstream policy), 0 rejected")
    res = detect(tmp_path, pkts, RULES, "--simulate-ips", "--set", "stream.midstream-policy=reject",
                 name="rej")
    assert dropped_summary(res) == (f"{len(pkts)} packets dropped (0 of dropped flows, "
                                    f"{len(pkts)} by the midstream policy), 1 rejected")
    res = detect(tmp_path, pkts, RULES, "--simulate-ips", "--set", "exception-policy=ignore",
                 name="ign")
    assert dropped_summary(res) == ("0 packets dropped (0 of dropped flows, 0 by the midstream "
                                    "policy), 0 rejected")
    assert "simulated IPS" not in detect(tmp_path, pkts, RULES, name="ids").proc.stdout


def bad_checksum_conv():
    """A segment with a bad TCP checksum, then a good one with other bytes in its place."""
    c = Conv().handshake()
    bad = c._pkt(True, "PA", b"EVIL!", seq=c.seq[True])
    bad["TCP"].chksum = 0x1234  # wrong whatever the rest
    c.pkts.append(bad)
    c.pkts.append(c._pkt(True, "PA", b"fine-data", seq=c.seq[True]))
    c.seq[True] += 9
    c.pkts.append(c._pkt(False, "A"))
    return c.pkts


CSUM_RULES = [rule('content:"EVIL!";', sid=1), rule('content:"fine-data";', sid=2)]


VALIDATE = ("--set", "stream.checksum-validation=yes")


def test_a_bad_checksum_segment_stays_out_of_the_stream(tmp_path, trace):
    pkts = bad_checksum_conv()
    # checked (-k all) with stream.checksum-validation on: the receiving host would have
    # thrown the segment away, so the good one in its place is the stream
    assert detect(tmp_path, pkts, CSUM_RULES, "-k", "all", *VALIDATE).sids == [2]
    assert trace(pkts, "-k", "all", *VALIDATE).stats["tcp"]["invalid_checksum"] == 1
    # validation off (the default), or checksums not checked: the first copy is the stream
    assert detect(tmp_path, pkts, CSUM_RULES, "-k", "all", name="off").sids == [1]
    assert detect(tmp_path, pkts, CSUM_RULES, "-k", "none", *VALIDATE, name="none").sids == [1]
    assert trace(pkts, "-k", "none", *VALIDATE).stats["tcp"]["invalid_checksum"] == 0


def test_a_session_starts_at_its_first_good_packet(tmp_path, trace):
    c = Conv()
    syn = c._pkt(True, "S", seq=777)  # another ISN than the real handshake's
    syn["TCP"].chksum = 0x1234
    c.pkts.append(syn)           # a SYN with a bad checksum starts nothing …
    c.handshake()                # … the good one does
    c.send(True, b"fine-data").close()
    assert detect(tmp_path, c.pkts, CSUM_RULES, "-k", "all", *VALIDATE).sids == [2]
    tcp = trace(c.pkts, "-k", "all", *VALIDATE).stats["tcp"]
    assert (tcp["sessions"], tcp["orphans"], tcp["invalid_checksum"]) == (1, 1, 1)
    # counted as any packet (the default), the bad SYN is what starts the session
    tcp = trace(c.pkts, "-k", "all").stats["tcp"]
    assert (tcp["sessions"], tcp["orphans"], tcp["invalid_checksum"]) == (1, 0, 0)


def memcap_case(tmp_path, name, *args):
    """Client data packets of a session whose buffers the memcap (1kb: less than one ring)
    refuses; a packet rule alerts on each. (alerting pcap_cnts, summary of the drops)"""
    c = Conv().handshake()
    for _ in range(3):
        c.send(True, b"data")
    rules = [rule("flow:to_server; dsize:>0;", sid=1)]
    res = detect(tmp_path, c.pkts, rules, "--set", "stream.reassembly.memcap=1kb", *args,
                 name=name)
    line = [l for l in res.proc.stdout.splitlines() if "simulated IPS" in l]
    return [a["pcap_cnt"] for a in res.alerts], (line[0].split(": ", 2)[2] if line else None)


def test_reassembly_memcap_policy(tmp_path):
    every = [4, 6, 8]
    # IDS: auto is ignore, the packets go on being inspected
    assert memcap_case(tmp_path, "ids") == (every, None)
    # IPS: auto is drop-flow; the first data packet hits the memcap: it and the rest dropped
    assert memcap_case(tmp_path, "ips", "--simulate-ips") == ([4], (
        "6 packets dropped (5 of dropped flows, 0 by the midstream policy), 0 rejected"))
    assert memcap_case(tmp_path, "ign", "--simulate-ips", "--set",
                       "stream.reassembly.memcap-policy=ignore")[0] == every
    # the master switch: pass-flow stops inspection, drops nothing
    assert memcap_case(tmp_path, "pass", "--simulate-ips", "--set",
                       "exception-policy=pass-flow") == ([4], (
        "0 packets dropped (0 of dropped flows, 0 by the midstream policy), 0 rejected"))
    # drop-packet: only the packet that hit it (later packets get no new buffer error)
    assert memcap_case(tmp_path, "dp", "--simulate-ips", "--set",
                       "stream.reassembly.memcap-policy=drop-packet") == (every, (
        "1 packets dropped (0 of dropped flows, 0 by the midstream policy), 0 rejected"))
    # set on its own in IDS mode, drop-flow still ends inspection of the flow, as Suricata's
    assert memcap_case(tmp_path, "idsdrop", "--set",
                       "stream.reassembly.memcap-policy=drop-flow")[0] == [4]
