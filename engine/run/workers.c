/* workers.c — offline reader + N workers over single-producer/single-consumer rings.
 *
 * Dispatch rule: the unordered pair of OUTERMOST IP addresses, hashed. Both directions of a
 * flow carry the same pair, and every fragment of a datagram carries its datagram's pair, so
 * a flow and all of its fragments meet on one worker, where defrag and the flow table see
 * exactly what single mode sees for that flow. Ports are left out on purpose (fragments after
 * the first carry none), and so are inner addresses of tunnels: a fragmented GRE or VXLAN
 * datagram shows its inner header only after defrag, on the worker, so hashing the inner pair
 * would send the fragments and the unfragmented packets of one inner flow to different
 * workers. An inner flow therefore stays on one worker as long as it travels between one pair
 * of tunnel endpoints (either direction). Frames without IP go to worker 0.
 *
 * Each worker owns one ring of up to WK_RING batches of frames, whose bytes are copied into
 * one buffer of the ring's own used as a circle (threading.ring-size, by default 64 MiB shared
 * out among the workers, 4 to 16 MiB each: the ring's memcap). The reader fills the batch at head and
 * publishes it by advancing head; the worker processes the batch at tail, hands its bytes back
 * (freed: the end of that batch's bytes) and advances tail. head, tail, pub and freed are the
 * only words shared on the way (C11 atomics). The ring is measured in bytes, not only in
 * batches, so that it holds a burst of one heavy flow (a download hashed to one worker) while
 * the other workers still have frames: with 64 fixed batches (4,096 frames, about 8 ms of a
 * worker's work) the reader stalled on the full ring of the busy worker and the others ran dry,
 * a fifth of the workers' time asleep on the benchmark capture.
 * A thread finding its ring empty (worker) or full (reader) sleeps on the ring's condition
 * variable instead of polling: the reader is faster than the workers, so it waits often, and
 * with as many workers as CPUs each sched_yield() it made was a system call and a switch taken
 * from the workers. A full ring puts the reader to sleep until the worker has emptied half of
 * it. The sleeper raises its flag before it looks at the ring again and the other thread looks
 * at the flag after it moved its index (both sequentially consistent), so one of the two
 * always sees the other: no wake-up is lost; the wait is also bounded (WK_NAP_MS) as a safety
 * net.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture_files.h"
#include "mon_io.h"
#include "osprey_clock.h"
#include "osprey_log_file.h"
#include "workers.h"

#define WK_BATCH 64           /* frames per batch */
#define WK_RING 1024          /* batches per worker ring: at most 65,536 frames in flight */
#define WK_BYTES_ALL (64u << 20) /* frame bytes in flight, all rings together ... */
#define WK_BYTES_MIN (4u << 20)  /* ... but each ring between these */
#define WK_BYTES_MAX (16u << 20)
#define WK_NAP_MS 20          /* longest sleep before a thread looks at its ring again */

struct wk_meta {
    uint64_t ts_us, num;
    size_t off; /* in the ring's data */
    uint32_t caplen, wirelen;
    int linktype;
};

struct wk_batch {
    int n;
    uint64_t end; /* the ring's bytes written once this batch's frames were (wpos) */
    struct wk_meta m[WK_BATCH];
};

struct wk_ring {
    /* the indices sit on cache lines of their own (padding, since calloc gives no more
     * than max_align_t alignment) so the two threads do not bounce one line */
    char pad0[64];
    _Atomic uint64_t head; /* written by the reader */
    _Atomic uint64_t pub;  /* the reader: end of the last published batch's bytes */
    char pad1[64 - 2 * sizeof(uint64_t)];
    _Atomic uint64_t tail;  /* written by the worker */
    _Atomic uint64_t freed; /* the worker: end of the bytes of the last batch it is done with */
    char pad2[64 - 2 * sizeof(uint64_t)];
    atomic_bool done;      /* the reader published its last batch */
    atomic_bool worker_sleeps, reader_sleeps; /* who waits on cv */
    pthread_mutex_t mu;    /* only for cv: the ring itself takes no lock */
    pthread_cond_t cv;
    bool sync_init;        /* mu and cv initialised */
    struct wk_batch *b;    /* WK_RING */
    uint8_t *data;         /* nbytes of frames, a circle */
    uint64_t nbytes;
    uint64_t wpos;         /* the reader's: bytes written so far, skipped ends included */
    uint64_t woff;         /* the reader's: where the next frame goes (wpos % nbytes, kept
                              without a division per frame) */
    struct osprey_worker *w;
    struct mon_packet *pkt;             /* the worker's packet slot */
    pthread_t thread;
};

/* Sleep on r's condition variable, flag raised, while still(r, arg) holds. */
static void wk_sleep(struct wk_ring *r, atomic_bool *flag, bool (*still)(struct wk_ring *, uint64_t),
                     uint64_t arg)
{
    pthread_mutex_lock(&r->mu);
    atomic_store(flag, true); /* (seq_cst: ordered before the look below) */
    if (still(r, arg)) {
        struct timespec until = osprey_clock_mono_after(WK_NAP_MS * 1000000ull);
        pthread_cond_timedwait(&r->cv, &r->mu, &until);
    }
    atomic_store(flag, false);
    pthread_mutex_unlock(&r->mu);
}

