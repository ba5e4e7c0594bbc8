/* filters.c — the UDE filters of the chains: the multi-event fast-pattern filter, the header
 * filter and the option units. Filters only read (the mpm filter also records which patterns
 * a stream has shown, so later data re-raises them), and never allocate except to grow that
 * per-flow record. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "tls_units.h"
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
    struct det_hcache *c = &df->hc[x->base][det_to_server(side, x->base) ? 0 : 1];
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

/* TCP: both ends established (or past it, closing). The ACK that completes the handshake
 * counts too, as in Suricata, although the server's end only moves after the packet's
 * sender-side phase, where packet rules run. */
/* A TCP connection is established for a packet when both sides were before it came: the
 * handshake's ACK finds the server still in SYN_RCVD and is not (Suricata gives the state the
 * packet finds). */
static bool established(const struct mon_flow *f)
{
    if (f->proto != 6)
        return f->state == MON_FLOW_ESTABLISHED;
    uint8_t c = f->tcp.side[MON_SIDE_CLI].state, s = f->tcp.side[MON_SIDE_SVR].state;
    return c >= MON_TCP_ESTABLISHED && s >= MON_TCP_ESTABLISHED;
}

static void hdr_view(const struct mon_packet *p, struct hdr_view *h)
{
    memset(h, 0, sizeof *h);
    h->ipver = p->ipver;
    h->ttl = p->ttl;
    if (p->ipver == 4 && p->l3 && p->l3_len >= 20) {
        h->tos = p->l3[1];
        h->ip_id = (uint16_t)(p->l3[4] << 8 | p->l3[5]);
        /* a datagram defrag rebuilt carries offset 0: rules see whole datagrams, not the
         * fragments it held */
        h->frag_off = (uint16_t)((p->l3[6] & 0x1f) << 8 | p->l3[7]);
    } else if (p->ipver == 6 && p->l3 && p->l3_len >= 2) {
        h->tos = (uint8_t)((p->l3[0] & 0x0f) << 4 | p->l3[1] >> 4); /* traffic class */
    }
    h->is_icmp = (p->proto == 1 || p->proto == 58) && (p->flags & MON_PKT_HAS_L4);
    if (h->is_icmp) {
        h->icmp_type = p->icmp_type;
        h->icmp_code = p->icmp_code;
        uint8_t t = p->icmp_type;
        h->icmp_echo = p->l4 && p->l4_len >= 8 &&
                       (p->proto == 1 ? (t == 0 || t == 8 || t == 13 || t == 14 || t == 15 ||
                                         t == 16)
                                      : (t == 128 || t == 129));
        if (h->icmp_echo) {
            h->icmp_id = (uint16_t)(p->l4[4] << 8 | p->l4[5]);
            h->icmp_seq = (uint16_t)(p->l4[6] << 8 | p->l4[7]);
        }
    }
    h->is_tcp = p->proto == 6 && (p->flags & MON_PKT_HAS_L4);
    if (h->is_tcp) {
        h->tcp_flags = p->tcp_flags;
        h->tcp_seq = p->tcp_seq;
        h->tcp_ack = p->tcp_ack;
        h->tcp_win = p->tcp_win;
    }
}

