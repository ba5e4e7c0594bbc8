"""EVE to Redis (outputs.eve-log.filetype: redis): a real redis-server; the records read back
from the list, channel or stream are the file EVE's records, whole and in the same order; a
Redis restart mid-run is survived (reconnect) and the records lost to it are counted in the
stats records (osprey.output.eve-log.redis.*)."""
import json
import threading
import time

from detect_helpers import http_conv, udp
from outputs_helpers import Feeder, osprey_out, rule
from redis_helpers import RedisServer, Resp, redis_args

GET = rule('content:"GET";', sid=1)
TRAFFIC = http_conv() + http_conv(sport=40001) + http_conv(sport=40002)


def no_stats(lines):
    """The records but the stats ones (their counters and clock differ between two runs)."""
    return [l for l in lines if json.loads(l)["event_type"] != "stats"]


def file_eve(tmp_path):
    """The same traffic and rules written to eve.json: the records Redis must receive."""
    out = osprey_out(tmp_path, TRAFFIC, [GET], name="file")
    return no_stats(out.eve_text.splitlines())


def stream_entries(reply):
    """XRANGE → the values of each entry's one field, which must be `eve`."""
    vals = []
    for _id, fields in reply:
        assert len(fields) == 2 and fields[0] == b"eve"
        vals.append(fields[1].decode())
    return vals


def test_eve_to_redis_list_rpush_and_stream_same_records_same_order(tmp_path):
    want = file_eve(tmp_path)
    assert len(want) == 6  # 3 alerts, 3 flows
    r = RedisServer(tmp_path)
    try:
        for mode, read in [
            # Suricata's "list" is LPUSH: the newest record at the head
            ("list", lambda: [v.decode() for v in reversed(r.cmd("LRANGE", "eve", 0, -1))]),
            ("lpush", lambda: [v.decode() for v in reversed(r.cmd("LRANGE", "eve", 0, -1))]),
            ("rpush", lambda: [v.decode() for v in r.cmd("LRANGE", "eve", 0, -1)]),
            ("xadd", lambda: stream_entries(r.cmd("XRANGE", "eve", "-", "+"))),
            ("stream", lambda: stream_entries(r.cmd("XRANGE", "eve", "-", "+"))),
        ]:
            r.cmd("DEL", "eve")
            out = osprey_out(tmp_path, TRAFFIC, [GET], *redis_args(r.port, mode), name=mode)
            got = read()
            # every record is one element, no newline: the EVE line as the file has it
            assert no_stats(got) == want, mode
            assert json.loads(got[-1])["event_type"] == "stats"  # the one at exit, last
            assert not (out.logdir / "eve.json").exists()
            assert f"redis 127.0.0.1:{r.port}" in out.proc.stdout
    finally:
        r.stop()


def test_eve_to_redis_pipelining_batches_keep_order(tmp_path):
    want = file_eve(tmp_path)
    r = RedisServer(tmp_path)
    try:
        osprey_out(tmp_path, TRAFFIC, [GET],
                   *redis_args(r.port, "rpush", "eve", "outputs.eve-log.redis.pipelining.enabled=yes",
                               "outputs.eve-log.redis.pipelining.batch-size=4"), name="p")
        got = [v.decode() for v in r.cmd("LRANGE", "eve", 0, -1)]
        assert no_stats(got) == want
    finally:
        r.stop()


def test_eve_to_redis_channel(tmp_path):
    want = file_eve(tmp_path)
    r = RedisServer(tmp_path)
    sub = Resp(r.port, timeout=30)
    assert sub.cmd("SUBSCRIBE", "evechan") == [b"subscribe", b"evechan", 1]
    got = []

    def listen():
        while True:
            kind, chan, msg = sub.reply()
            assert kind == b"message" and chan == b"evechan"
            got.append(msg.decode())
            if json.loads(msg)["event_type"] == "stats":
                return

    t = threading.Thread(target=listen, daemon=True)
    t.start()
    try:
        osprey_out(tmp_path, TRAFFIC, [GET], *redis_args(r.port, "channel", "evechan"), name="c")
        t.join(30)
        assert no_stats(got) == want
    finally:
        sub.close()
        r.stop()


def alerts(n, base):
    """n UDP packets that each alert (32 fill one batch of the reader)."""
    return [udp(b"GET %d" % (base + i), sport=10000 + base + i) for i in range(n)]


def test_redis_restart_mid_run_reconnects_and_counts_the_drops(tmp_path):
    r = RedisServer(tmp_path)
    # a queue of ~40 alert records: while Redis is away, 96 records cannot all wait
    f = Feeder(tmp_path, [rule('content:"GET";', sid=1, proto="udp")],
               "--set", "outputs.eve-log.types=[alert, stats]",
               *redis_args(r.port, "rpush", "eve", "outputs.eve-log.redis.memcap=24kb"))
    try:
        f.send(alerts(32, 0))
        f.wait_for(lambda: r.cmd("LLEN", "eve") == 32, "the first burst in Redis")
        before = [json.loads(v) for v in r.cmd("LRANGE", "eve", 0, -1)]
        r.stop()  # a crash: the server and its list are gone
        for base in (100, 132, 164):
            f.send(alerts(32, base))
        r.start()  # back, empty, on the same port
        f.wait_for(lambda: r.cmd("LLEN", "eve") > 0, "the reconnect", timeout=30)
        n = -1  # the queue delivered: the list stops growing
        while n != r.cmd("LLEN", "eve"):
            n = r.cmd("LLEN", "eve")
            time.sleep(0.3)
        f.send(alerts(32, 200))
        # delivered before the end, so that the stats record at exit finds room in the
        # 24 KB queue (on a loaded machine the last alerts may still fill it)
        f.wait_for(lambda: r.cmd("LLEN", "eve") == n + 32, "the last burst in Redis")
        _, err = f.finish(rc=1)  # records were lost: said at exit, as for a full disk
        after = [json.loads(v) for v in r.cmd("LRANGE", "eve", 0, -1)]
    finally:
        r.stop()
    assert "records could not be written" in err
    assert [a["src_port"] for a in before] == list(range(10000, 10032))
    got = [a for a in after if a["event_type"] == "alert"]
    ports = [a["src_port"] for a in got]
    # whole, in order, never twice: what the queue held through the outage, then the rest
    assert ports == sorted(set(ports))
    assert ports[-32:] == list(range(10200, 10232))
    middle = ports[:-32]
    assert 0 < len(middle) < 96 and set(middle) <= set(range(10100, 10196))
    stats = after[-1]
    assert stats["event_type"] == "stats"  # the one at exit, with the counters
    c = stats["stats"]["osprey"]["output"]["eve-log"]["redis"]
    assert c["reconnects"] == 1
    # every alert of the run reached Redis or is counted as dropped
    assert c["dropped"] == 96 - len(middle) and c["dropped"] > 0
    assert len(before) + len(got) + c["dropped"] == 160
