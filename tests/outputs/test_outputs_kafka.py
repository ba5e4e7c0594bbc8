"""EVE to Kafka (outputs.eve-log.filetype: kafka, librdkafka): a broker from librdkafka's mock
cluster (build/unit/kafka_mock_cluster, which also consumes the topic); the messages are the
file EVE's records, whole and in the same order, and a broker that is not there costs
records that are counted."""
import json
import subprocess

import pytest

from conftest import BUILD
from detect_helpers import http_conv
from outputs_helpers import osprey_out, rule

GET = rule('content:"GET";', sid=1)
TRAFFIC = http_conv() + http_conv(sport=40001) + http_conv(sport=40002)


def mock_cluster(topic):
    exe = BUILD / "unit" / "kafka_mock_cluster"
    if not exe.exists():
        pytest.fail(f"{exe} not built")
    proc = subprocess.Popen([str(exe), topic], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
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
