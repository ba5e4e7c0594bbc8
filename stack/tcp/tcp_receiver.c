/* tcp_receiver.c — phase 3: what receiving this packet does to its receiver.
 *
 * In this order: the acknowledgment or SYN it carries (table RCV rows: ACK only when it
 * covers everything the receiver sent), its data (window check, reassembly), then its FIN —
 * so data riding on a FIN is in the stream before the receiver closes. Then, when the
 * connection is over, the holes left in this receiver's stream are skipped so that the bytes
 * held after them are readable before CONN_END.
 *
 * Holes are given up (GAP) when the receiver acknowledged past them — it has bytes we never
 * saw, nobody will send them again — when out-of-order data cannot be held with them, and
 * when the connection ends.
 */
#include "tcp_internal.h"

/* The host received what it acknowledged; we have waited for those bytes in vain. */
static uint32_t acked_gap(struct tcp_ctx *t, struct mon_tcp_side *S, struct mon_tcp_side *R)
{
    int64_t ack_off = tcp_seq_off(R, S->isn, S->snd_una);
    if ((S->flags & MON_TCPF_FIN_SENT) && seq_geq(S->snd_una, S->snd_nxt))
        ack_off--; /* the acknowledged FIN is not a byte */
    if (ack_off <= (int64_t)R->rcv_off)
        return 0;
    if (!R->rbuf || (R->flags & MON_TCPF_DEPTH)) {
        R->rcv_off = (uint64_t)ack_off; /* not reassembling: just where its stream stands */
        if (!R->rbuf && R->buf_size && !(R->flags & (MON_TCPF_DEPTH | MON_TCPF_NOMEM))) {
            /* reassembly wanted, but the bytes went by before any reached us */
            t->stats.gaps++;
            t->pkt_events |= 1ull << MON_TE_REASM_GAP;
            return RA_GAP;
        }
        return 0;
    }
    uint64_t upto = (uint64_t)ack_off;
    if (R->depth && upto > R->depth)
        upto = R->depth > R->rbuf->tail ? R->depth : R->rbuf->tail;
    uint32_t ra = reasm_skip_to(t, R->rbuf, upto);
    R->rcv_off = R->rbuf->tail;
    return ra;
}

static uint32_t ra_events(struct mon_tcp_side *R, uint32_t ra)
{
    uint32_t ev = 0;
    /* under ack delivery new in-order bytes are announced when released (release()) */
    if ((ra & RA_NEW_DATA) && !(R->rbuf && R->rbuf->on_ack))
        ev |= TCP_EV(MON_ON_CONN_NEW_DATA);
    if (ra & RA_OUTRUN)
        R->err_bits |= MON_ERR_OUTRUN;
    if (ra & RA_GAP)
        R->err_bits |= MON_ERR_GAP;
    if (ra & RA_NOMEM)
        R->err_bits |= MON_ERR_MEMCAP;
    if (ra & (RA_OUTRUN | RA_GAP | RA_NOMEM))
        ev |= TCP_EV(MON_ON_ERROR);
    return ev;
}

/* Its depth reached: raise DEPTH once and stop reassembling (state tracking goes on). */
static uint32_t check_depth(struct tcp_ctx *t, struct mon_tcp_side *R)
{
    if (!R->rbuf || !R->depth || (R->flags & MON_TCPF_DEPTH) || R->rbuf->tail < R->depth)
        return 0;
    R->flags |= MON_TCPF_DEPTH;
    t->stats.depth_reached++;
    t->pkt_events |= 1ull << MON_TE_REASM_DEPTH;
    return TCP_EV(MON_ON_DEPTH);
}

/* Ack delivery: R's in-order bytes up to upto become readable; with announce, CONN_NEW_DATA
 * when readable bytes were not announced yet. */
