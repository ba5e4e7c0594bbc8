"""Every real capture in the corpus runs through osprey-trace (sanitizers on in CI) without a
crash, a sanitizer report or a lost packet: each frame is decoded into exactly one outcome."""
import pytest

from conftest import CORPUS

PCAPS = sorted(p for p in (CORPUS / "pcaps").rglob("*") if p.suffix in (".pcap", ".pcapng"))


def test_corpus_present():
    assert len(PCAPS) > 200, f"corpus not found at {CORPUS} (set OSPREY_CORPUS)"


@pytest.mark.parametrize("pcap", PCAPS, ids=[str(p.relative_to(CORPUS / "pcaps")) for p in PCAPS])
def test_capture_runs_clean(trace, pcap):
    t = trace(pcap, check=False)
    # a capture cut short by its producer ends with a read error; everything before still counts
    assert t.proc.returncode in (0, 1)
    if t.proc.returncode == 1:
        assert "read error" in t.proc.stderr
    assert t.stats is not None
    dec = t.stats["decoder"]
    assert dec["pkts"] == t.stats["capture"]["packets"]
    assert sum(dec["outcomes"].values()) == dec["pkts"]
    assert t.stats["flow"]["active"] == 0  # everything was flushed and reported
    assert len(t.flows) == t.stats["flow"]["created"]
