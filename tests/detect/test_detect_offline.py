"""`osprey -r`: corpus rules on corpus captures, evasions that must still alert, directories of
captures, the summary, and clear errors for missing input."""
import pytest

from scapy.layers.inet import IP, UDP, TCP
from scapy.layers.l2 import Ether, Dot1Q, GRE
from scapy.packet import Raw
from scapy.utils import wrpcap

from conftest import CORPUS, binary, run, stamp
from detect_helpers import Conv, detect, http_conv, rule, udp

ET2019 = CORPUS / "rules" / "et-open-suricata-4.0-2019-04"
TESTMYIDS = CORPUS / "pcaps" / "http" / "zeek__http__testmyids.pcap"


def test_gpl_2100498_fires_on_testmyids(tmp_path):
    r = detect(tmp_path, TESTMYIDS, (ET2019 / "emerging-attack_response.rules").read_text())
    assert r.sids == [2100498]
    a = r.alerts[0]
    assert a["alert"]["signature"] == "GPL ATTACK_RESPONSE id check returned root"
    assert a["alert"]["category"] == "Potentially Bad Traffic" and a["alert"]["severity"] == 2
    assert (a["src_ip"], a["src_port"], a["direction"]) == ("217.160.0.187", 80, "to_client")
    assert a["pcap_cnt"] == 6
    # 112: the file's HTTP rules run too since the parsers landed (43 before)
    assert "rules: 112 loaded, 112 compiled, 0 not compiled" in r.proc.stdout


RULES = [rule('content:"uid=0(root)";', sid=1),                    # stream
         rule('flow:to_client; content:"root"; content:"uid=0"; distance:-10; within:15;',
              sid=2)]


@pytest.mark.parametrize("seg,order", [
    (1, None),                        # one byte per segment
    (3, [3, 2, 1, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]),  # reordered
])
def test_segmentation_evasions_still_alert(tmp_path, seg, order):
    resp = b"HTTP/1.1 200 OK\r\n\r\nuid=0(root)\n..."
    n = (len(resp) + seg - 1) // seg
    if order is not None:
        order = [k for k in order if k < n] + list(range(20, n))
    pkts = Conv().handshake().send(True, b"GET / HTTP/1.1\r\n\r\n") \
        .send(False, resp, seg=seg, order=order).close().pkts
    r = detect(tmp_path, pkts, RULES)
    assert r.sids == [1, 2]


def test_overlap_evasion_still_alerts(tmp_path):
    # a retransmission with other bytes over data already delivered: the stream keeps what the
    # receiver accepted first, and the rule fires once, not again for the decoy
    c = Conv().handshake().send(True, b"GET / HTTP/1.1\r\n\r\n")
    real = b"HTTP/1.1 200 OK\r\n\r\nuid=0(root)\n"
    c.send(False, real)
    c.raw(False, b"uid=0(XXXX)", 19 - len(real))     # overlaps "uid=0(root)"
    pkts = c.close().pkts
    r = detect(tmp_path, pkts, [rule('content:"uid=0(root)";', sid=1),
                                rule('content:"uid=0(XXXX)";', sid=2)])
    assert r.sids == [1]


def test_ip_fragments_are_reassembled_before_inspection(tmp_path):
    from scapy.layers.inet import fragment
    p = IP(src="10.0.0.1", dst="10.0.0.2", id=7) / UDP(sport=1, dport=2) / Raw(
        b"A" * 40 + b"uid=0(root)" + b"B" * 40)
    frags = fragment(p, fragsize=24)
    assert len(frags) > 3
    r = detect(tmp_path, frags, [rule('content:"uid=0(root)";', proto="udp", sid=1),
                                 rule('flow:only_frag; content:"uid=0(root)";', proto="udp",
                                      sid=2),
                                 rule('flow:no_frag; content:"uid=0(root)";', proto="udp",
                                      sid=3)])
    assert r.sids == [1, 2]


def test_tunnels_are_inspected_inside(tmp_path):
    inner = http_conv()
    vlan = [Ether() / Dot1Q(vlan=5) / p for p in inner]
    gre = [Ether() / IP(src="192.0.2.1", dst="192.0.2.2") / GRE() / p
           for p in http_conv(sport=40001)]
    r = detect(tmp_path, vlan + gre, rule('flow:to_client; content:"uid=0(root)";'))
    assert r.sids == [1, 1]
    assert {a["src_ip"] for a in r.alerts} == {"10.0.0.2"}


def test_a_directory_of_captures(tmp_path):
    d = tmp_path / "caps"
    d.mkdir()
    wrpcap(str(d / "a.pcap"), stamp([udp(b"one")]))
    wrpcap(str(d / "b.pcap"), stamp([udp(b"two"), udp(b"one")], start=1_600_000_001.0))
    r = detect(tmp_path, d, rule('content:"one";', proto="udp"))
    assert [a["pcap_cnt"] for a in r.alerts] == [1, 3]
    assert "osprey: 3 packets" in r.proc.stdout


def test_missing_capture_is_a_clear_error(tmp_path):
    r = detect(tmp_path, tmp_path / "nope.pcap", rule('content:"x";'), check=False)
    assert r.proc.returncode == 1
    assert "nope.pcap: No such file or directory" in r.proc.stderr


def test_missing_rules_file_is_a_clear_error(tmp_path):
    wrpcap(str(tmp_path / "x.pcap"), stamp([udp(b"one")]))
    proc = run([binary("osprey"), "-r", str(tmp_path / "x.pcap"), "-S",
                str(tmp_path / "none.rules"), "-l", str(tmp_path)], check=False)
    assert proc.returncode == 1
    assert "none.rules" in proc.stderr and "could not be loaded" in proc.stderr


