/* frames.c — WebSocket frames (RFC 6455 §5) of each direction, after HTTP/1's 101 Switching
 * Protocols handed the flow over (http/stream.c: pflow_upgrade). A frame's header is read
 * across any split (2 to 14 bytes), its payload unmasked as it comes and kept up to
 * max-payload-size (the rest counted and skipped, websocket.skip_end_of_payload). Each frame
 * is one transaction: its direction's frame event runs with it current, then its EVE record.
 *
 * Messages: a text or binary frame without FIN opens a message its continuations add to;
 * control frames (close, ping, pong) may come between them and are frames of their own. The
 * message's last frame carries the whole message as its payload (Suricata 8.0.5's
 * reassembly), bounded by max-payload-size (websocket.reassembly_limit_reached). A message
 * whose first frame has RSV1 is permessage-deflate's (RFC 7692): it is inflated when complete
 * (inflate.c), continuing that direction's window. */
#include <stdlib.h>
#include <string.h>

#include "websocket_int.h"

static struct websocket_state *state_of(struct pflow *pf)
{
    if (!pf->state)
        pf->state = calloc(1, sizeof(struct websocket_state));
    return pf->state;
}

/* The header's size once its first two bytes are in. */
static uint8_t header_size(const uint8_t *h)
{
    uint8_t n = 2, l7 = h[1] & 0x7f;
    n += l7 == 126 ? 2 : l7 == 127 ? 8 : 0;
    return (uint8_t)(n + ((h[1] & 0x80) ? 4 : 0));
}

static void header_done(struct ws_reader *r)
{
    const uint8_t *h = r->hdr;
    uint8_t l7 = h[1] & 0x7f, at = 2;
    if (l7 == 126) {
        r->len = rd_be16(h + 2);
        at = 4;
    } else if (l7 == 127) {
        r->len = ((uint64_t)rd_be32(h + 2) << 32 | rd_be32(h + 6)) & 0x7fffffffffffffffull;
        at = 10;
    } else {
        r->len = l7;
    }
    r->masked = h[1] & 0x80;
    if (r->masked)
        memcpy(r->key, h + at, 4);
    r->got = 0;
    r->shed = false;
    r->in_payload = true;
    pbuf_reset(&r->payload);
}

static void pdu_set(struct ws_pdu *p, const struct ws_reader *r, const uint8_t *d, uint32_t n)
{
    p->set = true;
    p->flags = r->hdr[0] & 0xf0;
    p->opcode = r->hdr[0] & WS_OPCODE_MASK;
    p->masked = r->masked;
    p->mask = r->masked ? rd_be32(r->key) : 0;
    pbuf_reset(&p->payload);
    pbuf_add(&p->payload, d, n, 0); /* (already bounded by max_payload) */
}

/* Add a data frame's payload to its direction's message; true when the frame ends it (the
 * pdu then carries the whole message). */
static bool message_add(struct pflow *pf, struct mon_flow *f, int dir, struct ws_side *s,
                        uint32_t max)
{
    struct ws_reader *r = &s->rd;
    struct ws_message *m = &s->msg;
    uint8_t op = r->hdr[0] & WS_OPCODE_MASK;
    bool fin = r->hdr[0] & WS_FIN;
    if (op != WS_OP_CONTINUATION || !m->open) { /* a new message (a stray continuation too) */
        pbuf_reset(&m->data);
        m->open = true;
        m->cut = false;
        m->opcode = op;
        m->compressed = r->hdr[0] & WS_RSV1;
    }
    if (pbuf_add(&m->data, r->payload.p, r->payload.len, max) != r->payload.len && !m->cut) {
        m->cut = true;
        pflow_anomaly(pf, f, dir, WS_AE_REASSEMBLY_LIMIT_REACHED);
    }
    if (!fin)
        return false;
    m->open = false;
    return true;
}

