/* log_kafka.c — filetype kafka (keys under SECTION.kafka.): each record is one message to a
 * Kafka topic, through librdkafka's producer.
 *
 * librdkafka is the queue and the writer thread here: rd_kafka_produce copies the record into
 * its bounded in-memory queue (kafka.memcap) and returns at once; its own threads batch
 * (kafka.batch-size, kafka.linger-ms), send, and reconnect to the brokers. A full queue, and
 * a message the brokers never acknowledged within kafka.message-timeout, are dropped and
 * counted (the delivery reports, served on the writing threads with rd_kafka_poll).
 * Order: one request in flight per broker, so retries cannot reorder; records keep their
 * order within a partition (kafka.partition: a fixed one, or -1 for librdkafka's choice).
 */
#include <librdkafka/rdkafka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_backend.h"
#include "osprey_config.h"

/* At close, queued records get until their message-timeout to be delivered (librdkafka then
 * reports the rest as timed out, checked about once a second): a fixed 5 s wait dropped records
 * of a broker back after 5 s but within their timeout, which the timeout promises to keep. */
#define CLOSE_WAIT_SLACK_MS 1500

struct kafka_be {
    rd_kafka_t *rk;
    rd_kafka_topic_t *rkt;
    int32_t partition;
    int64_t close_wait_ms; /* message-timeout + slack */
    atomic_uint_fast64_t written, dropped;
    pthread_mutex_t err_lock;
    char err[512];
};

static void set_err(struct kafka_be *k, const char *why)
{
    pthread_mutex_lock(&k->err_lock);
    snprintf(k->err, sizeof k->err, "kafka: %s", why);
    pthread_mutex_unlock(&k->err_lock);
}

/* Delivery report: acknowledged, or given up on (timeout, broker error). */
static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void)rk;
    struct kafka_be *k = opaque;
    if (m->err) {
        set_err(k, rd_kafka_err2str(m->err));
        atomic_fetch_add(&k->dropped, 1);
    } else {
        atomic_fetch_add(&k->written, 1);
    }
}

/* librdkafka's own log lines (a broker down, a reconnect): kept as the last error, quiet. */
static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    (void)fac;
    struct kafka_be *k = rd_kafka_opaque(rk);
    if (k && level <= 4)
        set_err(k, buf);
}

static int conf_set(rd_kafka_conf_t *conf, const char *name, const char *value, char *err,
                    size_t errlen)
{
    char why[256];
    if (rd_kafka_conf_set(conf, name, value, why, sizeof why) == RD_KAFKA_CONF_OK)
        return 0;
    snprintf(err, errlen, "kafka: %s=%s: %s", name, value, why);
    return -1;
}

static void *kafka_open(const struct osprey_log_cfg *cfg, char *name, size_t namelen,
                        char *err, size_t errlen)
{
    char key[256], v[5][32];
#define KEY(x) (snprintf(key, sizeof key, "%s.kafka." x, cfg->section), key)
    const char *brokers = osprey_config_str(cfg->conf, KEY("brokers"));
    const char *topic = osprey_config_str(cfg->conf, KEY("topic"));
    snprintf(v[0], sizeof v[0], "%lld", (long long)osprey_config_int(cfg->conf, KEY("batch-size")));
    snprintf(v[1], sizeof v[1], "%lld", (long long)osprey_config_int(cfg->conf, KEY("linger-ms")));
    /* librdkafka counts its queue in kilobytes; at least one */
    uint64_t kb = osprey_config_size(cfg->conf, KEY("memcap")) / 1024;
    snprintf(v[2], sizeof v[2], "%llu", (unsigned long long)(kb ? kb : 1));
    snprintf(v[3], sizeof v[3], "%lld",
             (long long)(osprey_config_seconds(cfg->conf, KEY("message-timeout")) * 1000));
    int64_t partition = osprey_config_int(cfg->conf, KEY("partition"));
    const char *compression = osprey_config_str(cfg->conf, KEY("compression"));
#undef KEY
    if (!brokers[0] || !topic[0]) {
        snprintf(err, errlen, "%s.kafka: brokers and topic are needed", cfg->section);
        return NULL;
    }
    struct kafka_be *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "kafka: out of memory");
        return NULL;
    }
    pthread_mutex_init(&k->err_lock, NULL);
    k->partition = partition < 0 ? RD_KAFKA_PARTITION_UA : (int32_t)partition;
    k->close_wait_ms = strtoll(v[3], NULL, 10) + CLOSE_WAIT_SLACK_MS;
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char why[512];
    if (conf_set(conf, "bootstrap.servers", brokers, err, errlen) < 0 ||
        conf_set(conf, "batch.num.messages", v[0], err, errlen) < 0 ||
        conf_set(conf, "linger.ms", v[1], err, errlen) < 0 ||
        conf_set(conf, "queue.buffering.max.kbytes", v[2], err, errlen) < 0 ||
        conf_set(conf, "message.timeout.ms", v[3], err, errlen) < 0 ||
        conf_set(conf, "compression.codec", compression, err, errlen) < 0 ||
        /* one request in flight: a retried batch cannot overtake the next one */
        conf_set(conf, "max.in.flight.requests.per.connection", "1", err, errlen) < 0)
        goto fail_conf;
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_conf_set_log_cb(conf, on_log);
    rd_kafka_conf_set_opaque(conf, k);
    if (!(k->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof why))) {
        snprintf(err, errlen, "kafka: %s", why);
        goto fail_conf;
    }
    if (!(k->rkt = rd_kafka_topic_new(k->rk, topic, NULL))) {
        snprintf(err, errlen, "kafka: topic %s: %s", topic,
                 rd_kafka_err2str(rd_kafka_last_error()));
        rd_kafka_destroy(k->rk);
        goto fail;
    }
    snprintf(name, namelen, "kafka %s topic %s", brokers, topic);
    return k;
