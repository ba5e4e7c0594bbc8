"""Every EVE record osprey writes validates against Suricata's own EVE schema
(../shared/conformance/eve-schema.json, JSON Schema Draft 7, additionalProperties false in most
objects): alerts of every kind (packet, stream, http, dns, tls rules; ET Open rules and our
own), flow, anomaly, stats, http, dns and tls records, over every topic folder of the corpus.

The only keys allowed past the schema are those Osprey adds on purpose, listed in ALLOWED below
and in README.md ("EVE keys Osprey adds"); a failure names the first errors per record type."""
import copy
import json
import re
from collections import defaultdict

import pytest
from jsonschema import Draft7Validator
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from conftest import CORPUS, ROOT, binary, run
from outputs_helpers import TEST_DATA, osprey_out, rule

SCHEMA_PATH = ROOT.parent / "shared" / "conformance" / "eve-schema.json"
TOPICS = ["http", "dns", "tls", "tcp", "frag", "tunnels", "ipv6", "checksums",
          "malware-exploit", "malformed", "misc"]

# Keys Osprey writes on purpose that Suricata's schema does not list: (event_type, path).
# Keep in step with README.md, "EVE keys Osprey adds".
ALLOWED = {
    ("flow", ("encapsulation",)),          # the tunnels a flow was carried in
    ("alert", ("src_geoip",)),             # geoip-database: where the addresses are
    ("alert", ("dest_geoip",)),
    ("stats", ("stats", "osprey")),        # libmon counters Suricata has no name for
    ("stats", ("stats", "threads")),       # stats.threads: yes (Suricata's too; its schema
                                           # leaves it out): validated apart, see below
}

# Rules of every kind that surely fire on the corpus: packet (TCP flags, ICMP, UDP payload,
# ICMPv6), stream (both directions), and app-layer rules on the HTTP, DNS and TLS parsers.
OWN_RULES = """\
alert tcp any any -> any any (msg:"SCHEMA packet tcp syn"; flags:S,12; metadata:created_at 2026_11_25, former_category SCHEMA; classtype:misc-activity; sid:9100001; rev:2;)
alert icmp any any -> any any (msg:"SCHEMA packet icmp echo"; itype:8; classtype:misc-activity; sid:9100002; rev:1;)
alert udp any any -> any any (msg:"SCHEMA packet udp one question"; content:"|00 01 00 00|"; offset:4; depth:4; sid:9100003; rev:1;)
alert ip any any -> any any (msg:"SCHEMA packet icmpv6"; ip_proto:58; sid:9100012; rev:1;)
alert tcp any any -> any any (msg:"SCHEMA stream request"; flow:established,to_server; content:"HTTP/1."; sid:9100005; rev:1;)
alert tcp any any -> any any (msg:"SCHEMA stream response"; flow:established,to_client; content:"HTTP/1."; depth:7; sid:9100006; rev:1;)
alert http any any -> any any (msg:"SCHEMA http method"; flow:established,to_server; http.method; content:"GET"; sid:9100007; rev:1;)
alert http any any -> any any (msg:"SCHEMA http status"; flow:established,to_client; http.stat_code; content:"200"; sid:9100008; rev:1;)
alert dns any any -> any any (msg:"SCHEMA dns query"; dns.query; content:"."; sid:9100009; rev:1;)
alert tls any any -> any any (msg:"SCHEMA tls sni"; tls.sni; content:"."; sid:9100010; rev:1;)
alert tls any any -> any any (msg:"SCHEMA tls subject"; flow:to_client; tls.cert_subject; content:"CN="; sid:9100011; rev:1;)
"""
OWN_SIDS = {9100001, 9100002, 9100003, 9100005, 9100006, 9100007, 9100008, 9100009,
            9100010, 9100011, 9100012}

# ET Open 2019 rules that fire on the corpus (chat, user agents, trojan, current events, info,
# ICMP info, RPC, attack response), taken from the ruleset as shipped.
ET_DIR = CORPUS / "rules" / "et-open-suricata-4.0-2019-04"
ET_SIDS = {2002023, 2002024, 2013028, 2014726, 2018452, 2022290, 2023882, 2100366, 2100498,
           2100585, 2102256}

CONFIG = """\
outputs:
  - eve-log:
      enabled: yes
      filetype: regular
      filename: eve.json
      community-id: yes
      types:
        - alert
        - anomaly:
            types:
              decode: yes
              stream: yes
        - flow
        - stats
        - http
        - dns
        - tls
"""