static void frame_done(struct pflow *pf, struct mon_flow *f, int dir, struct websocket_state *st)
{
    struct ws_side *s = &st->side[dir];
    struct ws_reader *r = &s->rd;
    const struct websocket_cfg *cfg = pflow_cfg(pf);
    uint8_t op = r->hdr[0] & WS_OPCODE_MASK;
    bool data = op < 8; /* opcodes 0-7 are data frames, 8-15 control frames (§5.2) */
    const uint8_t *p = r->payload.p;
    uint32_t n = r->payload.len;
    bool whole = data && message_add(pf, f, dir, s, cfg->max_payload);
    struct ws_message *m = &s->msg;
    if (whole) {
        p = m->data.p, n = m->data.len;
        if (m->compressed) {
            struct pbuf out = {0};
            bool cut = false;
            if (s->z_failed || !ws_inflate(s, p, n, &out, cfg->max_payload, &cut)) {
                pflow_count(pf, WS_C_INFLATE_FAILED, 1);
                pdu_set(&s->pdu, r, p, n); /* as it came */
            } else {
                if (cut)
                    pflow_count(pf, WS_C_INFLATE_SHED, 1);
                pdu_set(&s->pdu, r, out.p, out.len);
            }
            pbuf_free(&out);
        } else {
            pdu_set(&s->pdu, r, p, n);
        }
        pbuf_reset(&m->data);
    } else {
        pdu_set(&s->pdu, r, p, n);
    }
    r->in_payload = false;
    r->hlen = 0;
    st->cur = dir;
    st->frames++;
    pflow_count(pf, WS_C_FRAMES, 1);
    pflow_raise(pf, f, dir, dir == 0 ? WS_EV_FRAME_TO_SERVER : WS_EV_FRAME_TO_CLIENT);
    pflow_tx_done(pf, f);
}

void websocket_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct websocket_state *st = state_of(pf);
    if (!st) {
        pf->dead[dir] = true;
        return;
    }
    struct ws_side *s = &st->side[dir];
    struct ws_reader *r = &s->rd;
    const struct websocket_cfg *cfg = pflow_cfg(pf);
    while (n || (r->in_payload && r->got == r->len)) {
        if (!r->in_payload) {
            /* the header: 2 bytes, then as many as they announce */
            uint8_t want = r->hlen < 2 ? 2 : header_size(r->hdr);
            size_t need = (size_t)(want - r->hlen), k = need < n ? need : n;
            memcpy(r->hdr + r->hlen, d, k);
            r->hlen = (uint8_t)(r->hlen + k);
            d += k, n -= k;
            if (r->hlen < 2 || r->hlen < header_size(r->hdr))
                continue;
            header_done(r);
            continue;
        }
        uint64_t left = r->len - r->got;
        size_t k = left < n ? (size_t)left : n;
        uint32_t room = r->payload.len < cfg->max_payload ? cfg->max_payload - r->payload.len : 0;
        size_t keep = k < room ? k : room;
        if (keep) {
            uint32_t at = r->payload.len;
            if (pbuf_add(&r->payload, d, keep, cfg->max_payload) == keep && r->masked)
                for (size_t i = 0; i < keep; i++)
                    r->payload.p[at + i] ^= r->key[(r->got + i) & 3];
        }
        if (keep < k) {
            if (!r->shed) /* once per frame */
                pflow_anomaly(pf, f, dir, WS_AE_SKIP_END_OF_PAYLOAD);
            r->shed = true;
            pflow_count(pf, WS_C_PAYLOAD_SHED, k - keep);
        }
        r->got += k;
        d += k, n -= k;
        if (r->got == r->len)
            frame_done(pf, f, dir, st);
        if (!pf->state) /* (never freed while parsing; be safe) */
            return;
    }
}

void websocket_free(void *state)
{
    struct websocket_state *st = state;
    if (!st)
        return;
    for (int k = 0; k < 2; k++) {
        struct ws_side *s = &st->side[k];
        pbuf_free(&s->rd.payload);
        pbuf_free(&s->msg.data);
        pbuf_free(&s->pdu.payload);
        ws_inflate_free(s);
    }
    free(st);
}