def test_unwritable_log_dir_is_a_clear_error(tmp_path):
    wrpcap(str(tmp_path / "x.pcap"), stamp([udp(b"one")]))
    (tmp_path / "r.rules").write_text(rule('content:"x";') + "\n")
    proc = run([binary("osprey"), "-r", str(tmp_path / "x.pcap"), "-S",
                str(tmp_path / "r.rules"), "-l", str(tmp_path / "no" / "such")], check=False)
    assert proc.returncode == 1 and "eve.json" in proc.stderr


def test_bad_k_and_runmode_are_usage_errors(tmp_path):
    for args in (["-k", "some"], ["--runmode", "autofp"]):
        proc = run([binary("osprey"), "-r", "x.pcap", *args], check=False)
        assert proc.returncode == 2


def test_dump_chains_shows_the_sharing(tmp_path):
    rf = tmp_path / "r.rules"
    rf.write_text("\n".join([
        rule('flow:to_client; content:"uid=0(root)";', sid=1),
        rule('flow:to_client; content:"uid=0(root)"; content:"x"; distance:0;', sid=2),
        rule('flow:to_client; content:"uid=0(root)";', sid=3, hdr="any 80 -> any any"),
    ]) + "\n")
    proc = run([binary("osprey"), "-T", "--dump-chains", "-S", str(rf)])
    out = proc.stdout
    assert out.count("mpm stream") == 1 and out.count('fast pattern "uid=0(root)"') == 1
    assert out.count("header stream tcp any any -> any any") == 1
    assert "=> 1 rule" in out
    assert "rules compiled 3 (packet 0, stream 3, app-layer 0), not compiled 0" in out
    # each rule has a stream chain and a packet chain ("[packet]" units read the packet that
    # brought the data) under the same fast pattern: 5 steps per chain (mpm, pattern, header,
    # flow, content run); sid 2 shares 4 of sid 1's, sid 3 the first 2; one more node: the
    # stream root above the mpm (ORPHAN runs it on a packet's payload)
    assert out.count("[packet] flow:to_client;") == 2
    assert "UDE nodes 15 for 30 chain steps (sharing saves 15), fast patterns 1" in out


def test_dump_chains_labels_the_units_the_rule_header_implies(tmp_path):
    # `alert http` without http buffers checks the flow's app_proto, `alert ipv4` the IP
    # version: units no option stands for, labelled with what they test (their ops' dump)
    rf = tmp_path / "r.rules"
    rf.write_text("\n".join([
        rule('flow:to_server; content:"abc";', sid=1, proto="http"),
        rule("dsize:>5;", sid=2, proto="ipv4"),
        rule("ttl:3;", sid=3, proto="icmpv6"),
    ]) + "\n")
    out = run([binary("osprey"), "-T", "--dump-chains", "-S", str(rf)]).stdout
    assert "  app_proto http (rule header)\n" in out
    assert "[packet] app_proto http (rule header)\n" in out
    assert "  ip version 4 (rule header)\n" in out
    assert "  ip version 6 (rule header)\n" in out
    assert 'msg:"t' not in out  # (they used to borrow the rule's first option as label)
    assert "rules compiled 3 (packet 2, stream 1, app-layer 0), not compiled 0" in out


def test_tcp_segment_in_ip_fragments_still_alerts(tmp_path):
    from scapy.layers.inet import fragment
    c = Conv().handshake().send(True, b"GET / HTTP/1.1\r\n\r\n")
    c.send(False, b"HTTP/1.1 200 OK\r\n\r\n" + b"x" * 30 + b"uid=0(root)\n" + b"y" * 30)
    pkts = []
    for p in c.close().pkts:
        if p.haslayer(Raw) and b"uid=0" in bytes(p[Raw]):
            p[IP].id = 4242
            pkts += fragment(p, fragsize=16)  # the pattern is cut across fragments
        else:
            pkts.append(p)
    r = detect(tmp_path, pkts, [rule('flow:to_client; content:"uid=0(root)";', sid=1),
                                rule('content:"uid=0(root)";', proto="ip", sid=2)])
    assert r.sids == [1, 2]


def test_a_bad_checksum_does_not_hide_a_packet_from_detection(tmp_path):
    # as in Suricata (bug-2736-02): validation counts the bad checksum, the rules still look
    bad = udp(b"hit")
    bad[UDP].chksum = 0x1234
    rules = rule('content:"hit";', proto="udp")
    for k in ("none", "all"):
        assert detect(tmp_path, [bad], rules, "-k", k, name=k).sids == [1]


def test_progress_only_on_a_terminal(tmp_path):
    """On a terminal the progress line is drawn on stderr (and cleared before the summary);
    into a pipe or file nothing but messages goes to stderr."""
    import os
    import pty
    import subprocess
    from conftest import ROOT, SAN_ENV
    pcap = CORPUS / "pcaps" / "benchmark" / "zeek__echo-connections.pcap"
    args = [binary("osprey"), "-r", str(pcap), "-S", str(ROOT / "etc" / "rules" / "osprey-demo.rules"),
            "-l", str(tmp_path)]
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=slave, cwd=ROOT,
                              env=dict(os.environ, **SAN_ENV), timeout=300)
        os.close(slave)
        tty_err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            tty_err += chunk
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert tty_err.endswith(b"\r\x1b[K")
    piped = subprocess.run(args, capture_output=True, cwd=ROOT, env=dict(os.environ, **SAN_ENV),
                           timeout=300)
    assert piped.returncode == 0 and piped.stderr == b""
    assert b"packets" in piped.stdout
