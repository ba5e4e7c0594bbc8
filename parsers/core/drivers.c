/* drivers.c — the three filters that feed the parsers: UDP datagrams (PKT_IN), new TCP
 * stream bytes (CONN_NEW_DATA), the end of a flow (CONN_END). They always return false: the
 * app events run through mon_run_event, once per message.
 *
 * TCP bytes are read with mon_ppeek at the parsers' own offset, never mon_peek: the stream's
 * read pointer belongs to the application (detection reads it too). */
#include <string.h>

#include "parsers_int.h"

#define DETECT_MAX 512  /* bytes looked at before a TCP flow is called none of ours */

static struct osprey_parsers_worker *worker_of(struct mon_ctx *ctx, const struct osprey_parsers *p)
{
    return mon_ctx_slot_get(ctx, p->slot);
}

static bool port53(const struct mon_flow *f)
{
    return f->sport == 53 || f->cport == 53 || f->sport == 5353; /* DNS, mDNS */
}

/* ---- UDP ---- */
bool parsers_udp_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)ev;
    const struct osprey_parsers *p = arg;
    if (!f || f->proto != 17)
        return false;
    struct osprey_parsers_worker *w = worker_of(ctx, p);
    const struct mon_packet *pkt = mon_getlastpkt(ctx);
    if (!w || !pkt)
        return false;
    /* PKT_IN runs in both phases when users hang handlers on both hooks: parse in the
     * sender's (mon_run_event reaches both hooks' subtrees from there) */
    if (mon_hook_now(ctx) != MON_HK_SND)
        return false;
    struct pflow *pf = pflow_make(w, f);
    if (!pf || !pkt->payload)
        return false;
    /* PKT_IN's side is the sender; app events use the receiver's, as stream events do */
    int dir = side == MON_SIDE_CLI ? 0 : 1;
    if (pf->proto == OSPREY_APP_UNKNOWN) {
        enum detect_verdict v = detect_dns(pkt->payload, pkt->payload_len, false);
        /* off port 53 a datagram must look like a plain query to be taken for DNS */
        if (v == DET_YES && !port53(f) && detect_dns_strict(pkt->payload, pkt->payload_len) != DET_YES)
            v = DET_NO;
        pflow_decide(pf, f, dir, v == DET_YES ? OSPREY_APP_DNS : OSPREY_APP_FAILED);
    }
    if (pf->proto == OSPREY_APP_DNS)
        dns_message(pf, f, dir, pkt->payload, pkt->payload_len);
    return false;
}

/* ---- TCP ---- */
static void parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    switch (pf->proto) {
    case OSPREY_APP_HTTP: http_parse(pf, f, dir, d, n); break;
    case OSPREY_APP_TLS: tls_parse(pf, f, dir, d, n); break;
    case OSPREY_APP_DNS: dns_tcp_parse(pf, f, dir, d, n); break;
    default: break;
    }
}

/* Detection looks at both directions, as Suricata's does: the client's first bytes, else the
 * server's (a junk request answered by "HTTP/1.1 400" is HTTP). A client that matches no
 * protocol waits for the server's first bytes, up to DETECT_MAX held. */
static enum osprey_app_proto detect_tcp(struct pflow *pf, const struct mon_flow *f, int dir,
                                        bool *decided)
{
    (void)dir;
    const struct pbuf *c = &pf->in[0], *s = &pf->in[1];
    *decided = true;
    bool client_no = false;
    if (c->len) {
        enum detect_verdict h = detect_http_request(c->p, c->len);
        enum detect_verdict t = detect_tls_client_hello(c->p, c->len);
        enum detect_verdict d = port53(f) ? detect_dns(c->p, c->len, true) : DET_NO;
        if (h == DET_YES)
            return OSPREY_APP_HTTP;
        if (t == DET_YES)
            return OSPREY_APP_TLS;
        if (d == DET_YES)
            return OSPREY_APP_DNS;
        client_no = h == DET_NO && t == DET_NO && d == DET_NO;
        if (!client_no && c->len < DETECT_MAX) {
            *decided = false; /* a prefix of one of them: more of the client first */
            return OSPREY_APP_UNKNOWN;
        }
        client_no = true;
    }
    if (s->len) {
        enum detect_verdict h = detect_http_response(s->p, s->len);
        if (h == DET_YES)
            return OSPREY_APP_HTTP;
        if (h == DET_NO || s->len >= DETECT_MAX)
            return OSPREY_APP_FAILED;
    } else if (client_no && c->len >= DETECT_MAX) {
        return OSPREY_APP_FAILED;
    }
    *decided = false;
    return OSPREY_APP_UNKNOWN;
}

