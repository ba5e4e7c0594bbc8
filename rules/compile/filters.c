/* filters.c — the UDE filters of the chains: the multi-event fast-pattern filter, the header
 * filter and the option units' filter (each unit type evaluates itself: det_unit_ops).
 * Filters only read (the mpm filter also records which patterns a stream has shown, so later
 * data re-raises them), and never allocate except to grow that per-flow record. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "opt_eval.h"
#include "osprey_parsers.h"
#include "pkt_units.h"

const uint8_t *det_buffer(struct mon_ctx *ctx, struct mon_flow *f, int side, uint8_t kind,
                          uint32_t *len, uint64_t *origin)
{
    *origin = 0;
    if (kind == DK_PKT) {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        struct det_flow *pdf = f ? mon_get_uctx(ctx, f) : NULL;
        if (!p || (pdf && det_payload_off(ctx, f, pdf))) {
            *len = 0; /* an encrypted flow's payload: as if it had none */
            return NULL;
        }
        *len = p->payload_len;
        return p->payload;
    }
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    const struct mon_packet *p = df ? mon_getlastpkt(ctx) : NULL;
    if (p && (p->flags & MON_PKT_ACK_VIEW))
        df->w->stream_fill(ctx, f, side, df->w); /* the bytes being parsed: readable, unread */
    if (!df || !df->side[side]) {
        *len = 0;
        return NULL;
    }
    *len = df->side[side]->len;
    *origin = df->side[side]->base;
    return df->side[side]->buf;
}

/* Packet rules see every IP packet, a bad checksum included, as Suricata's do (checksum
 * validation, -k all, flags the packet and counts it; it does not hide it from detection:
 * a UDP query with a wrong checksum still alerts). */
static bool pkt_inspectable(const struct mon_packet *p)
{
    return p && p->ipver && !(p->flags & MON_PKT_PSEUDO);
}

/* ---- the multi-event filter ---- */

struct scan_ctx {
    struct mon_ctx *ctx;
    const struct det_mpm *m;
    const struct det_mpm_group *g; /* the buffer's class and ports */
    struct osprey_detect_prefilter *pf;
    struct det_side *s; /* stream: remember where patterns occur, raise later; NULL: raise */
    uint64_t at;        /* stream: the stream offset of the scanned bytes' first one */
    int raised;
};

void det_side_remember(struct det_side *s, uint32_t id, uint64_t end)
{
    /* without SINGLEMATCH a pattern is reported at each occurrence, mostly several in a row:
     * try the last one remembered first */
    if (s->seen_hint < s->nseen && s->seen[s->seen_hint].id == id) {
        if (end > s->seen[s->seen_hint].end)
            s->seen[s->seen_hint].end = end;
        return;
    }
    for (uint32_t i = 0; i < s->nseen; i++)
        if (s->seen[i].id == id) {
            if (end > s->seen[i].end)
                s->seen[i].end = end;
            s->seen_hint = i;
            return;
        }
    if (s->nseen == s->cap_seen) {
        uint32_t cap = s->cap_seen ? s->cap_seen * 2 : 8;
        struct det_seen *n = realloc(s->seen, cap * sizeof *n);
        if (!n)
            return; /* lost: the pattern is not raised for this data (as a flow whose state
                       could not be allocated) */
        s->seen = n;
        s->cap_seen = cap;
    }
    s->seen_hint = s->nseen;
    s->seen[s->nseen++] = (struct det_seen){id, end};
}

static int on_match(unsigned int id, unsigned long long from, unsigned long long to,
                    unsigned int flags, void *arg)
{
    (void)from, (void)flags;
    struct scan_ctx *sc = arg;
    if (!det_mpm_wanted(sc->m, sc->g, id)) {
        sc->pf->unwanted++;
        return 0; /* no rule using it can match these ports */
    }
    if (sc->s)
        det_side_remember(sc->s, id, sc->at + to);
    else if (mon_raise_event(sc->ctx, sc->m->ev[id]) == MON_OK)
        sc->raised++;
    return 0;
}

