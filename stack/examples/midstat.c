/* midstat — a flow-state monitor like mOS's midstat: one line per TCP connection as it
 * ends, with both endpoints' final TCP states, packets and bytes each way.
 *
 * usage: midstat FILE.pcap
 * Built only on mon.h: a stream socket, handlers on CONN_START and CONN_END. */
#include <arpa/inet.h>
#include <stdio.h>

#include "example_run.h"

struct totals {
    unsigned long started, ended;
};

static void addr(const struct mon_flow *f, const struct mon_addr *a, char *buf, size_t len)
{
    inet_ntop(f->ipver == 4 ? AF_INET : AF_INET6, a->b, buf, (socklen_t)len);
}

static void on_start(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev;
    ((struct totals *)arg)->started++;
}

static void on_end(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ctx, (void)side, (void)ev;
    struct totals *t = arg;
    char c[64], s[64];
    addr(f, &f->cli, c, sizeof c);
    addr(f, &f->srv, s, sizeof s);
    printf("%-6llu %s:%u -> %s:%u  client %-11s server %-11s  pkts %u/%u  bytes %llu/%llu\n",
           (unsigned long long)f->id, c, f->cport, s, f->sport,
           mon_tcp_state_name(f->tcp.side[MON_SIDE_CLI].state),
           mon_tcp_state_name(f->tcp.side[MON_SIDE_SVR].state), f->pkts[0], f->pkts[1],
           (unsigned long long)f->bytes[0], (unsigned long long)f->bytes[1]);
    t->ended++;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: midstat FILE.pcap\n");
        return 2;
    }
    struct mon_engine *eng;
    struct mon_ctx *ctx = example_setup(&eng, NULL, NULL);
    struct totals t = {0, 0};
    struct mon_sock *s = ctx ? mon_socket(ctx, MON_SOCK_STREAM, "tcp") : NULL;
    if (!s || mon_register(ctx, s, MON_ON_CONN_START, MON_HK_SND, on_start, &t) ||
        mon_register(ctx, s, MON_ON_CONN_END, MON_HK_RCV, on_end, &t)) {
        fprintf(stderr, "midstat: setup failed\n");
        return 1;
    }
    int rc = example_run_capture(ctx, argv[1]);
    mon_ctx_destroy(ctx);
    printf("connections: %lu started, %lu ended\n", t.started, t.ended);
    mon_engine_destroy(eng);
    return rc;
}
