/* test_log_transports.c — the filetype transports through osprey_log_file (log_backend.h):
 * redis speaks RESP (one RPUSH/XADD per record, the record without its newline) to a fake
 * server here, and with no server its bounded queue drops and counts past the memcap; syslog
 * writes "<PRI>… IDENT[PID]: RECORD" datagrams; a bad facility fails the open. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "unit.h"
#include "osprey_config.h"
#include "osprey_log_file.h"

static struct osprey_config *config(const char *const *sets, int n)
{
    struct osprey_config *cfg = NULL;
    CHECK(osprey_config_load(&cfg, NULL, sets, n, stderr) == 0);
    return cfg;
}

static struct osprey_log_file *open_transport(struct osprey_config *cfg, const char *filetype,
                                              char *err, size_t errlen)
{
    struct osprey_log_cfg lc = {.filetype = filetype, .conf = cfg, .section = "outputs.eve-log"};
    return osprey_log_open(&lc, err, errlen);
}

/* A TCP listener on a free port of 127.0.0.1: its fd; *port receives the port. */
static int listener(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *)&sa, &len))
        return -1;
    *port = ntohs(sa.sin_port);
    return fd;
}

struct fake_redis {
    int lfd;
    size_t want;     /* bytes of commands expected */
    char got[4096];
    size_t len;
};

/* Accept one connection, read `want` bytes of commands, answer each "*" command with :1. */
static void *fake_redis_main(void *arg)
{
    struct fake_redis *f = arg;
    int c = accept(f->lfd, NULL, NULL);
    while (c >= 0 && f->len < f->want) {
        ssize_t n = read(c, f->got + f->len, sizeof f->got - f->len);
        if (n <= 0)
            break;
        /* a command starts "*<count>"; the stream id "*" is followed by "\r\n" */
        for (size_t i = f->len; i + 1 < f->len + (size_t)n; i++)
            if (f->got[i] == '*' && f->got[i + 1] >= '0' && f->got[i + 1] <= '9' &&
                write(c, ":1\r\n", 4) != 4)
                break;
        f->len += (size_t)n;
    }
    if (c >= 0)
        close(c);
    return NULL;
}

static void count(void *ctx, const char *name, uint64_t v)
{
    if (!strcmp(name, "redis.dropped"))
        *(uint64_t *)ctx = v;
}

static void test_redis_resp(const char *mode, const char *want)
{
    struct fake_redis f = {.want = strlen(want)};
    int port = 0;
    f.lfd = listener(&port);
    CHECK(f.lfd >= 0);
    pthread_t t;
    pthread_create(&t, NULL, fake_redis_main, &f);
    char s1[64], s2[64];
    snprintf(s1, sizeof s1, "outputs.eve-log.redis.port=%d", port);
    snprintf(s2, sizeof s2, "outputs.eve-log.redis.mode=%s", mode);
    const char *sets[] = {s1, s2, "outputs.eve-log.redis.key=k", "outputs.eve-log.redis.stream-maxlen=5"};
    struct osprey_config *cfg = config(sets, 4);
    char err[512];
    struct osprey_log_file *lf = cfg ? open_transport(cfg, "redis", err, sizeof err) : NULL;
    CHECK(lf != NULL);
    if (lf) {
        CHECK(osprey_log_write(lf, "{\"a\":1}\n", 8) == 0); /* the newline is the file's */
        CHECK(osprey_log_write(lf, "{\"b\":2}\n", 8) == 0);
        osprey_log_flush(lf);
        CHECK_EQ_U(osprey_log_records(lf), 2);
        CHECK_EQ_U(osprey_log_lost(lf), 0);
        osprey_log_close(lf);
    }
    pthread_join(t, NULL);
    close(f.lfd);
    CHECK(f.len == strlen(want) && !memcmp(f.got, want, f.len));
    osprey_config_free(cfg);
}

/* Nobody listens: the queue takes what fits in the memcap, the rest is dropped at once, and
 * what was queued is dropped at close (after its bounded wait). All counted. */
