/* log_file.c — whole records to a regular file or a Unix socket (see osprey_log_file.h), or
 * handed to the transport the filetype names (log_backend.h). */
#include "osprey_log_file.h"
#include "log_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

/* The open files with a batch buffer, for osprey_log_sync_all. */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static struct osprey_log_file *open_files;

static uint64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

struct osprey_log_file {
    pthread_mutex_t lock;
    enum osprey_log_kind kind;
    bool append, timestamped;
    uint64_t limit;
    int fd;                  /* -1 while closed (a failed open or a broken socket) */
    bool opened_once;        /* append is only about the first open: a reopen never truncates */
    uint64_t size;           /* bytes in the current file */
    uint64_t last_stamp;     /* timestamped: the seconds in the current name */
    uint64_t lost, records;
    uint8_t *hdr;            /* osprey_log_set_header: starts every new file */
    size_t hdr_len;
    const struct log_backend *be; /* a transport: everything below the lock is its own */
    void *bs;
    bool flushed;
    /* batching (osprey_log_cfg.buffer_size): whole records not yet written */
    char *batch;
    size_t blen, bcap;
    uint64_t bn;             /* records in it */
    uint64_t bfirst_us;      /* when its oldest record came (monotonic) */
    uint64_t flush_us;
    struct osprey_log_file *next_open; /* the files osprey_log_sync_all writes out */
    char err[4400];
    char path[4096];
    char current[4200];
};

int osprey_log_kind_parse(const char *s)
{
    if (!s || !strcmp(s, "regular") || !strcmp(s, "file"))
        return OSPREY_LOG_REGULAR;
    if (!strcmp(s, "unix_stream"))
        return OSPREY_LOG_UNIX_STREAM;
    if (!strcmp(s, "unix_dgram"))
        return OSPREY_LOG_UNIX_DGRAM;
    return -1;
}

static void set_err(struct osprey_log_file *lf, const char *what, int e)
{
    snprintf(lf->err, sizeof lf->err, "%s: %s", what, strerror(e));
}

static int open_socket(struct osprey_log_file *lf)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(lf->path) >= sizeof sa.sun_path) {
        snprintf(lf->err, sizeof lf->err, "%s: socket path too long", lf->path);
        return -1;
    }
    strcpy(sa.sun_path, lf->path);
    int type = lf->kind == OSPREY_LOG_UNIX_DGRAM ? SOCK_DGRAM : SOCK_STREAM;
    int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        set_err(lf, lf->path, errno);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    snprintf(lf->current, sizeof lf->current, "%s", lf->path);
    lf->fd = fd;
    return 0;
}

/* Open the regular file: PATH, or PATH.<seconds> for a timestamped one (never an old name). */
static int open_regular(struct osprey_log_file *lf)
{
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC;
    if (lf->timestamped) {
        uint64_t now = (uint64_t)time(NULL);
        lf->last_stamp = now > lf->last_stamp ? now : lf->last_stamp + 1;
        snprintf(lf->current, sizeof lf->current, "%s.%llu", lf->path,
                 (unsigned long long)lf->last_stamp);
        flags |= O_APPEND;
    } else {
        snprintf(lf->current, sizeof lf->current, "%s", lf->path);
        flags |= (lf->append || lf->opened_once) ? O_APPEND : O_TRUNC;
    }
    int fd = open(lf->current, flags, 0640);
    if (fd < 0) {
        set_err(lf, lf->current, errno);
        return -1;
    }
    struct stat st;
    lf->size = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
    lf->fd = fd;
    lf->opened_once = true;
    return 0;
}

static int open_locked(struct osprey_log_file *lf)
{
    return lf->kind == OSPREY_LOG_REGULAR ? open_regular(lf) : open_socket(lf);
}

static void close_locked(struct osprey_log_file *lf)
{
    if (lf->fd >= 0)
        close(lf->fd);
    lf->fd = -1;
}

