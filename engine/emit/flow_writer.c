/* flow_writer.c — see flow_writer.h.
 *
 * Why: on the benchmark capture the flow records (117,000 of them, 56 MB) were about 6 % of
 * the packet thread's time, formatting and write(2) calls, work no packet waits for. A
 * record is copied whole into the queue: the strings it points to that are not static
 * (addresses, protocol number, community_id) come along in the slot. */
#include "flow_writer.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"
#include "osprey_clock.h"

/* A worker wakes the thread when the queue gets its first record or a batch of this many;
 * fewer wait at most GATHER_NS (a wake-up per record was a system call per flow). */
#define BATCH 64
#define GATHER_NS 20000000L

struct job {
    struct osprey_eve_flow r;
    char src[48], dst[48], proto[16], cid[64];
    const char *tunnels[MON_FLOW_MAX_TUNNELS];
};

struct osprey_flow_writer {
    pthread_mutex_t lock;
    pthread_cond_t more; /* a record was queued, or stop */
    pthread_cond_t room; /* records were written: room in the queue, or drained */
    struct job *ring;
    uint32_t cap, head, n;
    uint32_t busy;       /* records the thread is writing (taken, still in the ring) */
    bool started, failed, stop;
    bool idle;           /* the thread waits for a first record */
    bool gathering;      /* it has a few and waits a little for a batch */
    uint32_t draining;   /* callers of drain waiting: write what there is at once */
    pthread_t th;
    void (*write)(void *arg, const struct osprey_eve_flow *r);
    void *arg;
    uint64_t recycled, queue_max, queued, waiting_sum;
};

struct osprey_flow_writer *osprey_flow_writer_new(uint32_t cap,
                                                  void (*write)(void *arg,
                                                                const struct osprey_eve_flow *r),
                                                  void *arg)
{
    struct osprey_flow_writer *fw = calloc(1, sizeof *fw);
    if (!fw || !cap || !(fw->ring = calloc(cap, sizeof *fw->ring))) {
        free(fw);
        return NULL;
    }
    pthread_mutex_init(&fw->lock, NULL);
    osprey_cond_init_mono(&fw->more); /* its timed wait: GATHER_NS */
    pthread_cond_init(&fw->room, NULL);
    fw->cap = cap;
    fw->write = write;
    fw->arg = arg;
    return fw;
}

static void *run(void *arg)
{
    struct osprey_flow_writer *fw = arg;
    pthread_mutex_lock(&fw->lock);
    for (;;) {
        while (!fw->n && !fw->stop) {
            fw->idle = true;
            pthread_cond_wait(&fw->more, &fw->lock);
            fw->idle = false;
        }
        if (!fw->n)
            break; /* stop, and nothing left */
        if (fw->n < BATCH && !fw->stop && !fw->draining) {
            /* a few: wait a little for a batch (a worker signals when it has one) */
            struct timespec until = osprey_clock_mono_after(GATHER_NS);
            fw->gathering = true;
            pthread_cond_timedwait(&fw->more, &fw->lock, &until);
            fw->gathering = false;
        }
        /* everything queued now, in order; the slots stay the thread's until it is done */
        uint32_t take = fw->n, at = fw->head;
        fw->busy = take;
        pthread_mutex_unlock(&fw->lock);
        for (uint32_t i = 0; i < take; i++)
            fw->write(fw->arg, &fw->ring[(at + i) % fw->cap].r);
        pthread_mutex_lock(&fw->lock);
        fw->head = (fw->head + take) % fw->cap;
        fw->n -= take;
        fw->busy = 0;
        fw->recycled += take;
        pthread_cond_broadcast(&fw->room);
    }
    pthread_mutex_unlock(&fw->lock);
    return NULL;
}

/* The thread takes no signal: they stay the main thread's (SIGHUP, SIGTERM …). */
static bool start(struct osprey_flow_writer *fw)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    bool ok = pthread_create(&fw->th, NULL, run, fw) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* A bounded copy (cut to len - 1 bytes, as snprintf would; snprintf's format parsing cost
 * about 1 % of the packet thread, four strings a flow) */
static void copy_str(char *dst, size_t len, const char **field)
{
    if (!*field)
        return;
    size_t n = strnlen(*field, len - 1);
    memcpy(dst, *field, n);
    dst[n] = '\0';
    *field = dst;
}

void osprey_flow_writer_put(struct osprey_flow_writer *fw, const struct osprey_eve_flow *r)
{
    pthread_mutex_lock(&fw->lock);
    if (!fw->started && !fw->failed) {
        fw->started = start(fw);
        fw->failed = !fw->started;
    }
    if (fw->failed) { /* no thread: the caller writes it, as without flow.recyclers */
        pthread_mutex_unlock(&fw->lock);
        fw->write(fw->arg, r);
        return;
    }
    while (fw->n == fw->cap)
        pthread_cond_wait(&fw->room, &fw->lock);
    fw->waiting_sum += fw->n;
    fw->queued++;
    struct job *j = &fw->ring[(fw->head + fw->n) % fw->cap];
    j->r = *r;
    copy_str(j->src, sizeof j->src, &j->r.src_ip);
    copy_str(j->dst, sizeof j->dst, &j->r.dest_ip);
    copy_str(j->proto, sizeof j->proto, &j->r.proto);
    copy_str(j->cid, sizeof j->cid, &j->r.community_id);
    /* the other strings are static names (app_proto, state, reason, tunnel kinds) */
    uint32_t nt = r->ntunnels < MON_FLOW_MAX_TUNNELS ? r->ntunnels : MON_FLOW_MAX_TUNNELS;
    for (uint32_t i = 0; i < nt; i++)
        j->tunnels[i] = r->tunnels[i];
    j->r.tunnels = j->tunnels;
    j->r.ntunnels = nt;
    fw->n++;
    if (fw->n > fw->queue_max)
        fw->queue_max = fw->n;
    if (fw->idle || (fw->gathering && fw->n >= BATCH))
        pthread_cond_signal(&fw->more);
    pthread_mutex_unlock(&fw->lock);
}

void osprey_flow_writer_drain(struct osprey_flow_writer *fw)
{
    if (!fw)
        return;
    pthread_mutex_lock(&fw->lock);
    fw->draining++;
    if (fw->gathering)
        pthread_cond_signal(&fw->more); /* no waiting for a batch: now */
    /* the records queued so far, not those workers go on queueing meanwhile */
    uint64_t until = fw->queued;
    while (fw->started && fw->recycled < until)
        pthread_cond_wait(&fw->room, &fw->lock);
    fw->draining--;
    pthread_mutex_unlock(&fw->lock);
}

void osprey_flow_writer_free(struct osprey_flow_writer *fw)
{
    if (!fw)
        return;
    pthread_mutex_lock(&fw->lock);
    fw->stop = true;
    pthread_cond_signal(&fw->more);
    bool started = fw->started;
    pthread_mutex_unlock(&fw->lock);
    if (started)
        pthread_join(fw->th, NULL); /* it writes what is left before it ends */
    pthread_cond_destroy(&fw->more);
    pthread_cond_destroy(&fw->room);
    pthread_mutex_destroy(&fw->lock);
    free(fw->ring);
    free(fw);
}

void osprey_flow_writer_stats(struct osprey_flow_writer *fw, struct osprey_flow_writer_stats *s)
{
    pthread_mutex_lock(&fw->lock);
    s->recycled = fw->recycled;
    s->queue_max = fw->queue_max;
    s->queue_avg = fw->queued ? fw->waiting_sum / fw->queued : 0;
    pthread_mutex_unlock(&fw->lock);
}
