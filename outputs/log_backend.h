/* log_backend.h — the record transports an output's filetype may name besides a file or a
 * Unix socket (redis, kafka, syslog): private to outputs/, reached through osprey_log_file.
 *
 * A backend takes whole records (the EVE line without its newline: each transport frames
 * a record itself) and never blocks a worker for long: it queues, or drops and counts.
 * A new transport is one file (log_NAME.c defining a `struct log_backend`) and one row in
 * log_backends.c.
 */
#ifndef OSPREY_LOG_BACKEND_H
#define OSPREY_LOG_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "osprey_log_file.h"

struct log_backend {
    const char *name;   /* the filetype value: "redis" */
    /* Reads its keys under cfg->section (cfg->conf); the instance, or NULL with the reason in
     * err. name receives what the engine's messages call it ("redis 127.0.0.1:6379 list suricata"). */
    void *(*open)(const struct osprey_log_cfg *cfg, char *name, size_t namelen, char *err,
                  size_t errlen);
    /* Any thread, at once: hand over one whole record. 0 taken, -1 dropped (counted). */
    int (*write)(void *b, const void *rec, size_t len);
    /* Its counters (written, dropped, …) through put; written and dropped are also the
     * log file's records and lost. */
    void (*counters)(void *b, osprey_log_counter_fn put, void *ctx);
    uint64_t (*written)(void *b);
    uint64_t (*dropped)(void *b);
    /* The reason of the last failure into buf ("" if none). */
    void (*error)(void *b, char *buf, size_t len);
    /* Deliver what is queued (a bounded wait), count the rest as dropped; later writes are
     * dropped. Called once, before close. */
    void (*flush)(void *b);
    void (*close)(void *b);  /* free */
};

/* The backend named filetype, or NULL (log_backends.c). */
const struct log_backend *log_backend_find(const char *filetype);

#endif
