/* strsearch — find a string in reassembled TCP streams, across segment boundaries, out of
 * order and overlapping segments included: libmon hands over the bytes in order.
 *
 * usage: strsearch STRING FILE.pcap
 * Prints "flow N toserver|toclient offset O" for every occurrence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_run.h"

struct search {
    const char *needle;
    size_t nlen;
    unsigned long hits;
};

/* Per flow side: the last nlen-1 bytes seen, so a match spanning two reads is found. */
struct tail {
    uint64_t off[2];       /* stream offset of tail[side][0] */
    size_t len[2];
    uint8_t buf[2][256];
};

static void on_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev;
    struct search *s = arg;
    struct tail *t = mon_get_uctx(ctx, f);
    if (!t && (t = calloc(1, sizeof *t)))
        mon_set_uctx(ctx, f, t);
    if (!t)
        return;
    uint8_t buf[16384 + 256];
    for (;;) {
        memcpy(buf, t->buf[side], t->len[side]);
        ssize_t n = mon_peek(ctx, f, side, buf + t->len[side], 16384);
        if (n == MON_EOVERWRITTEN) {
            t->len[side] = 0; /* bytes were lost: do not join across the hole */
            continue;
        }
        if (n <= 0)
            break;
        size_t total = t->len[side] + (size_t)n;
        for (size_t i = 0; i + s->nlen <= total; i++)
            if (!memcmp(buf + i, s->needle, s->nlen)) {
                printf("flow %llu %s offset %llu\n", (unsigned long long)f->id,
                       side == MON_SIDE_SVR ? "toserver" : "toclient",
                       (unsigned long long)(t->off[side] + i));
                s->hits++;
            }
        size_t keep = s->nlen - 1 < total ? s->nlen - 1 : total;
        t->off[side] += total - keep;
        memcpy(t->buf[side], buf + total - keep, keep);
        t->len[side] = keep;
    }
}

static void on_end(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)side, (void)ev, (void)arg;
    free(mon_get_uctx(ctx, f));
    mon_set_uctx(ctx, f, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 3 || !*argv[1] || strlen(argv[1]) > 256) {
        fprintf(stderr, "usage: strsearch STRING FILE.pcap  (STRING: 1 to 256 bytes)\n");
        return 2;
    }
    struct search s = {argv[1], strlen(argv[1]), 0};
    struct mon_engine *eng;
    struct mon_ctx *ctx = example_setup(&eng, NULL, NULL);
    struct mon_sock *sock = ctx ? mon_socket(ctx, MON_SOCK_STREAM, "tcp") : NULL;
    if (!sock || mon_register(ctx, sock, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_data, &s) ||
        mon_register(ctx, sock, MON_ON_CONN_END, MON_HK_RCV, on_end, NULL)) {
        fprintf(stderr, "strsearch: setup failed\n");
        return 1;
    }
    int rc = example_run_capture(ctx, argv[2]);
    mon_ctx_destroy(ctx);
    mon_engine_destroy(eng);
    printf("%lu match(es)\n", s.hits);
    return rc;
}
