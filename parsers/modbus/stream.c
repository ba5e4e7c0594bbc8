/* stream.c — Modbus/TCP's framing and transactions: each side's ADUs by their MBAP length
 * (held until whole, at most 7 + 254 bytes; a length out of 2-254 is invalid_length and that
 * side is no longer read), a request waits for the response with its transaction id (at most
 * MB_PENDING_MAX, the oldest shed and counted; more than request-flood of them is
 * modbus.flooded), a response without its request is modbus.unsolicited_response and a
 * transaction of its own. Each request runs modbus_request, each response modbus_response and
 * ends its transaction (the EVE record); requests never answered are reported at the flow's
 * end. */
#include <stdlib.h>
#include <string.h>

#include "modbus_int.h"

/* the anomalies a PDU's error flags name */
static void anomalies(struct pflow *pf, struct mon_flow *f, int dir, const struct modbus_pdu *p)
{
    if (p->errors & MB_ERR_PROTO_ID)
        pflow_anomaly(pf, f, dir, MB_AE_INVALID_PROTOCOL_ID);
    if (p->errors & MB_ERR_DATA_LENGTH)
        pflow_anomaly(pf, f, dir, MB_AE_INVALID_LENGTH);
    if (p->errors & MB_ERR_FUNC_CODE)
        pflow_anomaly(pf, f, dir, MB_AE_INVALID_FUNCTION_CODE);
    if (p->errors & MB_ERR_DATA_VALUE)
        pflow_anomaly(pf, f, dir, MB_AE_INVALID_VALUE);
    if (p->errors & MB_ERR_EXC_CODE)
        pflow_anomaly(pf, f, dir, MB_AE_INVALID_EXCEPTION_CODE);
    if (p->errors & MB_ERR_MISMATCH)
        pflow_anomaly(pf, f, dir, MB_AE_VALUE_MISMATCH);
}

static void done(struct pflow *pf, struct mon_flow *f, struct modbus_state *st)
{
    st->has_cur = true;
    pflow_count(pf, MB_C_TX, 1);
    pflow_tx_done(pf, f);
}

static void on_request(struct pflow *pf, struct mon_flow *f, struct modbus_state *st,
                       const uint8_t *adu, size_t n)
{
    const struct modbus_cfg *cfg = pflow_cfg(pf);
    if (st->npending == MB_PENDING_MAX) { /* shed the oldest: its record is lost */
        memmove(st->pending, st->pending + 1, (st->npending - 1) * sizeof *st->pending);
        st->npending--;
        pflow_count(pf, MB_C_PENDING_SHED, 1);
    }
    if (st->npending == st->cap) {
        uint32_t cap = st->cap ? st->cap * 2 : 8;
        struct modbus_tx *p = realloc(st->pending, cap * sizeof *p);
        if (!p) {
            pflow_count(pf, MB_C_PENDING_SHED, 1);
            return;
        }
        st->pending = p, st->cap = cap;
    }
    struct modbus_tx *tx = &st->pending[st->npending++];
    memset(tx, 0, sizeof *tx);
    modbus_decode(&tx->req, 0, adu, n, NULL);
    tx->has_req = true;
    tx->id = st->next_id++;
    st->cur = *tx;
    st->has_cur = true;
    pflow_raise(pf, f, 0, MB_EV_REQUEST);
    anomalies(pf, f, 0, &tx->req);
    if (cfg->request_flood && st->npending > cfg->request_flood) {
        if (!st->flooded)
            pflow_anomaly(pf, f, 0, MB_AE_FLOODED);
        st->flooded = true;
    }
}

static void on_response(struct pflow *pf, struct mon_flow *f, struct modbus_state *st,
                        const uint8_t *adu, size_t n)
{
    uint16_t tid = rd_be16(adu);
    uint32_t i = 0;
    while (i < st->npending && st->pending[i].req.tid != tid)
        i++;
    struct modbus_tx tx;
    memset(&tx, 0, sizeof tx);
    if (i < st->npending) {
        tx = st->pending[i];
        memmove(st->pending + i, st->pending + i + 1, (st->npending - i - 1) * sizeof tx);
        st->npending--;
        const struct modbus_cfg *cfg = pflow_cfg(pf);
        if (st->npending <= cfg->request_flood)
            st->flooded = false;
    } else {
        tx.id = st->next_id++;
    }
    modbus_decode(&tx.resp, 1, adu, n, tx.has_req ? &tx.req : NULL);
    tx.has_resp = true;
    st->cur = tx;
    st->has_cur = true;
    pflow_raise(pf, f, 1, MB_EV_RESPONSE);
    if (!tx.has_req)
        pflow_anomaly(pf, f, 1, MB_AE_UNSOLICITED_RESPONSE);
    anomalies(pf, f, 1, &tx.resp);
    done(pf, f, st);
}

void modbus_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct modbus_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct modbus_state *st = pf->state;
    struct pbuf *b = &st->in[dir];
    while (n && !pf->dead[dir]) {
        /* the header first, then the rest of the ADU its length announces */
        size_t want = b->len < MB_HDR_LEN ? MB_HDR_LEN : 6u + rd_be16(b->p + 4);
        size_t k = want - b->len < n ? want - b->len : n;
        if (pbuf_add(b, d, k, MB_HDR_LEN + MB_LEN_MAX) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (b->len < MB_HDR_LEN)
            continue;
        uint16_t len = rd_be16(b->p + 4);
        if (len < 2 || len > MB_LEN_MAX) { /* no ADU this side can be framed by */
            pflow_count(pf, MB_C_MALFORMED, 1);
            pflow_anomaly(pf, f, dir, MB_AE_INVALID_LENGTH);
            pf->dead[dir] = true;
            return;
        }
        if (b->len < 6u + len)
            continue;
        if (dir == 0)
            on_request(pf, f, st, b->p, b->len);
        else
            on_response(pf, f, st, b->p, b->len);
        if (!pf->state)
            return;
        pbuf_reset(b);
    }
}

void modbus_end(struct pflow *pf, struct mon_flow *f)
{
    struct modbus_state *st = pf->state;
    if (!st)
        return;
    /* requests never answered: each its record, request only */
    for (uint32_t i = 0; i < st->npending && pf->state; i++) {
        st->cur = st->pending[i];
        done(pf, f, st);
    }
    if (pf->state)
        st->npending = 0;
}

void modbus_free(void *state)
{
    struct modbus_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->in[0]);
    pbuf_free(&st->in[1]);
    free(st->pending);
    free(st);
}
