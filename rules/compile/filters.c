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
        *len = p ? p->payload_len : 0;
        return p ? p->payload : NULL;
    }
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!df)
        return NULL;
    *len = df->side[side].len;
    *origin = df->side[side].base;
    return df->side[side].buf;
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
    if (sc->m->remap && (id = sc->m->remap[id]) == UINT32_MAX)
        return 0; /* a shared database's pattern of another mpm */
    if (sc->s)
        det_side_remember(sc->s, id, sc->at + to);
    else if (mon_raise_event(sc->ctx, sc->m->ev[id]) == MON_OK)
        sc->raised++;
    return 0;
}

bool det_mpm_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg)
{
    (void)ev;
    const struct det_mpm *m = arg;
    struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
    if (!m->db || !df || det_flow_stopped(df) || !df->w->scratch)
        return false;
    struct scan_ctx sc = {ctx, m, NULL, 0, 0};
    const uint8_t *buf;
    uint32_t len, from = 0;
    uint64_t origin;
    if (m->kind == DK_APP) {
        buf = det_app_buffer(df->w, ctx, f, m->base, m->ob, m->xf, 0, &len, &origin);
        /* a multi-buffer: every element is scanned (a pattern found in two raises once) */
        for (uint32_t i = 1; buf && det_app_multi(m->ob); i++) {
            hs_scan(m->db, (const char *)buf, len, 0, df->w->scratch, on_match, &sc);
            buf = det_app_buffer_at(df->w, ctx, f, m->base, m->ob, m->xf, 0, i, &len, &origin);
        }
    } else if (m->kind == DK_PKT) {
        if (!pkt_inspectable(mon_getlastpkt(ctx)))
            return false;
        buf = det_buffer(ctx, f, side, DK_PKT, &len, &origin);
    } else {
        /* Only the new bytes are scanned (with maxlen-1 before them, so a pattern spanning
         * the seam is found; with detect.stream-mpm: stream, on_data has fed them to the
         * side's Hyperscan stream already). A pattern is raised while an occurrence of it
         * lies wholly in the window, found now or earlier: a rule's other contents may only
         * now have arrived. Once its last occurrence has slid out, its rules cannot match
         * (their fast-pattern content is not in the window), so it is not raised; it is
         * again when it occurs again. */
        struct det_side *s = &df->side[side];
        if (s->base + s->len == s->scanned)
            return false; /* nothing new (e.g. past the inspection cap): nothing to re-check */
        uint64_t at = s->scanned > m->maxlen - 1 ? s->scanned - (m->maxlen - 1) : 0;
        from = at > s->base ? (uint32_t)(at - s->base) : 0; /* the window keeps them */
        s->scanned = s->base + s->len;
        if (!m->streaming && s->len > from) {
            sc.s = s;
            sc.at = s->base + from;
            hs_scan(m->db, (const char *)s->buf + from, s->len - from, 0, df->w->scratch,
                    on_match, &sc);
        }
        for (uint32_t i = 0; i < s->nseen; i++)
            if (s->seen[i].end >= s->base + m->len[s->seen[i].id] &&
                mon_raise_event(ctx, m->ev[s->seen[i].id]) == MON_OK)
                sc.raised++;
        return sc.raised > 0;
    }
    if (buf && len > from)
        hs_scan(m->db, (const char *)buf + from, len - from, 0, df->w->scratch, on_match, &sc);
    return sc.raised > 0;
}

/* ---- header ---- */

static struct osprey_ip to_ip(const struct mon_addr *a, uint8_t ipver)
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

static bool in_ipset(const struct osprey_ip_set *s, struct osprey_ip ip)
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
    if (!in_ipset(h->src, src) || !in_ipset(h->dst, dst))
        return false;
    return !h->ports || (in_portset(h->sp, sp) && in_portset(h->dp, dp));
}

static bool ipset_is_any(const struct osprey_ip_set *s)
{
    return s->n == 1 && !s->r[0].lo.hi && !s->r[0].lo.lo && s->r[0].hi.hi == UINT64_MAX &&
           s->r[0].hi.lo == UINT64_MAX;
}

static bool header_match(const struct det_header *h, const struct mon_packet *p,
                         const struct mon_flow *f, int side)
{
    if (!p->ipver) /* no IP header decoded: only pkthdr rules on any address see it */
        return h->any_packet && ipset_is_any(h->src) && ipset_is_any(h->dst);
    uint8_t proto = p->proto == 58 ? 1 : p->proto;
    if (h->proto && h->proto != proto)
        return false;
    struct osprey_ip src, dst;
    uint16_t sp, dp;
    if (h->kind != DK_PKT && f) {
        /* the stream's or the message's direction, not the packet's (an ACK may have
         * delivered the data) */
        bool ts = det_to_server(side, h->base);
        src = to_ip(ts ? &f->cli : &f->srv, f->ipver);
        dst = to_ip(ts ? &f->srv : &f->cli, f->ipver);
        sp = ts ? f->cport : f->sport;
        dp = ts ? f->sport : f->cport;
    } else {
        src = to_ip(&p->src, p->ipver);
        dst = to_ip(&p->dst, p->ipver);
        sp = p->sport;
        dp = p->dport;
    }
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
    return header_match(h, p, f, side);
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
        /* no flow state (DECODE_EVENT, or a flowless packet): no cache; headers checked now */
        int raised = 0;
        for (uint32_t i = 0; i < x->n; i++)
            if (header_match(x->hdr[i], p, f, side))
                raised += mon_raise_event(ctx, x->ev[i]) == MON_OK;
        return raised > 0;
    }
    if (!df->hc && !(df->hc = calloc(df->w->d->nhdx_slots, sizeof *df->hc)))
        return false; /* out of memory: the rules without fast pattern miss this packet */
    struct det_hcache *c = &df->hc[x->slot][det_to_server(side, x->base) ? 0 : 1];
    if (!c->done) {
        /* once per flow direction: addresses, ports and protocol are the flow's */
        c->done = true;
        for (uint32_t i = 0; i < x->n; i++) {
            if (!header_match(x->hdr[i], p, f, side))
                continue;
            uint32_t *ids = realloc(c->ids, (c->n + 1) * sizeof *ids);
            if (!ids)
                break;
            c->ids = ids;
            c->ids[c->n++] = i;
        }
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
