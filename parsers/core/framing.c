/* framing.c — length-prefixed messages over a stream (see framing.h). */
#include "framing.h"

/* the message's bytes counted against ops->max */
static bool over_max(const struct pframe_ops *ops, uint32_t hlen, uint64_t body)
{
    return (ops->max_is_body ? body : hlen + body) > ops->max;
}

void pframe_feed(struct pframe *fr, const struct pframe_ops *ops, struct pflow *pf,
                 struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (fr->lost) {
        if (!ops->resyncs || !ops->resyncs(d, n))
            return; /* not in step yet: this chunk is passed over */
        fr->lost = false;
    }
    uint32_t hlen;
    uint64_t body;
    while (n && !pf->dead[dir]) {
        if (fr->skip) {
            size_t k = fr->skip < n ? (size_t)fr->skip : n;
            fr->skip -= k, d += k, n -= k;
            continue;
        }
        if (fr->buf.len) { /* a message begun earlier: its header first, one byte at a time */
            int r;
            while ((r = ops->header(fr->buf.p, fr->buf.len, &hlen, &body)) == 0 && n) {
                pbuf_add(&fr->buf, d, 1, ops->header_max);
                d++, n--;
            }
            if (r < 0 || (r == 0 && fr->buf.len >= ops->header_max))
                goto bad;
            if (r == 0)
                return;
            if (over_max(ops, hlen, body)) { /* (only its header is kept) */
                fr->skip = body;
                ops->over_long(pf, f, dir, fr->buf.p, hlen, body);
                pbuf_reset(&fr->buf);
                continue;
            }
            uint32_t whole = (uint32_t)(hlen + body);
            size_t want = whole - fr->buf.len;
            size_t k = want < n ? want : n;
            if (pbuf_add(&fr->buf, d, k, whole) != k) { /* out of memory */
                pf->dead[dir] = true;
                return;
            }
            d += k, n -= k;
            if (fr->buf.len < whole)
                return;
            bool ok = ops->message(pf, f, dir, fr->buf.p, hlen, (uint32_t)body);
            pbuf_reset(&fr->buf);
            if (!ok)
                pf->dead[dir] = true;
            continue;
        }
        int r = ops->header(d, n, &hlen, &body);
        if (r < 0)
            goto bad;
        if (r > 0 && over_max(ops, hlen, body)) {
            fr->skip = body;
            ops->over_long(pf, f, dir, d, hlen, body);
            d += hlen, n -= hlen;
            continue;
        }
        if (r == 0) { /* (a header past header_max is found bad with the next bytes) */
            pbuf_add(&fr->buf, d, n, ops->header_max);
            return;
        }
        if (n < hlen + body) { /* keep it for the next segment (bounded) */
            if (pbuf_add(&fr->buf, d, n, (uint32_t)(hlen + body)) != n)
                pf->dead[dir] = true;
            return;
        }
        if (!ops->message(pf, f, dir, d, hlen, (uint32_t)body)) {
            pf->dead[dir] = true;
            return;
        }
        d += hlen + body, n -= hlen + body;
    }
    return;
bad:
    ops->bad(pf, f, dir);
    pf->dead[dir] = true;
}

void pframe_free(struct pframe *fr)
{
    pbuf_free(&fr->buf);
    fr->skip = 0;
}

void pframe_gap(struct pframe *fr)
{
    pframe_free(fr);
    fr->lost = true;
}
