/* pcap_file_ahead.c — a pcap file read ahead on a thread of its own (mon_source_read_ahead).
 *
 * Reading a capture is a kernel copy from the page cache, libpcap's record parsing through
 * stdio and a copy into an arena: about a tenth of `osprey -r`'s time on one core. A thread
 * does it into a ring of slots while the caller processes the slot before: the caller's
 * thread only takes frames out of a filled slot. Each slot is an arena of frames (up to
 * AHEAD_FRAMES); a slot is given back to the reader when the caller reads past it, so the
 * frames a read handed out stay valid until the next read, as for any source. Regular files
 * only: a FIFO or a terminal may block the reader forever, and closing the source joins it. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pcap_file_int.h"

enum {
    AHEAD_SLOTS = 8,     /* one being handed out, up to seven read ahead */
    AHEAD_FRAMES = 1024, /* frames per slot (its arena of 1 MiB ends it first for big ones) */
    /* the reader, once every slot is full, sleeps until this many are free again: woken for
     * every slot given back, it was woken some 1,300 times a run of the benchmark capture,
     * and each wake-up could preempt the caller's thread on a busy machine */
    AHEAD_REFILL = AHEAD_SLOTS / 2,
};

struct ahead_slot {
    struct pcap_arena arena;
    struct pcap_frame *frames;
    int n;      /* frames read into it */
    int failed; /* the read after them failed (err says why) */
    char err[256];
};

struct pcap_ahead {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled, emptied;
    struct ahead_slot slot[AHEAD_SLOTS];
    uint64_t nfill;  /* slots filled so far (the next to fill: nfill % AHEAD_SLOTS) */
    uint64_t ntake;  /* slots taken by the caller (the one handed out: (ntake - 1) % …) */
    bool holding;    /* the caller holds slot (ntake - 1) % AHEAD_SLOTS */
    int off;         /* next frame of the held slot */
    bool stop;       /* close: the reader ends */
    bool asleep;     /* the reader waits for AHEAD_REFILL free slots */
    pcap_t *pc;
};

static void *reader(void *arg)
{
    struct pcap_ahead *a = arg;
    for (;;) {
        pthread_mutex_lock(&a->mu);
        /* every slot filled and not given back (the held one counts): wait for a few */
        if (!a->stop && a->nfill - a->ntake + a->holding >= AHEAD_SLOTS) {
            a->asleep = true;
            while (!a->stop && a->nfill - a->ntake + a->holding > AHEAD_SLOTS - AHEAD_REFILL)
                pthread_cond_wait(&a->emptied, &a->mu);
            a->asleep = false;
        }
        bool stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop)
            return NULL;
        struct ahead_slot *s = &a->slot[a->nfill % AHEAD_SLOTS];
        s->failed = 0;
        s->n = pcap_file_fill(a->pc, &s->arena, s->frames, AHEAD_FRAMES, &s->failed, s->err,
                              sizeof s->err);
        bool end = s->n == 0 || s->failed; /* end of file, or an error after these frames */
        pthread_mutex_lock(&a->mu);
        a->nfill++;
        pthread_cond_signal(&a->filled);
        pthread_mutex_unlock(&a->mu);
        if (end)
            return NULL; /* the last slot tells the caller */
    }
}

int pcap_ahead_read(struct pcap_file_source *s, struct mon_packet *pkts, int max)
{
    struct pcap_ahead *a = s->ahead;
    struct ahead_slot *cur = a->holding ? &a->slot[(a->ntake - 1) % AHEAD_SLOTS] : NULL;
    if (cur && a->off == cur->n && cur->n > 0 && !cur->failed) {
        /* read past it: its frames are no longer the caller's, the reader may refill it */
        pthread_mutex_lock(&a->mu);
        a->holding = false;
        if (a->asleep && a->nfill - a->ntake <= AHEAD_SLOTS - AHEAD_REFILL)
            pthread_cond_signal(&a->emptied);
        pthread_mutex_unlock(&a->mu);
        cur = NULL;
    }
    if (!cur) {
        pthread_mutex_lock(&a->mu);
        while (a->nfill == a->ntake)
            pthread_cond_wait(&a->filled, &a->mu);
        a->ntake++;
        a->holding = true;
        pthread_mutex_unlock(&a->mu);
        cur = &a->slot[(a->ntake - 1) % AHEAD_SLOTS];
        a->off = 0;
    }
    if (a->off == cur->n) { /* the last slot: end of file, or the error (read after read) */
        if (!cur->failed)
            return 0;
        snprintf(s->base.err, sizeof s->base.err, "%s", cur->err);
        return -1;
    }
    int n = cur->n - a->off < max ? cur->n - a->off : max;
    pcap_file_hand_out(s, cur->frames + a->off, n, pkts);
    a->off += n;
    return n;
}

static void free_slots(struct pcap_ahead *a)
{
    for (int i = 0; i < AHEAD_SLOTS; i++) {
        free(a->slot[i].arena.mem);
        free(a->slot[i].frames);
    }
}

void pcap_ahead_stop(struct pcap_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = true;
    pthread_cond_signal(&a->emptied);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->filled);
    pthread_cond_destroy(&a->emptied);
    free_slots(a);
    free(a);
}

int mon_source_read_ahead(struct mon_source *src)
{
    if (!mon_source_is_file(src))
        return MON_EINVAL;
    struct pcap_file_source *s = (struct pcap_file_source *)src;
    FILE *fp = pcap_file(s->pc);
    struct stat st;
    if (s->ahead || src->frames || s->failed || !fp || fstat(fileno(fp), &st) != 0 ||
        !S_ISREG(st.st_mode))
        return MON_EINVAL; /* already, not from the start, or not a regular file */
    struct pcap_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return MON_ENOMEM;
    for (int i = 0; i < AHEAD_SLOTS; i++) {
        a->slot[i].arena.size = 1u << 20;
        if (!(a->slot[i].arena.mem = malloc(a->slot[i].arena.size)) ||
            !(a->slot[i].frames = calloc(AHEAD_FRAMES, sizeof *a->slot[i].frames))) {
            free_slots(a);
            free(a);
            return MON_ENOMEM;
        }
    }
    a->pc = s->pc;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->filled, NULL);
    pthread_cond_init(&a->emptied, NULL);
    if (pthread_create(&a->thread, NULL, reader, a) != 0) {
        pthread_mutex_destroy(&a->mu);
        pthread_cond_destroy(&a->filled);
        pthread_cond_destroy(&a->emptied);
        free_slots(a);
        free(a);
        return MON_ENOMEM;
    }
    pthread_setname_np(a->thread, "mon-read-ahead");
    s->ahead = a;
    return MON_OK;
}