static uint32_t release_to(struct mon_tcp_side *R, uint64_t upto, bool announce)
{
    struct mon_reasm *r = R->rbuf;
    if (!r || !r->on_ack)
        return 0;
    if (upto > r->tail)
        upto = r->tail;
    if (upto > r->ready)
        r->ready = upto;
    uint64_t lim = reasm_lim(r);
    if (!announce || lim <= r->said)
        return 0;
    r->said = lim;
    return TCP_EV(MON_ON_CONN_NEW_DATA);
}

/* Ack delivery: the stream offset up to which R acknowledged S's bytes (S->snd_una, from
 * R's packets), or -1 when R never sent. */
static int64_t acked_off(const struct mon_tcp_side *S, const struct mon_tcp_side *R)
{
    if (!(R->flags & MON_TCPF_SEEN))
        return -1;
    int64_t ack_off = tcp_seq_off(R, S->isn, S->snd_una);
    if ((S->flags & MON_TCPF_FIN_SENT) && seq_geq(S->snd_una, S->snd_nxt))
        ack_off--; /* the acknowledged FIN is not a byte */
    return ack_off;
}

/* An endpoint whose close is done (TIME_WAIT, or CLOSED after its FIN was acknowledged):
 * Suricata's session is then past its TIME_WAIT, and it inspects raw streams whatever the
 * chunk size. */
static bool close_done(const struct mon_tcp_side *x)
{
    return x->state == MON_TCP_TIME_WAIT ||
           (x->state == MON_TCP_CLOSED && (x->flags & MON_TCPF_FIN_SENT));
}

/* Ack delivery, at a packet S sends: R's bytes that R acknowledged (its packets came before
 * this one) are announced now, as Suricata's IDS mode inspects a direction's data up to the
 * last ACK with the packets of that direction — in chunks: once cfg.ack_chunk bytes wait
 * (Suricata's toserver/toclient-chunk-size), or when an application asked for them
 * (MON_SO_RAW_TRIGGER: Suricata's parsers trigger raw reassembly at a message's end), or the
 * side reached its depth, or an endpoint's close is done; the connection's and the flow's end
 * announce the rest. A side that
 * never sends (an async one-sided capture) acknowledges nothing we see: its bytes go on
 * arrival. */
static uint32_t release_acked(const struct tcp_ctx *t, const struct mon_tcp_side *S,
                              struct mon_tcp_side *R, int rcv)
{
    struct mon_reasm *r = R->rbuf;
    if (!r || !r->on_ack)
        return 0;
    if (!(R->flags & MON_TCPF_SEEN) && t->cfg.async_oneside)
        return release_to(R, r->tail, true);
    int64_t ack_off = acked_off(S, R);
    uint32_t chunk = t->cfg.ack_chunk[rcv == MON_SIDE_SVR ? 0 : 1];
    bool now = r->trigger || (R->flags & MON_TCPF_DEPTH) || !chunk || close_done(S) ||
               close_done(R);
    uint32_t ev = release_to(R, ack_off > 0 ? (uint64_t)ack_off : 0, false);
    if (now || reasm_lim(r) >= r->said + chunk) {
        r->trigger = false;
        ev |= release_to(R, r->ready, true);
    }
    return ev;
}

void tcp_ack_ready(struct tcp_ctx *t, struct mon_flow *f, int snd)
{
    (void)t;
    struct mon_tcp_side *R = &f->tcp.side[snd], *S = &f->tcp.side[snd ^ 1];
    if (!R->rbuf || !R->rbuf->on_ack || (R->flags & MON_TCPF_STOPPED))
        return;
    int64_t ack_off = acked_off(S, R);
    if (ack_off > 0)
        release_to(R, (uint64_t)ack_off, false);
}

