/* log_queue.c — the bounded record queue of a network transport (log_queue.h). */
#include "log_queue.h"
#include "osprey_clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void lq_init(struct log_queue *q, size_t memcap)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    osprey_cond_init_mono(&q->cv); /* timed waits (lq_sleep) on the monotonic clock */
    q->memcap = memcap;
}

int lq_push(struct log_queue *q, const void *rec, size_t len)
{
    pthread_mutex_lock(&q->lock);
    /* the item header counts too: the memcap bounds the memory, not just the bytes */
    size_t cost = sizeof(struct lq_item) + len;
    if (q->closing || q->bytes + cost > q->memcap) {
        pthread_mutex_unlock(&q->lock);
        return -1;
    }
    struct lq_item *it = malloc(cost);
    if (!it) {
        pthread_mutex_unlock(&q->lock);
        return -1;
    }
    it->next = NULL;
    it->len = len;
    memcpy(it->data, rec, len);
    if (q->tail)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
    q->bytes += cost;
    pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->lock);
    return 0;
}

size_t lq_take(struct log_queue *q, struct lq_item **out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&q->lock);
    while (!q->head && !q->closing)
        pthread_cond_wait(&q->cv, &q->lock);
    while (q->head && n < max) {
        struct lq_item *it = q->head;
        q->head = it->next;
        if (!q->head)
            q->tail = NULL;
        q->bytes -= sizeof *it + it->len;
        out[n++] = it;
    }
    pthread_mutex_unlock(&q->lock);
    return n;
}

bool lq_sleep(struct log_queue *q, unsigned ms)
{
    struct timespec until = osprey_clock_mono_after((uint64_t)ms * 1000000u);
    pthread_mutex_lock(&q->lock);
    while (!q->closing && pthread_cond_timedwait(&q->cv, &q->lock, &until) != ETIMEDOUT)
        ; /* a push wakes us too: keep sleeping */
    bool closing = q->closing;
    pthread_mutex_unlock(&q->lock);
    return closing;
}

void lq_close(struct log_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->closing = true;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->lock);
}

uint64_t lq_drain(struct log_queue *q)
{
    uint64_t n = 0;
    pthread_mutex_lock(&q->lock);
    while (q->head) {
        struct lq_item *it = q->head;
        q->head = it->next;
        free(it);
        n++;
    }
    q->tail = NULL;
    q->bytes = 0;
    pthread_mutex_unlock(&q->lock);
    return n;
}

void lq_destroy(struct log_queue *q)
{
    lq_drain(q);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->lock);
}
