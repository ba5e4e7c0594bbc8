"""outputs.pcap-log (Suricata's pcap-log): the packets as captured into LOGDIR/log.pcap.<seconds>,
every packet (conditional: all), those an alert was raised on (alerts) or those a tag: rule
tagged (tag). The file's bytes are checked against the input capture's own records: the
24-byte pcap header (microseconds, version 2.4, snaplen 262144, the first packet's link type),
then per packet its time, caplen twice (as Suricata writes it) and the frame."""
import glob
import struct

from scapy.layers.l2 import Ether

from detect_helpers import udp
from outputs_helpers import osprey_out, rule

HEADER = struct.pack("=IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1)  # DLT_EN10MB


def input_records(pcap):
    """The records of a little-endian microsecond pcap as (sec, usec, frame)."""
    data = pcap.read_bytes()
    assert struct.unpack_from("<I", data)[0] == 0xA1B2C3D4
    off, out = 24, []
    while off < len(data):
        sec, usec, incl, _orig = struct.unpack_from("<IIII", data, off)
        out.append((sec, usec, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def expected(records, cnts):
    """The pcap-log bytes of the input packets numbered cnts (pcap_cnt, from 1)."""
    body = b"".join(struct.pack("=IIII", sec, usec, len(frame), len(frame)) + frame
                    for i, (sec, usec, frame) in enumerate(records, 1) if i in cnts)
    return HEADER + body


def logged(out):
    files = glob.glob(str(out.logdir / "log.pcap.*"))
    assert len(files) == 1, files
    with open(files[0], "rb") as f:
        return f.read()


def traffic():
    return [Ether() / udp(p) for p in (b"one", b"hit", b"two", b"hit again", b"three")]


def test_pcap_log_all_is_the_capture(tmp_path):
    out = osprey_out(tmp_path, traffic(), [rule('content:"hit";', sid=1, proto="udp")],
                     "--set", "outputs.pcap-log.enabled=yes")
    assert logged(out) == expected(input_records(tmp_path / "t.pcap"), {1, 2, 3, 4, 5})


def test_pcap_log_alerts_only_the_alerting_packets(tmp_path):
    out = osprey_out(tmp_path, traffic(), [rule('content:"hit";', sid=1, proto="udp")],
                     "--set", "outputs.pcap-log.enabled=yes",
                     "--set", "outputs.pcap-log.conditional=alerts")
    assert [a["pcap_cnt"] for a in out.of("alert")] == [2, 4]
    assert logged(out) == expected(input_records(tmp_path / "t.pcap"), {2, 4})


def test_pcap_log_tag_the_tagged_packets(tmp_path):
    rules = [rule('content:"hit"; tag:session,3,packets;', sid=1, proto="udp")]
    out = osprey_out(tmp_path, traffic(), rules, "--set", "outputs.pcap-log.enabled=yes",
                     "--set", "outputs.pcap-log.conditional=tag")
    tagged = [r["pcap_cnt"] for r in out.of("packet")]
    assert tagged == [3, 4, 5]  # after each alert (its own packet is not tagged)
    assert logged(out) == expected(input_records(tmp_path / "t.pcap"), set(tagged))


def test_pcap_log_off_by_default_and_own_file_name(tmp_path):
    out = osprey_out(tmp_path, traffic(), [rule('content:"hit";', sid=1, proto="udp")])
    assert not glob.glob(str(out.logdir / "log.pcap*")) and len(out.of("alert")) == 2
    out = osprey_out(tmp_path, traffic(), [rule('content:"hit";', sid=1, proto="udp")],
                     "--set", "outputs.pcap-log.enabled=yes",
                     "--set", "outputs.pcap-log.filename=packets.pcap", name="n")
    files = glob.glob(str(out.logdir / "packets.pcap.*"))
    assert len(files) == 1 and open(files[0], "rb").read() == expected(
        input_records(tmp_path / "n.pcap"), {1, 2, 3, 4, 5})


def test_pcap_log_workers_write_every_packet_once(tmp_path):
    pk = [Ether() / udp(b"p%d" % i, src=f"10.1.0.{i % 7 + 1}", sport=1000 + i)
          for i in range(40)]
    out = osprey_out(tmp_path, pk, [rule('content:"p1";', sid=1, proto="udp")],
                     "--runmode", "workers", "--set", "threading.workers=3",
                     "--set", "outputs.pcap-log.enabled=yes")
    data = logged(out)
    assert data[:24] == HEADER
    want = expected(input_records(tmp_path / "t.pcap"), set(range(1, 41)))[24:]
    got, off = [], 24
    while off < len(data):  # whole records, in whichever order the workers wrote them
        caplen = struct.unpack_from("=I", data, off + 8)[0]
        got.append(data[off:off + 16 + caplen])
        off += 16 + caplen
    recs, off = [], 0
    while off < len(want):
        caplen = struct.unpack_from("=I", want, off + 8)[0]
        recs.append(want[off:off + 16 + caplen])
        off += 16 + caplen
    assert sorted(got) == sorted(recs)