/* The buffer of a side that receives data, allocated on its first data. */
static uint32_t get_buffer(struct tcp_ctx *t, struct mon_tcp_side *R)
{
    if (R->rbuf)
        return 0;
    R->rbuf = reasm_new(t, R->buf_size, R->rcv_off);
    if (!R->rbuf) {
        if (R->flags & MON_TCPF_NOMEM)
            return 0; /* reported already; tried again at each data packet */
        R->flags |= MON_TCPF_NOMEM;
        t->stats.memcap_hits++;
        R->err_bits |= MON_ERR_MEMCAP;
        return TCP_EV(MON_ON_ERROR);
    }
    if ((R->flags & MON_TCPF_NOMEM) && R->rcv_off) {
        /* The buffer comes late: the bytes before it went unseen for good. */
        R->flags &= (uint16_t)~MON_TCPF_NOMEM;
        t->stats.gaps++;
        t->pkt_events |= 1ull << MON_TE_REASM_GAP;
        R->err_bits |= MON_ERR_GAP;
        return TCP_EV(MON_ON_ERROR);
    }
    R->flags &= (uint16_t)~MON_TCPF_NOMEM;
    return 0;
}

/* The packet's data into R's stream. *fin_ok: its FIN is inside R's window; *oow: the
 * packet was counted out of window. */
/* Bytes [data, data+len) at sequence seq into R's stream, within its window and depth. */
static uint32_t take_bytes(struct tcp_ctx *t, struct mon_tcp_side *S, struct mon_tcp_side *R,
                           uint32_t seq, const uint8_t *data, uint32_t len, bool *oow)
{
    uint32_t ev = 0;
    int64_t o = tcp_seq_off(R, S->isn, seq);
    int64_t edge = tcp_window_end(S, R);
    if (!len)
        return 0;
    int64_t e = o + (int64_t)len;
    if (e > edge) { /* beyond the window R offered: R drops it, so do we */
        if (!*oow)
            t->stats.out_of_window++;
        *oow = true;
        e = edge > o ? edge : o;
    }
    int64_t s = o < 0 ? 0 : o; /* nothing before the stream's first byte */
    if (s >= e)
        return 0;

    bool reasm = R->buf_size && !(R->flags & MON_TCPF_DEPTH);
    if (reasm)
        ev |= get_buffer(t, R);
    if (!reasm || !R->rbuf) {
        /* no reassembly: only where its in-order stream ends */
        if ((uint64_t)s <= R->rcv_off && (uint64_t)e > R->rcv_off)
            R->rcv_off = (uint64_t)e;
        return ev;
    }
    uint64_t ue = (uint64_t)e;
    if (R->depth && ue > R->depth)
        ue = R->depth; /* bytes past the depth are never reassembled */
    if ((uint64_t)s < ue) {
        struct reasm_seg y = {.o = (uint64_t)s, .len = (uint32_t)((int64_t)len - (s - o)),
                              .data = data + (s - o)};
        ev |= ra_events(R, reasm_insert(t, R->rbuf, (enum mon_overlap_policy)R->policy, &y,
                                        (uint64_t)s, ue, t->cfg.max_frags));
        R->rcv_off = R->rbuf->tail;
    }
    /* bytes past the depth, right after it: received, just not kept */
    if (ue < (uint64_t)e && R->rcv_off >= ue && (uint64_t)s <= R->rcv_off)
        R->rcv_off = (uint64_t)e;
    return ev;
}

/* The packet's payload into R's stream. With an urgent pointer inside it and a policy other
 * than inline, the last urgent byte (seq + pointer - 1) is left out: OOB joins the bytes
 * around it — the sender's stream offsets move down one from there on, which moving its ISN
 * up one does for every later conversion — and GAP leaves a hole. */