/* Wake the other side of r if it sleeps (called after moving one's own index, seq_cst). */
static void wk_wake(struct wk_ring *r, atomic_bool *flag)
{
    if (atomic_load(flag)) {
        pthread_mutex_lock(&r->mu);
        pthread_cond_signal(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
}

/* The worker sleeps while its ring is empty (tail caught up with head) and not done. */
static bool ring_empty(struct wk_ring *r, uint64_t tail)
{
    return atomic_load(&r->head) == tail && !atomic_load(&r->done);
}

/* The reader, once it found the ring full (batches or bytes), sleeps until the worker has
 * emptied half of it (both). */
static bool ring_over_half(struct wk_ring *r, uint64_t unused)
{
    (void)unused;
    return atomic_load(&r->head) - atomic_load(&r->tail) > WK_RING / 2 ||
           atomic_load(&r->pub) - atomic_load(&r->freed) > r->nbytes / 2;
}

static void *worker_main(void *arg)
{
    struct wk_ring *r = arg;
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    for (;;) {
        bool synced = false;
        uint64_t head;
        while ((head = atomic_load_explicit(&r->head, memory_order_acquire)) == tail) {
            if (atomic_load_explicit(&r->done, memory_order_acquire) &&
                atomic_load_explicit(&r->head, memory_order_acquire) == tail)
                goto finished;
            if (!synced) { /* idle: what the outputs batched goes out */
                osprey_log_sync_all();
                synced = true;
                continue;
            }
            wk_sleep(r, &r->worker_sleeps, ring_empty, tail);
        }
        for (; tail != head; tail++) {
            struct wk_batch *b = &r->b[tail % WK_RING];
            for (int i = 0; i < b->n; i++) {
                const struct wk_meta *m = &b->m[i];
                struct mon_packet *p = r->pkt;
                p->frame = r->data + m->off;
                p->caplen = m->caplen;
                p->wirelen = m->wirelen;
                p->linktype = m->linktype;
                p->ts_us = m->ts_us;
                p->num = m->num;
                osprey_worker_packet(r->w, p);
            }
            atomic_store(&r->freed, b->end);
            atomic_store(&r->tail, tail + 1);
            if (atomic_load(&r->reader_sleeps) && !ring_over_half(r, 0))
                wk_wake(r, &r->reader_sleeps);
        }
    }
finished:
    osprey_worker_flush(r->w);
    return NULL;
}

int osprey_workers_pick(const struct mon_packet *p, int n)
{
    if (n <= 1)
        return 0;
    const uint8_t *ip = NULL;
    size_t off = 0, len = 0;
    for (int i = 0; i < p->nlayers; i++) {
        if (p->layer[i].kind == MON_L_IPV4 && p->layer[i].len >= 20) {
            ip = p->layer[i].hdr, off = 12, len = 4;
            break;
        }
        if (p->layer[i].kind == MON_L_IPV6 && p->layer[i].len >= 40) {
            ip = p->layer[i].hdr, off = 8, len = 16;
            break;
        }
    }
    if (!ip)
        return 0;
    const uint8_t *a = ip + off, *b = ip + off + len;
    if (memcmp(a, b, len) > 0) {
        const uint8_t *t = a;
        a = b;
        b = t;
    }
    uint64_t h = 1469598103934665603ull; /* FNV-1a over (lower, higher) */
    for (size_t i = 0; i < len; i++)
        h = (h ^ a[i]) * 1099511628211ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    h ^= h >> 29;
    return (int)(h % (uint64_t)n);
}

/* The batch the reader fills for ring r, waiting while every batch is in use. */
static struct wk_batch *filling(struct wk_ring *r, uint64_t head)
{
    while (head - atomic_load(&r->tail) >= WK_RING)
        wk_sleep(r, &r->reader_sleeps, ring_over_half, 0);
    return &r->b[head % WK_RING];
}

/* Hand the batch at head to the worker and start the next one (empty, waiting for a free
 * batch if need be). */
static void publish(struct wk_ring *r, uint64_t *head)
{
    atomic_store(&r->pub, r->b[*head % WK_RING].end);
    atomic_store(&r->head, ++*head);
    wk_wake(r, &r->worker_sleeps);
    filling(r, *head)->n = 0;
}

static int push(struct wk_ring *r, uint64_t *head, const struct mon_packet *p)
{
    /* frames start on 16 bytes; one that would cross the buffer's end starts at its start
     * (the bytes skipped count as used until the worker is past this frame's batch) */
    uint64_t len = ((uint64_t)p->caplen + 15u) & ~(uint64_t)15u;
    if (len > r->nbytes / 4)
        return -1; /* (libpcap caps a frame at 256 KiB: not with rings of 4 MiB or more) */
    struct wk_batch *b = filling(r, *head);
    uint64_t skip;
    for (;;) {
        skip = r->woff + len > r->nbytes ? r->nbytes - r->woff : 0;
        if (r->wpos + skip + len - atomic_load(&r->freed) <= r->nbytes)
            break;
        /* no room: the worker can only free what it has, so the frames of this batch go
         * first; then wait for half of the bytes */
        if (b->n > 0)
            publish(r, head);
        else
            wk_sleep(r, &r->reader_sleeps, ring_over_half, 0);
        b = filling(r, *head);
    }
    uint64_t at = skip ? 0 : r->woff;
    memcpy(r->data + at, p->frame, p->caplen);
    b->m[b->n++] = (struct wk_meta){p->ts_us, p->num, at, p->caplen, p->wirelen, p->linktype};
    r->wpos += skip + len;
    r->woff = at + len == r->nbytes ? 0 : at + len;
    b->end = r->wpos;
    if (b->n == WK_BATCH)
        publish(r, head);
    return 0;
}

/* Each ring's bytes: threading.ring-size (at least 1 MiB: four of libpcap's largest frames),
 * or by default a share of the frame bytes in flight. */
static uint64_t ring_bytes(uint64_t want, int n)
{
    if (want) /* (a multiple of 16: every frame starts on 16 bytes) */
        return want < (1u << 20) ? (1u << 20) : want & ~(uint64_t)15u;
    uint64_t b = WK_BYTES_ALL / (uint64_t)n;
    return b < WK_BYTES_MIN ? WK_BYTES_MIN : b > WK_BYTES_MAX ? WK_BYTES_MAX : b;
}

/* What the reader does with a batch: decode each frame only to find its address pair, copy
 * it into the ring of the worker that pair hashes to. */
struct reader {
    struct mon_decoder dec; /* the reader's own: finds the address pair, no defrag */
    struct wk_ring *rings;
    uint64_t *heads;
    int n;
};

static int deal(void *arg, struct mon_packet *batch, int k)
{
    struct reader *rd = arg;
    int rc = 0;
    for (int j = 0; j < k; j++) {
        struct mon_packet *p = &batch[j];
        mon_decode(&rd->dec, p);
        int w = osprey_workers_pick(p, rd->n);
        if (push(&rd->rings[w], &rd->heads[w], p) < 0) {
            fprintf(stderr, "osprey: frame %llu: %u bytes, more than a worker ring holds\n",
                    (unsigned long long)p->num, p->caplen);
            rc = -1;
        }
    }
    return rc;
}

int osprey_workers_run(struct osprey_worker *ws, int n, const struct mon_decode_cfg *dcfg,
                       uint64_t ring_size, char **files, int nfiles, uint64_t *pkts,
                       uint64_t *bytes)
{
    struct wk_ring *rings = calloc((size_t)n, sizeof *rings);
    uint64_t *heads = calloc((size_t)n, sizeof *heads);
    int started = 0, rc = 0;
    if (!rings || !heads) {
        rc = -2;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        rings[i].w = &ws[i];
        rings[i].nbytes = ring_bytes(ring_size, n);
        if (!(rings[i].pkt = calloc(1, sizeof *rings[i].pkt)) ||
            !(rings[i].b = calloc(WK_RING, sizeof *rings[i].b)) ||
            !(rings[i].data = malloc(rings[i].nbytes))) {
            rc = -2;
            goto out;
        }
        if (pthread_mutex_init(&rings[i].mu, NULL) != 0)
            rc = -2;
        else if (osprey_cond_init_mono(&rings[i].cv) != 0) {
            pthread_mutex_destroy(&rings[i].mu);
            rc = -2;
        } else
            rings[i].sync_init = true;
        if (rc)
            goto out;
    }
    for (; started < n; started++)
        if (pthread_create(&rings[started].thread, NULL, worker_main, &rings[started]) != 0) {
            fprintf(stderr, "osprey: cannot start worker thread %d\n", started);
            rc = -2;
            goto stop;
        }
    struct reader rd = {.rings = rings, .heads = heads, .n = n};
    mon_decoder_init(&rd.dec, dcfg, NULL);
    /* pcap_cnt is the global position, whichever worker; between batches the reader does
     * what single mode's loop does (capture_files.c) */
    rc = osprey_capture_files(ws[0].pl, files, nfiles, deal, &rd, pkts, bytes);
stop:
    for (int i = 0; i < started; i++) {
        struct wk_ring *r = &rings[i];
        if (r->b[heads[i] % WK_RING].n > 0)
            publish(r, &heads[i]);
        atomic_store(&r->done, true);
        wk_wake(r, &r->worker_sleeps);
    }
    for (int i = 0; i < started; i++)
        pthread_join(rings[i].thread, NULL);
out:
    if (rings)
        for (int i = 0; i < n; i++) {
            free(rings[i].b);
            free(rings[i].data);
            free(rings[i].pkt);
            if (rings[i].sync_init) {
                pthread_mutex_destroy(&rings[i].mu);
                pthread_cond_destroy(&rings[i].cv);
            }
        }
    free(rings);
    free(heads);
    return rc;
}
