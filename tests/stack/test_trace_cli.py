"""osprey-trace's command line: errors are clear and exit non-zero."""
from scapy.all import IP, UDP, Ether

from conftest import binary, run, stamp, write_pcap


def test_missing_capture(tmp_path):
    p = run([binary("osprey-trace"), "-r", str(tmp_path / "nope.pcap")], check=False)
    assert p.returncode == 1
    assert "nope.pcap" in p.stderr and p.stdout == ""


def test_not_a_capture(tmp_path):
    bad = tmp_path / "bad.pcap"
    bad.write_bytes(b"this is not a pcap file at all")
    p = run([binary("osprey-trace"), "-r", str(bad)], check=False)
    assert p.returncode == 1
    assert "bad.pcap" in p.stderr


def test_truncated_capture_reports_what_was_read(tmp_path):
    good = write_pcap(tmp_path / "g.pcap", stamp([Ether() / IP() / UDP() / (b"x" * 100)] * 3))
    data = good.read_bytes()
    cut = tmp_path / "cut.pcap"
    cut.write_bytes(data[:-50])  # the last record is cut short
    p = run([binary("osprey-trace"), "-r", str(cut)], check=False)
    assert p.returncode == 1
    assert "cut.pcap" in p.stderr and "read error" in p.stderr
    assert '"event_type":"stats"' in p.stdout
    assert '"packets":2' in p.stdout


def test_usage_errors():
    assert run([binary("osprey-trace")], check=False).returncode == 2
    p = run([binary("osprey-trace"), "-r", "x.pcap", "-k", "some"], check=False)
    assert p.returncode == 2 and "-k" in p.stderr
    assert run([binary("osprey-trace"), "--bogus"], check=False).returncode == 2


def test_help_lists_options():
    out = run([binary("osprey-trace"), "-h"]).stdout
    for opt in ("-r", "-c", "--set", "-k", "--packets", "--hex", "--no-defrag"):
        assert opt in out


def test_bad_config_value_fails(tmp_path):
    pcap = write_pcap(tmp_path / "a.pcap", stamp([Ether() / IP() / UDP()]))
    p = run([binary("osprey-trace"), "-r", str(pcap), "--set", "flow.memcap=lots"], check=False)
    assert p.returncode == 1
    assert "flow.memcap" in p.stderr


def test_bad_port_list_fails(tmp_path):
    pcap = write_pcap(tmp_path / "a.pcap", stamp([Ether() / IP() / UDP()]))
    p = run([binary("osprey-trace"), "-r", str(pcap), "--set", "decoder.vxlan.ports=[4789, x]"], check=False)
    assert p.returncode == 1
    assert "decoder.vxlan.ports" in p.stderr and "--set" in p.stderr
