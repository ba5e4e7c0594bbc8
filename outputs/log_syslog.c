/* log_syslog.c — filetype syslog (Suricata's eve-log syslog: SECTION.identity, .facility,
 * .level): each record is one datagram to the local syslog socket, in the format of the C
 * library's syslog(3): "<PRI>Mmm dd hh:mm:ss IDENTITY[PID]: RECORD" (local time).
 *
 * Not syslog(3) itself: openlog() is one per process and fixes /dev/log, while each output
 * here has its own identity and socket path (SECTION.syslog.socket; tests bind their own).
 * A send never waits (MSG_DONTWAIT): a full or missing syslog daemon costs the record,
 * counted; the socket is connected again on the next record.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "log_backend.h"
#include "osprey_config.h"

struct syslog_be {
    pthread_mutex_t lock;
    int fd;                    /* -1 while not connected */
    int pri;                   /* facility * 8 + level */
    char ident[128];
    char path[108];
    atomic_uint_fast64_t written, dropped;
    char err[512];
};

/* RFC 3164 / syslog(3) names; Suricata's spellings ("local5", "Info") match case-insensitively. */
struct name_code {
    const char *name;
    int code;
};

static const struct name_code FACILITIES[] = {
    {"kern", 0}, {"user", 1}, {"mail", 2}, {"daemon", 3}, {"auth", 4}, {"syslog", 5},
    {"lpr", 6}, {"news", 7}, {"uucp", 8}, {"cron", 9}, {"authpriv", 10}, {"ftp", 11},
    {"local0", 16}, {"local1", 17}, {"local2", 18}, {"local3", 19}, {"local4", 20},
    {"local5", 21}, {"local6", 22}, {"local7", 23}, {NULL, 0}};
static const struct name_code LEVELS[] = {
    {"emergency", 0}, {"emerg", 0}, {"alert", 1}, {"critical", 2}, {"crit", 2}, {"error", 3},
    {"err", 3}, {"warning", 4}, {"warn", 4}, {"notice", 5}, {"info", 6}, {"debug", 7},
    {NULL, 0}};

static int lookup(const struct name_code *t, const char *s)
{
    for (size_t i = 0; t[i].name; i++)
        if (!strcasecmp(t[i].name, s))
            return t[i].code;
    return -1;
}

static void connect_locked(struct syslog_be *s)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    strcpy(sa.sun_path, s->path);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        snprintf(s->err, sizeof s->err, "syslog %s: %s", s->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    s->fd = fd;
}

static void *syslog_open(const struct osprey_log_cfg *cfg, char *name, size_t namelen,
                         char *err, size_t errlen)
{
    char k[256];
#define KEY(x) (snprintf(k, sizeof k, "%s." x, cfg->section), k)
    int fac = lookup(FACILITIES, osprey_config_str(cfg->conf, KEY("facility")));
    if (fac < 0) {
        snprintf(err, errlen, "%s: unknown syslog facility '%s'", k,
                 osprey_config_str(cfg->conf, k));
        return NULL;
    }
    int lvl = lookup(LEVELS, osprey_config_str(cfg->conf, KEY("level")));
    if (lvl < 0) {
        snprintf(err, errlen, "%s: unknown syslog level '%s'", k,
                 osprey_config_str(cfg->conf, k));
        return NULL;
    }
    const char *path = osprey_config_str(cfg->conf, KEY("syslog.socket"));
    struct sockaddr_un sa;
    if (strlen(path) >= sizeof sa.sun_path) {
        snprintf(err, errlen, "%s: socket path too long", path);
        return NULL;
    }
    struct syslog_be *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "syslog: out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->fd = -1;
    s->pri = fac * 8 + lvl;
    snprintf(s->ident, sizeof s->ident, "%s", osprey_config_str(cfg->conf, KEY("identity")));
#undef KEY
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(name, namelen, "syslog %s", s->path);
    connect_locked(s); /* no syslog daemon yet is not fatal: retried per record */
    return s;
}

static int syslog_write(void *b, const void *rec, size_t len)
{
    struct syslog_be *s = b;
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char head[256], stamp[32];
    strftime(stamp, sizeof stamp, "%b %e %T", &tm); /* syslog(3)'s "%h %e %T" */
    int hl = snprintf(head, sizeof head, "<%d>%s %s[%d]: ", s->pri, stamp, s->ident,
                      (int)getpid());
    char *msg = malloc((size_t)hl + len);
    if (!msg) {
        atomic_fetch_add(&s->dropped, 1);
        return -1;
    }
    memcpy(msg, head, (size_t)hl);
    memcpy(msg + hl, rec, len);
    int rc = -1;
    pthread_mutex_lock(&s->lock);
    for (int attempt = 0; attempt < 2 && rc < 0; attempt++) {
        if (s->fd < 0)
            connect_locked(s);
        if (s->fd < 0)
            break;
        if (send(s->fd, msg, (size_t)hl + len, MSG_DONTWAIT | MSG_NOSIGNAL) ==
            (ssize_t)((size_t)hl + len)) {
            rc = 0;
            break;
        }
        snprintf(s->err, sizeof s->err, "syslog %s: %s", s->path, strerror(errno));
        if (errno == EAGAIN || errno == EMSGSIZE)
            break; /* the daemon is behind, or the record too big: it is lost, not the socket */
        close(s->fd); /* the daemon restarted: connect again once */
        s->fd = -1;
    }
    pthread_mutex_unlock(&s->lock);
    free(msg);
    atomic_fetch_add(rc == 0 ? &s->written : &s->dropped, 1);
    return rc;
}

static void syslog_counters(void *b, osprey_log_counter_fn put, void *ctx)
{
    struct syslog_be *s = b;
    put(ctx, "syslog.written", atomic_load(&s->written));
    put(ctx, "syslog.dropped", atomic_load(&s->dropped));
}

static uint64_t syslog_written(void *b)
{
    return atomic_load(&((struct syslog_be *)b)->written);
}

static uint64_t syslog_dropped(void *b)
{
    return atomic_load(&((struct syslog_be *)b)->dropped);
}

static void syslog_error(void *b, char *buf, size_t len)
{
    struct syslog_be *s = b;
    pthread_mutex_lock(&s->lock);
    snprintf(buf, len, "%s", s->err);
    pthread_mutex_unlock(&s->lock);
}

static void syslog_flush(void *b)
{
    (void)b; /* every record was sent when written */
}

static void syslog_close(void *b)
{
    struct syslog_be *s = b;
    if (s->fd >= 0)
        close(s->fd);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

const struct log_backend log_syslog = {
    .name = "syslog",
    .open = syslog_open,
    .write = syslog_write,
    .counters = syslog_counters,
    .written = syslog_written,
    .dropped = syslog_dropped,
    .error = syslog_error,
    .flush = syslog_flush,
    .close = syslog_close,
};
