/* osprey_log_file.h — where an output's records go: a regular file, a Unix socket, or a
 * transport the filetype names (redis, kafka, syslog: log_backend.h, one file each).
 *
 * Every output (eve.json, fast.log, unified2) writes whole records through this one
 * interface. A record is handed over in one call and either lands whole or not at all:
 *   - regular files: one write() per record (or per batch of whole records, below); a
 *     short write (disk full) is undone by truncating back to where it began, so a reader
 *     never sees half a record;
 *   - unix_stream: the record is sent whole (a connection that breaks mid-record is closed
 *     and reopened for the next one); unix_dgram: one datagram per record.
 * Records that could not be written are counted (osprey_log_lost), never fatal.
 *
 * Batching (cfg.buffer_size, Suricata's `buffer-size`): whole records are gathered and
 * written together, one write() per buffer instead of per record (a SYN flood writes a
 * flow record per packet: a system call each was a third of its time). The buffer holds
 * only whole records, and a regular file's batch never crosses a page boundary of the file
 * (the kernel stops a killed process's write only between pages): so kill -9 leaves whole
 * records, as with one write per record (a record crossing a boundary goes alone); what a buffer
 * holds is written when it would overflow, when its oldest record is older than
 * cfg.flush_us at the next write, at osprey_log_sync / osprey_log_sync_all (the engine
 * calls it when a worker is idle), at reopen, rollover and close. A failed write of a
 * buffer counts each of its records as lost. 0: one write per record.
 *
 * Size limit and rollover (Snort's unified2 style): with `timestamped`, the file is
 * PATH.<unix seconds> and a new one is started when the next record would pass `limit`.
 * Reopen (SIGHUP): the file is closed and opened again under its name, so a log rotator can
 * rename it first; records in flight are written whole to one file or the other.
 * Transports (cfg.filetype "redis", "kafka", "syslog"): each record is handed over without
 * its trailing newline (the transport frames it: a list element, a Kafka message, a syslog
 * datagram) and queued, never blocking the caller for long; what cannot be delivered is
 * counted as lost. Their counters (osprey_log_counters) go into the stats records.
 * All calls are thread-safe: each file has its own lock.
 */
#ifndef OSPREY_LOG_FILE_H
#define OSPREY_LOG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct osprey_config;

enum osprey_log_kind { OSPREY_LOG_REGULAR, OSPREY_LOG_UNIX_STREAM, OSPREY_LOG_UNIX_DGRAM };

struct osprey_log_cfg {
    const char *path;          /* file or socket path */
    enum osprey_log_kind kind;
    bool append;               /* regular: keep what is there (else truncate on first open) */
    bool timestamped;          /* regular: write PATH.<seconds>, new name on each rollover */
    uint64_t limit;            /* timestamped: bytes per file before a rollover; 0 = none */
    /* A transport instead of path/kind: "redis", "kafka", "syslog" (NULL or another name: the
     * file or socket above). It reads its own keys under section ("outputs.eve-log"). */
    const char *filetype;
    const struct osprey_config *conf;
    const char *section;
    size_t buffer_size;        /* regular and unix_stream: batch records up to this many
                                  bytes (0: one write per record) */
    uint64_t flush_us;         /* batching: a buffer's oldest record waits at most this
                                  long for the next write to send it (0: 100 ms) */
};

/* A counter of a transport: name relative to it ("redis.dropped"). */
typedef void (*osprey_log_counter_fn)(void *ctx, const char *name, uint64_t value);

struct osprey_log_file;

/* Open; NULL with the reason in err (e.g. "/x/eve.json: Permission denied"). */
struct osprey_log_file *osprey_log_open(const struct osprey_log_cfg *cfg, char *err,
                                        size_t errlen);
/* Write one whole record. 0 (written, or batched), or -1 when it was lost (counted; the
 * reason is kept for osprey_log_error). */
int osprey_log_write(struct osprey_log_file *lf, const void *rec, size_t len);
/* Regular files: bytes written at the start of every new file before its first record (a
 * pcap file header), copied; a file that already holds bytes (append) gets none. Set it
 * before the first write whose file needs it; len 0 = none. 0, or -1 (no memory). */
int osprey_log_set_header(struct osprey_log_file *lf, const void *hdr, size_t len);
/* Count one record as lost without writing it (e.g. it could not be built: no memory). */
void osprey_log_drop(struct osprey_log_file *lf, const char *why);
/* Close and open again under the same name (a timestamped file starts a new name). 0, or -1
 * (reason kept; records are counted as lost until a later reopen succeeds). */
int osprey_log_reopen(struct osprey_log_file *lf);
/* Records lost so far, and the reason of the last failure ("" if none). */
uint64_t osprey_log_lost(struct osprey_log_file *lf);
const char *osprey_log_error(struct osprey_log_file *lf, char *buf, size_t len);
/* Records written, and the name of the file written now (timestamped: PATH.<seconds>). */
uint64_t osprey_log_records(struct osprey_log_file *lf);
const char *osprey_log_current(struct osprey_log_file *lf, char *buf, size_t len);
/* Transports: deliver what is queued (waits a few seconds at most), count the rest as lost;
 * records written later are lost. Files: write out the batch (osprey_log_sync). Close does
 * it too. */
void osprey_log_flush(struct osprey_log_file *lf);
/* Batching: write what this file's (every open file's) buffer holds now. */
void osprey_log_sync(struct osprey_log_file *lf);
void osprey_log_sync_all(void);
/* Batching: write out the buffers whose oldest record is cfg.flush_us old, as the next write
 * would, for a caller between writes that need not wait: a file whose lock another thread
 * holds is left to that thread, and the files are looked at every 10 ms at most, however
 * often this is called (an offline run calls it for every read batch). */
void osprey_log_sync_due(void);
void osprey_log_close(struct osprey_log_file *lf);
/* A transport's counters through put (files and sockets have none). */
void osprey_log_counters(struct osprey_log_file *lf, osprey_log_counter_fn put, void *ctx);
/* Is filetype a transport (redis, kafka, syslog) rather than a file or socket kind? */
bool osprey_log_is_transport(const char *filetype);

/* "regular", "unix_stream", "unix_dgram" → kind; -1 for anything else. */
int osprey_log_kind_parse(const char *s);

#endif