struct osprey_log_file *osprey_log_open(const struct osprey_log_cfg *cfg, char *err,
                                        size_t errlen)
{
    struct osprey_log_file *lf = calloc(1, sizeof *lf);
    if (!lf) {
        snprintf(err, errlen, "%s: out of memory", cfg->path);
        return NULL;
    }
    pthread_mutex_init(&lf->lock, NULL);
    lf->kind = cfg->kind;
    lf->append = cfg->append;
    lf->timestamped = cfg->timestamped && cfg->kind == OSPREY_LOG_REGULAR;
    lf->limit = lf->timestamped ? cfg->limit : 0;
    lf->fd = -1;
    snprintf(lf->path, sizeof lf->path, "%s", cfg->path ? cfg->path : "");
    if ((lf->be = log_backend_find(cfg->filetype))) {
        if (!(lf->bs = lf->be->open(cfg, lf->current, sizeof lf->current, err, errlen))) {
            pthread_mutex_destroy(&lf->lock);
            free(lf);
            return NULL;
        }
        return lf;
    }
    if (open_locked(lf) < 0) {
        snprintf(err, errlen, "%s", lf->err);
        pthread_mutex_destroy(&lf->lock);
        free(lf);
        return NULL;
    }
    /* a batch buffer (no memory for one: a write per record, as with 0) */
    if (cfg->buffer_size && lf->kind != OSPREY_LOG_UNIX_DGRAM &&
        (lf->batch = malloc(cfg->buffer_size))) {
        lf->bcap = cfg->buffer_size;
        lf->flush_us = cfg->flush_us ? cfg->flush_us : 100000;
        pthread_mutex_lock(&open_lock);
        lf->next_open = open_files;
        open_files = lf;
        pthread_mutex_unlock(&open_lock);
    }
    return lf;
}

/* Write all of buf; on failure undo what part of it reached a regular file. */
static int write_whole(struct osprey_log_file *lf, const void *rec, size_t len, size_t *kept)
{
    if (lf->kind == OSPREY_LOG_UNIX_DGRAM) {
        ssize_t n = send(lf->fd, rec, len, MSG_NOSIGNAL);
        if (n == (ssize_t)len)
            return 0;
        set_err(lf, lf->current, n < 0 ? errno : EMSGSIZE);
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = lf->kind == OSPREY_LOG_REGULAR
                        ? write(lf->fd, (const char *)rec + done, len - done)
                        : send(lf->fd, (const char *)rec + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            set_err(lf, lf->current, n < 0 ? errno : ENOSPC);
            break;
        }
        done += (size_t)n;
    }
    if (done == len)
        return 0;
    if (lf->kind == OSPREY_LOG_REGULAR) {
        /* half a record is worse than none: cut the file back to where it began, or (a
         * batch of lines: kept) to the end of the last whole line written */
        size_t cut = 0;
        for (size_t i = done; kept && i > 0; i--)
            if (((const char *)rec)[i - 1] == '\n') {
                cut = i;
                break;
            }
        if (kept)
            *kept = cut;
        if (done > cut && ftruncate(lf->fd, (off_t)(lf->size + cut)) != 0)
            set_err(lf, lf->current, errno);
    } else if (done) {
        close_locked(lf); /* the peer got a partial record: start a fresh connection */
    }
    return -1;
}

/* Write rec (nrec whole records) now; the file's lock is held. 0, or -1 (counted lost). */
static int write_locked(struct osprey_log_file *lf, const void *rec, size_t len, uint64_t nrec)
{
    if (lf->limit && lf->size && lf->size + len > lf->limit) {
        close_locked(lf); /* rollover: this record starts the next file */
        open_locked(lf);
    }
    if (lf->fd < 0 && lf->kind != OSPREY_LOG_REGULAR)
        open_locked(lf); /* a socket whose reader went away: try again */
    if (lf->fd >= 0 && lf->hdr_len && lf->size == 0 && lf->kind == OSPREY_LOG_REGULAR &&
        write_whole(lf, lf->hdr, lf->hdr_len, NULL) == 0)
        lf->size = lf->hdr_len; /* a failed record below leaves the header, a valid file */
    size_t kept = 0;
    if (lf->fd >= 0 && (!lf->hdr_len || lf->size || lf->kind != OSPREY_LOG_REGULAR) &&
        write_whole(lf, rec, len, nrec > 1 ? &kept : NULL) == 0) {
        lf->size += len;
        lf->records += nrec;
        return 0;
    }
    /* a batch of lines cut short (disk full): its whole lines written are kept */
    uint64_t k = 0;
    for (size_t i = 0; i < kept; i++)
        k += ((const char *)rec)[i] == '\n';
    k = k < nrec ? k : nrec;
    lf->size += kept;
    lf->records += k;
    lf->lost += nrec - k;
    return -1;
}