static uint32_t take_data(struct tcp_ctx *t, struct mon_tcp_side *S, struct mon_tcp_side *R,
                          const struct mon_packet *p, bool *fin_ok, bool *oow)
{
    uint32_t len = p->payload_len, seq = p->tcp_seq + !!(p->tcp_flags & MON_TH_SYN);
    /* the FIN takes the sequence number after the data; a zero window still takes it at
     * the edge (stacks accept a FIN there) */
    *fin_ok = tcp_seq_off(R, S->isn, seq) + (int64_t)len <= tcp_window_end(S, R);
    *oow = false;
    uint32_t urg = p->tcp_urp;
    if (t->cfg.urgent_policy == MON_URG_INLINE || !(p->tcp_flags & MON_TH_URG) || urg == 0 ||
        urg > len)
        return take_bytes(t, S, R, seq, p->payload, len, oow);
    uint32_t ev = take_bytes(t, S, R, seq, p->payload, urg - 1, oow);
    if (t->cfg.urgent_policy == MON_URG_OOB)
        S->isn++;
    return ev | take_bytes(t, S, R, seq + urg, p->payload + urg, len - urg, oow);
}

/* Without phase 1's note (the sender is stopped): judge the packet here. */
static enum tcp_verdict judge(struct tcp_ctx *t, struct mon_flow *f, int snd,
                              const struct mon_packet *p)
{
    struct mon_tcp_side *S = &f->tcp.side[snd], *R = &f->tcp.side[snd ^ 1];
    if (!(R->flags & MON_TCPF_LIVE) ||
        ((R->flags & MON_TCPF_ENDED) && !tcp_after_end_ok(f, snd, p)))
        return TCP_PKT_ORPHAN;
    if (!(S->flags & MON_TCPF_ISN_KNOWN))
        tcp_infer_isn(S, p);
    if (tcp_kind_of(p->tcp_flags) == TCP_K_RST && !tcp_rst_acceptable(S, R, p)) {
        t->stats.rst_out_of_window++;
        return TCP_PKT_RST_IGNORED;
    }
    return TCP_PKT_OK;
}

/* Apply a table entry to R; false when it is invalid (counted). */
static bool apply(struct tcp_ctx *t, struct mon_tcp_side *R, uint8_t nx)
{
    if (nx == TCP_S_ASYNC)
        nx = t->cfg.async_oneside ? MON_TCP_ESTABLISHED : TCP_S_INV;
    if (nx == TCP_S_INV) {
        t->stats.invalid_state++;
        return false;
    }
    if (nx < MON_TCP__STATE_COUNT)
        R->state = nx;
    return true;
}

uint32_t tcp_conn_flush(struct tcp_ctx *t, struct mon_flow *f, int side)
{
    struct mon_tcp_side *R = &f->tcp.side[side];
    if (!R->rbuf || (R->flags & MON_TCPF_STOPPED))
        return 0;
    uint32_t ev = 0;
    if (!(R->flags & (MON_TCPF_DEPTH | MON_TCPF_ENDED))) {
        ev = ra_events(R, reasm_flush(t, R->rbuf));
        R->rcv_off = R->rbuf->tail;
    }
    return ev | release_to(R, R->rbuf->tail, true);
}

uint32_t tcp_conn_release(struct tcp_ctx *t, struct mon_flow *f, int side)
{
    struct mon_tcp_side *R = &f->tcp.side[side];
    if (!R->rbuf || !R->rbuf->on_ack || (R->flags & MON_TCPF_STOPPED))
        return 0;
    uint32_t ev = 0;
    if (!(R->flags & MON_TCPF_DEPTH)) {
        /* what it held after its holes is inspected too, but the holes are no gap: these
         * bytes were never acknowledged, nothing says they were lost (Suricata counts no
         * reassembly gap for them) */
        uint64_t gaps = t->stats.gaps;
        uint64_t pkt_events = t->pkt_events;
        uint32_t ra = reasm_flush(t, R->rbuf);
        t->stats.gaps = gaps;
        t->pkt_events = pkt_events;
        R->rcv_off = R->rbuf->tail;
        ev = ra_events(R, ra & ~(uint32_t)RA_GAP);
    }
    return ev | release_to(R, R->rbuf->tail, true);
}