static void feed(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (pf->proto != OSPREY_APP_UNKNOWN) {
        parse(pf, f, dir, d, n);
        return;
    }
    uint32_t room = DETECT_MAX - pf->in[dir].len;
    uint32_t took = pbuf_add(&pf->in[dir], d, n < room ? n : room, 0);
    bool decided;
    enum osprey_app_proto p = detect_tcp(pf, f, dir, &decided);
    if (!decided) {
        if (took < n) /* out of memory while staging: give up on this flow */
            pflow_decide(pf, f, dir, OSPREY_APP_FAILED);
        return;
    }
    pflow_decide(pf, f, dir, p);
    /* replay what detection held, client side first, then the rest of this chunk */
    for (int k = 0; k < 2; k++) {
        struct pbuf held = pf->in[k];
        memset(&pf->in[k], 0, sizeof pf->in[k]);
        if (p != OSPREY_APP_FAILED && held.len)
            parse(pf, f, k, held.p, held.len);
        pbuf_free(&held);
    }
    if (p != OSPREY_APP_FAILED && took < n)
        parse(pf, f, dir, d + took, n - took);
}

/* The start of the first in-order run of held bytes after off (below tail), or 0. */
static uint64_t next_held(struct mon_ctx *ctx, struct mon_flow *f, int side, uint64_t off,
                          uint64_t tail)
{
    struct mon_frag fr[64];
    size_t len = sizeof fr;
    int rc = mon_getsockopt(ctx, f, side, MON_SO_FRAGS, fr, &len);
    if (rc != MON_OK && rc != MON_ERANGE)
        return 0;
    size_t n = (rc == MON_OK ? len : sizeof fr) / sizeof fr[0];
    for (size_t i = 0; i < n; i++)
        if (fr[i].off > off && fr[i].off < tail)
            return fr[i].off;
    return 0;
}

bool parsers_tcp_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)ev;
    const struct osprey_parsers *p = arg;
    struct osprey_parsers_worker *w = f && f->proto == 6 ? worker_of(ctx, p) : NULL;
    struct pflow *pf = w ? pflow_make(w, f) : NULL;
    if (!pf)
        return false;
    int dir = DIR_OF_SIDE(side);
    struct mon_buf_info bi;
    size_t bl = sizeof bi;
    if (pf->dead[dir] || pf->proto == OSPREY_APP_FAILED ||
        mon_getsockopt(ctx, f, side, MON_SO_BUF_INFO, &bi, &bl) != MON_OK)
        return false;
    if (!pf->started[dir]) {
        pf->started[dir] = true;
        pf->off[dir] = bi.head_off;
    }
    uint8_t buf[16384];
    while (pf->off[dir] < bi.tail_off && !pf->dead[dir] && pf->proto != OSPREY_APP_FAILED) {
        uint64_t want = bi.tail_off - pf->off[dir];
        ssize_t n = mon_ppeek(ctx, f, side, buf, want < sizeof buf ? (size_t)want : sizeof buf,
                              pf->off[dir]);
        if (n <= 0) {
            /* overwritten before we read it, or a hole skipped for good: go on after it
             * when the protocol can find its framing again, else give this direction up */
            uint64_t next = next_held(ctx, f, side, pf->off[dir], bi.tail_off);
            if (!next || pf->proto != OSPREY_APP_HTTP) {
                pf->dead[dir] = true;
                break;
            }
            http_gap(pf, f, dir);
            pf->off[dir] = next;
            continue;
        }
        pf->off[dir] += (uint64_t)n;
        pf->seen[dir] += (uint64_t)n;
        feed(pf, f, dir, buf, (size_t)n);
    }
    return false;
}

bool parsers_end_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)side, (void)ev, (void)arg;
    struct pflow *pf = pflow_get(ctx, f);
    if (pf && pf->proto == OSPREY_APP_HTTP)
        http_end(pf, f);
    return false;
}
