/* pdu.c — connection-oriented DCERPC over a stream (C706 §12.6): PDUs framed by their common
 * header's fragment length, each kept whole (at most 65535 bytes by its length field) while
 * it is read. bind / alter_context propose presentation contexts (id, interface UUID and
 * version), bind_ack / alter_context_resp accept or refuse them in order; a request carries
 * its context id and opnum, its stub reassembled from the first to the last fragment
 * (PFC_FIRST_FRAG / PFC_LAST_FRAG, bounded), as a response's is. A bind without
 * PFC_FIRST_FRAG binds nothing (Suricata 8.0.5, redmine #8457). A transaction is a bind and
 * its ack, or a request and its response; the next one reports the one in force. After a
 * gap the PDU being read is lost and bytes are skipped up to the next PDU header (Suricata's
 * parser accepts gaps and looks for the next record the same way). */
#include <stdlib.h>
#include <string.h>

#include "dcerpc_int.h"

void dce_uuid(uint8_t out[16], const uint8_t *p, bool little)
{
    uint32_t a = rd_u32(p, little);
    uint16_t b = rd_u16(p + 4, little), c = rd_u16(p + 6, little);
    const uint8_t head[8] = {(uint8_t)(a >> 24), (uint8_t)(a >> 16), (uint8_t)(a >> 8),
                             (uint8_t)a, (uint8_t)(b >> 8), (uint8_t)b, (uint8_t)(c >> 8),
                             (uint8_t)c};
    memcpy(out, head, 8);
    memcpy(out + 8, p + 8, 8);
}

struct dce_state *dce_state_of(struct pflow *pf)
{
    if (!pf->state)
        pf->state = calloc(1, sizeof(struct dce_state));
    return pf->state;
}

const struct dce_ctx *dce_tx_ctx(const struct dce_state *st)
{
    if (!st->has_req)
        return NULL;
    for (uint32_t i = st->nctx; i-- > 0;) /* the latest binding of that id */
        if (st->ctx[i].id == st->ctxid)
            return st->ctx[i].result == 0 ? &st->ctx[i] : NULL;
    return NULL;
}

void dce_tx_report(struct pflow *pf, struct mon_flow *f, struct dce_state *st)
{
    if (!st->tx_open || st->tx_reported)
        return;
    st->tx_reported = true;
    pflow_count(pf, DCE_C_TXS, 1);
    pflow_tx_done(pf, f);
}

/* A new transaction (the one in force reported first). */
static void tx_begin(struct pflow *pf, struct mon_flow *f, struct dce_state *st, uint8_t type,
                     uint32_t call_id)
{
    dce_tx_report(pf, f, st);
    st->tx_open = true;
    st->tx_reported = false;
    st->req_type = type;
    st->has_req = false;
    st->req_done = false;
    st->has_resp = false;
    st->call_id = call_id;
    st->first_frag = false;
    for (int d = 0; d < 2; d++) {
        pbuf_reset(&st->side[d].stub);
        st->side[d].frags = st->side[d].stub_size = 0;
        st->side[d].open = false;
    }
}

void dce_stub_add(struct pflow *pf, struct dce_side *s, const uint8_t *d, size_t n)
{
    uint32_t room = s->stub.len < DCE_STUB_MAX ? DCE_STUB_MAX - s->stub.len : 0;
    size_t k = n < room ? n : room;
    if (pbuf_add(&s->stub, d, k, DCE_STUB_MAX) != k || k < n)
        pflow_count(pf, DCE_C_STUB_SHED, n - k);
    s->stub_size += (uint32_t)n;
    s->frags++;
}

/* bind / alter_context: its contexts, pending until the ack. */
static void bind_body(struct pflow *pf, struct dce_state *st, const uint8_t *b, uint32_t n,
                      bool little)
{
    if (n < 12)
        return;
    uint32_t nctx = b[8], off = 12;
    st->pend_at = st->nctx;
    st->pend_n = 0;
    for (uint32_t i = 0; i < nctx; i++) {
        if (off + 24 > n)
            break;
        uint32_t ntrans = b[off + 2];
        if (st->nctx == DCE_MAX_CTX) {
            pflow_count(pf, DCE_C_CTX_SHED, 1);
        } else {
            struct dce_ctx *c = &st->ctx[st->nctx++];
            c->id = rd_u16(b + off, little);
            dce_uuid(c->uuid, b + off + 4, little);
            c->vmaj = rd_u16(b + off + 20, little);
            c->vmin = rd_u16(b + off + 22, little);
            c->result = 0;
            c->acked = false;
            st->pend_n++;
        }
        off += 24 + 20 * ntrans;
    }
}

