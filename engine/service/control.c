/* control.c — the Unix control socket: one thread, one client at a time (see control.h); the
 * framing of Suricata's protocol (a JSON object, newline or not; plain lines) and the hello.
 * The commands are control_cmds.c's. */
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
#include "options.h"

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

/* A message: a plain command line, or JSON {"command": ..., "arguments": {...}} /
 * {"version": ...} (Suricata's client hello). */
static json_t *run_line(struct osprey_control *c, char *line)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line != '{')
        return osprey_control_command(c->pl, line, NULL);
    json_error_t err;
    json_t *req = json_loads(line, 0, &err), *ans;
    const char *cmd = req ? json_string_value(json_object_get(req, "command")) : NULL;
    if (!req || !json_is_object(req))
        ans = reply(false, json_sprintf("not JSON: %s", err.text));
    else if (cmd)
        ans = osprey_control_command(c->pl, cmd, json_object_get(req, "arguments"));
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

/* The length of the first whole message in buf[0..used), 0 if none yet. Suricata's clients
 * send a JSON object without a newline (suricatasc's {"version": "0.2"} hello) or with one;
 * a JSON message ends at its closing brace (strings and escapes skipped), a plain command at
 * its newline. */
static size_t message_end(const char *buf, size_t used)
{
    size_t i = 0;
    while (i < used && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    if (i == used || buf[i] != '{') {
        const char *nl = memchr(buf, '\n', used);
        return nl ? (size_t)(nl - buf) + 1 : 0;
    }
    int depth = 0;
    bool str = false, esc = false;
    for (; i < used; i++) {
        char ch = buf[i];
        if (str) {
            if (esc)
                esc = false;
            else if (ch == '\\')
                esc = true;
            else if (ch == '"')
                str = false;
        } else if (ch == '"') {
            str = true;
        } else if (ch == '{') {
            depth++;
        } else if (ch == '}' && --depth == 0) {
            size_t end = i + 1; /* take the newline after it too, when there is one */
            return end < used && buf[end] == '\n' ? end + 1 : end;
        }
    }
    /* not closed: a broken line ends at a newline (answered "not JSON"), else wait for more
     * (compact JSON, as every Suricata client sends, holds no newline) */
    const char *nl = memchr(buf, '\n', used);
    return nl ? (size_t)(nl - buf) + 1 : 0;
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
        size_t end;
        while ((end = message_end(buf, used)) > 0) {
            char saved = buf[end - 1];
            buf[end - 1] = saved == '\n' ? '\0' : saved;
            char msg[CTL_LINE_MAX + 1];
            size_t mlen = saved == '\n' ? end - 1 : end;
            memcpy(msg, buf, mlen);
            msg[mlen] = '\0';
            memmove(buf, buf + end, used - end);
            used -= end;
            buf[used] = '\0';
            json_t *ans = msg[strspn(msg, " \t\r\n")] ? run_line(c, msg) : NULL;
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
    bool mode = pl->opts && pl->opts->unix_socket; /* --unix-socket: on, whatever the config */
    if (!mode && !osprey_config_bool(pl->cfg, "unix-command.enabled"))
        return 0;
    struct osprey_control *c = calloc(1, sizeof *c);
    if (!c) {
        osprey_log(OSPREY_LOG_ERROR, "out of memory");
        return -1;
    }
    c->pl = pl;
    c->fd = -1;
    const char *path = mode && pl->opts->unix_socket_path
                           ? pl->opts->unix_socket_path
                           : osprey_config_str(pl->cfg, "unix-command.filename");
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
