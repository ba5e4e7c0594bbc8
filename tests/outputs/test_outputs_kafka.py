"""EVE to Kafka (outputs.eve-log.filetype: kafka, librdkafka): a broker from librdkafka's mock
cluster (build/unit/kafka_mock_cluster, which also consumes the topic); the messages are the
file EVE's records, whole and in the same order, and a broker that is not there costs
records that are counted."""
import json
import subprocess
import threading
import time

import pytest

from conftest import BUILD
from detect_helpers import http_conv, udp
from outputs_helpers import Feeder, osprey_out, rule

GET = rule('content:"GET";', sid=1)
TRAFFIC = http_conv() + http_conv(sport=40001) + http_conv(sport=40002)


def mock_cluster(topic):
    exe = BUILD / "unit" / "kafka_mock_cluster"
    if not exe.exists():
        pytest.fail(f"{exe} not built")
    proc = subprocess.Popen([str(exe), topic], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def kafka_args(brokers, topic, *more):
    sets = ["outputs.eve-log.filetype=kafka", f"outputs.eve-log.kafka.brokers={brokers}",
            f"outputs.eve-log.kafka.topic={topic}", *more]
    return [a for s in sets for a in ("--set", s)]


@pytest.mark.parametrize("batch", ["1", "10000"])
def test_eve_to_kafka_same_records_same_order(tmp_path, batch):
    want = [l for l in osprey_out(tmp_path, TRAFFIC, [GET], name="file").eve_text.splitlines()
            if '"event_type":"stats"' not in l]
    assert len(want) == 6
    mc, brokers = mock_cluster("eve")
    try:
        out = osprey_out(tmp_path, TRAFFIC, [GET],
                         *kafka_args(brokers, "eve", f"outputs.eve-log.kafka.batch-size={batch}",
                                     "outputs.eve-log.kafka.partition=0"), name="k")
        got, err = mc.communicate(timeout=60)
    finally:
        if mc.poll() is None:
            mc.kill()
    assert mc.returncode == 0, err
    got = got.splitlines()
    assert got[:-1] == want  # one message per record, no newline, in order
    stats = json.loads(got[-1])
    assert stats["event_type"] == "stats"
    assert stats["stats"]["osprey"]["output"]["eve-log"]["kafka"]["dropped"] == 0
    assert f"kafka {brokers} topic eve" in out.proc.stdout


def test_kafka_broker_away_counts_the_lost_records(tmp_path):
    # nothing listens there: the records wait message-timeout, then are counted as lost
    out = osprey_out(tmp_path, TRAFFIC, [GET],
                     *kafka_args("127.0.0.1:1", "eve", "outputs.eve-log.kafka.message-timeout=1"),
                     check=False)
    assert out.proc.returncode == 1
    assert "7 records could not be written" in out.proc.stderr


def alerts(n, base):
    return [udp(b"GET %d" % (base + i), sport=10000 + base + i) for i in range(n)]


def kafka_outage(tmp_path, timeout, comes_back):
    """Burst 1, the broker goes down, burst 2 two seconds later, (the broker back,) burst 3.
    The messages the consumer read, and osprey's stderr."""
    mc, brokers = mock_cluster("eve")
    got = []

    def consume():  # the helper prints each message as it reads it
        for line in mc.stdout:
            got.append(json.loads(line))

    t = threading.Thread(target=consume, daemon=True)
    t.start()
    f = Feeder(tmp_path, [rule('content:"GET";', sid=1, proto="udp")],
               "--set", "outputs.eve-log.types=[alert, stats]", "--set", "stats.interval=300",
               *kafka_args(brokers, "eve", "outputs.eve-log.kafka.partition=0",
                           "outputs.eve-log.kafka.linger-ms=0",
                           f"outputs.eve-log.kafka.message-timeout={timeout}"))
    try:
        f.send(alerts(32, 0))
        f.wait_for(lambda: len(got) == 32, "the first burst in Kafka")
        mc.stdin.write("down\n")
        mc.stdin.flush()
        time.sleep(0.5)
        f.send(alerts(32, 100))
        time.sleep(2)  # the records wait in librdkafka's queue
        if comes_back:
            mc.stdin.write("up\n")
            mc.stdin.flush()
        f.send(alerts(32, 200))
        _, err = f.finish(rc=0 if comes_back else 1)  # lost records: exit status 1
        if comes_back:
            t.join(40)
    finally:
        if mc.poll() is None:
            mc.kill()
    return got, err


def test_kafka_broker_restart_mid_run_loses_nothing(tmp_path):
    """Back within message-timeout: librdkafka kept the records queued and delivers them
    after the reconnect, all of them, in order."""
    got, _ = kafka_outage(tmp_path, "30", comes_back=True)
    ports = [r["src_port"] for r in got if r["event_type"] == "alert"]
    assert ports == [*range(10000, 10032), *range(10100, 10132), *range(10200, 10232)]
    assert got[-1]["event_type"] == "stats"
    assert got[-1]["stats"]["osprey"]["output"]["eve-log"]["kafka"]["dropped"] == 0


def test_kafka_broker_gone_past_message_timeout_counts_the_lost(tmp_path):
    """Still away after message-timeout: the later records (64 alerts and the stats record
    at exit) are dropped, counted and reported."""
    got, err = kafka_outage(tmp_path, "1", comes_back=False)
    assert [r["src_port"] for r in got] == list(range(10000, 10032))
    assert "kafka 127.0.0.1:" in err and "65 records could not be written" in err
