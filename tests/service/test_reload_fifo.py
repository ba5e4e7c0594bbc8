"""Rule reload under traffic (SIGUSR2 and the control socket's reload-rules), with osprey
reading a pcap stream from a named pipe: the new rules apply exactly from the first packet
after the reload, a broken rules file keeps the old rules running and says why, and no
packet is lost either way."""
import os
import re
import signal

import pytest

from reload_helpers import BATCH, FifoOsprey, rule, stream, udp_frames, wait_for  # noqa: F401 (stream: fixture)

A, B = b"..AAAA..", b"..BBBB.."




def by_sid(alerts):
    out = {}
    for a in alerts:
        out.setdefault(a["alert"]["signature_id"], []).append(a["pcap_cnt"])
    return {k: sorted(v) for k, v in out.items()}


def summary_packets(out):
    m = re.search(r"osprey: (\d+) packets", out)
    assert m, out
    return int(m.group(1))


def test_sigusr2_reload_adds_a_rule_from_the_next_packet(stream):
    o = stream(rule(1, "AAAA") + "\n")
    frames = udp_frames(2 * BATCH, [A, B])
    o.write(frames)                                   # pcap_cnt 1..64
    o.wait_processed(2 * BATCH)
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB") + "\n")
    os.kill(o.proc.pid, signal.SIGUSR2)
    wait_for(lambda: o.stats()["reload"]["reloads"] == 1, what="the reload")
    o.write(udp_frames(2 * BATCH, [A, B], start_port=30000))  # pcap_cnt 65..128
    rc, out, err = o.close()
    assert rc == 0, err
    assert summary_packets(out) == 4 * BATCH          # nothing lost
    sids = by_sid(o.alerts())
    assert sids[1] == list(range(1, 4 * BATCH + 1, 2))          # every A packet, all along
    assert sids[2] == list(range(2 * BATCH + 2, 4 * BATCH + 1, 2))  # B packets after only
    assert "rules reloaded: 2 rules, 2 compiled" in err
    m = re.search(r"every worker runs the new rules \(the slowest switch held its packets "
                  r"[\d.]+ ms\); old rules freed; memory (\d+) KiB "
                  r"\(before the reload (\d+) KiB, with both rule sets (\d+) KiB", err)
    assert m, err
    assert all(int(x) > 0 for x in m.groups())


def test_broken_rules_file_keeps_the_old_rules(stream):
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    # an edit that breaks the file: a rule without its closing parenthesis
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB")[:-1] + "\n")
    os.kill(o.proc.pid, signal.SIGUSR2)
    wait_for(lambda: o.stats()["reload"]["failures"] == 1, what="the failed reload")
    st = o.stats()
    assert st["reload"]["reloads"] == 0 and st["detect"]["rules"] == 1
    o.write(udp_frames(BATCH, [A, B], start_port=30000))
    rc, out, err = o.close()
    assert rc == 0, err
    assert summary_packets(out) == 2 * BATCH
    sids = by_sid(o.alerts())
    assert sids == {1: list(range(1, 2 * BATCH + 1, 2))}  # the old rule kept firing
    assert (f"reload failed: the rules were not reloaded, the running rules stay: 1 malformed "
            f"rule (the running rules have 0): {o.rules}:2: sid 2: options: the rule must end "
            f"with ')'") in err, err


def test_unreadable_rules_file_via_control_socket(stream):
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A]))
    o.wait_processed(BATCH)
    o.rules.unlink()
    from reload_helpers import ctl
    ans = ctl(o.sock, "reload-rules")[0]
    assert ans["return"] == "NOK"
    assert ans["message"] == ("the rules were not reloaded, the running rules stay: "
                              f"{o.rules}: cannot open rule file: No such file or directory")
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "AAAA", "again") + "\n")
    ans = ctl(o.sock, {"command": "reload-rules"})[0]
    assert ans["return"] == "OK", ans
    assert ans["message"].startswith("rules reloaded: 2 rules, 2 compiled")
    o.write(udp_frames(BATCH, [A], start_port=30000))
    rc, out, err = o.close()
    assert rc == 0, err
    sids = by_sid(o.alerts())
    assert sids[1] == list(range(1, 2 * BATCH + 1))
    assert sids[2] == list(range(BATCH + 1, 2 * BATCH + 1))