@pytest.fixture(scope="module")
def validator():
    return Draft7Validator(json.loads(SCHEMA_PATH.read_text()))


@pytest.fixture(scope="module")
def rules_file(tmp_path_factory):
    et = []
    for path in sorted(ET_DIR.glob("emerging-*.rules")):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("alert ") and any(f"sid:{s};" in line for s in ET_SIDS):
                et.append(line)
    assert len(et) == len(ET_SIDS), f"ET rules not found in {ET_DIR}"
    path = tmp_path_factory.mktemp("rules") / "schema.rules"
    path.write_text(OWN_RULES + "\n".join(et) + "\n")
    return path


def strip_allowed(rec):
    """The record without the keys Osprey adds on purpose (a copy)."""
    rec = copy.deepcopy(rec)
    for event_type, path in ALLOWED:
        if rec.get("event_type") != event_type:
            continue
        at = rec
        for key in path[:-1]:
            at = at.get(key, {}) if isinstance(at, dict) else {}
        if isinstance(at, dict):
            at.pop(path[-1], None)
    return rec


def schema_errors(validator, records):
    """{event_type: [first errors]} of the records that do not validate."""
    stats_schema = validator.schema["properties"]["stats"]
    stats_validator = Draft7Validator(stats_schema)
    bad = defaultdict(list)
    for rec in records:
        errs = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
                for e in validator.iter_errors(strip_allowed(rec))]
        # each worker's own counters have the layout of the totals
        for name, counters in rec.get("stats", {}).get("threads", {}).items():
            counters = {k: v for k, v in counters.items() if k != "osprey"}
            errs += [f"stats/threads/{name}/{'/'.join(map(str, e.absolute_path))}: {e.message}"
                     for e in stats_validator.iter_errors(counters)]
        if errs and len(bad[rec["event_type"]]) < 5:
            bad[rec["event_type"]].append(f"{errs[:3]} in {json.dumps(rec)[:400]}")
    return dict(bad)


def read_eve(logdir):
    return [json.loads(line) for line in (logdir / "eve.json").read_text().splitlines()]


@pytest.mark.parametrize("topic", TOPICS)
def test_corpus_records_validate(tmp_path, validator, rules_file, topic):
    cfg = tmp_path / "osprey.yaml"
    cfg.write_text(CONFIG)
    logdir = tmp_path / "log"
    logdir.mkdir()
    proc = run([binary("osprey"), "-c", str(cfg), "-r", str(CORPUS / "pcaps" / topic) + "/",
                "-S", str(rules_file), "-l", str(logdir)], check=False)
    # a capture cut short by its producer ends in a read error; what came before is written
    assert proc.returncode in (0, 1), proc.stderr
    records = read_eve(logdir)
    assert {"flow", "stats"} <= {r["event_type"] for r in records}
    assert not schema_errors(validator, records), schema_errors(validator, records)


def test_corpus_run_covers_every_record_and_alert_kind(tmp_path, validator, rules_file):
    """The corpus run above is not valid by emptiness: over its folders every record type is
    written, alerts carry http, dns and tls objects, and every rule kind fires."""
    cfg = tmp_path / "osprey.yaml"
    cfg.write_text(CONFIG)
    records = []
    for topic in TOPICS:
        logdir = tmp_path / topic
        logdir.mkdir()
        run([binary("osprey"), "-c", str(cfg), "-r", str(CORPUS / "pcaps" / topic) + "/",
             "-S", str(rules_file), "-l", str(logdir)], check=False)
        records += read_eve(logdir)
    types = {r["event_type"] for r in records}
    assert types == {"alert", "flow", "anomaly", "stats", "http", "dns", "tls"}
    alerts = [r for r in records if r["event_type"] == "alert"]
    for app in ("http", "dns", "tls"):
        assert any(app in a for a in alerts), app
    sids = {a["alert"]["signature_id"] for a in alerts}
    assert OWN_SIDS <= sids, OWN_SIDS - sids
    assert sids & ET_SIDS
    assert any(a["alert"].get("metadata") for a in alerts)
    assert any("community_id" in r for r in records)
    assert not schema_errors(validator, records)