/* How many bytes a batch may hold. A regular file's batch ends at the file's next page
 * boundary: the kernel copies a write into the page cache page by page and stops between
 * two pages when the process is killed (kill -9), so a write within one page lands whole
 * or not at all; a record crossing a boundary is written by itself, as every record was
 * without batching. */
static size_t batch_room(const struct osprey_log_file *lf)
{
    if (lf->kind != OSPREY_LOG_REGULAR)
        return lf->bcap;
    size_t page = 4096 - (size_t)(lf->size % 4096);
    return page < lf->bcap ? page : lf->bcap;
}

/* Write out the batch buffer; the lock is held. */
static void sync_locked(struct osprey_log_file *lf)
{
    if (!lf->blen)
        return;
    lf->records -= lf->bn; /* counted when batched: counted again as written or lost */
    write_locked(lf, lf->batch, lf->blen, lf->bn);
    lf->blen = 0;
    lf->bn = 0;
}

int osprey_log_write(struct osprey_log_file *lf, const void *rec, size_t len)
{
    if (lf->be) { /* the transport frames the record: no newline */
        if (len && ((const char *)rec)[len - 1] == '\n')
            len--;
        return lf->be->write(lf->bs, rec, len);
    }
    int rc = 0;
    pthread_mutex_lock(&lf->lock);
    size_t room = batch_room(lf);
    if (lf->blen && lf->blen + len > room) {
        sync_locked(lf); /* it would overflow: the buffer goes first, records in order */
        room = batch_room(lf);
    }
    if (!lf->bcap || len > room) { /* no batching, or a record larger than the room */
        rc = write_locked(lf, rec, len, 1);
    } else {
        uint64_t now = mono_us();
        if (!lf->blen)
            lf->bfirst_us = now;
        memcpy(lf->batch + lf->blen, rec, len);
        lf->blen += len;
        lf->bn++;
        lf->records++; /* taken back if the buffer's write fails (sync_locked) */
        if (now - lf->bfirst_us >= lf->flush_us)
            sync_locked(lf);
    }
    pthread_mutex_unlock(&lf->lock);
    return rc;
}

void osprey_log_sync(struct osprey_log_file *lf)
{
    if (!lf || lf->be)
        return;
    pthread_mutex_lock(&lf->lock);
    sync_locked(lf);
    pthread_mutex_unlock(&lf->lock);
}

void osprey_log_sync_all(void)
{
    pthread_mutex_lock(&open_lock);
    for (struct osprey_log_file *lf = open_files; lf; lf = lf->next_open)
        osprey_log_sync(lf);
    pthread_mutex_unlock(&open_lock);
}

/* The next time osprey_log_sync_due looks at the files: it is called for every read batch
 * of a capture file, and a look takes each file's lock, which the flow writer thread holds
 * while it writes. */
#define SYNC_DUE_LOOK_US 10000u
static _Atomic uint64_t sync_due_next_us;

void osprey_log_sync_due(void)
{
    uint64_t now = mono_us();
    if (now < atomic_load_explicit(&sync_due_next_us, memory_order_relaxed))
        return;
    atomic_store_explicit(&sync_due_next_us, now + SYNC_DUE_LOOK_US, memory_order_relaxed);
    if (pthread_mutex_trylock(&open_lock))
        return; /* a file is being opened or closed: the next look */
    for (struct osprey_log_file *lf = open_files; lf; lf = lf->next_open) {
        if (lf->be || pthread_mutex_trylock(&lf->lock))
            continue; /* its writer has it: it writes the batch out itself when due */
        if (lf->blen && now - lf->bfirst_us >= lf->flush_us)
            sync_locked(lf);
        pthread_mutex_unlock(&lf->lock);
    }
    pthread_mutex_unlock(&open_lock);
}