static void on_run(uint32_t id, void *arg)
{
    on_match(id, 0, 0, 0, arg);
}

/* Scan buf with every database of the group, and a packet or application buffer for the
 * patterns of one repeated byte, which its databases leave out (mpm_runs.c). */
static void scan_group(const struct det_mpm_group *g, const uint8_t *buf, uint32_t len,
                       hs_scratch_t *scratch, struct scan_ctx *sc)
{
    sc->pf->scans += g->n; /* database passes over the bytes */
    sc->pf->bytes += (uint64_t)len * g->n;
    for (uint8_t i = 0; i < g->n; i++)
        hs_scan(g->db[i], (const char *)buf, len, 0, scratch, on_match, sc);
    if (det_mpm_runs_left_out(sc->m, true))
        det_mpm_scan_runs(sc->m, buf, len, on_run, sc);
}

/* A merged pass (det_mpm_arrival_scan): the arrival patterns (ids from arr_base) go to the
 * receiving side as its arrival scan's, the packet rules' are kept for det_mpm_filter. */
struct merged_ctx {
    const struct det_mpm *pk;
    const struct det_mpm_group *gp;
    struct scan_ctx arrival;   /* the arrival patterns' scan, as det_mpm_arrival_scan's own */
    struct osprey_detect_worker *w;
};

static int on_merged_match(unsigned int id, unsigned long long from, unsigned long long to,
                           unsigned int flags, void *arg)
{
    struct merged_ctx *mc = arg;
    struct osprey_detect_worker *w = mc->w;
    if (id >= mc->pk->arr_base)
        return on_match(id - mc->pk->arr_base, from, to, flags, &mc->arrival);
    if (!det_mpm_wanted(mc->pk, mc->gp, id)) {
        w->pf.unwanted++;
        return 0;
    }
    if (w->npre == w->cap_pre) {
        uint32_t cap = w->cap_pre ? w->cap_pre * 2 : 16;
        uint32_t *n = realloc(w->pre_ids, cap * sizeof *n);
        if (!n) { /* (out of memory: the packet matcher scans the payload itself) */
            w->pre_valid = false;
            return 1;
        }
        w->pre_ids = n;
        w->cap_pre = cap;
    }
    w->pre_ids[w->npre++] = id;
    return 0;
}

bool det_mpm_arrival_scan(struct osprey_detect_worker *w, struct det_side *s,
                          const struct mon_flow *f, int rcv, const struct mon_packet *p)
{
    const struct det_mpm *st = &w->d->mpm[DK_STREAM], *pk = &w->d->mpm[DK_PKT];
    if (!st->ready || !st->grouped || !w->scratch)
        return false;
    struct det_mpm_group gs, gp;
    uint16_t sp, dp;
    det_side_ports(f, rcv, &sp, &dp);
    det_mpm_select(st, 6, det_to_server(rcv, DB_STREAM), sp, dp, &gs);
    if (!st->adb[gs.cls])
        return true; /* no pkt_required twin has a pattern here: nothing to look for */
    /* the packet matcher's group for this packet, as det_mpm_filter will select it */
    const hs_database_t *merged = NULL;
    if (pk->ready && pkt_inspectable(p)) {
        det_mpm_select(pk, p->proto, det_to_server(rcv ^ 1, pk->base), p->sport, p->dport, &gp);
        if (gp.cls == gs.cls)
            merged = gp.weak ? pk->mcdb[gp.cls] : pk->mgdb[gp.cls];
    }
    if (!merged) {
        gs.db[0] = st->adb[gs.cls]; /* (its ports and group as the stream's: which are wanted) */
        gs.n = 1;
        struct scan_ctx sc = {NULL, st, &gs, &w->pf, s, 0, 0};
        scan_group(&gs, p->payload, p->payload_len, w->scratch, &sc);
        return true;
    }
    struct merged_ctx mc = {pk, &gp, {NULL, st, &gs, &w->pf, s, 0, 0}, w};
    w->npre = 0;
    w->pre_valid = true;
    w->pf.scans++;
    w->pf.bytes += p->payload_len;
    hs_scan(merged, (const char *)p->payload, p->payload_len, 0, w->scratch, on_merged_match,
            &mc);
    return true;
}