/* bind_ack / alter_context_resp: one result per pending context, in order. The secondary
 * address (a counted string) is followed by padding to 4 bytes from the PDU's start. */
static void ack_body(struct dce_state *st, const uint8_t *b, uint32_t n, bool little)
{
    if (n < 10)
        return;
    uint32_t off = 10 + rd_u16(b + 8, little);
    off = (off + DCE_CO_HDR + 3) / 4 * 4 - DCE_CO_HDR;
    if (off + 4 > n)
        return;
    uint32_t nres = b[off];
    off += 4;
    for (uint32_t i = 0; i < nres && i < st->pend_n && off + 24 <= n; i++, off += 24) {
        struct dce_ctx *c = &st->ctx[st->pend_at + i];
        c->result = rd_u16(b + off, little);
        c->acked = true;
    }
    st->pend_n = 0;
}

/* One whole PDU p[0..len) of direction dir. */
static void pdu(struct pflow *pf, struct mon_flow *f, int dir, struct dce_state *st,
                const uint8_t *p, uint32_t len)
{
    struct dce_side *s = &st->side[dir];
    bool little = p[4] & 0x10;
    uint8_t type = p[2], flags = p[3];
    uint16_t auth = rd_u16(p + 10, little);
    uint32_t call_id = rd_u32(p + 12, little);
    s->little = little;
    st->last_dir = (uint8_t)dir;
    uint32_t end = len; /* the body ends before the auth verifier (and its 8-byte header) */
    if (auth && (uint32_t)auth + 8 <= len - DCE_CO_HDR)
        end = len - auth - 8;
    const uint8_t *b = p + DCE_CO_HDR;
    uint32_t bn = end - DCE_CO_HDR;
    /* the stub as Suricata's dcerpc.stub_data has it: to the fragment's end, the auth
     * verifier included (bodies above are parsed without it) */
    uint32_t fn = len - DCE_CO_HDR;
    pflow_count(pf, DCE_C_PDUS, 1);
    st->vers = p[0];
    st->vers_minor = p[1];
    switch (type) {
    case DCE_BIND:
    case DCE_ALTER:
        if (dir != 0 || !(flags & DCE_PFC_FIRST))
            break;
        tx_begin(pf, f, st, type, call_id);
        st->has_req = false;
        st->req_done = true;
        bind_body(pf, st, b, bn, little);
        break;
    case DCE_BIND_ACK:
    case DCE_ALTER_RESP:
    case DCE_BIND_NAK:
        if (dir != 1)
            break;
        if (type != DCE_BIND_NAK)
            ack_body(st, b, bn, little);
        if (st->tx_open && (st->req_type == DCE_BIND || st->req_type == DCE_ALTER)) {
            st->has_resp = true;
            st->resp_type = type;
            dce_tx_report(pf, f, st);
        }
        break;
    case DCE_REQUEST: {
        if (dir != 0 || bn < 8)
            break;
        uint32_t hl = 8 + (flags & DCE_PFC_OBJECT ? 16 : 0);
        if (hl > bn)
            break;
        if ((flags & DCE_PFC_FIRST) || !s->open || st->req_type != DCE_REQUEST ||
            st->call_id != call_id) {
            tx_begin(pf, f, st, DCE_REQUEST, call_id);
            st->first_frag = flags & DCE_PFC_FIRST;
            st->ctxid = rd_u16(b + 4, little);
            st->opnum = rd_u16(b + 6, little);
            st->has_req = true;
            s->open = true;
        }
        dce_stub_add(pf, s, b + hl, fn - hl);
        if (flags & DCE_PFC_LAST) {
            s->open = false;
            st->req_done = true;
            pflow_raise(pf, f, 0, DCE_EV_REQUEST);
        }
        break;
    }
    case DCE_RESPONSE:
    case DCE_FAULT:
        if (dir != 1 || bn < 8)
            break;
        if (!st->tx_open || st->req_type != DCE_REQUEST || st->has_resp ||
            st->call_id != call_id)
            tx_begin(pf, f, st, DCE_REQUEST, call_id); /* a response without its request */
        if (!s->open) {
            pbuf_reset(&s->stub);
            s->frags = s->stub_size = 0;
            s->open = true;
        }
        st->resp_type = type;
        /* the whole body: Suricata's response stub keeps the alloc hint, context id and
         * cancel count (and the auth verifier) — 8 bytes more than Snort's DCE2 stub */
        if (type == DCE_RESPONSE)
            dce_stub_add(pf, s, b, fn);
        if ((flags & DCE_PFC_LAST) || type == DCE_FAULT) {
            s->open = false;
            st->has_resp = true;
            pflow_raise(pf, f, 1, DCE_EV_RESPONSE);
            dce_tx_report(pf, f, st);
        }
        break;
    default:
        break;
    }
}

