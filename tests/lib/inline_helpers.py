"""The AF_PACKET inline topology of the inline tests (no tests here): side A (here) — veth —
[osprey --af-packet-inline IF1:IF2 in a middle namespace] — veth — side B (here), with raw
sockets on both outer ends (netns_helpers.Wire). Used by service/test_inline_afpacket.py and
detect/test_stream_policies.py (the exception policies inline)."""
import time
from contextlib import ExitStack, contextmanager

from scapy.layers.inet import IP
from scapy.layers.l2 import Ether

from netns_helpers import Wire, netns, no_offloads, osprey_running, veth_pair

MAC_A, MAC_B = "02:00:00:00:0a:01", "02:00:00:00:0b:01"
IP_A, IP_B = "10.9.0.1", "10.9.0.2"


def wrap(p):
    return (Ether(src=MAC_A, dst=MAC_B) if p[IP].src == IP_A else Ether(src=MAC_B, dst=MAC_A)) / p


@contextmanager
def bridge(tmp_path, rules, *extra):
    """Yields (osprey, wire_a, wire_b, logdir); osprey bridges the two veths."""
    rf = tmp_path / "inline.rules"
    rf.write_text(rules)
    logdir = tmp_path / "logs"
    logdir.mkdir()
    with ExitStack() as st:
        ns = st.enter_context(netns())
        ha, ia = st.enter_context(veth_pair(None, ns))
        hb, ib = st.enter_context(veth_pair(None, ns))
        for ifc, where in ((ha, None), (hb, None), (ia, ns), (ib, ns)):
            no_offloads(ifc, where)
        wa, wb = Wire(ha), Wire(hb)
        st.callback(wa.close)
        st.callback(wb.close)
        o = st.enter_context(osprey_running(
            ["--af-packet-inline", f"{ia}:{ib}", "-S", rf, "-l", logdir, *extra], ns=ns))
        yield o, wa, wb, logdir


def converse(wa, wb, frames, expect_drop=lambda i, f: False, pause=0.3):
    """Send frames in order, each from its side (by source MAC); wait for each to cross."""
    for i, f in enumerate(frames):
        src, dst = (wa, wb) if f[Ether].src == MAC_A else (wb, wa)
        before = len(dst.frames)
        src.send(f)
        if expect_drop(i, f):
            time.sleep(pause)
        else:
            got = dst.wait(before + 1, timeout=5)
            assert len(got) > before, f"frame {i} ({f.summary()}) did not cross"