bool det_mpm_orphan_scan(struct osprey_detect_worker *w, struct det_side *s,
                         const struct mon_flow *f, int rcv, const struct mon_packet *p)
{
    const struct det_mpm *st = &w->d->mpm[DK_STREAM];
    if (!st->ready || !st->grouped || !w->scratch)
        return false;
    struct det_mpm_group g;
    uint16_t sp, dp;
    det_side_ports(f, rcv, &sp, &dp);
    det_mpm_select(st, 6, det_to_server(rcv, DB_STREAM), sp, dp, &g);
    if (g.cls >= DMG__N || !st->odb[g.cls])
        return false;
    g.db[0] = st->odb[g.cls];
    g.n = 1;
    struct scan_ctx sc = {NULL, st, &g, &w->pf, s, 0, 0};
    scan_group(&g, p->payload, p->payload_len, w->scratch, &sc);
    return true;
}

/* Ack delivery: a transaction is parsed at the ACK of its bytes, before their CONN_NEW_DATA
 * fills the side's window and scans it. Fill it and remember where the stream matcher's
 * patterns occur in the bytes not scanned yet (their scan at CONN_NEW_DATA still raises the
 * stream rules: s->scanned stays). */
static void prescan(struct mon_ctx *ctx, struct mon_flow *f, int side, struct det_flow *df,
                    const struct det_mpm *sm)
{
    df->w->stream_fill(ctx, f, side, df->w);
    struct det_side *s = df->side[side];
    if (!s || !sm->ready || sm->streaming || s->base + s->len == s->scanned)
        return;
    uint64_t at = s->scanned > sm->maxlen - 1 ? s->scanned - (sm->maxlen - 1) : 0;
    uint32_t from = at > s->base ? (uint32_t)(at - s->base) : 0;
    if (s->len <= from)
        return;
    struct det_mpm_group g;
    uint16_t sp, dp;
    det_side_ports(f, side, &sp, &dp);
    det_mpm_select(sm, 6, det_to_server(side, DB_STREAM), sp, dp, &g);
    struct scan_ctx sc = {ctx, sm, &g, &df->w->pf, s, s->base + from, 0};
    scan_group(&g, s->buf + from, s->len - from, df->w->scratch, &sc);
}