def test_reload_keeps_tcp_stream_state(stream, tmp_path):
    """A stream rule added by a reload matches bytes sent after it on a connection that
    began before it: the flow, its TCP state and reassembly carried over."""
    from scapy.layers.inet import IP, TCP
    from scapy.layers.l2 import Ether
    c, s = dict(src="10.0.0.1", dst="10.0.0.2"), dict(src="10.0.0.2", dst="10.0.0.1")

    def seg(ip, sp, dp, flags, seq, ack, data=b""):
        return bytes(Ether() / IP(**ip) / TCP(sport=sp, dport=dp, flags=flags, seq=seq,
                                              ack=ack) / data)
    hs = [seg(c, 40000, 80, "S", 100, 0), seg(s, 80, 40000, "SA", 500, 101),
          seg(c, 40000, 80, "A", 101, 501), seg(c, 40000, 80, "PA", 101, 501, b"hello ")]
    pad = udp_frames(BATCH - len(hs), [b"pad"])
    # inline delivery: each side's bytes are inspected as they arrive, so "hello " meets the
    # rules before the reload and "world" those after it (in IDS mode nothing here is
    # acknowledged before the reload)
    o = stream('alert tcp any any -> any any (msg:"old"; flow:established,to_server; '
               'content:"hello"; sid:1; rev:1;)\n', "--set", "stream.inline=yes")
    o.write(hs + pad)
    o.wait_processed(BATCH)
    assert o.stats()["total"]["tcp_sessions"] == 1
    o.rules.write_text('alert tcp any any -> any any (msg:"new"; flow:established,to_server; '
                       'content:"world"; sid:2; rev:1;)\n')
    os.kill(o.proc.pid, signal.SIGUSR2)
    wait_for(lambda: o.stats()["reload"]["reloads"] == 1, what="the reload")
    more = [seg(c, 40000, 80, "PA", 107, 501, b"world"), seg(s, 80, 40000, "A", 501, 112)]
    o.write(more + udp_frames(BATCH - len(more), [b"pad"], start_port=30000))
    rc, out, err = o.close()
    assert rc == 0, err
    alerts = o.alerts()
    assert [(a["alert"]["signature_id"], a["pcap_cnt"]) for a in alerts] == [(1, 4), (2, 33)]
    assert alerts[0]["flow_id"] == alerts[1]["flow_id"]  # the same flow before and after


def test_reload_with_worker_threads(stream):
    """--runmode workers: each worker moves at its own next packet (or at the end if it sees
    none); every frame after the reload meets the new rules, none is lost."""
    from reload_helpers import ctl
    n = 24 * BATCH
    o = stream(rule(1, "AAAA") + "\n", "--runmode", "workers", "--set", "threading.workers=3")
    o.write(udp_frames(n, [A, B]))
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB") + "\n")
    assert ctl(o.sock, "reload-rules")[0]["return"] == "OK"
    o.write(udp_frames(n, [A, B], start_port=40000))
    rc, out, err = o.close()
    assert rc == 0, err
    assert summary_packets(out) == 2 * n and "osprey: 3 workers" in out
    alerts = o.alerts()
    sids = by_sid(alerts)
    assert sids[1] == list(range(1, 2 * n + 1, 2))
    # frames queued for a worker before the reload may meet either rules; but a client's
    # frames all go to one worker, in order, and a worker switches once: per client, the B
    # frames the new rule saw are a tail of its B frames, and it includes every later one
    client = {cnt: f"10.0.{(cnt - 1) % n % 7}.1" for cnt in range(1, 2 * n + 1)}
    for c in {f"10.0.{k}.1" for k in range(7)}:
        b_frames = [cnt for cnt in range(2, 2 * n + 1, 2) if client[cnt] == c]
        seen = [a["pcap_cnt"] for a in alerts
                if a["alert"]["signature_id"] == 2 and a["src_ip"] == c]
        assert seen == b_frames[len(b_frames) - len(seen):], c
        assert all(cnt in seen for cnt in b_frames if cnt > n)
    assert re.search(r"every worker runs the new rules \(the slowest switch held its "
                     r"packets [\d.]+ ms\); old rules freed", err), err


def test_reload_then_end_of_input(stream):
    """The input ends before the worker saw a packet under the new rules: it is moved at the
    end, its flows end under the new rules, and everything is freed (ASan checks)."""
    from reload_helpers import ctl
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A]))
    o.wait_processed(BATCH)
    o.rules.write_text(rule(2, "AAAA") + "\n")
    assert ctl(o.sock, "reload-rules")[0]["return"] == "OK"
    rc, out, err = o.close()
    assert rc == 0, err
    assert "osprey: 32 packets, 32 flows, 32 alerts; rules: 1 loaded" in out
    assert re.search(r"every worker runs the new rules \(the slowest switch held its packets "
                     r"[\d.]+ ms\); old rules freed", err), err
    assert by_sid(o.alerts()) == {1: list(range(1, BATCH + 1))}


def test_app_layer_counters_survive_a_reload(stream):
    """A reload gives each worker new application-layer parsers; the EVE stats counters go
    on from where the old ones stopped instead of starting again at zero."""
    import json
    from scapy.layers.dns import DNS, DNSQR
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    from reload_helpers import ctl

    def queries(n, sport):
        return [bytes(Ether() / IP(src="10.0.0.1", dst="10.0.0.53") /
                      UDP(sport=sport + i, dport=53) /
                      DNS(id=i + 1, rd=1, qd=DNSQR(qname=f"q{i}.example.com")))
                for i in range(n)]
    o = stream(rule(1, "AAAA") + "\n")
    o.write(queries(BATCH, 20000))
    o.wait_processed(BATCH)
    assert ctl(o.sock, "reload-rules")[0]["return"] == "OK"
    o.write(queries(BATCH, 30000))
    rc, out, err = o.close()
    assert rc == 0, err
    recs = [json.loads(l) for l in (o.logdir / "eve.json").read_text().splitlines()]
    # DNS counted over both transports (Suricata: dns_udp, dns_tcp): Osprey's own counter
    last = [r for r in recs if r["event_type"] == "stats"][-1]["stats"]["osprey"]["app_layer"]
    assert last["flow"]["dns"] == 2 * BATCH, last
    assert last["tx"]["dns"] == 2 * BATCH, last
    assert re.search(r"every worker runs the new rules", err), err
