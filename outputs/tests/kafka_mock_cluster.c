/* kafka_mock_cluster.c — a Kafka broker for tests/outputs/test_outputs_kafka.py: librdkafka's
 * mock cluster (in this process, real TCP listeners on localhost) and a consumer of it.
 *
 *   kafka_mock_cluster TOPIC
 * Creates TOPIC with one partition, prints the bootstrap servers as the first line of stdout,
 * then prints each message of the partition, from its start, one per line, until a message
 * holds an EVE stats record (the last one of an osprey run) or 30 s without one.
 * A line "down" or "up" on stdin takes the broker down (connections closed, new ones
 * refused) or brings it back: a broker restart, for the reconnect test.
 * Not a ctest (its name has no test_ prefix): the pytest runs it beside osprey.
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kafka_mock_cluster TOPIC\n");
        return 2;
    }
    char err[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "3", err, sizeof err);
    rd_kafka_t *owner = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (!owner) {
        fprintf(stderr, "kafka_mock_cluster: %s\n", err);
        return 1;
    }
    rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(owner, 1);
    if (!mc || rd_kafka_mock_topic_create(mc, argv[1], 1, 1)) {
        fprintf(stderr, "kafka_mock_cluster: cannot create the cluster or topic\n");
        return 1;
    }
    const char *boot = rd_kafka_mock_cluster_bootstraps(mc);
    printf("%s\n", boot);
    fflush(stdout);

    rd_kafka_conf_t *cc = rd_kafka_conf_new();
    if (rd_kafka_conf_set(cc, "bootstrap.servers", boot, err, sizeof err) != RD_KAFKA_CONF_OK) {
        fprintf(stderr, "kafka_mock_cluster: %s\n", err);
        return 1;
    }
    rd_kafka_t *consumer = rd_kafka_new(RD_KAFKA_CONSUMER, cc, err, sizeof err);
    if (!consumer) {
        fprintf(stderr, "kafka_mock_cluster: %s\n", err);
        return 1;
    }
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(consumer, argv[1], NULL);
    rd_kafka_consume_start(rkt, 0, RD_KAFKA_OFFSET_BEGINNING);
    int rc = 1;
    time_t give_up = time(NULL) + 30;
    while (time(NULL) < give_up && rc) {
        struct pollfd in = {.fd = 0, .events = POLLIN};
        char cmd[16];
        if (poll(&in, 1, 0) == 1 && fgets(cmd, sizeof cmd, stdin)) {
            if (!strcmp(cmd, "down\n"))
                rd_kafka_mock_broker_set_down(mc, 1);
            else if (!strcmp(cmd, "up\n"))
                rd_kafka_mock_broker_set_up(mc, 1);
            give_up = time(NULL) + 30;
        }
        rd_kafka_message_t *m = rd_kafka_consume(rkt, 0, 200);
        if (!m)
            continue;
        if (!m->err) {
            fwrite(m->payload, 1, m->len, stdout);
            putchar('\n');
            fflush(stdout);
            if (memmem(m->payload, m->len, "\"event_type\":\"stats\"", 20))
                rc = 0;
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_consume_stop(rkt, 0);
    rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(consumer);
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(owner);
    return rc;
}