bool det_mpm_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg)
{
    (void)ev;
    const struct det_mpm *m = arg;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    /* (no scratch when no matcher has a database: their patterns are all runs, mpm_runs.c) */
    if (!m->ready || !df || det_flow_stopped(df))
        return false;
    struct det_mpm_group g;
    struct scan_ctx sc = {ctx, m, &g, &df->w->pf, NULL, 0, 0};
    const uint8_t *buf;
    uint32_t len, from = 0;
    uint64_t origin;
    if (m->kind == DK_APP && m->via && f->proto == 6) {
        /* the payload of a TCP flow: the stream matcher found the patterns as the side's
         * stream arrived; raise those whose occurrence is still in the window */
        int ss = det_to_server(0, m->base) ? MON_SIDE_SVR : MON_SIDE_CLI;
        const struct mon_packet *p = mon_getlastpkt(ctx);
        if (p && (p->flags & MON_PKT_ACK_VIEW))
            prescan(ctx, f, ss, df, m->via); /* parsed at the ACK: before CONN_NEW_DATA */
        struct det_side *s = df->side[ss];
        if (!s)
            return false; /* no stream byte on that side yet */
        for (uint32_t i = 0; i < s->nseen; i++) {
            uint32_t sid = s->seen[i].id;
            int32_t id = sid < m->via->n ? m->from_stream[sid] : -1;
            if (id >= 0 && s->seen[i].end >= s->base + m->len[id] &&
                mon_raise_event(ctx, m->ev[id]) == MON_OK)
                sc.raised++;
        }
        df->w->pf.raised += (uint64_t)sc.raised;
        return sc.raised > 0;
    } else if (m->kind == DK_APP) {
        det_mpm_select(m, 0, true, 0, 0, &g);
        buf = det_app_buffer(df->w, ctx, f, m->base, m->ob, m->xf, 0, &len, &origin);
        /* a multi-buffer: every element is scanned (a pattern found in two raises once) */
        for (uint32_t i = 1; buf && det_app_multi(df->w->d, m->ob); i++) {
            scan_group(&g, buf, len, df->w->scratch, &sc);
            buf = det_app_buffer_at(df->w, ctx, f, m->base, m->ob, m->xf, 0, i, &len, &origin);
        }
    } else if (m->kind == DK_PKT) {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        if (!pkt_inspectable(p))
            return false;
        if (df->w->pre_valid) {
            /* this packet's payload went through the merged arrival pass, which kept the
             * packet rules' patterns it found (wanted at these ports): raise those */
            for (uint32_t i = 0; i < df->w->npre; i++)
                if (mon_raise_event(ctx, m->ev[df->w->pre_ids[i]]) == MON_OK)
                    sc.raised++;
            df->w->pf.raised += (uint64_t)sc.raised;
            return sc.raised > 0;
        }
        /* a packet of no flow matches no rule with a direction: the to-server group holds
         * every rule without one */
        det_mpm_select(m, p->proto, !f || det_to_server(side, m->base), p->sport, p->dport,
                       &g);
        buf = det_buffer(ctx, f, side, DK_PKT, &len, &origin);
    } else {
        /* Only the new bytes are scanned (with maxlen-1 before them, so a pattern spanning
         * the seam is found; with detect.stream-mpm: stream, on_data has fed them to the
         * side's Hyperscan streams already). A pattern is raised while an occurrence of it
         * lies wholly in the window, found now or earlier: a rule's other contents may only
         * now have arrived. Once its last occurrence has slid out, its rules cannot match
         * (their fast-pattern content is not in the window), so it is not raised; it is
         * again when it occurs again. */
        struct det_side *s = df->side[side];
        if (!s || s->base + s->len == s->scanned)
            return false; /* nothing new (e.g. past the inspection cap): nothing to re-check */
        uint64_t at = s->scanned > m->maxlen - 1 ? s->scanned - (m->maxlen - 1) : 0;
        from = at > s->base ? (uint32_t)(at - s->base) : 0; /* the window keeps them */
        s->scanned = s->base + s->len;
        if (!m->streaming && s->len > from) {
            uint16_t sp, dp;
            det_side_ports(f, side, &sp, &dp);
            det_mpm_select(m, 6, det_to_server(side, DB_STREAM), sp, dp, &g);
            sc.s = s;
            sc.at = s->base + from;
            scan_group(&g, s->buf + from, s->len - from, df->w->scratch, &sc);
        }
        for (uint32_t i = 0; i < s->nseen; i++)
            if (m->ev[s->seen[i].id] && /* not only an application rule's (via) */
                s->seen[i].end >= s->base + m->len[s->seen[i].id] &&
                mon_raise_event(ctx, m->ev[s->seen[i].id]) == MON_OK)
                sc.raised++;
        df->w->pf.raised += (uint64_t)sc.raised;
        return sc.raised > 0;
    }
    if (buf && len > from)
        scan_group(&g, buf + from, len - from, df->w->scratch, &sc);
    df->w->pf.raised += (uint64_t)sc.raised;
    return sc.raised > 0;
}

/* ---- header ---- */

struct osprey_ip det_to_ip(const struct mon_addr *a, uint8_t ipver)
{
    struct osprey_ip ip = {0, 0};
    if (ipver == 4) {
        ip.lo = 0xffff00000000ull | (uint64_t)a->b[0] << 24 | (uint64_t)a->b[1] << 16 |
                (uint64_t)a->b[2] << 8 | a->b[3];
        return ip;
    }
    for (int i = 0; i < 8; i++) {
        ip.hi = ip.hi << 8 | a->b[i];
        ip.lo = ip.lo << 8 | a->b[8 + i];
    }
    return ip;
}

