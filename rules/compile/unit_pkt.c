/* unit_pkt.c — the units of packet and flow properties: flow, dsize, the header fields (ttl,
 * itype, seq …), flags, fragbits, ipopts, ip_proto, sameip, geoip, stream_size. Each type's
 * evaluation beside its interning key (what the evaluation reads) and its ops. */
#include <string.h>

#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"

static void key_cmp(struct buf *k, const struct opt_cmp *cm)
{
    buf_put(k, &cm->op, sizeof cm->op);
    buf_put(k, &cm->lo, sizeof cm->lo);
    buf_put(k, &cm->hi, sizeof cm->hi);
}

/* ---- flow ---- */

/* A side is past the handshake in ESTABLISHED and every state after it, CLOSED too when it
 * got there by the FIN exchange (Suricata's states after ESTABLISHED, its CLOSED included,
 * all count as established: what the connection's end flushes is inspected so). */
static bool side_established(const struct mon_tcp_side *t)
{
    return t->state >= MON_TCP_ESTABLISHED ||
           (t->state == MON_TCP_CLOSED && (t->flags & (MON_TCPF_FIN_SENT | MON_TCPF_GOT_FIN)));
}

/* A TCP connection is established for a packet when both sides were before it came: the
 * handshake's ACK finds the server still in SYN_RCVD and is not (Suricata gives the state the
 * packet finds). */
static bool established(const struct mon_flow *f)
{
    if (f->proto != 6)
        return f->state == MON_FLOW_ESTABLISHED;
    return side_established(&f->tcp.side[MON_SIDE_CLI]) &&
           side_established(&f->tcp.side[MON_SIDE_SVR]);
}

/* Bytes of a connection delivered at its end or after it (a close, a RST, the flow's end:
 * under ack delivery the last ones of a side come then) were sent while it was established;
 * so are a flow-end packet's. Suricata's CLOSED state counts as established (it is past
 * ESTABLISHED in its order) for them. */
static bool side_done(const struct mon_tcp_side *s)
{
    return s->state >= MON_TCP_ESTABLISHED ||
           (s->state == MON_TCP_CLOSED && (s->flags & MON_TCPF_ENDED) &&
            (s->flags & (MON_TCPF_GOT_SYN | MON_TCPF_MIDSTREAM)));
}

static bool established_for(const struct mon_flow *f, const struct det_unit *u,
                            const struct mon_packet *p)
{
    if (established(f))
        return true;
    if (f->proto != 6 || (u->kind == DK_PKT && !(p && (p->flags & MON_PKT_PSEUDO))))
        return false;
    return side_done(&f->tcp.side[MON_SIDE_CLI]) && side_done(&f->tcp.side[MON_SIDE_SVR]);
}

static bool flow_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                      int side)
{
    const struct mon_packet *p = mon_getlastpkt(ctx);
    struct flow_view v = {
        .has_flow = f != NULL,
        .to_server = det_to_server(side, u->base),
        .established = f && established_for(f, u, p),
        .stream = u->kind != DK_PKT,
        .reassembled = p && (p->flags & MON_PKT_REASSEMBLED),
    };
    return flow_match(u->flow, &v);
}

static void flow_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->flow->flags, sizeof u->flow->flags);
}

const struct det_unit_ops det_unit_flow = {
    .name = "flow", .eval = flow_eval, .key = flow_key, .gate_safe = true};

/* ---- the flow_start rule hook (`tcp:flow_start`) ---- */

/* Suricata 8's packet hook flow_start: the first packet of the flow in its direction. */
static bool flow_start_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                            int side)
{
    (void)ctx;
    return f && f->pkts[det_to_server(side, u->base) ? MON_FLOW_TO_SERVER
                                                      : MON_FLOW_TO_CLIENT] == 1;
}

static void flow_start_key(struct buf *k, const struct det_unit *u)
{
    (void)k, (void)u; /* no field: every flow_start unit is the same */
}

const struct det_unit_ops det_unit_flow_start = {
    .name = "flow_start", .eval = flow_start_eval, .key = flow_start_key,
    .packet_only = true};

/* ---- dsize ---- */

static bool dsize_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                       int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    return p && cmp_match(u->cmp, p->payload_len);
}

static void dsize_key(struct buf *k, const struct det_unit *u)
{
    key_cmp(k, u->cmp);
}

const struct det_unit_ops det_unit_dsize = {
    .name = "dsize", .eval = dsize_eval, .key = dsize_key, .packet_only = true};

