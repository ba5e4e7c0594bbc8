/* tcp_sockopt.c — mon_getsockopt / mon_setsockopt on one side of a connection.
 *
 * Values are passed by pointer with their size in bytes; a get writes back the size it
 * used. A buffer too small for MON_SO_FRAGS fails with MON_ERANGE and *len set to the size
 * needed; for fixed-size options it is MON_EINVAL.
 */
#include <string.h>

#include "tcp_internal.h"

#define MAX_BUF_SIZE (1u << 30) /* as the configuration allows */

static int put(void *val, size_t *len, const void *src, size_t n)
{
    if (!val || !len || *len < n)
        return MON_EINVAL;
    memcpy(val, src, n);
    *len = n;
    return MON_OK;
}

int tcp_getsockopt(struct tcp_ctx *t, struct mon_flow *f, int side, enum mon_sockopt opt,
                   void *val, size_t *len)
{
    (void)t;
    if (side != MON_SIDE_CLI && side != MON_SIDE_SVR)
        return MON_EINVAL;
    struct mon_tcp_side *s = &f->tcp.side[side];
    const struct mon_tcp_side *peer = &f->tcp.side[side ^ 1];
    switch (opt) {
    case MON_SO_TCP_STATE: {
        int v = s->state;
        return put(val, len, &v, sizeof v);
    }
    case MON_SO_BUF_INFO: {
        struct mon_buf_info bi = {0};
        if (s->rbuf) {
            reasm_info(s->rbuf, &bi);
        } else {
            bi.head_off = bi.read_off = bi.tail_off = s->rcv_off;
        }
        bi.init_seq = peer->isn; /* the stream this side receives is the peer's */
        return put(val, len, &bi, sizeof bi);
    }
    case MON_SO_FRAGS: {
        if (!len)
            return MON_EINVAL;
        size_t max = val ? *len / sizeof(struct mon_frag) : 0;
        size_t n = s->rbuf ? reasm_frags(s->rbuf, val, max) : 0;
        size_t need = n * sizeof(struct mon_frag);
        if (n > max) {
            *len = need;
            return MON_ERANGE;
        }
        *len = need;
        return MON_OK;
    }
    case MON_SO_BUF_SIZE:
        return put(val, len, &s->buf_size, sizeof s->buf_size);
    case MON_SO_DEPTH:
        return put(val, len, &s->depth, sizeof s->depth);
    case MON_SO_POLICY: {
        int v = s->policy;
        return put(val, len, &v, sizeof v);
    }
    case MON_SO_ERROR: {
        uint32_t v = s->err_bits;
        int rc = put(val, len, &v, sizeof v);
        if (rc == MON_OK)
            s->err_bits = 0; /* fetched: reported once */
        return rc;
    }
    case MON_SO_STOP_MONITOR:
    default:
        return MON_EINVAL;
    }
}

static int get_u32(const void *val, size_t len, uint32_t *out)
{
    if (!val || len != sizeof *out)
        return MON_EINVAL;
    memcpy(out, val, sizeof *out);
    return MON_OK;
}

int tcp_setsockopt(struct tcp_ctx *t, struct mon_flow *f, int side, enum mon_sockopt opt,
                   const void *val, size_t len)
{
    if (side != MON_SIDE_CLI && side != MON_SIDE_SVR)
        return MON_EINVAL;
    struct mon_tcp_side *s = &f->tcp.side[side];
    uint32_t v;
    int rc;
    switch (opt) {
    case MON_SO_BUF_SIZE:
        if ((rc = get_u32(val, len, &v)) != MON_OK)
            return rc;
        if (v > MAX_BUF_SIZE)
            return MON_EINVAL;
        if (v == 0) {
            /* no reassembly from now on; its state is still tracked */
            if (s->rbuf) {
                s->rcv_off = s->rbuf->tail;
                reasm_free(t, s->rbuf);
                s->rbuf = NULL;
            }
        } else if (s->rbuf) {
            /* a larger size is grown into on demand; a smaller one applies now */
            if (v < s->rbuf->size) {
                uint32_t ra;
                if ((rc = reasm_resize(t, s->rbuf, v, &ra)) != MON_OK)
                    return rc; /* MON_ENOMEM: the old buffer stays as it was */
                if (ra & RA_OUTRUN)
                    s->err_bits |= MON_ERR_OUTRUN;
            }
            s->rbuf->max = v;
        }
        s->buf_size = v; /* without a buffer yet: used when its first data comes */
        return MON_OK;
    case MON_SO_DEPTH:
        if ((rc = get_u32(val, len, &v)) != MON_OK)
            return rc;
        s->depth = v;
        if ((s->flags & MON_TCPF_DEPTH) && s->rbuf && (v == 0 || s->rbuf->tail < v)) {
            /* A deeper depth: reassembly resumes where the stream now is. What went by
             * meanwhile was not kept: a gap, unless nothing did. */
            s->flags &= (uint16_t)~MON_TCPF_DEPTH;
            if (s->rcv_off > s->rbuf->tail) {
                reasm_skip_to(t, s->rbuf, s->rcv_off);
                s->err_bits |= MON_ERR_GAP;
            }
        } else if ((s->flags & MON_TCPF_DEPTH) && !s->rbuf && (v == 0 || s->rcv_off < v)) {
            s->flags &= (uint16_t)~MON_TCPF_DEPTH;
        }
        return MON_OK;
    case MON_SO_STOP_MONITOR:
        /* mOS §4.4: no state updates, no events, no reassembly for this side. What it
         * holds can still be read. */
        s->flags |= MON_TCPF_STOPPED;
        return MON_OK;
    case MON_SO_RAW_TRIGGER:
        if (s->rbuf)
            s->rbuf->trigger = true;
        return MON_OK;
    case MON_SO_POLICY: {
        int p;
        if (!val || len != sizeof p)
            return MON_EINVAL;
        memcpy(&p, val, sizeof p);
        if (p < 0 || p >= MON_POLICY__COUNT)
            return MON_EINVAL;
        s->policy = (uint8_t)p;
        return MON_OK;
    }
    default:
        return MON_EINVAL;
    }
}
