/* pcap_jobs.c — the capture-file queue of `osprey --unix-socket` (pcap_jobs.h): a list under a
 * mutex, a condition the run loop waits on, the current job and the last one's packet time. */
#include "pcap_jobs.h"
#include "osprey_clock.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct node {
    struct node *next;
    struct osprey_pcap_job job;
};

struct osprey_pcap_jobs {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct node *head, **tail;
    int count;
    struct osprey_pcap_job cur; /* filename NULL when idle */
    uint64_t last_ms;
    atomic_bool interrupt;
};

static void job_free(struct osprey_pcap_job *j)
{
    free(j->filename);
    free(j->output_dir);
    j->filename = j->output_dir = NULL;
}

struct osprey_pcap_jobs *osprey_pcap_jobs_create(void)
{
    struct osprey_pcap_jobs *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    pthread_mutex_init(&q->mu, NULL);
    osprey_cond_init_mono(&q->cv);
    q->tail = &q->head;
    return q;
}

void osprey_pcap_jobs_free(struct osprey_pcap_jobs *q)
{
    if (!q)
        return;
    for (struct node *n = q->head, *next; n; n = next) {
        next = n->next;
        job_free(&n->job);
        free(n);
    }
    job_free(&q->cur);
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->cv);
    free(q);
}

int osprey_pcap_jobs_add(struct osprey_pcap_jobs *q, const struct osprey_pcap_job *job)
{
    struct node *n = calloc(1, sizeof *n);
    if (!n)
        return -1;
    n->job = *job;
    n->job.filename = strdup(job->filename);
    n->job.output_dir = strdup(job->output_dir);
    if (!n->job.filename || !n->job.output_dir) {
        job_free(&n->job);
        free(n);
        return -1;
    }
    pthread_mutex_lock(&q->mu);
    *q->tail = n;
    q->tail = &n->next;
    q->count++;
    pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return 0;
}

bool osprey_pcap_jobs_next(struct osprey_pcap_jobs *q, int wait_ms, struct osprey_pcap_job *job)
{
    struct timespec until = osprey_clock_mono_after(wait_ms > 0 ? (uint64_t)wait_ms * 1000000u : 0);
    pthread_mutex_lock(&q->mu);
    while (!q->head && pthread_cond_timedwait(&q->cv, &q->mu, &until) == 0)
        ;
    struct node *n = q->head;
    if (n) {
        q->head = n->next;
        if (!q->head)
            q->tail = &q->head;
        q->count--;
        job_free(&q->cur);
        q->cur = n->job;
        *job = n->job;
        atomic_store(&q->interrupt, false); /* an interrupt before it does not stop this one */
        free(n);
    }
    pthread_mutex_unlock(&q->mu);
    return n != NULL;
}

void osprey_pcap_jobs_done(struct osprey_pcap_jobs *q, uint64_t last_ms)
{
    pthread_mutex_lock(&q->mu);
    job_free(&q->cur);
    if (last_ms)
        q->last_ms = last_ms;
    pthread_mutex_unlock(&q->mu);
}

int osprey_pcap_jobs_count(struct osprey_pcap_jobs *q)
{
    pthread_mutex_lock(&q->mu);
    int n = q->count;
    pthread_mutex_unlock(&q->mu);
    return n;
}

char **osprey_pcap_jobs_list(struct osprey_pcap_jobs *q, int *n)
{
    pthread_mutex_lock(&q->mu);
    char **names = calloc((size_t)q->count + 1, sizeof *names);
    *n = 0;
    for (struct node *x = q->head; names && x; x = x->next)
        if ((names[*n] = strdup(x->job.filename)))
            (*n)++;
    pthread_mutex_unlock(&q->mu);
    return names;
}

void osprey_pcap_jobs_current(struct osprey_pcap_jobs *q, char *buf, unsigned len)
{
    pthread_mutex_lock(&q->mu);
    snprintf(buf, len, "%s", q->cur.filename ? q->cur.filename : "");
    pthread_mutex_unlock(&q->mu);
}

uint64_t osprey_pcap_jobs_last_ms(struct osprey_pcap_jobs *q)
{
    pthread_mutex_lock(&q->mu);
    uint64_t v = q->last_ms;
    pthread_mutex_unlock(&q->mu);
    return v;
}

void osprey_pcap_jobs_interrupt(struct osprey_pcap_jobs *q)
{
    atomic_store(&q->interrupt, true);
}

bool osprey_pcap_jobs_interrupted(struct osprey_pcap_jobs *q)
{
    return atomic_exchange(&q->interrupt, false);
}