fail_conf:
    if (!k->rk)
        rd_kafka_conf_destroy(conf);
fail:
    pthread_mutex_destroy(&k->err_lock);
    free(k);
    return NULL;
}

static int kafka_write(void *b, const void *rec, size_t len)
{
    struct kafka_be *k = b;
    int rc = rd_kafka_produce(k->rkt, k->partition, RD_KAFKA_MSG_F_COPY, (void *)rec, len,
                              NULL, 0, NULL);
    rd_kafka_poll(k->rk, 0); /* serve delivery reports: never waits */
    if (rc == 0)
        return 0;
    set_err(k, rd_kafka_err2str(rd_kafka_last_error()));
    atomic_fetch_add(&k->dropped, 1);
    return -1;
}

static void kafka_counters(void *b, osprey_log_counter_fn put, void *ctx)
{
    struct kafka_be *k = b;
    rd_kafka_poll(k->rk, 0);
    put(ctx, "kafka.written", atomic_load(&k->written));
    put(ctx, "kafka.dropped", atomic_load(&k->dropped));
    put(ctx, "kafka.queued", (uint64_t)rd_kafka_outq_len(k->rk));
}

static uint64_t kafka_written(void *b)
{
    return atomic_load(&((struct kafka_be *)b)->written);
}

static uint64_t kafka_dropped(void *b)
{
    return atomic_load(&((struct kafka_be *)b)->dropped);
}

static void kafka_error(void *b, char *buf, size_t len)
{
    struct kafka_be *k = b;
    pthread_mutex_lock(&k->err_lock);
    snprintf(buf, len, "%s", k->err);
    pthread_mutex_unlock(&k->err_lock);
}

static void kafka_flush(void *b)
{
    struct kafka_be *k = b;
    rd_kafka_flush(k->rk, (int)(k->close_wait_ms > INT32_MAX ? INT32_MAX : k->close_wait_ms));
    int left = rd_kafka_outq_len(k->rk);
    if (left > 0) {
        /* purge the rest: their delivery reports (purged) count them as dropped */
        rd_kafka_purge(k->rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
        rd_kafka_poll(k->rk, 0);
        rd_kafka_flush(k->rk, 100);
    }
}

static void kafka_close(void *b)
{
    struct kafka_be *k = b;
    rd_kafka_topic_destroy(k->rkt);
    rd_kafka_destroy(k->rk);
    pthread_mutex_destroy(&k->err_lock);
    free(k);
}

const struct log_backend log_kafka = {
    .name = "kafka",
    .open = kafka_open,
    .write = kafka_write,
    .counters = kafka_counters,
    .written = kafka_written,
    .dropped = kafka_dropped,
    .error = kafka_error,
    .flush = kafka_flush,
    .close = kafka_close,
};
