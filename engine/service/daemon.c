/* daemon.c — -D, the pid file, and the signal checks of the run loops (see daemon.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"
#include "log.h"
#include "signals.h"

static struct {
    int ready_fd;         /* -D child: write end of the pipe its parent waits on; -1 */
    int pid_fd;           /* the pid file, open and locked while we run; -1 */
    char pid_path[PATH_MAX];
    char **owned;         /* paths made absolute for -D */
    int nowned, cap;
    bool stop_logged;
} D = {.ready_fd = -1, .pid_fd = -1};

/* A path made absolute against the start directory (the daemon leaves it). */
static const char *absolute(const char *path)
{
    if (!path || path[0] == '/')
        return path;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return path;
    if (D.nowned == D.cap) {
        int cap = D.cap ? 2 * D.cap : 16;
        char **o = realloc(D.owned, (size_t)cap * sizeof *o);
        if (!o)
            return path;
        D.owned = o;
        D.cap = cap;
    }
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *abs = malloc(n);
    if (!abs)
        return path;
    snprintf(abs, n, "%s/%s", cwd, path);
    D.owned[D.nowned++] = abs;
    return abs;
}

int osprey_daemon_config(const struct osprey_options *opts, const struct osprey_config *cfg,
                         struct osprey_config **out)
{
    /* the first four are file names osprey_config_path resolves; keep them first */
    static const char *const PATH_KEYS[] = {"default-rule-path", "classification-file",
                                            "reference-config-file", "threshold-file",
                                            "default-log-dir", "geoip-database"};
    enum { NKEYS = sizeof PATH_KEYS / sizeof *PATH_KEYS };
    *out = NULL;
    if (!opts->daemon)
        return 0;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return 0;
    const char **sets = calloc((size_t)opts->nsets + NKEYS, sizeof *sets);
    if (!sets) {
        fprintf(stderr, "osprey: out of memory\n");
        return -1;
    }
    char *made[NKEYS];
    int n = 0, nmade = 0;
    for (int i = 0; i < opts->nsets; i++)
        sets[n++] = opts->sets[i]; /* the user's --set first, then ours over them */
    for (int k = 0; k < NKEYS; k++) {
        /* the rule and table names as resolved against the config file's directory */
        char buf[PATH_MAX];
        const char *v = k < 4 ? osprey_config_path(cfg, PATH_KEYS[k], buf, sizeof buf)
                              : osprey_config_str(cfg, PATH_KEYS[k]);
        if (k == 0 && v && !*v) /* rule-files next to the config file: pin that directory */
            v = osprey_config_dir(cfg, "rule-files", buf, sizeof buf);
        if (k == 0 && v && !*v)
            v = ".";
        if (!v || !*v || v[0] == '/')
            continue;
        /* A built-in default that names nothing here stays as it is: an override would turn
         * the warning a missing default gets into an error (the user set nothing). */
        char origin[64] = "";
        struct stat st;
        osprey_config_origin(cfg, PATH_KEYS[k], origin, sizeof origin);
        if (!strcmp(origin, "default") && stat(v, &st) != 0)
            continue;
        size_t len = strlen(PATH_KEYS[k]) + strlen(cwd) + strlen(v) + 3;
        if (!(made[nmade] = malloc(len)))
            break;
        snprintf(made[nmade], len, "%s=%s/%s", PATH_KEYS[k], cwd, v);
        sets[n++] = made[nmade++];
    }
    int rc = 0;
    if (nmade > 0 && osprey_config_load(out, opts->config_path, sets, n, stderr) < 0)
        rc = -1;
    for (int i = 0; i < nmade; i++)
        free(made[i]);
    free(sets);
    return rc;
}

/* The pid in the file, 0 when none can be read. */
static long read_pid(int fd)
{
    char buf[32] = {0};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    return n > 0 ? strtol(buf, NULL, 10) : 0;
}

static bool alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Open and lock the pid file; refuse when another process holds it or it names a live one. */
static int pid_file_take(const char *path)
{
    snprintf(D.pid_path, sizeof D.pid_path, "%s", path);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "osprey: pid file %s: %s\n", path, strerror(errno));
        return -1;
    }
    long pid = read_pid(fd);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || (alive(pid) && pid != getpid())) {
        fprintf(stderr, "osprey: pid file %s names process %ld, which is running: is Osprey "
                        "already running? (if not, remove the file)\n", path, pid);
        close(fd);
        return -1;
    }
    if (pid > 0)
        osprey_log(OSPREY_LOG_NOTICE, "pid file %s named process %ld, which is gone: "
                   "replacing it", path, pid);
    D.pid_fd = fd;
    return 0;
}