static int ipcmp(struct osprey_ip a, struct osprey_ip b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    return a.lo < b.lo ? -1 : a.lo > b.lo;
}

bool det_in_ipset(const struct osprey_ip_set *s, struct osprey_ip ip)
{
    uint32_t lo = 0, hi = s->n; /* sorted, disjoint: binary search */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (ipcmp(ip, s->r[mid].lo) < 0)
            hi = mid;
        else if (ipcmp(ip, s->r[mid].hi) > 0)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

static bool in_portset(const struct osprey_port_set *s, uint16_t p)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (p >= s->r[i].lo && p <= s->r[i].hi)
            return true;
    return false;
}

static bool one_way(const struct det_header *h, struct osprey_ip src, uint16_t sp,
                    struct osprey_ip dst, uint16_t dp)
{
    if (!det_in_ipset(h->src, src) || !det_in_ipset(h->dst, dst))
        return false;
    return !h->ports || (in_portset(h->sp, sp) && in_portset(h->dp, dp));
}

static bool ipset_is_any(const struct osprey_ip_set *s)
{
    return s->n == 1 && !s->r[0].lo.hi && !s->r[0].lo.lo && s->r[0].hi.hi == UINT64_MAX &&
           s->r[0].hi.lo == UINT64_MAX;
}

/* The addresses and ports a header compares: the stream's or the message's direction for
 * flow-bound kinds, the packet's for packet rules. */
void det_header_addrs(const struct det_header *h, const struct mon_packet *p,
                         const struct mon_flow *f, int side, struct osprey_ip *src,
                         uint16_t *sp, struct osprey_ip *dst, uint16_t *dp)
{
    if (h->kind != DK_PKT && f) {
        /* the stream's or the message's direction, not the packet's (an ACK may have
         * delivered the data) */
        bool ts = det_to_server(side, h->base);
        *src = det_to_ip(ts ? &f->cli : &f->srv, f->ipver);
        *dst = det_to_ip(ts ? &f->srv : &f->cli, f->ipver);
        *sp = ts ? f->cport : f->sport;
        *dp = ts ? f->sport : f->cport;
    } else {
        *src = det_to_ip(&p->src, p->ipver);
        *dst = det_to_ip(&p->dst, p->ipver);
        *sp = p->sport;
        *dp = p->dport;
    }
}

bool det_header_ways_at(const struct det_header *h, uint8_t proto, const struct osprey_ip ip[2],
                        uint16_t sp, uint16_t dp, struct det_ways *w)
{
    if (h->proto && h->proto != proto)
        return false;
    w->sp = sp;
    w->dp = dp;
    w->fwd = det_in_ipset(h->src, ip[0]) && det_in_ipset(h->dst, ip[1]);
    w->rev = h->both && det_in_ipset(h->src, ip[1]) && det_in_ipset(h->dst, ip[0]);
    return w->fwd || w->rev;
}

bool det_header_ways(const struct det_header *h, const struct mon_packet *p,
                     const struct mon_flow *f, int side, struct det_ways *w)
{
    if (!p->ipver)
        return false;
    struct osprey_ip ip[2];
    uint16_t sp, dp;
    det_header_addrs(h, p, f, side, &ip[0], &sp, &ip[1], &dp);
    return det_header_ways_at(h, p->proto == 58 ? 1 : p->proto, ip, sp, dp, w);
}

bool det_header_ports(const struct det_header *h, const struct det_ways *w)
{
    if (!h->ports)
        return true;
    return (w->fwd && in_portset(h->sp, w->sp) && in_portset(h->dp, w->dp)) ||
           (w->rev && in_portset(h->sp, w->dp) && in_portset(h->dp, w->sp));
}

