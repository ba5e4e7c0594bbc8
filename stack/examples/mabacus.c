/* mabacus — a fake-retransmission detector like mOS's mAbacus (mOS §3.3, Figures 3–4).
 *
 * Some cellular operators do not bill retransmitted bytes, so a client can tunnel data in
 * packets that *look* like retransmissions. A real retransmission repeats bytes the receiver
 * already has; a fake one carries different bytes. mabacus defines a UDE on REXMIT whose
 * filter compares the packet's payload with the receiver's held stream (mon_ppeek), counts
 * the data each flow delivered, and reports flows with fake retransmissions.
 *
 * usage: mabacus FILE.pcap */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_run.h"

struct usage {
    unsigned long long bytes[2]; /* delivered in order, per receiving side */
    unsigned fake;
};

static struct usage *usage_of(struct mon_ctx *ctx, struct mon_flow *f)
{
    struct usage *u = mon_get_uctx(ctx, f);
    if (!u && (u = calloc(1, sizeof *u)))
        mon_set_uctx(ctx, f, u);
    return u;
}

/* The UDE's filter: true when the retransmitted bytes differ from those first received. */
static bool is_fake_rexmit(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                           void *arg)
{
    (void)ev, (void)arg;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (!p || !p->payload_len)
        return false;
    /* stream offset of the payload: sequence relative to the sender's first data byte */
    uint64_t off = (uint32_t)(p->tcp_seq - f->tcp.side[side ^ 1].isn - 1);
    uint8_t held[65536];
    ssize_t n = mon_ppeek(ctx, f, side, held, p->payload_len, off);
    if (n <= 0)
        return false; /* nothing held at that offset any more: cannot judge */
    return memcmp(held, p->payload, (size_t)n) != 0;
}

static void on_fake(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev, (void)arg;
    struct usage *u = usage_of(ctx, f);
    if (u)
        u->fake++;
}

static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev, (void)arg;
    struct usage *u = usage_of(ctx, f);
    uint8_t buf[16384];
    ssize_t n;
    while ((n = mon_peek(ctx, f, side, buf, sizeof buf)) != 0)
        if (n > 0 && u)
            u->bytes[side] += (unsigned long long)n;
        else if (n < 0 && n != MON_EOVERWRITTEN)
            break;
}

static void on_end(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev;
    unsigned *flagged = arg;
    struct usage *u = mon_get_uctx(ctx, f);
    if (!u)
        return;
    if (u->fake) {
        printf("flow %llu: %u fake retransmission(s); billed %llu bytes to server, %llu to client\n",
               (unsigned long long)f->id, u->fake, u->bytes[MON_SIDE_SVR], u->bytes[MON_SIDE_CLI]);
        (*flagged)++;
    }
    free(u);
    mon_set_uctx(ctx, f, NULL);
}

static int define(struct mon_engine *eng, void *arg)
{
    int64_t ev = mon_define_event(eng, MON_ON_REXMIT, is_fake_rexmit, NULL);
    *(mon_event_t *)arg = (mon_event_t)ev;
    return ev < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mabacus FILE.pcap\n");
        return 2;
    }
    struct mon_engine *eng;
    mon_event_t fake_ev;
    struct mon_ctx *ctx = example_setup(&eng, define, &fake_ev);
    unsigned flagged = 0;
    struct mon_sock *s = ctx ? mon_socket(ctx, MON_SOCK_STREAM, "tcp") : NULL;
    if (!s || mon_register(ctx, s, fake_ev, MON_HK_SND, on_fake, NULL) ||
        mon_register(ctx, s, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, NULL) ||
        mon_register(ctx, s, MON_ON_CONN_END, MON_HK_RCV, on_end, &flagged)) {
        fprintf(stderr, "mabacus: setup failed\n");
        return 1;
    }
    int rc = example_run_capture(ctx, argv[1]);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(eng);
    printf("flows with fake retransmissions: %u\n", flagged);
    return rc;
}
