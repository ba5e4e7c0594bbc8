/* tx.c — PostgreSQL transactions: made when a request starts one (or a response comes with
 * none open), kept oldest first up to max-tx open (past it the oldest is finished and
 * pgsql.too_many_transactions raised, as Suricata), finished with their EVE record; the items
 * each side keeps for it, bounded per transaction and side (PG_ITEMS_MAX) and for the flow's
 * open transactions together (PG_FLOW_KEEP_MAX: max-tx of them cannot hold more), the rest
 * counted (pgsql_items_shed). */
#include <stdlib.h>
#include <string.h>

#include "pgsql_int.h"

void pg_item(struct pflow *pf, struct pbuf *b, enum pg_item kind, const char *key,
             const void *v, size_t n)
{
    size_t kl = strlen(key);
    uint8_t h[2] = {(uint8_t)kind, (uint8_t)kl};
    uint8_t len[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    struct pgsql_state *st = pf->state;
    size_t need = 6u + kl + n;
    if (b->len + need > PG_ITEMS_MAX || st->kept + need > PG_FLOW_KEEP_MAX) {
        pflow_count(pf, PG_C_SHED, 1);
        return;
    }
    st->kept += (uint32_t)need;
    pbuf_add(b, h, 2, 0);
    pbuf_add(b, key, kl, 0);
    pbuf_add(b, len, 4, 0);
    pbuf_add(b, v, n, 0);
}

void pg_item_int(struct pflow *pf, struct pbuf *b, const char *key, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (56 - 8 * i));
    pg_item(pf, b, PI_INT, key, x, 8);
}

void pg_tx_free(struct pg_tx *tx)
{
    if (tx) {
        pbuf_free(&tx->req);
        pbuf_free(&tx->resp);
    }
    free(tx);
}

/* the record written, the transaction gone from the open list */
void pg_tx_finish(struct pflow *pf, struct mon_flow *f, struct pg_tx *tx)
{
    struct pgsql_state *st = pf->state;
    uint32_t i = 0;
    while (i < st->nopen && st->open[i] != tx)
        i++;
    if (i == st->nopen)
        return;
    memmove(st->open + i, st->open + i + 1, (st->nopen - i - 1) * sizeof *st->open);
    st->nopen--;
    st->cur = tx;
    pflow_count(pf, PG_C_TX, 1);
    pflow_tx_done(pf, f);
    st->cur = NULL;
    if (st->last_done == tx)
        st->last_done = NULL;
    st->kept -= tx->req.len + tx->resp.len;
    pg_tx_free(tx);
}

struct pg_tx *pg_tx_new(struct pflow *pf, struct mon_flow *f)
{
    struct pgsql_state *st = pf->state;
    const struct pgsql_cfg *cfg = pflow_cfg(pf);
    uint32_t max = cfg->max_tx ? cfg->max_tx : 1;
    if (st->nopen >= max) { /* the oldest open one is given up: finished as it is */
        pflow_count(pf, PG_C_TX_SHED, 1);
        pflow_anomaly(pf, f, 0, PG_AE_TOO_MANY_TX);
        pg_tx_finish(pf, f, st->open[0]);
    }
    if (st->nopen == st->cap) {
        uint32_t cap = st->cap ? st->cap * 2 : 4;
        struct pg_tx **o = realloc(st->open, cap * sizeof *o);
        if (!o)
            return NULL;
        st->open = o, st->cap = cap;
    }
    struct pg_tx *tx = calloc(1, sizeof *tx);
    if (!tx)
        return NULL;
    tx->id = ++st->next_id;
    st->open[st->nopen++] = tx;
    return tx;
}