bool det_header_match(const struct det_header *h, const struct mon_packet *p,
                      const struct mon_flow *f, int side)
{
    if (!p->ipver) /* no IP header decoded: only pkthdr rules on any address see it */
        return h->any_packet && ipset_is_any(h->src) && ipset_is_any(h->dst);
    uint8_t proto = p->proto == 58 ? 1 : p->proto;
    if (h->proto && h->proto != proto)
        return false;
    struct osprey_ip src, dst;
    uint16_t sp, dp;
    det_header_addrs(h, p, f, side, &src, &sp, &dst, &dp);
    return one_way(h, src, sp, dst, dp) || (h->both && one_way(h, dst, dp, src, sp));
}

bool det_header_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                       void *arg)
{
    (void)ev;
    const struct det_header *h = arg;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    /* decoder-event rules are about the packet's structure: a bad checksum does not hide it
     * (the fragment that completes a datagram carries the datagram's checksum result) */
    if (!p || (!p->ipver && !h->any_packet) ||
        (h->kind == DK_PKT && h->base != DB_DECODE && !pkt_inspectable(p)))
        return false;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (df && det_flow_stopped(df))
        return false;
    bool ok = det_header_match(h, p, f, side);
    if (df) {
        df->w->pf.header_checks++;
        df->w->pf.header_passed += ok;
    }
    return ok;
}

bool det_hdx_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg)
{
    (void)ev;
    const struct det_hdx *x = arg;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    /* decoder-event rules see packets without flow state, and without IP (pkthdr); packet
     * rules an IP packet with no flow at all (its transport header broken: on_orphan) */
    bool flowless = !f && x->base == DB_PKT && p && p->ipver;
    if (!p || ((!p->ipver || !df) && x->base != DB_DECODE && !flowless) ||
        (df && det_flow_stopped(df)) ||
        (x->kind == DK_PKT && x->base != DB_DECODE && !pkt_inspectable(p)))
        return false;
    if (!df) {
        /* no flow state (DECODE_EVENT, or a flowless packet): nothing to cache in, but the
         * same index (a flowless packet through ET Open's reputation lists would otherwise
         * cost 1,281 header checks) */
        int raised = 0;
        if (x->bk && p->ipver) {
            struct det_hcache c = {0};
            if (det_hdx_headers(x, p, f, side, &c, NULL) == 0)
                for (uint32_t i = 0; i < c.n; i++)
                    raised += mon_raise_event(ctx, x->ev[c.ids[i]]) == MON_OK;
            free(c.ids);
            return raised > 0;
        }
        for (uint32_t i = 0; i < x->n; i++)
            if (det_header_match(x->hdr[i], p, f, side))
                raised += mon_raise_event(ctx, x->ev[i]) == MON_OK;
        return raised > 0;
    }
    if (!df->hc && !(df->hc = calloc(df->w->d->nhdx_slots, sizeof *df->hc)))
        return false; /* out of memory: the rules without fast pattern miss this packet */
    struct det_hcache *c = &df->hc[x->slot][det_to_server(side, x->base) ? 0 : 1];
    if (!c->done) {
        /* once per flow direction: addresses, ports and protocol are the flow's */
        c->done = true;
        if (det_hdx_headers(x, p, f, side, c, df->w->hdx_memo) < 0)
            return false; /* out of memory: the rules without fast pattern miss this packet */
    }
    int raised = 0;
    for (uint32_t i = 0; i < c->n; i++)
        raised += mon_raise_event(ctx, x->ev[c->ids[i]]) == MON_OK;
    return raised > 0;
}

bool det_barrier_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    return true;
}

bool det_pkt_root_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                         void *arg)
{
    (void)ctx, (void)f, (void)side, (void)ev, (void)arg;
    return true;
}

/* ---- option units ---- */

bool det_unit_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg)
{
    (void)ev;
    const struct det_unit *u = arg;
    return u->ops->eval(u, ctx, f, side); /* unit_*.c, tls_units.c, events.c, pkt_units.c */
}
