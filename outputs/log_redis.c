/* log_redis.c — filetype redis (Suricata's eve-log redis: keys under SECTION.redis.): each
 * record is one LPUSH/RPUSH to a list, one PUBLISH to a channel or one XADD to a stream.
 *
 * Workers never talk to Redis: they copy the record into a bounded queue (log_queue.h,
 * redis.memcap bytes; a full queue drops and counts) and one writer thread per output sends
 * the queue in order, `pipelining.batch-size` commands per round trip when pipelining is on.
 * When Redis goes away the writer reconnects with a backoff (0.1 s doubling to 2 s) while
 * the queue holds what arrives; the commands of a round trip that broke are counted as
 * dropped, never sent twice (Redis may or may not have applied them: at most once, in order).
 */
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "log_backend.h"
#include "log_queue.h"
#include "osprey_config.h"

#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 2000
#define CLOSE_WAIT_S 3     /* at close: how long an unreachable server may hold the queue */

enum redis_cmd { RC_LPUSH, RC_RPUSH, RC_PUBLISH, RC_XADD };

struct redis_be {
    struct log_queue q;
    pthread_t thread;
    redisContext *c;           /* writer thread only; NULL while disconnected */
    enum redis_cmd cmd;
    char server[256], key[512], maxlen[24];
    int port;
    bool trim_exact;
    size_t batch;
    bool ever_connected;
    bool gave_up;              /* closing and the server stayed away: drop the rest */
    atomic_uint_fast64_t written, dropped, reconnects;
    pthread_mutex_t err_lock;
    char err[1024];
};

static void set_err(struct redis_be *r, const char *what, const char *why)
{
    pthread_mutex_lock(&r->err_lock);
    snprintf(r->err, sizeof r->err, "redis %s:%d: %s%s%s", r->server, r->port, what,
             why ? ": " : "", why ? why : "");
    pthread_mutex_unlock(&r->err_lock);
}

static int mode_parse(const char *m)
{
    if (!strcasecmp(m, "list") || !strcasecmp(m, "lpush"))
        return RC_LPUSH; /* Suricata's "list" pushes on the left */
    if (!strcasecmp(m, "rpush"))
        return RC_RPUSH;
    if (!strcasecmp(m, "channel") || !strcasecmp(m, "publish"))
        return RC_PUBLISH;
    if (!strcasecmp(m, "xadd") || !strcasecmp(m, "stream"))
        return RC_XADD;
    return -1;
}

static int try_connect(struct redis_be *r)
{
    struct timeval tv = {1, 0};
    redisContext *c = redisConnectWithTimeout(r->server, r->port, tv);
    if (!c || c->err) {
        set_err(r, "cannot connect", c ? c->errstr : "out of memory");
        if (c)
            redisFree(c);
        return -1;
    }
    struct timeval io = {2, 0}; /* a server that stops answering breaks the round trip */
    redisSetTimeout(c, io);
    if (r->ever_connected)
        atomic_fetch_add(&r->reconnects, 1);
    r->ever_connected = true;
    r->c = c;
    return 0;
}

static void append(struct redis_be *r, const struct lq_item *it)
{
    static const char *const verb[] = {"LPUSH", "RPUSH", "PUBLISH", "XADD"};
    const char *argv[9];
    size_t lens[9], n = 0;
#define ARG(s, l) (argv[n] = (s), lens[n++] = (l))
    ARG(verb[r->cmd], strlen(verb[r->cmd]));
    ARG(r->key, strlen(r->key));
    if (r->cmd == RC_XADD) {
        if (r->maxlen[0]) { /* MAXLEN ~ N: Redis trims whole nodes (cheap) unless exact */
            ARG("MAXLEN", 6);
            if (!r->trim_exact)
                ARG("~", 1);
            ARG(r->maxlen, strlen(r->maxlen));
        }
        ARG("*", 1);
        ARG("eve", 3); /* the stream entry's one field, as Suricata names it */
    }
    ARG(it->data, it->len);
#undef ARG
    redisAppendCommandArgv(r->c, (int)n, argv, lens);
}

