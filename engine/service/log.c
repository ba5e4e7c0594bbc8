/* log.c — levels and outputs for Osprey's own messages (see log.h). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static const char *const LEVEL_NAMES[] = {"error", "warning", "notice", "info", "debug"};
static const int SYSLOG_PRIO[] = {LOG_ERR, LOG_WARNING, LOG_NOTICE, LOG_INFO, LOG_DEBUG};

static struct {
    pthread_mutex_t mu;
    bool opened;
    enum osprey_log_level level;
    bool console, syslog;
    FILE *file;
    char path[PATH_MAX];
} L = {.mu = PTHREAD_MUTEX_INITIALIZER, .level = OSPREY_LOG_NOTICE, .console = true};

static int level_of(const char *s)
{
    for (size_t i = 0; s && i < sizeof LEVEL_NAMES / sizeof *LEVEL_NAMES; i++)
        if (strcasecmp(s, LEVEL_NAMES[i]) == 0)
            return (int)i;
    return -1;
}

static int facility_of(const char *s)
{
    static const struct { const char *name; int fac; } F[] = {
        {"daemon", LOG_DAEMON}, {"user", LOG_USER},     {"local0", LOG_LOCAL0},
        {"local1", LOG_LOCAL1}, {"local2", LOG_LOCAL2}, {"local3", LOG_LOCAL3},
        {"local4", LOG_LOCAL4}, {"local5", LOG_LOCAL5}, {"local6", LOG_LOCAL6},
        {"local7", LOG_LOCAL7},
    };
    for (size_t i = 0; s && i < sizeof F / sizeof *F; i++)
        if (strcasecmp(s, F[i].name) == 0)
            return F[i].fac;
    return -1;
}

int osprey_logging_open(const struct osprey_config *cfg, const char *log_dir)
{
    int level = level_of(osprey_config_str(cfg, "logging.default-log-level"));
    if (level < 0) {
        fprintf(stderr, "osprey: logging.default-log-level: expected error, warning, notice, "
                        "info or debug\n");
        return -1;
    }
    FILE *file = NULL;
    char path[PATH_MAX] = "";
    if (osprey_config_bool(cfg, "logging.outputs.file.enabled")) {
        const char *name = osprey_config_str(cfg, "logging.outputs.file.filename");
        if (name[0] == '/' || !log_dir)
            snprintf(path, sizeof path, "%s", name);
        else
            snprintf(path, sizeof path, "%s/%s", log_dir, name);
        if (!(file = fopen(path, "a"))) {
            fprintf(stderr, "osprey: logging.outputs.file: %s: %s\n", path, strerror(errno));
            return -1;
        }
        setvbuf(file, NULL, _IOLBF, 0); /* a line is on disk when it is logged */
    }
    int fac = -1;
    if (osprey_config_bool(cfg, "logging.outputs.syslog.enabled") &&
        (fac = facility_of(osprey_config_str(cfg, "logging.outputs.syslog.facility"))) < 0) {
        fprintf(stderr, "osprey: logging.outputs.syslog.facility: expected daemon, user or "
                        "local0..local7\n");
        if (file)
            fclose(file);
        return -1;
    }
    pthread_mutex_lock(&L.mu);
    L.level = (enum osprey_log_level)level;
    L.console = osprey_config_bool(cfg, "logging.outputs.console.enabled");
    L.file = file;
    snprintf(L.path, sizeof L.path, "%s", path);
    L.syslog = fac >= 0;
    L.opened = true;
    pthread_mutex_unlock(&L.mu);
    if (fac >= 0)
        openlog("osprey", LOG_PID | LOG_NDELAY, fac);
    return 0;
}

void osprey_log(enum osprey_log_level level, const char *fmt, ...)
{
    if (level > L.level)
        return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&L.mu);
    if (L.console) {
        /* the console keeps the "osprey: " style of every other message on stderr */
        if (level <= OSPREY_LOG_WARNING)
            fprintf(stderr, "osprey: %s: %s\n", LEVEL_NAMES[level], msg);
        else
            fprintf(stderr, "osprey: %s\n", msg);
    }
    if (L.file) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        struct tm tm;
        gmtime_r(&ts.tv_sec, &tm);
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
        fprintf(L.file, "%s.%06ld+0000 [%d] <%s> %s\n", when, ts.tv_nsec / 1000, (int)getpid(),
                LEVEL_NAMES[level], msg);
    }
    if (L.syslog)
        syslog(SYSLOG_PRIO[level], "%s", msg);
    pthread_mutex_unlock(&L.mu);
}

void osprey_logging_console_off(void)
{
    pthread_mutex_lock(&L.mu);
    L.console = false;
    pthread_mutex_unlock(&L.mu);
}

int osprey_logging_reopen(void)
{
    pthread_mutex_lock(&L.mu);
    int rc = 0, err = 0;
    if (L.file) {
        FILE *n = fopen(L.path, "a");
        if (n) {
            setvbuf(n, NULL, _IOLBF, 0);
            fclose(L.file);
            L.file = n;
        } else {
            rc = -1, err = errno; /* keep writing to the old one */
        }
    }
    pthread_mutex_unlock(&L.mu);
    if (rc < 0)
        osprey_log(OSPREY_LOG_ERROR, "cannot reopen the log file %s: %s", L.path, strerror(err));
    return rc;
}

const char *osprey_logging_file_path(void)
{
    return L.file ? L.path : NULL;
}

void osprey_logging_close(void)
{
    pthread_mutex_lock(&L.mu);
    if (L.file)
        fclose(L.file);
    L.file = NULL;
    if (L.syslog)
        closelog();
    L.syslog = false;
    L.console = true;
    L.opened = false;
    pthread_mutex_unlock(&L.mu);
}