static void test_redis_down_memcap(void)
{
    int port = 0, fd = listener(&port);
    close(fd); /* the port is free again: connections are refused */
    char s1[64];
    snprintf(s1, sizeof s1, "outputs.eve-log.redis.port=%d", port);
    const char *sets[] = {s1, "outputs.eve-log.redis.memcap=2kb"};
    struct osprey_config *cfg = config(sets, 2);
    char err[512], rec[100];
    memset(rec, 'x', sizeof rec);
    struct osprey_log_file *lf = open_transport(cfg, "redis", err, sizeof err);
    CHECK(lf != NULL); /* a server that is down at start is not an error */
    if (!lf)
        return;
    int taken = 0;
    for (int i = 0; i < 100; i++)
        taken += osprey_log_write(lf, rec, sizeof rec) == 0;
    CHECK(taken > 5 && taken < 20); /* ~2 KiB of 100-byte records (and their headers) */
    uint64_t dropped = 0;
    osprey_log_counters(lf, count, &dropped);
    CHECK(dropped >= (uint64_t)(100 - taken)); /* the writer may have taken one and failed */
    osprey_log_flush(lf);
    CHECK_EQ_U(osprey_log_lost(lf), 100);
    CHECK_EQ_U(osprey_log_records(lf), 0);
    CHECK(strstr(osprey_log_error(lf, err, sizeof err), "Connection refused") != NULL);
    osprey_log_close(lf);
    osprey_config_free(cfg);
}

static void test_syslog_datagram(void)
{
    char path[108];
    snprintf(path, sizeof path, "/tmp/osprey-test-syslog-%d.sock", (int)getpid());
    unlink(path);
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    strcpy(sa.sun_path, path);
    CHECK(bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
    char set[160];
    snprintf(set, sizeof set, "outputs.eve-log.syslog.socket=%s", path);
    const char *sets[] = {set, "outputs.eve-log.identity=t", "outputs.eve-log.facility=user",
                          "outputs.eve-log.level=err"};
    struct osprey_config *cfg = config(sets, 4);
    char err[512], got[512], tail[64];
    struct osprey_log_file *lf = open_transport(cfg, "syslog", err, sizeof err);
    CHECK(lf != NULL);
    if (lf) {
        CHECK(osprey_log_write(lf, "{\"a\":1}\n", 8) == 0);
        ssize_t n = recv(s, got, sizeof got - 1, 0);
        CHECK(n > 0);
        got[n > 0 ? n : 0] = 0;
        snprintf(tail, sizeof tail, " t[%d]: {\"a\":1}", (int)getpid());
        CHECK(!strncmp(got, "<11>", 4)); /* user (1) * 8 + err (3) */
        CHECK(n > 19 && !strcmp(got + 19, tail)); /* "<11>" + "Mmm dd hh:mm:ss" */
        osprey_log_close(lf);
    }
    close(s);
    unlink(path);
    osprey_config_free(cfg);
}

/* (a bad redis mode is refused by the configuration's enum already) */
static void test_bad_keys(void)
{
    const char *sets[] = {"outputs.eve-log.facility=nope"};
    struct osprey_config *cfg = config(sets, 1);
    char err[512];
    if (!cfg)
        return;
    CHECK(open_transport(cfg, "syslog", err, sizeof err) == NULL);
    CHECK(strstr(err, "unknown syslog facility 'nope'") != NULL);
    CHECK(osprey_log_is_transport("kafka") && !osprey_log_is_transport("regular"));
    osprey_config_free(cfg);
}

int main(void)
{
    test_redis_resp("rpush", "*3\r\n$5\r\nRPUSH\r\n$1\r\nk\r\n$7\r\n{\"a\":1}\r\n"
                             "*3\r\n$5\r\nRPUSH\r\n$1\r\nk\r\n$7\r\n{\"b\":2}\r\n");
    test_redis_resp("stream", "*8\r\n$4\r\nXADD\r\n$1\r\nk\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n$1\r\n5\r\n"
                              "$1\r\n*\r\n$3\r\neve\r\n$7\r\n{\"a\":1}\r\n"
                              "*8\r\n$4\r\nXADD\r\n$1\r\nk\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n$1\r\n5\r\n"
                              "$1\r\n*\r\n$3\r\neve\r\n$7\r\n{\"b\":2}\r\n");
    test_redis_down_memcap();
    test_syslog_datagram();
    test_bad_keys();
    return unit_report("test_log_transports");
}
