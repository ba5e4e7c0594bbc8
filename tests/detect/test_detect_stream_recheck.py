"""A stream rule whose fast pattern was found earlier in the stream is verified again on later
data only while an occurrence of the pattern still lies wholly in the side's window (the new
data and 32 KiB before it): the multi-event filter remembers where each pattern last ended.
What is checked: later data still completes a rule while the pattern is in the window; a
pattern whose last occurrence slid out raises nothing (its rule could not match there); a
pattern occurring again after the window slid is raised and verified again; the last
occurrence counts, not the first; both detect.stream-mpm modes agree."""
import pytest

from detect_helpers import Conv, rule
from detect_helpers import detect as _detect


def detect(*args, **kw):
    """Inline delivery (stream.inline: yes): these cases follow the stream window delivery by delivery,
    as each packet's bytes arrive; Suricata's IDS timing (the default) is
    test_stream_ack_delivery.py's."""
    return _detect(*args, "--set", "stream.inline=yes", **kw)

MODES = ["block", "stream"]
FP = b"FASTPATTERN-0123"  # the longest content: the fast pattern
RULE = rule(f'flow:to_server; content:"{FP.decode()}"; content:"TAIL";', sid=7)
RELATIVE = rule(f'flow:to_server; content:"{FP.decode()}"; content:"TAIL"; distance:0;',
                sid=8)


def stream(marks, size, seg=1400):
    """A client stream of `size` filler bytes with each (offset, bytes) of marks written in,
    sent in seg-byte segments, the server acknowledging every 28,000 bytes."""
    data = bytearray(b"." * size)
    for off, b in marks:
        data[off:off + len(b)] = b
    c = Conv(dport=9000).handshake()
    for i in range(0, size, 28_000):
        c.send(True, bytes(data[i:i + 28_000]), seg=seg)
    return c.close().pkts


def alerts(tmp_path, marks, size, rules, seg=1400):
    got = {}
    for mode in MODES:
        r = detect(tmp_path, stream(marks, size, seg), rules, "--set",
                   f"detect.stream-mpm={mode}", name=mode)
        got[mode] = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in r.alerts)
    assert got["block"] == got["stream"]
    return got["stream"]


def test_later_data_completes_the_rule_while_the_pattern_is_in_the_window(tmp_path):
    # the pattern at 1,000, TAIL 20,000 bytes and many deliveries later
    got = alerts(tmp_path, [(1_000, FP), (21_000, b"TAIL")], 40_000, [RULE, RELATIVE])
    # 3 handshake packets; TAIL (21,000..21,003) arrives in segment 16 (21,000 // 1400 + 1);
    # an acknowledgement follows the first 20 segments (28,000 bytes)
    assert got == [(7, 3 + 16), (8, 3 + 16)]


def test_a_pattern_that_slid_out_raises_nothing(tmp_path):
    # TAIL 40,000 bytes after the only occurrence: no window holds both
    assert alerts(tmp_path, [(1_000, FP), (41_000, b"TAIL")], 60_000, [RULE, RELATIVE]) == []


def test_a_pattern_occurring_again_after_the_slide_is_verified_again(tmp_path):
    # first occurrence long gone when the second comes; TAIL follows the second
    got = alerts(tmp_path, [(1_000, FP), (50_000, FP), (60_000, b"TAIL")], 80_000,
                 [RULE, RELATIVE])
    seg_tail = 60_000 // 1400 + 1          # segment 43
    acks = 60_000 // 28_000                # two acknowledgements before it
    assert got == [(7, 3 + seg_tail + acks), (8, 3 + seg_tail + acks)]


def test_the_last_occurrence_counts_not_the_first(tmp_path):
    # occurrences at 1,000 and 20,000; TAIL at 45,000: only the second is still in the window
    got = alerts(tmp_path, [(1_000, FP), (20_000, FP), (45_000, b"TAIL")], 60_000,
                 [RULE, RELATIVE])
    seg_tail = 45_000 // 1400 + 1
    assert got == [(7, 3 + seg_tail + 1), (8, 3 + seg_tail + 1)]
    # TAIL at 60,000: both occurrences left the window
    assert alerts(tmp_path, [(1_000, FP), (20_000, FP), (60_000, b"TAIL")], 80_000,
                  [RULE, RELATIVE]) == []


@pytest.mark.parametrize("start,hit", [(2_000 * 20 - 32_768, True),
                                       (2_000 * 20 - 32_768 - 1, False)])
def test_window_edge(tmp_path, start, hit):
    # 2,000-byte segments: the delivery of segment 21 (bytes 40,000..41,999, TAIL at its
    # start) sees the window from 40,000 - 32,768 on. A pattern starting there is in it;
    # one byte earlier it is not, and its rule is not raised (nor could it match)
    got = alerts(tmp_path, [(start, FP), (40_000, b"TAIL")], 50_000, [RULE], seg=2_000)
    assert got == ([(7, 3 + 21 + 1)] if hit else [])