int osprey_log_set_header(struct osprey_log_file *lf, const void *hdr, size_t len)
{
    uint8_t *copy = len ? malloc(len) : NULL;
    if (len && !copy)
        return -1;
    if (len)
        memcpy(copy, hdr, len);
    pthread_mutex_lock(&lf->lock);
    free(lf->hdr);
    lf->hdr = copy;
    lf->hdr_len = len;
    pthread_mutex_unlock(&lf->lock);
    return 0;
}

void osprey_log_drop(struct osprey_log_file *lf, const char *why)
{
    /* a transport's lost count is its own: this one (a record never built) is kept here */
    pthread_mutex_lock(&lf->lock);
    lf->lost++;
    snprintf(lf->err, sizeof lf->err, "%s", why);
    pthread_mutex_unlock(&lf->lock);
}

int osprey_log_reopen(struct osprey_log_file *lf)
{
    if (lf->be)
        return 0; /* nothing to rotate: a transport reconnects by itself */
    pthread_mutex_lock(&lf->lock);
    sync_locked(lf); /* what was batched goes to the file being rotated away */
    close_locked(lf);
    int rc = open_locked(lf);
    pthread_mutex_unlock(&lf->lock);
    return rc;
}

uint64_t osprey_log_lost(struct osprey_log_file *lf)
{
    pthread_mutex_lock(&lf->lock);
    uint64_t n = lf->lost;
    pthread_mutex_unlock(&lf->lock);
    return n + (lf->be ? lf->be->dropped(lf->bs) : 0);
}

uint64_t osprey_log_records(struct osprey_log_file *lf)
{
    pthread_mutex_lock(&lf->lock);
    uint64_t n = lf->records;
    pthread_mutex_unlock(&lf->lock);
    return n + (lf->be ? lf->be->written(lf->bs) : 0);
}

const char *osprey_log_error(struct osprey_log_file *lf, char *buf, size_t len)
{
    pthread_mutex_lock(&lf->lock);
    snprintf(buf, len, "%s", lf->err);
    pthread_mutex_unlock(&lf->lock);
    if (lf->be && !buf[0])
        lf->be->error(lf->bs, buf, len);
    return buf;
}

const char *osprey_log_current(struct osprey_log_file *lf, char *buf, size_t len)
{
    pthread_mutex_lock(&lf->lock);
    snprintf(buf, len, "%s", lf->current);
    pthread_mutex_unlock(&lf->lock);
    return buf;
}

void osprey_log_close(struct osprey_log_file *lf)
{
    if (!lf)
        return;
    if (lf->be) {
        osprey_log_flush(lf);
        lf->be->close(lf->bs);
    }
    if (lf->batch) {
        pthread_mutex_lock(&open_lock);
        for (struct osprey_log_file **pp = &open_files; *pp; pp = &(*pp)->next_open)
            if (*pp == lf) {
                *pp = lf->next_open;
                break;
            }
        pthread_mutex_unlock(&open_lock);
        sync_locked(lf); /* (no other thread writes to a file being closed) */
    }
    close_locked(lf);
    pthread_mutex_destroy(&lf->lock);
    free(lf->batch);
    free(lf->hdr);
    free(lf);
}

void osprey_log_flush(struct osprey_log_file *lf)
{
    if (!lf->be) {
        osprey_log_sync(lf); /* a file's batch */
        return;
    }
    if (!lf->flushed) {
        lf->flushed = true;
        lf->be->flush(lf->bs);
    }
}

void osprey_log_counters(struct osprey_log_file *lf, osprey_log_counter_fn put, void *ctx)
{
    if (lf->be && lf->be->counters)
        lf->be->counters(lf->bs, put, ctx);
}

bool osprey_log_is_transport(const char *filetype)
{
    return log_backend_find(filetype) != NULL;
}
