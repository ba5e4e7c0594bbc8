/* flow_writer.h — flow records written by a thread of their own (flow.recyclers), as
 * Suricata's flow recycler writes them: a worker that ends a flow copies the record into a
 * bounded queue and goes on; the writer thread hands it to the sinks (formatting, write(2)).
 * Lossless: a worker that finds the queue full waits for room. Private to engine/emit/. */
#ifndef OSPREY_FLOW_WRITER_H
#define OSPREY_FLOW_WRITER_H

#include <stdint.h>

#include "osprey_outputs.h"

struct osprey_flow_writer;

/* Each record goes to write(arg, record) on the writer thread, in the order the workers
 * queued them. cap: records the queue holds (its memory: cap times about 300 bytes). The
 * thread starts with the first record (after a daemon's fork). NULL when out of memory. */
struct osprey_flow_writer *osprey_flow_writer_new(uint32_t cap,
                                                  void (*write)(void *arg,
                                                                const struct osprey_eve_flow *r),
                                                  void *arg);
/* Queue a copy of r (its strings included). Written at once, on the caller's thread, when
 * the writer thread could not be started. */
void osprey_flow_writer_put(struct osprey_flow_writer *fw, const struct osprey_eve_flow *r);
/* Return once every record queued so far is written (before a stats record, at redirect);
 * records queued meanwhile are not waited for. */
void osprey_flow_writer_drain(struct osprey_flow_writer *fw);
/* Drain, stop the thread, free. */
void osprey_flow_writer_free(struct osprey_flow_writer *fw);

struct osprey_flow_writer_stats {
    uint64_t recycled;  /* records the writer thread wrote */
    uint64_t queue_max; /* most records ever waiting */
    uint64_t queue_avg; /* records waiting when one was queued, on average */
};
void osprey_flow_writer_stats(struct osprey_flow_writer *fw, struct osprey_flow_writer_stats *s);

#endif