/* Send a batch on the connection; a broken one is closed and its unanswered records dropped. */
static void send_batch(struct redis_be *r, struct lq_item **b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        append(r, b[i]);
    size_t ok = 0;
    for (; ok < n; ok++) {
        redisReply *rep = NULL;
        if (redisGetReply(r->c, (void **)&rep) != REDIS_OK || !rep)
            break;
        bool err = rep->type == REDIS_REPLY_ERROR;
        if (err)
            set_err(r, "command failed", rep->str);
        freeReplyObject(rep);
        atomic_fetch_add(err ? &r->dropped : &r->written, 1);
    }
    if (ok < n) {
        set_err(r, "connection lost", r->c->errstr);
        atomic_fetch_add(&r->dropped, n - ok);
        redisFree(r->c);
        r->c = NULL;
    }
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Until connected; false when the queue closed and the server stayed away CLOSE_WAIT_S. */
static bool connect_wait(struct redis_be *r)
{
    unsigned backoff = BACKOFF_MIN_MS;
    double give_up = 0;
    while (try_connect(r) < 0) {
        bool closing = lq_sleep(&r->q, backoff);
        if (closing) {
            if (!give_up)
                give_up = mono_s() + CLOSE_WAIT_S;
            if (mono_s() >= give_up) {
                r->gave_up = true;
                return false;
            }
            struct timespec pause = {0, 200 * 1000000L};
            nanosleep(&pause, NULL);
        }
        backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : backoff * 2;
    }
    return true;
}

static void *writer(void *arg)
{
    struct redis_be *r = arg;
    struct lq_item **b = calloc(r->batch, sizeof *b);
    size_t n;
    while (b && (n = lq_take(&r->q, b, r->batch)) > 0) {
        if (r->c || (!r->gave_up && connect_wait(r)))
            send_batch(r, b, n);
        else
            atomic_fetch_add(&r->dropped, n);
        for (size_t i = 0; i < n; i++)
            free(b[i]);
    }
    free(b);
    return NULL;
}

static void *redis_open(const struct osprey_log_cfg *cfg, char *name, size_t namelen,
                        char *err, size_t errlen)
{
    char k[256];
#define KEY(x) (snprintf(k, sizeof k, "%s.redis." x, cfg->section), k)
    int cmd = mode_parse(osprey_config_str(cfg->conf, KEY("mode")));
    if (cmd < 0) {
        snprintf(err, errlen, "%s: '%s' is not a redis mode (list, lpush, rpush, channel, "
                 "publish, xadd, stream)", KEY("mode"), osprey_config_str(cfg->conf, k));
        return NULL;
    }
    struct redis_be *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "redis: out of memory");
        return NULL;
    }
    r->cmd = (enum redis_cmd)cmd;
    snprintf(r->server, sizeof r->server, "%s", osprey_config_str(cfg->conf, KEY("server")));
    r->port = (int)osprey_config_int(cfg->conf, KEY("port"));
    snprintf(r->key, sizeof r->key, "%s", osprey_config_str(cfg->conf, KEY("key")));
    int64_t maxlen = osprey_config_int(cfg->conf, KEY("stream-maxlen"));
    if (maxlen > 0)
        snprintf(r->maxlen, sizeof r->maxlen, "%lld", (long long)maxlen);
    r->trim_exact = osprey_config_bool(cfg->conf, KEY("stream-trim-exact"));
    r->batch = osprey_config_bool(cfg->conf, KEY("pipelining.enabled"))
                   ? (size_t)osprey_config_int(cfg->conf, KEY("pipelining.batch-size"))
                   : 1;
    lq_init(&r->q, (size_t)osprey_config_size(cfg->conf, KEY("memcap")));
#undef KEY
    pthread_mutex_init(&r->err_lock, NULL);
    static const char *const mname[] = {"lpush", "rpush", "publish", "xadd"};
    snprintf(name, namelen, "redis %s:%d %s %s", r->server, r->port, mname[r->cmd], r->key);
    /* a server that is down at start is not fatal: records queue until it is up */
    if (pthread_create(&r->thread, NULL, writer, r) != 0) {
        snprintf(err, errlen, "redis: cannot start the writer thread");
        lq_destroy(&r->q);
        pthread_mutex_destroy(&r->err_lock);
        free(r);
        return NULL;
    }
    return r;
}

static int redis_write(void *b, const void *rec, size_t len)
{
    struct redis_be *r = b;
    if (lq_push(&r->q, rec, len) == 0)
        return 0;
    atomic_fetch_add(&r->dropped, 1);
    return -1;
}

static void redis_counters(void *b, osprey_log_counter_fn put, void *ctx)
{
    struct redis_be *r = b;
    put(ctx, "redis.written", atomic_load(&r->written));
    put(ctx, "redis.dropped", atomic_load(&r->dropped));
    put(ctx, "redis.reconnects", atomic_load(&r->reconnects));
}

static uint64_t redis_written(void *b)
{
    return atomic_load(&((struct redis_be *)b)->written);
}

static uint64_t redis_dropped(void *b)
{
    return atomic_load(&((struct redis_be *)b)->dropped);
}

static void redis_error(void *b, char *buf, size_t len)
{
    struct redis_be *r = b;
    pthread_mutex_lock(&r->err_lock);
    snprintf(buf, len, "%s", r->err);
    pthread_mutex_unlock(&r->err_lock);
}

static void redis_flush(void *b)
{
    struct redis_be *r = b;
    lq_close(&r->q); /* the writer empties the queue (or gives up on the server), then ends */
    pthread_join(r->thread, NULL);
    atomic_fetch_add(&r->dropped, lq_drain(&r->q));
    if (r->c)
        redisFree(r->c);
    r->c = NULL;
}

static void redis_close(void *b)
{
    struct redis_be *r = b;
    lq_destroy(&r->q);
    pthread_mutex_destroy(&r->err_lock);
    free(r);
}

const struct log_backend log_redis = {
    .name = "redis",
    .open = redis_open,
    .write = redis_write,
    .counters = redis_counters,
    .written = redis_written,
    .dropped = redis_dropped,
    .error = redis_error,
    .flush = redis_flush,
    .close = redis_close,
};
