/* control.c — the Unix control socket: one thread, one client at a time (see control.h). */
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"
#include "log.h"
#include "osprey_clock.h"
#include "reload.h"
#include "signals.h"

#ifndef OSPREY_VERSION
#define OSPREY_VERSION "unknown"
#endif

#define CTL_LINE_MAX 4096

struct osprey_control {
    struct osprey_pipeline *pl;
    int fd;
    char path[sizeof ((struct sockaddr_un *)0)->sun_path];
    pthread_t thread;
    atomic_bool stop;
};

static json_t *reply(bool ok, json_t *message)
{
    return json_pack("{s:s, s:o}", "return", ok ? "OK" : "NOK", "message", message);
}

/* The counters of a worker, in stats order. Kept in one table so per-worker objects and the
 * totals always have the same keys. */
static const char *const COUNTERS[] = {
    "packets", "bytes", "invalid", "flows", "flows_active", "flow_memuse", "flow_memcap_hits",
    "tcp_sessions", "tcp_reassembly_memuse", "tcp_memcap_hits", "tcp_gaps", "alerts",
    "dropped", "rejected", "kernel_packets", "kernel_drops", "forwarded", "drop_fail_closed",
    "fail_open", "tx_errors"};
#define NCOUNTERS (sizeof COUNTERS / sizeof *COUNTERS)

/* One worker's counters (r->mu held: w->dw cannot change under us). The stack's counters are
 * the worker's own and read while it runs: a snapshot, each value whole on 64-bit machines. */
static json_t *worker_stats(const struct osprey_worker *w, uint64_t *tot)
{
    const struct mon_decode_stats *ds = mon_ctx_decode_stats(w->ctx);
    const struct mon_flow_stats *fs = mon_flow_stats(mon_ctx_flows(w->ctx));
    const struct mon_tcp_stats *ts = mon_ctx_tcp_stats(w->ctx);
    const struct osprey_detect_verdicts *dv = osprey_detect_worker_verdicts(w->dw);
    const struct osprey_capture_stats *c = &w->cap;
    const uint64_t v[NCOUNTERS] = {
        ds->pkts, ds->bytes, ds->outcome[MON_DEC_INVALID], fs->created, fs->active,
        fs->memuse, fs->memcap_hits, ts->sessions, ts->reasm_memuse, ts->memcap_hits, ts->gaps,
        osprey_worker_alerts(w), dv->dropped, dv->rejected,
        atomic_load(&c->kernel_packets), atomic_load(&c->kernel_drops),
        atomic_load(&c->forwarded), atomic_load(&c->drop_fail_closed),
        atomic_load(&c->fail_open), atomic_load(&c->tx_errors),
    };
    json_t *o = json_object();
    for (size_t i = 0; i < NCOUNTERS; i++) {
        tot[i] += v[i];
        json_object_set_new(o, COUNTERS[i], json_integer((json_int_t)v[i]));
    }
    return o;
}

static json_t *stats(struct osprey_pipeline *pl)
{
    uint64_t tot[NCOUNTERS] = {0};
    json_t *workers = json_array();
    osprey_reload_lock(pl->reload);
    for (int i = 0; i < pl->nworkers; i++) {
        json_t *w = worker_stats(&pl->w[i], tot);
        json_object_set_new(w, "id", json_integer(i));
        json_array_append_new(workers, w);
    }
    const struct osprey_detect_stats *d = osprey_detect_stats(pl->det);
    json_t *detect = json_pack("{s:i, s:i, s:i}", "rules", (int)d->rules, "compiled",
                               (int)d->compiled, "not_compiled", (int)d->not_compiled);
    osprey_reload_unlock(pl->reload);
    json_t *total = json_object();
    for (size_t i = 0; i < NCOUNTERS; i++)
        json_object_set_new(total, COUNTERS[i], json_integer((json_int_t)tot[i]));
    struct osprey_reload_stats rs = {0};
    if (pl->reload)
        osprey_reload_stats(pl->reload, &rs);
    return json_pack("{s:I, s:o, s:o, s:o, s:{s:I, s:I, s:i, s:f, s:f, s:I, s:I, s:I}, "
                     "s:{s:I, s:I}}",
                     "uptime", (json_int_t)(osprey_clock_wall_s() - pl->t_started),
                     "workers", workers,
                     "total", total, "detect", detect,
                     "reload", "reloads", (json_int_t)rs.reloads, "failures",
                     (json_int_t)rs.failures, "generation", (int)rs.gen, "last_ms", rs.last_ms,
                     "switch_ms_max", rs.switch_ms_max,
                     "rss_before_kb", (json_int_t)rs.rss_before_kb, "rss_during_kb",
                     (json_int_t)rs.rss_during_kb, "rss_after_kb", (json_int_t)rs.rss_after_kb,
                     "memory", "rss_kb", (json_int_t)osprey_rss_kb(), "peak_kb",
                     (json_int_t)osprey_rss_peak_kb());
}

