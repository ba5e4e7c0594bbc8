/* tcp_rexmit.c — phase 2: does this packet retransmit what its receiver already had?
 *
 * Judged from the receiver's side, before its update (mOS §4.1: a sender-side handler may
 * still drop a malicious retransmission). A packet retransmits when its sequence range meets
 * what the receiver got: its SYN (a SYN again, or a SYN-ACK once the handshake completed
 * at the receiver), its FIN, bytes below where its in-order stream ends, or bytes it holds
 * out of order. Full or partial, it counts once; when bytes we still hold differ from the
 * packet's (the "fake retransmission" of mOS's Abacus example), rexmit_diff counts too.
 * Bytes no longer held cannot be compared.
 */
#include "tcp_internal.h"

struct diff_arg {
    const uint8_t *data;
    uint64_t o;
    bool held, diff;
};

static bool diff_fn(const struct mon_reasm *r, uint64_t a, uint64_t z, void *arg)
{
    struct diff_arg *d = arg;
    d->held = true;
    if (ring_differs(r, a, d->data + (a - d->o), (uint32_t)(z - a)))
        d->diff = true;
    return d->diff; /* one difference is enough */
}

bool tcp_is_rexmit(struct tcp_ctx *t, struct mon_flow *f, int snd, const struct mon_packet *p)
{
    struct mon_tcp_side *S = &f->tcp.side[snd], *R = &f->tcp.side[snd ^ 1];
    if (R->flags & MON_TCPF_STOPPED)
        return false;
    if (tcp_note_is(t, f, p) && t->note.verdict != TCP_PKT_OK)
        return false; /* orphans, invalid packets and ignored RSTs reach no receiver */
    if (!(S->flags & MON_TCPF_ISN_KNOWN))
        return false;
    enum tcp_kind k = tcp_kind_of(p->tcp_flags);
    if (k == TCP_K_RST || k == TCP_K_NONE)
        return false;

    bool rx = false, diff = false;
    if (k == TCP_K_SYN && (R->flags & MON_TCPF_GOT_SYN) && p->tcp_seq == S->isn)
        rx = true; /* the SYN again */
    if (k == TCP_K_SYNACK && (R->flags & MON_TCPF_GOT_SYN) && p->tcp_seq == S->isn &&
        R->state != MON_TCP_SYN_SENT && R->state != MON_TCP_SYN_RCVD)
        rx = true; /* the SYN-ACK again (in a simultaneous open the first one follows a SYN) */
    if (k == TCP_K_FIN && (R->flags & MON_TCPF_GOT_FIN))
        rx = true; /* the FIN again */
    if (p->payload_len) {
        int64_t o = tcp_seq_off(R, S->isn, p->tcp_seq + !!(p->tcp_flags & MON_TH_SYN));
        int64_t e = o + (int64_t)p->payload_len;
        int64_t s = o < 0 ? 0 : o;
        if (s < e) {
            if (s < (int64_t)R->rcv_off)
                rx = true; /* below where its in-order stream ends */
            if (R->rbuf) {
                struct diff_arg d = {.data = p->payload, .o = (uint64_t)o};
                reasm_each_held(R->rbuf, (uint64_t)s, (uint64_t)e, diff_fn, &d);
                rx |= d.held;
                diff = d.diff;
            }
        }
    }
    if (rx) {
        t->stats.rexmit++;
        if (diff) {
            t->stats.rexmit_diff++;
            /* Suricata compares a retransmission with the segment it keeps: the same event
             * as an overlap of held out-of-order bytes */
            t->pkt_events |= 1ull << MON_TE_REASM_OVERLAP_DIFF;
        }
    }
    return rx;
}