bool det_unit_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg)
{
    (void)ev;
    const struct det_unit *u = arg;
    switch (u->type) {
    case DU_PAYLOAD: {
        struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
        uint32_t len;
        if (!df)
            return false;
        uint64_t origin = 0;
        const uint8_t *buf;
        if (u->kind == DK_APP)
            buf = det_app_buffer(df->w, ctx, f, u->base, u->ob, u->xf, 1, &len, &origin);
        else if (det_ob_is_hdr(u->ob)) /* ipv4.hdr, tcp.hdr … of the packet */
            buf = det_hdr_buffer(mon_getlastpkt(ctx), u->ob, &len);
        else
            buf = det_buffer(ctx, f, side, u->kind, &len, &origin);
        if (u->kind == DK_APP && det_app_multi(u->ob)) {
            /* Suricata's multiple buffer matching: the run matches within one element */
            if (!buf)
                return u->or_absent;
            for (uint32_t i = 1; buf; i++) {
                if (det_payload_match(u, buf, len, origin, df->w->md))
                    return true;
                buf = det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, i, &len,
                                        &origin);
            }
            return false;
        }
        /* as Suricata, payload options never inspect a packet without payload (a rule of
         * negated contents only would match every bare ACK) */
        if (u->kind == DK_PKT && !len)
            return false;
        if (!buf)
            return u->or_absent;
        return det_payload_match(u, buf, len, origin, df->w->md);
    }
    case DU_BUFLEN:
    case DU_ABSENT: {
        struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
        uint32_t len;
        uint64_t origin;
        if (!df)
            return false;
        const uint8_t *b = det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, 0, &len,
                                             &origin);
        if (u->type == DU_ABSENT || !b)
            return u->type == DU_ABSENT ? !b : u->or_absent;
        for (uint32_t i = 1; b; i++) { /* a multi-buffer: any element */
            if (cmp_match(u->cmp, len))
                return true;
            b = det_app_buffer_at(df->w, ctx, f, u->base, u->ob, u->xf, 1, i, &len, &origin);
        }
        return false;
    }
    case DU_TLS:
        return f && det_tls_match(u->tls, ctx, f);
    case DU_DATASET: {
        if (u->addr) { /* ip.src, ip.dst: 4 bytes for IPv4, 16 for IPv6 */
            const struct mon_packet *p = mon_getlastpkt(ctx);
            if (!p || !p->ipver)
                return false;
            const struct mon_addr *a = u->addr == 1 ? &p->src : &p->dst;
            return det_dataset_match(u->set, u->ds, a->b, p->ipver == 4 ? 4 : 16);
        }
        struct det_flow *df = f ? mon_get_uctx(ctx, f) : NULL;
        uint32_t len;
        uint64_t origin;
        if (!df)
            return false;
        const uint8_t *buf =
            u->kind == DK_APP
                ? det_app_buffer(df->w, ctx, f, u->base, u->ob, u->xf, 1, &len, &origin)
                : det_buffer(ctx, f, side, u->kind, &len, &origin);
        return buf && det_dataset_match(u->set, u->ds, buf, len);
    }
    case DU_APPPROTO: {
        if (!f)
            return false;
        enum osprey_app_proto a = osprey_parsers_app_proto(ctx, f);
        bool in = (u->app >> a) & 1;
        /* negated: the protocol must be known (detection finished) and another one */
        return u->app_neg ? a != OSPREY_APP_UNKNOWN && !in : in;
    }
    case DU_FLOW: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        struct flow_view v = {
            .has_flow = f != NULL,
            .to_server = det_to_server(side, u->base),
            .established = f && established(f),
            .stream = u->kind != DK_PKT,
            .reassembled = p && (p->flags & MON_PKT_REASSEMBLED),
        };
        return flow_match(u->flow, &v);
    }
    case DU_HDR: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        struct hdr_view h;
        int64_t v;
        if (!p)
            return false;
        hdr_view(p, &h);
        return hdr_field(u->field, &h, &v) && cmp_match(u->cmp, v);
    }
    case DU_TCPFLAGS: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        return p && p->proto == 6 && (p->flags & MON_PKT_HAS_L4) &&
               tcpflags_match(&u->tf, p->tcp_flags);
    }
    case DU_FRAGBITS: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        return p && p->ipver == 4 && p->l3 && p->l3_len >= 20 &&
               fragbits_match(&u->tf, p->l3[6]);
    }
    case DU_IPOPTS: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        if (!p || p->ipver != 4 || !p->l3 || p->l3_len < 20)
            return false;
        uint32_t hlen = (uint32_t)(p->l3[0] & 0x0f) * 4;
        if (hlen > p->l3_len)
            hlen = p->l3_len;
        return hlen > 20 && ipopts_match(u->ipopt, p->l3 + 20, hlen - 20);
    }
    case DU_IPPROTO: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        return p && p->ipver && ipproto_match(&u->ipp, p->proto);
    }
    case DU_SAMEIP: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        return p && p->ipver && !memcmp(p->src.b, p->dst.b, sizeof p->src.b);
    }
    case DU_GEOIP: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        return p && p->ipver && geoip_match(u->geo, u->geodb, p->src.b, p->dst.b, p->ipver);
    }
    case DU_STREAMSIZE: {
        if (!f || f->proto != 6)
            return false;
        /* what each end sent, from its ISN: snd_nxt is past the current packet already */
        const struct mon_tcp_side *c = &f->tcp.side[MON_SIDE_CLI];
        const struct mon_tcp_side *s = &f->tcp.side[MON_SIDE_SVR];
        uint64_t cb = (c->flags & MON_TCPF_ISN_KNOWN) ? (uint32_t)(c->snd_nxt - c->isn) : 0;
        uint64_t sb = (s->flags & MON_TCPF_ISN_KNOWN) ? (uint32_t)(s->snd_nxt - s->isn) : 0;
        return stream_size_match(u->cmp, cb, sb);
    }
    case DU_DNSHDR: {
        struct osprey_dns_info di;
        if (!f || !osprey_parsers_dns_info(ctx, f, &di))
            return false;
        if (u->field == DNS_F_RRTYPE) {
            /* any question's type; in a response, any answer's too (as Suricata 8) */
            for (uint32_t i = 0; i < di.nqueries; i++)
                if (cmp_match(u->cmp, di.queries[i].type))
                    return true;
            for (uint32_t i = 0; di.response && i < di.nanswers; i++)
                if (cmp_match(u->cmp, di.answers[i].type))
                    return true;
            return false;
        }
        return cmp_match(u->cmp, u->field == DNS_F_OPCODE ? (di.flags >> 11) & 0xf : di.rcode);
    }
    case DU_PKTPROP:
        return det_pktprop_match(u->pp, mon_getlastpkt(ctx), f);
    case DU_EVENT:
        return det_event_match(ctx, f, u);
    case DU_DSIZE: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        return p && cmp_match(u->cmp, p->payload_len);
    }
    }
    return false;
}
