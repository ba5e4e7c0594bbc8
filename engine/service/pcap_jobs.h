/* pcap_jobs.h — the queue of capture files of `osprey --unix-socket`: the control socket's
 * pcap-file / pcap-file-continuous commands add jobs, the unix-socket run mode
 * (run/run_unix_socket.c) takes them one at a time with the rules loaded once; pcap-current,
 * pcap-file-number, pcap-file-list, pcap-last-processed and pcap-interrupt read or steer it.
 * Thread-safe: the control thread and the run loop share it. */
#ifndef OSPREY_PCAP_JOBS_H
#define OSPREY_PCAP_JOBS_H

#include <stdbool.h>
#include <stdint.h>

struct osprey_pcap_job {
    char *filename;   /* a capture file, or a directory (its files in name order) */
    char *output_dir; /* where this job's records go */
    bool continuous;  /* a directory watched for new files until pcap-interrupt */
    bool delete_when_done;
};

struct osprey_pcap_jobs;

struct osprey_pcap_jobs *osprey_pcap_jobs_create(void);
void osprey_pcap_jobs_free(struct osprey_pcap_jobs *q);

/* Queue a job (the strings are copied). 0, or -1 out of memory. */
int osprey_pcap_jobs_add(struct osprey_pcap_jobs *q, const struct osprey_pcap_job *job);
/* The next job, waiting up to wait_ms; false when none came. The job becomes the current one
 * (its strings stay valid until osprey_pcap_jobs_done). */
bool osprey_pcap_jobs_next(struct osprey_pcap_jobs *q, int wait_ms, struct osprey_pcap_job *job);
/* The current job is over; last_ms: the capture time of its last packet (0: none read). */
void osprey_pcap_jobs_done(struct osprey_pcap_jobs *q, uint64_t last_ms);

/* What the control commands read: queued jobs (not the current one), their file names (a
 * malloc'd array of malloc'd strings, *n of them), the current file (copied into buf, ""
 * when idle), the capture time of the last packet of the last finished job. */
int osprey_pcap_jobs_count(struct osprey_pcap_jobs *q);
char **osprey_pcap_jobs_list(struct osprey_pcap_jobs *q, int *n);
void osprey_pcap_jobs_current(struct osprey_pcap_jobs *q, char *buf, unsigned len);
uint64_t osprey_pcap_jobs_last_ms(struct osprey_pcap_jobs *q);

/* pcap-interrupt: the current file stops being read (a continuous job stops watching). */
void osprey_pcap_jobs_interrupt(struct osprey_pcap_jobs *q);
/* Taken (and cleared) by the run loop between batches. */
bool osprey_pcap_jobs_interrupted(struct osprey_pcap_jobs *q);

#endif