static int pid_file_write(void)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
    if (ftruncate(D.pid_fd, 0) != 0 || pwrite(D.pid_fd, buf, (size_t)n, 0) != n) {
        fprintf(stderr, "osprey: pid file %s: %s\n", D.pid_path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The parent of a -D child: wait for "ready", or for the child to fail. */
static int parent_wait(pid_t child, int fd)
{
    char c;
    ssize_t n;
    while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
        ;
    close(fd);
    if (n == 1)
        return 0; /* running: the child owns the pid file now */
    int st = 0;
    pid_t w;
    while ((w = waitpid(child, &st, 0)) < 0 && errno == EINTR)
        ;
    return w == child && WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int osprey_daemon_begin(struct osprey_options *opts, const struct osprey_config *cfg,
                        int *status)
{
    const char *pidfile = opts->pidfile;
    if (!pidfile || !*pidfile)
        pidfile = osprey_config_str(cfg, "pid-file");
    if (opts->daemon) {
        opts->config_path = absolute(opts->config_path);
        opts->read_path = absolute(opts->read_path);
        opts->log_dir = absolute(opts->log_dir);
        for (int i = 0; i < opts->nrule_files; i++)
            opts->rule_files[i] = absolute(opts->rule_files[i]);
        if (pidfile && *pidfile)
            pidfile = absolute(pidfile);
    }
    if (pidfile && *pidfile && pid_file_take(pidfile) < 0)
        return -1;
    if (opts->daemon) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) {
            fprintf(stderr, "osprey: -D: %s\n", strerror(errno));
            return -1;
        }
        fflush(NULL);
        pid_t child = fork();
        if (child < 0) {
            fprintf(stderr, "osprey: -D: cannot fork: %s\n", strerror(errno));
            return -1;
        }
        if (child > 0) {
            close(p[1]);
            if (D.pid_fd >= 0)
                close(D.pid_fd); /* the lock stays with the child's copy */
            D.pid_fd = -1;
            *status = parent_wait(child, p[0]);
            return 1;
        }
        close(p[0]);
        D.ready_fd = p[1];
        setsid(); /* no controlling terminal: a hang-up of the shell is not ours */
    }
    if (D.pid_fd >= 0 && pid_file_write() < 0)
        return -1;
    return 0;
}

void osprey_daemon_ready(void)
{
    if (D.ready_fd < 0)
        return;
    osprey_log(OSPREY_LOG_NOTICE, "running as a daemon, pid %d", (int)getpid());
    if (chdir("/") != 0)
        osprey_log(OSPREY_LOG_WARNING, "cannot change to /: %s", strerror(errno));
    fflush(NULL);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
    /* messages other parts still print on stderr (a capture that fails to open after this
     * point …) land in the log file rather than nowhere */
    const char *log = osprey_logging_file_path();
    int lfd = log ? open(log, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
    if (lfd >= 0) {
        dup2(lfd, STDERR_FILENO);
        close(lfd);
    }
    osprey_logging_console_off();
    char c = 'R';
    if (write(D.ready_fd, &c, 1) != 1)
        osprey_log(OSPREY_LOG_WARNING, "could not tell the starting process we run");
    close(D.ready_fd);
    D.ready_fd = -1;
}

bool osprey_daemon_poll(struct osprey_emit *e)
{
    if (osprey_signal_take(OSPREY_SIG_REOPEN)) {
        osprey_log(OSPREY_LOG_NOTICE, "SIGHUP: reopening the log files");
        osprey_logging_reopen();
        if (e && osprey_emit_reopen(e, stderr) < 0)
            osprey_log(OSPREY_LOG_ERROR, "SIGHUP: some output files could not be reopened");
    }
    bool stop = osprey_signal_take(OSPREY_SIG_STOP);
    if (stop && !D.stop_logged) {
        D.stop_logged = true;
        osprey_log(OSPREY_LOG_NOTICE, "stopping: finishing the packets in hand, ending every "
                   "flow and closing the outputs");
    }
    return stop;
}

void osprey_daemon_end(void)
{
    if (D.pid_fd >= 0) {
        /* we hold its lock: ours when it names us, or nothing yet (a start that failed) */
        long pid = read_pid(D.pid_fd);
        if (pid == (long)getpid() || pid == 0)
            unlink(D.pid_path);
        close(D.pid_fd);
        D.pid_fd = -1;
    }
    for (int i = 0; i < D.nowned; i++)
        free(D.owned[i]);
    free(D.owned);
    D.owned = NULL;
    D.nowned = D.cap = 0;
}
