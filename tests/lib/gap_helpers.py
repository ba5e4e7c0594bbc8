"""Helpers of the gap and limit tests of the parsers (tests/parsers/test_parsers_*_gaps.py):
a hole in one direction of a scapy conversation, osprey -r with every EVE record kept and
checked against Suricata's EVE schema, a protocol's counters from the stats record."""
import json

from jsonschema import Draft7Validator

from conftest import ROOT
from outputs_helpers import osprey_out

SCHEMA = json.loads((ROOT.parent / "shared" / "conformance" / "eve-schema.json").read_text())


def lose(conv, client, data):
    """data from one side never arrives, but the other side acknowledges past it: a hole the
    receiver skipped (libmon gives the parsers a gap there)."""
    return conv.send(client, data, seg=len(data), order=[])


def schema_errors(records):
    """Each record that does not validate against Suricata's EVE schema, with its errors. A
    stats record is checked without `stats.osprey` (Osprey's own counters: docs/outputs.md,
    "EVE keys Osprey adds", as tests/outputs/test_eve_schema.py allows them)."""
    v = Draft7Validator(SCHEMA)
    bad = []
    for r in records:
        if r["event_type"] == "stats":
            r = dict(r, stats={k: x for k, x in r["stats"].items() if k != "osprey"})
        errs = [e.message for e in v.iter_errors(r)]
        if errs:
            bad.append((r, errs))
    return bad


class Run:
    """One osprey -r run: alerts (sids), records by type, the stats record's counters."""

    def __init__(self, out):
        self.out = out
        self.records = out.records
        stats = out.of("stats")
        self.stats = stats[-1]["stats"] if stats else {}

    @property
    def sids(self):
        return sorted(a["alert"]["signature_id"] for a in self.out.of("alert"))

    def of(self, event_type):
        return self.out.of(event_type)

    def counters(self, proto):
        """The protocol's own counters (osprey.app_layer.<proto> in the stats record)."""
        return self.stats["osprey"]["app_layer"][proto]


def eve_run(tmp_path, packets, rules, types, *args, name="g"):
    """osprey -r over packets with rules and the EVE types given (alert, flow, stats are
    always on); every record is checked against the schema."""
    kinds = sorted(set(types) | {"alert", "flow", "stats"})
    out = osprey_out(tmp_path, packets, rules, "--set",
                     "outputs.eve-log.types=[%s]" % ",".join(kinds), *args, name=name)
    r = Run(out)
    assert schema_errors(r.records) == []
    return r
