/* tcp_conn.c — a connection's birth and end, the per-context setup, and the note that
 * carries phase 1's verdict on a packet to phases 2 and 3.
 *
 * A connection starts on a SYN (without ACK), or — with cfg.midstream — on any first packet
 * but a RST or an invalid one (with cfg.async_oneside: on a SYN-ACK too): its sender and receiver are then picked up as ESTABLISHED at
 * their next update (so each reports the change in its own phase, like any transition), with
 * ISNs inferred from the packet's seq (the sender's next byte is offset 0) and ack.
 * It ends once: when every endpoint still monitored is CLOSED or TIME_WAIT — after a close
 * or an acceptable RST. After that only a retransmitted FIN or the final ACK belong to it;
 * anything else is an ORPHAN.
 */
#include <string.h>

#include "tcp_internal.h"

void mon_tcp_cfg_defaults(struct mon_tcp_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->buf_size = 65536;
    cfg->depth = 1u << 20;
    cfg->memcap = 256ull << 20;
    cfg->midstream = false;
    cfg->async_oneside = false;
    cfg->one_sided_pkts = 10;
    cfg->max_frags = 1024;
    cfg->policy.dflt = MON_POLICY_BSD;
    cfg->policy.n = 0;
    cfg->policy.entries = NULL;
}

void tcp_ctx_init(struct tcp_ctx *t, const struct mon_tcp_cfg *cfg)
{
    memset(t, 0, sizeof *t);
    t->cfg = *cfg; /* the policy table it points to belongs to the engine, immutable */
}

_Static_assert(sizeof(struct mon_tcp_side) <= 48, "struct mon_tcp_side must stay within 48 bytes");

void tcp_infer_isn(struct mon_tcp_side *s, const struct mon_packet *p)
{
    /* A SYN's seq is the ISN; otherwise the packet's first byte is taken as offset 0. */
    s->isn = (p->tcp_flags & MON_TH_SYN) ? p->tcp_seq : p->tcp_seq - 1u;
    s->snd_nxt = s->isn + 1u;
    s->snd_una = s->isn + 1u;
    s->flags |= MON_TCPF_ISN_KNOWN;
}

uint32_t tcp_conn_init(struct tcp_ctx *t, struct mon_flow *f, int dir, const struct mon_packet *p)
{
    memset(&f->tcp, 0, sizeof f->tcp);
    for (int i = 0; i < 2; i++) {
        struct mon_tcp_side *s = &f->tcp.side[i];
        s->buf_size = t->cfg.buf_size;
        s->depth = t->cfg.depth;
        s->wscale = 0xff;
        /* the policy of a stream is that of the host RECEIVING it */
        s->policy = (uint8_t)mon_policy_lookup(&t->cfg.policy, f->ipver,
                                               i == MON_SIDE_CLI ? &f->cli : &f->srv);
        s->state = i == MON_SIDE_CLI ? MON_TCP_CLOSED : MON_TCP_LISTEN;
    }
    int snd = dir == MON_FLOW_TO_SERVER ? MON_SIDE_CLI : MON_SIDE_SVR;
    struct mon_tcp_side *S = &f->tcp.side[snd], *R = &f->tcp.side[snd ^ 1];
    enum tcp_kind k = tcp_kind_of(p->tcp_flags);

    if (k == TCP_K_SYN) {
        S->flags |= MON_TCPF_LIVE;
        R->flags |= MON_TCPF_LIVE;
        t->stats.sessions++;
        return TCP_EV(MON_ON_CONN_START);
    }
    /* A RST would only end what it starts; a packet no stack accepts starts nothing. With
     * async_oneside a SYN-ACK starts one too (its sender is the server; Suricata picks such
     * a session up when it sees one direction only). */
    if ((t->cfg.midstream && k != TCP_K_RST && k != TCP_K_NONE) ||
        (t->cfg.async_oneside && k == TCP_K_SYNACK)) {
        S->flags |= MON_TCPF_LIVE | MON_TCPF_PICKUP | MON_TCPF_MIDSTREAM;
        R->flags |= MON_TCPF_LIVE | MON_TCPF_PICKUP | MON_TCPF_MIDSTREAM;
        tcp_infer_isn(S, p);
        if (p->tcp_flags & MON_TH_ACK) {
            R->isn = p->tcp_ack - 1u;
            R->snd_nxt = p->tcp_ack;
            R->snd_una = p->tcp_ack;
            R->flags |= MON_TCPF_ISN_KNOWN;
        }
        t->stats.sessions++;
        t->stats.midstream++;
        return TCP_EV(MON_ON_CONN_START);
    }
    t->stats.orphans++;
    return TCP_EV(MON_ON_ORPHAN);
}

void tcp_conn_free(struct tcp_ctx *t, struct mon_flow *f)
{
    for (int i = 0; i < 2; i++) {
        struct mon_tcp_side *s = &f->tcp.side[i];
        if (s->rbuf) {
            reasm_free(t, s->rbuf);
            s->rbuf = NULL;
        }
    }
}

bool tcp_conn_done(const struct mon_flow *f)
{
    int watched = 0;
    for (int i = 0; i < 2; i++) {
        const struct mon_tcp_side *s = &f->tcp.side[i];
        if (s->flags & MON_TCPF_STOPPED)
            continue; /* a side nobody monitors any more cannot hold the connection open */
        watched++;
        if (s->state != MON_TCP_CLOSED && s->state != MON_TCP_TIME_WAIT)
            return false;
    }
    return watched > 0;
}

bool tcp_after_end_ok(const struct mon_flow *f, int snd, const struct mon_packet *p)
{
    const struct mon_tcp_side *S = &f->tcp.side[snd];
    if (S->flags & MON_TCPF_RESET)
        return false; /* nothing follows a reset */
    enum tcp_kind k = tcp_kind_of(p->tcp_flags);
    /* a FIN again, carrying nothing beyond the FIN we saw */
    if (k == TCP_K_FIN && (S->flags & MON_TCPF_FIN_SENT) &&
        seq_leq(p->tcp_seq + p->payload_len + 1u, S->snd_nxt))
        return true;
    /* the final ACK (or its repeat): from the endpoint waiting in TIME_WAIT, or from one we
     * saw close when FINs crossed (it was really in TIME_WAIT too) */
    if (k == TCP_K_ACK && p->payload_len == 0 &&
        (S->state == MON_TCP_TIME_WAIT || S->state == MON_TCP_CLOSED))
        return true;
    return false;
}

void tcp_note_set(struct tcp_ctx *t, const struct mon_flow *f, const struct mon_packet *p,
                  enum tcp_verdict v)
{
    t->note = (struct tcp_note){.f = f, .p = p, .seq = p->tcp_seq, .ack = p->tcp_ack,
                                .len = p->payload_len, .tcp_flags = p->tcp_flags,
                                .verdict = (uint8_t)v};
}

bool tcp_note_is(const struct tcp_ctx *t, const struct mon_flow *f, const struct mon_packet *p)
{
    const struct tcp_note *n = &t->note;
    return n->f == f && n->p == p && n->seq == p->tcp_seq && n->ack == p->tcp_ack &&
           n->len == p->payload_len && n->tcp_flags == p->tcp_flags;
}
