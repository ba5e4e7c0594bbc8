"""The Unix control socket: plain and JSON commands (version, uptime, stats, reload-rules,
shutdown, help), errors answered NOK, a socket path in use refused."""
import json
import re
import socket

import pytest

from conftest import ROOT, binary, run
from reload_helpers import BATCH, FifoOsprey, ctl, rule, stream, udp_frames, wait_for  # noqa: F401 (stream: fixture)

A, B = b"..AAAA..", b"..BBBB.."




def test_commands_plain_and_json(stream):
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    version, hello, uptime, helptext, unknown, notjson, nocmd = ctl(
        o.sock, "version", {"version": "0.2"}, {"command": "uptime"}, "help", "frobnicate",
        "{nope", {"arguments": {}})
    assert version["return"] == "OK" and re.fullmatch(r"osprey \S+", version["message"])
    assert hello == {"return": "OK", "message": version["message"]}
    assert uptime["return"] == "OK" and isinstance(uptime["message"], int)
    assert set(helptext["message"]) >= {"version", "uptime", "stats", "reload-rules",
                                        "shutdown", "help", "command-list", "conf-get"}
    assert unknown == {"return": "NOK", "message": "unknown command 'frobnicate' (try help)"}
    assert notjson["return"] == "NOK" and notjson["message"].startswith("not JSON")
    assert nocmd == {"return": "NOK", "message": 'a JSON request needs "command"'}
    rc, out, err = o.close()
    assert rc == 0, err


def test_stats_counts_per_worker_and_total(stream):
    o = stream(rule(1, "AAAA") + "\n" + rule(2, "BBBB") + "\n", "--runmode", "single")
    frames = udp_frames(2 * BATCH, [A, A, B, b"none"])
    o.write(frames)
    o.wait_processed(2 * BATCH)
    st = ctl(o.sock, {"command": "stats"})[0]
    assert st["return"] == "OK"
    m = st["message"]
    assert len(m["workers"]) == 1 and m["workers"][0]["id"] == 0
    w = m["workers"][0]
    assert w["packets"] == 2 * BATCH
    assert w["bytes"] == sum(len(f) for f in frames)
    assert w["flows"] == 2 * BATCH and w["flows_active"] == 2 * BATCH
    assert w["alerts"] == 3 * BATCH // 2   # A, A, B of every four frames
    assert m["total"]["packets"] == w["packets"] and m["total"]["alerts"] == w["alerts"]
    assert set(w) == set(m["total"]) | {"id"}
    assert w["tcp_sessions"] == 0 and w["kernel_drops"] == 0 and w["dropped"] == 0
    assert m["detect"] == {"rules": 2, "compiled": 2, "not_compiled": 0}
    assert m["reload"]["reloads"] == 0 and m["memory"]["rss_kb"] > 0
    rc, out, err = o.close()
    assert rc == 0, err
    assert "osprey: 64 packets, 64 flows, 48 alerts" in out


def test_reload_rules_then_shutdown(stream):
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A, B]))
    o.wait_processed(BATCH)
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "BBBB") + "\n")
    ans = ctl(o.sock, "reload-rules")[0]
    assert ans["return"] == "OK", ans
    assert re.match(r"rules reloaded: 2 rules, 2 compiled, 0 not compiled \([\d.]+ ms\); "
                    r"workers switch at their next packet$", ans["message"])
    o.write(udp_frames(BATCH, [A, B], start_port=30000))
    o.wait_processed(2 * BATCH)
    # the reload thread retires the old rules once every worker switched: soon, not at once
    st = wait_for(lambda: (x := o.stats())["detect"]["rules"] == 2 and x, 60,
                  "the old rules retired")
    assert st["reload"]["reloads"] == 1 and st["reload"]["generation"] == 1
    assert st["reload"]["rss_after_kb"] > 0
    assert st["total"]["alerts"] == 2 * BATCH // 2 + BATCH // 2
    assert ctl(o.sock, "shutdown")[0] == {"return": "OK", "message": "Closing Osprey"}
    o.write(udp_frames(BATCH, [A, B], start_port=40000))  # the batch in hand is finished
    rc, out, err = o.close()
    assert rc == 0, err
    assert "osprey: 96 packets" in out
    assert "control socket: shutdown" in err
    assert not o.sock.exists()
    sids = sorted((a["alert"]["signature_id"], a["pcap_cnt"]) for a in o.alerts())
    assert [c for s, c in sids if s == 2] == list(range(BATCH + 2, 3 * BATCH + 1, 2))


def test_socket_in_use_is_refused(stream, tmp_path):
    o = stream(rule(1, "AAAA") + "\n")
    wait_for(lambda: o.sock.exists(), what="the control socket")
    pcap = tmp_path / "empty.pcap"
    pcap.write_bytes(b"")
    p = run([binary("osprey"), "-r", str(pcap), "-S", str(o.rules), "-l", str(tmp_path),
             "--set", "unix-command.enabled=yes", "--set", f"unix-command.filename={o.sock}"],
            check=False)
    assert p.returncode == 1
    assert f"control socket {o.sock} is in use by another process" in p.stderr
    assert ctl(o.sock, "version")[0]["return"] == "OK"  # the first one still answers
    o.write(udp_frames(BATCH, [A]))
    rc, out, err = o.close()
    assert rc == 0, err


def test_stale_socket_file_is_replaced(stream, tmp_path):
    stale = tmp_path / "ctl.sock"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(stale))
    s.close()  # the file stays, nobody listens
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A]))
    o.wait_processed(BATCH)
    rc, out, err = o.close()
    assert rc == 0, err


def test_osprey_ctl_client(stream):
    o = stream(rule(1, "AAAA") + "\n")
    o.write(udp_frames(BATCH, [A]))
    o.wait_processed(BATCH)
    ctl_tool = str(ROOT / "tools" / "osprey-ctl")
    p = run([ctl_tool, "-s", str(o.sock), "stats"])
    assert json.loads(p.stdout)["total"]["packets"] == BATCH
    p = run([ctl_tool, "-s", str(o.sock), "nonsense"], check=False)
    assert p.returncode == 1 and "unknown command 'nonsense'" in p.stdout
    p = run([ctl_tool, "-s", str(o.sock) + ".none", "version"], check=False)
    assert p.returncode == 2 and "No such file or directory" in p.stderr
    o.rules.write_text(rule(1, "AAAA") + "\n" + rule(2, "AAAA", "two") + "\n")
    p = run([ctl_tool, "-s", str(o.sock), "reload-rules"])
    assert p.stdout.startswith("rules reloaded: 2 rules")
    rc, out, err = o.close()
    assert rc == 0, err