uint32_t tcp_receiver_update(struct tcp_ctx *t, struct mon_flow *f, int snd, const struct mon_packet *p)
{
    struct mon_tcp_side *S = &f->tcp.side[snd], *R = &f->tcp.side[snd ^ 1];
    if (R->flags & MON_TCPF_STOPPED)
        return 0;
    enum tcp_verdict v = tcp_note_is(t, f, p) ? (enum tcp_verdict)t->note.verdict
                                              : judge(t, f, snd, p);
    t->note.f = NULL; /* used up */
    if (v != TCP_PKT_OK)
        return 0;

    const uint8_t old = R->state;
    uint32_t ev = 0;
    if (R->flags & MON_TCPF_PICKUP) {
        R->state = MON_TCP_ESTABLISHED;
        R->flags &= (uint16_t)~MON_TCPF_PICKUP;
    }
    enum tcp_kind k = tcp_kind_of(p->tcp_flags);
    if (k == TCP_K_RST) {
        apply(t, R, tcp_next_state(TCP_DIR_RCV, k, R->state));
        R->flags |= MON_TCPF_RESET;
        S->flags |= MON_TCPF_RESET;
        goto out;
    }

    /* 1. its SYN, or the acknowledgment of everything R sent */
    uint8_t nx = TCP_S_SAME;
    if (k == TCP_K_SYN) {
        nx = tcp_next_state(TCP_DIR_RCV, k, R->state);
    } else if (k == TCP_K_SYNACK) {
        nx = tcp_next_state(TCP_DIR_RCV, k, R->state);
        /* a SYN-ACK moves R only if it acknowledges R's SYN (and no more than R sent: data
         * on the SYN may or may not be acknowledged) */
        if (nx < MON_TCP__STATE_COUNT && nx != R->state &&
            !(seq_gt(p->tcp_ack, R->isn) && seq_leq(p->tcp_ack, R->snd_nxt)))
            nx = TCP_S_INV;
    } else if (k == TCP_K_ACK || k == TCP_K_FIN) {
        if ((R->flags & MON_TCPF_ISN_KNOWN) && seq_geq(p->tcp_ack, R->snd_nxt))
            nx = tcp_next_state(TCP_DIR_RCV, TCP_K_ACK, R->state);
    } else {
        nx = TCP_S_INV;
    }
    if (!apply(t, R, nx))
        goto out;
    if (k == TCP_K_SYN || k == TCP_K_SYNACK)
        R->flags |= MON_TCPF_GOT_SYN;

    /* 2. its data, then what R acknowledged beyond what we saw */
    bool fin_ok = true, oow = false;
    ev |= take_data(t, S, R, p, &fin_ok, &oow);
    ev |= ra_events(R, acked_gap(t, S, R));
    ev |= check_depth(t, R);
    ev |= release_acked(t, S, R, snd ^ 1);

    /* 3. its FIN */
    if (k == TCP_K_FIN) {
        if (!fin_ok) {
            if (!oow)
                t->stats.out_of_window++; /* R drops a FIN beyond its window */
        } else if (apply(t, R, tcp_next_state(TCP_DIR_RCV, TCP_K_FIN, R->state))) {
            R->flags |= MON_TCPF_GOT_FIN;
        }
    }
out:
    if (R->state == old)
        return ev;
    ev |= TCP_EV(MON_ON_TCP_STATE_CHANGE);
    if (!(R->flags & MON_TCPF_ENDED) && tcp_conn_done(f)) {
        S->flags |= MON_TCPF_ENDED;
        R->flags |= MON_TCPF_ENDED;
        /* the stream is over: what is held after its holes becomes readable */
        if (R->rbuf && !(R->flags & MON_TCPF_DEPTH)) {
            ev |= ra_events(R, reasm_flush(t, R->rbuf));
            R->rcv_off = R->rbuf->tail;
        }
        if (R->rbuf) /* ack delivery: what was never acknowledged is inspected all the same */
            ev |= release_to(R, R->rbuf->tail, true);
        ev |= TCP_EV(MON_ON_CONN_END);
    }
    return ev;
}