/* After a gap: d[0..n) scanned for a PDU header, through s->pdu as a 16-byte window (a
 * header split across chunks is found too). The bytes used; s->resync false once s->pdu
 * holds a header. */
static size_t resync(struct dce_side *s, const uint8_t *d, size_t n)
{
    size_t used = 0;
    while (used < n) {
        size_t k = DCE_CO_HDR - s->pdu.len < n - used ? DCE_CO_HDR - s->pdu.len : n - used;
        if (pbuf_add(&s->pdu, d + used, k, DCE_CO_HDR) != k)
            return n; /* out of memory: the chunk is skipped */
        used += k;
        if (s->pdu.len < DCE_CO_HDR)
            break;
        if (dce_probe_co(s->pdu.p, DCE_CO_HDR, NULL) == DET_YES) { /* the probe's test */
            s->resync = false;
            break;
        }
        pbuf_consume(&s->pdu, 1); /* slide by one byte */
    }
    return used;
}

void dce_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct dce_state *st = pf->state;
    if (!st)
        return;
    struct dce_side *s = &st->side[dir];
    pbuf_reset(&s->pdu); /* the PDU being read is lost */
    s->resync = true;
    pflow_count(pf, DCE_C_GAPS, 1);
}

void dce_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct dce_state *st = dce_state_of(pf);
    if (!st) {
        pf->dead[dir] = true;
        return;
    }
    struct dce_side *s = &st->side[dir];
    if (s->resync) {
        size_t used = resync(s, d, n);
        d += used, n -= used;
        if (s->resync)
            return;
        if (rd_u16(s->pdu.p + 8, s->pdu.p[4] & 0x10) == DCE_CO_HDR) { /* a header alone */
            pdu(pf, f, dir, st, s->pdu.p, s->pdu.len);
            pflow_raise(pf, f, dir, dir == 0 ? DCE_EV_PDU_REQ : DCE_EV_PDU_RESP);
        }
    }
    while (n) {
        if (s->pdu.len >= DCE_CO_HDR && s->pdu.len == rd_u16(s->pdu.p + 8, s->pdu.p[4] & 0x10))
            pbuf_reset(&s->pdu); /* the last PDU was kept for its frames */
        uint32_t want = DCE_CO_HDR;
        if (s->pdu.len >= DCE_CO_HDR)
            want = rd_u16(s->pdu.p + 8, s->pdu.p[4] & 0x10);
        size_t k = want - s->pdu.len < n ? want - s->pdu.len : n;
        if (pbuf_add(&s->pdu, d, k, 65535) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (s->pdu.len < want)
            return;
        if (want == DCE_CO_HDR) {
            const uint8_t *h = s->pdu.p;
            uint16_t fl = rd_u16(h + 8, h[4] & 0x10);
            if (h[0] != 5 || h[1] > 1 || fl < DCE_CO_HDR) { /* lost the framing */
                pflow_count(pf, DCE_C_MALFORMED, 1);
                pf->dead[dir] = true;
                return;
            }
            if (fl > DCE_CO_HDR)
                continue;
        }
        pdu(pf, f, dir, st, s->pdu.p, s->pdu.len);
        pflow_raise(pf, f, dir, dir == 0 ? DCE_EV_PDU_REQ : DCE_EV_PDU_RESP); /* its frames */
    }
}

void dce_end(struct pflow *pf, struct mon_flow *f)
{
    struct dce_state *st = pf->state;
    if (st)
        dce_tx_report(pf, f, st);
}

void dce_free(void *state)
{
    struct dce_state *st = state;
    if (!st)
        return;
    for (int d = 0; d < 2; d++) {
        pbuf_free(&st->side[d].pdu);
        pbuf_free(&st->side[d].stub);
    }
    free(st);
}
