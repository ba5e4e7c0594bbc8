"""GeoIP with libmaxminddb on MaxMind's own test databases: alerts carry src_geoip/dest_geoip
(country ISO code and name, city, ASN), and the geoip: rule keyword selects by country."""
import os

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from outputs_helpers import TEST_DATA, osprey_out, rule

CITY = os.path.join(TEST_DATA, "GeoIP2-City-Test.mmdb")
ASN = os.path.join(TEST_DATA, "GeoLite2-ASN-Test.mmdb")

LONDON, LINKOPING, TELSTRA, NORWAY6 = "81.2.69.142", "89.160.20.128", "1.128.0.1", "2a02:cf40::1"


@pytest.fixture(autouse=True)
def databases():
    for db in (CITY, ASN):
        if not os.path.exists(db):
            pytest.fail(f"{db} missing: run tools/install-deps.sh (MaxMind test databases)")


def pkts():
    return [Ether() / IP(src=LONDON, dst=LINKOPING) / UDP(sport=1, dport=2) / Raw(b"hit"),
            Ether() / IP(src="10.0.0.1", dst=TELSTRA) / UDP(sport=3, dport=4) / Raw(b"hit"),
            Ether() / IPv6(src=NORWAY6, dst="2001:db8::1") / UDP(sport=5, dport=6) / Raw(b"hit")]


HIT = rule('content:"hit";', sid=1, proto="udp")


def test_alerts_carry_city_database_objects(tmp_path):
    out = osprey_out(tmp_path, pkts(), [HIT], "--set", f"geoip-database={CITY}")
    a = out.of("alert")
    assert a[0]["src_geoip"] == {"country_iso_code": "GB", "country_name": "United Kingdom",
                                 "city_name": "London"}
    assert a[0]["dest_geoip"] == {"country_iso_code": "SE", "country_name": "Sweden",
                                  "city_name": "Linköping"}
    # private and unknown addresses: no object at all
    assert "src_geoip" not in a[1] and "dest_geoip" not in a[1]
    assert a[2]["src_geoip"] == {"country_iso_code": "NO", "country_name": "Norway"}
    assert "dest_geoip" not in a[2]
    assert list(a[0])[-2:] == ["src_geoip", "dest_geoip"]


def test_alerts_carry_asn(tmp_path):
    out = osprey_out(tmp_path, pkts(), [HIT], "--set", f"geoip-database={ASN}")
    a = out.of("alert")
    assert a[0]["dest_geoip"] == {"asn": 29518, "as_org": "Bredband2 AB"}
    assert "src_geoip" not in a[0]  # the ASN test database does not know 81.2.69.142
    assert a[1]["dest_geoip"] == {"asn": 1221, "as_org": "Telstra Pty Ltd"}


def test_no_database_no_objects(tmp_path):
    out = osprey_out(tmp_path, pkts(), [HIT])
    assert all("src_geoip" not in r and "dest_geoip" not in r for r in out.of("alert"))


def test_bad_database_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.mmdb"
    bad.write_bytes(b"not a maxmind database")
    out = osprey_out(tmp_path, pkts(), [HIT], "--set", f"geoip-database={bad}", check=False)
    assert out.proc.returncode == 1
    assert f"geoip-database: {bad}" in out.proc.stderr
    out = osprey_out(tmp_path, pkts(), [HIT], "--set", "geoip-database=/none.mmdb", check=False)
    assert out.proc.returncode == 1 and "/none.mmdb" in out.proc.stderr


def geo_rule(arg, sid):
    return f'alert udp any any -> any any (msg:"geo {arg}"; geoip:{arg}; sid:{sid}; rev:1;)'


def test_geoip_keyword_selects_by_country(tmp_path):
    rules = [geo_rule("src,GB", 1),          # London → Linköping
             geo_rule("dst,se", 2),          # any case
             geo_rule("both,GB,SE", 3),
             geo_rule("any,NO", 4),          # the IPv6 packet from Norway
             geo_rule("src,!GB", 5),         # not from GB: the private and the Norwegian source
             geo_rule("both,GB", 6),         # never: no packet has both ends in GB
             geo_rule("dst,RU,CN", 7)]       # never
    out = osprey_out(tmp_path, pkts(), rules, "--set", f"geoip-database={CITY}")
    got = sorted((a["pcap_cnt"], a["alert"]["signature_id"]) for a in out.of("alert"))
    assert got == [(1, 1), (1, 2), (1, 3), (2, 5), (3, 4), (3, 5)]


def test_geoip_rules_need_a_database(tmp_path):
    out = osprey_out(tmp_path, pkts(), [geo_rule("src,GB", 9), HIT])
    assert "sid 9: not compiled: geoip: needs geoip-database (a MaxMind .mmdb)" in out.proc.stderr
    assert [a["alert"]["signature_id"] for a in out.of("alert")] == [1, 1, 1]


def test_geoip_argument_errors(tmp_path):
    from conftest import binary, run
    for arg, msg in [("src", "expected a direction and countries"),
                     ("north,GB", "direction"),
                     ("src,GBR", "expected a two-letter country code, got 'GBR'"),
                     ("src,GB,!SE", "'!' may only come before the first country")]:
        rf = tmp_path / "g.rules"
        rf.write_text(geo_rule(arg, 1) + "\n")
        proc = run([binary("osprey"), "-T", "-S", str(rf)], check=False)
        assert proc.returncode != 0 and msg in proc.stdout + proc.stderr, (arg, proc.stderr)
