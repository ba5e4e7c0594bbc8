/* log_queue.h — a bounded FIFO of whole records between the worker threads and one writer
 * thread (a transport that talks to the network: log_redis.c).
 *
 * Workers push copies and never wait for the network: past `memcap` bytes queued a record
 * is refused (the caller counts it as dropped). The writer takes batches in order.
 */
#ifndef OSPREY_LOG_QUEUE_H
#define OSPREY_LOG_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lq_item {
    struct lq_item *next;
    size_t len;
    char data[];
};

struct log_queue {
    pthread_mutex_t lock;
    pthread_cond_t cv;        /* signalled on a push and on close */
    struct lq_item *head, *tail;
    size_t bytes, memcap;
    bool closing;
};

void lq_init(struct log_queue *q, size_t memcap);
/* Copy rec in; 0, or -1 (full past memcap, closing, or no memory). */
int lq_push(struct log_queue *q, const void *rec, size_t len);
/* Up to max records, oldest first, into out (the caller frees each). Waits until there is one
 * or the queue closes; 0 = closed and empty. */
size_t lq_take(struct log_queue *q, struct lq_item **out, size_t max);
/* Wait up to ms milliseconds or until the queue closes (a writer's reconnect backoff);
 * true if it is closing. */
bool lq_sleep(struct log_queue *q, unsigned ms);
/* Refuse pushes from now on and wake the writer. */
void lq_close(struct log_queue *q);
/* Free what is left; the number of records freed. */
uint64_t lq_drain(struct log_queue *q);
void lq_destroy(struct log_queue *q);

#endif