def decode_event_names(validator, records):
    """The decoder event names anomaly records use that are neither Suricata's (a counter of
    the schema's stats.decoder.event) nor Osprey's own counted ones (stats.osprey)."""
    known = validator.schema["properties"]["stats"]["properties"]["decoder"]["properties"]
    events = known["event"]["properties"]
    own = {}
    for r in records:
        if r["event_type"] == "stats":
            own = r["stats"].get("osprey", {}).get("decoder", {}).get("event", {})
    unknown = set()
    for r in records:
        if r["event_type"] != "anomaly" or r["anomaly"]["type"] != "decode":
            continue
        name = r["anomaly"]["event"].split(".")[1:]  # decoder.<layer>.<what>
        if len(name) == 1 and name[0] in known:
            continue  # decoder.too_many_layers
        layer, what = name
        if what not in events.get(layer, {}).get("properties", {}) and \
                what not in own.get(layer, {}):
            unknown.add(r["anomaly"]["event"])
    return unknown


def test_anomaly_events_have_suricata_names(tmp_path, validator, rules_file):
    """A decoder anomaly is named as Suricata names the event where it has one; otherwise it
    is one of the counters under stats.osprey."""
    cfg = tmp_path / "osprey.yaml"
    cfg.write_text(CONFIG)
    seen = set()
    for topic in ("malformed", "tunnels", "frag", "ipv6", "checksums"):
        logdir = tmp_path / topic
        logdir.mkdir()
        run([binary("osprey"), "-c", str(cfg), "-r", str(CORPUS / "pcaps" / topic) + "/",
             "-S", str(rules_file), "-l", str(logdir)], check=False)
        records = read_eve(logdir)
        assert not decode_event_names(validator, records)
        seen |= {r["anomaly"]["event"] for r in records if r["event_type"] == "anomaly"}
    assert "decoder.ipv4.trunc_pkt" in seen
    # libmon's ipv4.truncated is Suricata's ipv4.pkt_too_small
    hdr = Ether() / IP(src="10.0.0.1", dst="10.0.0.2")
    short = Ether(bytes(hdr)[:14 + 12])  # 12 of the 20 bytes of the IPv4 header
    out = osprey_out(tmp_path, [short], [rule('content:"x";', sid=1)], "--set",
                     "outputs.eve-log.anomaly.types.decode=yes")
    assert [a["anomaly"]["event"] for a in out.of("anomaly")] == ["decoder.ipv4.pkt_too_small"]
    assert out.of("stats")[-1]["stats"]["decoder"]["event"]["ipv4"]["pkt_too_small"] == 1


def test_readme_lists_every_allowed_key():
    """README.md's table "EVE keys Osprey adds" names exactly the keys ALLOWED lets through."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## EVE keys Osprey adds", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| ")][2:]
    listed = set()
    for row in rows:
        listed |= {(row[1].strip(), key) for key in re.findall(r"`([^`]+)`", row[2])}
    assert listed == {(event_type, path[-1]) for event_type, path in ALLOWED}


def test_allowed_keys_are_the_only_exceptions(validator):
    """Without the allow-list those keys are errors: the schema is strict where it says so."""
    flow = {"timestamp": "2020-09-13T12:26:40.000000+0000", "event_type": "flow",
            "encapsulation": ["gre"], "flow": {"pkts_toserver": 1}}
    assert list(validator.iter_errors(flow))
    assert not list(validator.iter_errors(strip_allowed(flow)))
    stats = {"timestamp": "2020-09-13T12:26:40.000000+0000", "event_type": "stats",
             "stats": {"uptime": 1, "osprey": {"flow": {"icmp": 1}}, "bogus": 1}}
    errs = [e.message for e in validator.iter_errors(strip_allowed(stats))]
    assert len(errs) == 1 and "bogus" in errs[0]


def test_geoip_and_per_worker_stats_validate(tmp_path, validator):
    """What the corpus run does not switch on: GeoIP objects on alerts (MaxMind's test
    database) and each worker's own stats counters (stats.threads with two workers)."""
    city = f"{TEST_DATA}/GeoIP2-City-Test.mmdb"
    pkts = [Ether() / IP(src="81.2.69.142", dst="89.160.20.128") / UDP(sport=1000 + i, dport=53)
            / Raw(b"hit") for i in range(8)]
    out = osprey_out(tmp_path, pkts, [rule('content:"hit";', sid=1, proto="udp")],
                     "--set", f"geoip-database={city}", "--runmode", "workers",
                     "--set", "threading.workers=2", "--set", "stats.threads=yes",
                     "--set", "outputs.eve-log.types=[alert,anomaly,flow,stats,http,dns,tls]")
    alerts = out.of("alert")
    assert len(alerts) == 8 and all("src_geoip" in a and "dest_geoip" in a for a in alerts)
    assert sorted(out.of("stats")[-1]["stats"]["threads"]) == ["W#01", "W#02"]
    assert not schema_errors(validator, out.records)
