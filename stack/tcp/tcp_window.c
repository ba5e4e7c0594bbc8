/* tcp_window.c — sequence numbers to stream offsets, windows, and which RSTs count.
 *
 * All comparisons of sequence numbers go through seq_lt & co (serial number arithmetic), so
 * a connection whose ISN is near 2^32 wraps without anyone noticing. Stream offsets are
 * 64-bit: a stream longer than 4 GiB keeps exact offsets because each conversion is relative
 * to the receiver's rcv_off, which only moves forward.
 */
#include "tcp_internal.h"

int64_t tcp_seq_off(const struct mon_tcp_side *rcv, uint32_t isn, uint32_t seq)
{
    uint32_t ref = tcp_off_seq(isn, rcv->rcv_off);
    return (int64_t)rcv->rcv_off + (int32_t)(seq - ref);
}

uint32_t tcp_rcv_nxt(const struct mon_tcp_side *rcv, const struct mon_tcp_side *snd)
{
    /* the FIN takes a sequence number after the data */
    return tcp_off_seq(snd->isn, rcv->rcv_off) + !!(rcv->flags & MON_TCPF_GOT_FIN);
}

unsigned tcp_wscale(const struct mon_tcp_side *s)
{
    /* Unknown (the SYNs were not seen): assume the largest scale. A window too large lets
     * through what a real receiver might refuse; one too small would lose valid data. */
    return s->wscale == 0xff ? 14u : s->wscale;
}

int64_t tcp_window_end(const struct mon_tcp_side *snd, const struct mon_tcp_side *rcv)
{
    if (!(rcv->flags & MON_TCPF_SEEN))
        return INT64_MAX; /* it never advertised a window: nothing to check against */
    /* The right edge the receiver offered: its last acknowledgment plus its last window. */
    return tcp_seq_off(rcv, snd->isn, snd->snd_una + rcv->rcv_wnd);
}

bool tcp_rst_acceptable(const struct mon_tcp_side *snd, const struct mon_tcp_side *rcv,
                        const struct mon_packet *p)
{
    switch (rcv->state) {
    case MON_TCP_LISTEN:
        return false; /* RFC 793: a listener ignores RSTs */
    case MON_TCP_SYN_SENT:
        /* RFC 793: in SYN-SENT a RST counts only if it acknowledges the SYN (its seq is
         * meaningless: the receiver has no rcv_nxt yet) */
        return (p->tcp_flags & MON_TH_ACK) && p->tcp_ack == rcv->snd_nxt;
    default:
        break;
    }
    uint32_t nxt = tcp_rcv_nxt(rcv, snd);
    /* Exactly where the receiver expects it (RFC 5961's ideal), or where its sender is. */
    if (p->tcp_seq == nxt || p->tcp_seq == snd->snd_nxt)
        return true;
    /* RFC 793: otherwise anywhere in the receive window. We may have missed data (capture
     * loss) so rcv_nxt can lag the receiver's: the window absorbs that. A zero window still
     * accepts the exact sequence number (above); an unknown one is taken as 64 KiB. */
    uint32_t wnd = (rcv->flags & MON_TCPF_SEEN) ? rcv->rcv_wnd : 65535u;
    if (wnd == 0)
        return false;
    return seq_geq(p->tcp_seq, nxt) && seq_lt(p->tcp_seq, nxt + wnd);
}