/* ---- header fields: itype, icode, ttl, tos, id, icmp_id, icmp_seq, seq, ack, window,
 * fragoffset ---- */

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

static bool hdr_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                     int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    struct hdr_view h;
    int64_t v;
    if (!p)
        return false;
    hdr_view(p, &h);
    return hdr_field(u->field, &h, &v) && cmp_match(u->cmp, v);
}

static void hdr_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->field, sizeof u->field);
    key_cmp(k, u->cmp);
}

const struct det_unit_ops det_unit_hdr = {
    .name = "header field", .eval = hdr_eval, .key = hdr_key, .packet_only = true};

/* ---- flags, fragbits, ipopts ---- */

static void tf_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->tf, sizeof u->tf);
}

static bool tcpflags_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                          int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    return p && p->proto == 6 && (p->flags & MON_PKT_HAS_L4) &&
           tcpflags_match(&u->tf, p->tcp_flags);
}

const struct det_unit_ops det_unit_tcpflags = {
    .name = "flags", .eval = tcpflags_eval, .key = tf_key, .packet_only = true};

static bool fragbits_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                          int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    return p && p->ipver == 4 && p->l3 && p->l3_len >= 20 && fragbits_match(&u->tf, p->l3[6]);
}

const struct det_unit_ops det_unit_fragbits = {
    .name = "fragbits", .eval = fragbits_eval, .key = tf_key, .packet_only = true};

static bool ipopts_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                        int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (!p || p->ipver != 4 || !p->l3 || p->l3_len < 20)
        return false;
    uint32_t hlen = (uint32_t)(p->l3[0] & 0x0f) * 4;
    if (hlen > p->l3_len)
        hlen = p->l3_len;
    return hlen > 20 && ipopts_match(u->ipopt, p->l3 + 20, hlen - 20);
}

static void ipopts_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->ipopt, sizeof u->ipopt);
}

const struct det_unit_ops det_unit_ipopts = {
    .name = "ipopts", .eval = ipopts_eval, .key = ipopts_key, .packet_only = true};

/* ---- ip_proto, sameip, geoip ---- */

static bool ipproto_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                         int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    return p && p->ipver && ipproto_match(&u->ipp, p->proto);
}

static void ipproto_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->ipp, sizeof u->ipp);
}

const struct det_unit_ops det_unit_ipproto = {
    .name = "ip_proto", .eval = ipproto_eval, .key = ipproto_key, .packet_only = true};

static bool sameip_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                        int side)
{
    (void)u, (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    return p && p->ipver && !memcmp(p->src.b, p->dst.b, sizeof p->src.b);
}

static void no_key(struct buf *k, const struct det_unit *u)
{
    (void)k, (void)u; /* sameip has no argument */
}

const struct det_unit_ops det_unit_sameip = {
    .name = "sameip", .eval = sameip_eval, .key = no_key, .packet_only = true};

static bool geoip_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                       int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    return p && p->ipver && geoip_match(u->geo, u->geodb, p->src.b, p->dst.b, p->ipver);
}

static void geoip_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, u->geo, sizeof *u->geo); /* (one database per detect object) */
}

const struct det_unit_ops det_unit_geoip = {
    .name = "geoip", .eval = geoip_eval, .key = geoip_key, .gate_safe = true};

/* ---- stream_size ---- */

static bool streamsize_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                            int side)
{
    (void)ctx, (void)side;
    if (!f || f->proto != 6)
        return false;
    /* what each end sent, from its ISN: snd_nxt is past the current packet already */
    const struct mon_tcp_side *c = &f->tcp.side[MON_SIDE_CLI];
    const struct mon_tcp_side *s = &f->tcp.side[MON_SIDE_SVR];
    uint64_t cb = (c->flags & MON_TCPF_ISN_KNOWN) ? (uint32_t)(c->snd_nxt - c->isn) : 0;
    uint64_t sb = (s->flags & MON_TCPF_ISN_KNOWN) ? (uint32_t)(s->snd_nxt - s->isn) : 0;
    return stream_size_match(u->cmp, cb, sb);
}

static void streamsize_key(struct buf *k, const struct det_unit *u)
{
    /* (stream_size_compile_check refuses ranges: hi is never read) */
    buf_put(k, &u->cmp->flags, sizeof u->cmp->flags);
    buf_put(k, &u->cmp->op, sizeof u->cmp->op);
    buf_put(k, &u->cmp->lo, sizeof u->cmp->lo);
}

const struct det_unit_ops det_unit_streamsize = {
    .name = "stream_size", .eval = streamsize_eval, .key = streamsize_key,
    .gate_safe = true};