/* One command → one answer. */
static json_t *run_command(struct osprey_control *c, const char *cmd)
{
    struct osprey_pipeline *pl = c->pl;
    if (!strcmp(cmd, "version"))
        return reply(true, json_string("osprey " OSPREY_VERSION));
    if (!strcmp(cmd, "uptime"))
        return reply(true, json_integer((json_int_t)(osprey_clock_wall_s() - pl->t_started)));
    if (!strcmp(cmd, "stats") || !strcmp(cmd, "dump-counters"))
        return reply(true, stats(pl));
    if (!strcmp(cmd, "reload-rules")) {
        char msg[1024];
        osprey_log(OSPREY_LOG_NOTICE, "control socket: reload-rules");
        int rc = osprey_reload_request(pl->reload, msg, sizeof msg);
        return reply(rc == 0, json_string(msg));
    }
    if (!strcmp(cmd, "shutdown")) {
        osprey_log(OSPREY_LOG_NOTICE, "control socket: shutdown");
        osprey_signal_raise(OSPREY_SIG_STOP);
        return reply(true, json_string("Closing Osprey"));
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "command-list"))
        return reply(true, json_pack("[s, s, s, s, s, s]", "version", "uptime", "stats",
                                     "reload-rules", "shutdown", "help"));
    char msg[256];
    snprintf(msg, sizeof msg, "unknown command '%.64s' (try help)", cmd);
    return reply(false, json_string(msg));
}

/* A line: a plain command, or JSON {"command": ...} / {"version": ...}. */
static json_t *run_line(struct osprey_control *c, char *line)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line != '{')
        return run_command(c, line);
    json_error_t err;
    json_t *req = json_loads(line, 0, &err), *ans;
    const char *cmd = req ? json_string_value(json_object_get(req, "command")) : NULL;
    if (!req || !json_is_object(req))
        ans = reply(false, json_sprintf("not JSON: %s", err.text));
    else if (cmd)
        ans = run_command(c, cmd);
    else if (json_object_get(req, "version"))
        ans = reply(true, json_string("osprey " OSPREY_VERSION)); /* the client's hello */
    else
        ans = reply(false, json_string("a JSON request needs \"command\""));
    json_decref(req);
    return ans;
}

static bool send_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        s += k, n -= (size_t)k;
    }
    return true;
}

/* Serve one client until it hangs up (or we stop). */
static void serve(struct osprey_control *c, int fd)
{
    char buf[CTL_LINE_MAX + 1];
    size_t used = 0;
    while (!atomic_load(&c->stop)) {
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 200);
        if (r < 0 && errno != EINTR)
            return;
        if (r <= 0)
            continue;
        ssize_t k = recv(fd, buf + used, CTL_LINE_MAX - used, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        used += (size_t)k;
        buf[used] = '\0';
        char *nl;
        while ((nl = memchr(buf, '\n', used)) != NULL) {
            *nl = '\0';
            json_t *ans = *buf ? run_line(c, buf) : NULL;
            size_t rest = used - (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, rest);
            used = rest;
            buf[used] = '\0';
            if (!ans)
                continue;
            char *text = json_dumps(ans, JSON_COMPACT);
            json_decref(ans);
            bool ok = text && send_all(fd, text, strlen(text)) && send_all(fd, "\n", 1);
            free(text);
            if (!ok)
                return;
        }
        if (used == CTL_LINE_MAX) {
            const char *e = "{\"return\":\"NOK\",\"message\":\"line too long\"}\n";
            send_all(fd, e, strlen(e));
            return;
        }
    }
}

static void *control_main(void *arg)
{
    struct osprey_control *c = arg;
    while (!atomic_load(&c->stop)) {
        struct pollfd p = {c->fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        int fd = accept4(c->fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        serve(c, fd);
        close(fd);
    }
    return NULL;
}

/* Bind path; a stale socket file (nobody answers) is replaced, a live one refuses. */
static int bind_path(struct osprey_control *c, const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        osprey_log(OSPREY_LOG_ERROR, "unix-command.filename: '%s' is too long for a socket path",
                   path);
        return -1;
    }
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    snprintf(c->path, sizeof c->path, "%s", path);
    /* the directory, one level, as Suricata makes /var/run/suricata */
    char dir[sizeof sa.sun_path];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        mkdir(dir, 0750);
    }
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof sa) == 0) {
        close(probe);
        osprey_log(OSPREY_LOG_ERROR, "control socket %s is in use by another process (is "
                   "Osprey already running?)", path);
        return -1;
    }
    if (probe >= 0)
        close(probe);
    unlink(path); /* stale, or nothing there */
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->fd < 0 || bind(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        listen(c->fd, 8) != 0) {
        osprey_log(OSPREY_LOG_ERROR, "control socket %s: %s", path, strerror(errno));
        return -1;
    }
    chmod(path, 0660); /* owner and group only: it can stop the sensor */
    return 0;
}

int osprey_control_start(struct osprey_pipeline *pl)
{
    if (!osprey_config_bool(pl->cfg, "unix-command.enabled"))
        return 0;
    struct osprey_control *c = calloc(1, sizeof *c);
    if (!c) {
        osprey_log(OSPREY_LOG_ERROR, "out of memory");
        return -1;
    }
    c->pl = pl;
    c->fd = -1;
    const char *path = osprey_config_str(pl->cfg, "unix-command.filename");
    if (bind_path(c, path) < 0) {
        if (c->fd >= 0)
            close(c->fd);
        free(c);
        return -1;
    }
    int err = pthread_create(&c->thread, NULL, control_main, c);
    if (err) {
        osprey_log(OSPREY_LOG_ERROR, "cannot start the control socket thread: %s",
                   strerror(err));
        close(c->fd);
        unlink(c->path);
        free(c);
        return -1;
    }
    pl->control = c;
    osprey_log(OSPREY_LOG_INFO, "control socket listening on %s", path);
    return 0;
}

void osprey_control_stop(struct osprey_pipeline *pl)
{
    struct osprey_control *c = pl->control;
    if (!c)
        return;
    atomic_store(&c->stop, true);
    pthread_join(c->thread, NULL);
    close(c->fd);
    unlink(c->path);
    free(c);
    pl->control = NULL;
}
