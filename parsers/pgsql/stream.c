/* stream.c — PostgreSQL's framing over TCP: the client's first messages untyped (a length,
 * then a code: startup, SSLRequest, CancelRequest), then every message of either side a type
 * byte and a length that counts itself; after an SSLRequest the server answers one byte.
 * Messages are gathered whole across segments (pf->in, at most PG_MSG_MAX; a longer one is
 * skipped, counted, a DataRow or CopyData among them still counted), bytes past stream-depth are
 * not read. Bytes lost (pgsql_gap): the message the hole cut is dropped and the side is read
 * again from the first chunk that starts with a whole typed message of a type that side sends
 * (Suricata's resync), the chunks before it passed over. After the server accepts SSL the
 * flow is TLS (what the chunk holds after the answer goes to TLS). */
#include <stdlib.h>
#include <string.h>

#include "pgsql_int.h"

static void finish_chunk(struct pflow *pf, struct mon_flow *f)
{
    struct pgsql_state *st = pf->state;
    struct pg_tx *tx = st->last_done;
    if (!tx)
        return;
    st->last_done = NULL;
    st->cur = tx;
    pflow_raise(pf, f, 1, PG_EV_RESPONSE);
    st->cur = NULL;
    pg_tx_finish(pf, f, tx);
}

/* the flow is TLS from here: what is open is reported, the state goes */
static void to_tls(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    pgsql_end(pf, f);
    int id = osprey_app_proto_find("tls");
    if (id <= OSPREY_APP_PROTO_FAILED) {
        pf->dead[0] = pf->dead[1] = true;
        return;
    }
    pflow_count(pf, PG_C_TLS, 1);
    pflow_become(pf, (uint16_t)id);
    const struct osprey_proto_def *tls = reg_proto(pf->proto);
    if (n && tls->parse)
        tls->parse(pf, f, dir, d, n);
}

/* Does a chunk after a gap start with a whole typed message that side sends (the types of
 * the protocol's frontend / backend messages), as Suricata's resync asks? */
static bool resyncs(int dir, const uint8_t *d, size_t n)
{
    static const char FRONTEND[] = "BCDEFHPQSXcdfp", BACKEND[] = "123ACDEGHIKNRSTVWZcdnstv";
    if (n < 5 || !d[0] || !strchr(dir == 0 ? FRONTEND : BACKEND, d[0]))
        return false;
    uint32_t len = rd_be32(d + 1);
    return len >= 4 && len - 4 <= PG_MSG_MAX && (uint64_t)len + 1 <= n;
}

void pgsql_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct pgsql_state *st = pf->state;
    if (!st)
        return;
    pbuf_reset(&pf->in[dir]); /* the message the hole cut */
    st->skip[dir] = 0;
    st->gap[dir] = true;
}

void pgsql_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct pgsql_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct pgsql_state *st = pf->state;
    if (st->gap[dir]) {
        /* (while the client's messages are untyped, or the server's answer is one byte,
         * no header can be told: wait for the conversation to move on) */
        if ((dir == 0 && st->phase == PG_STARTUP) || (dir == 1 && st->phase == PG_SSL_WAIT) ||
            !resyncs(dir, d, n))
            return; /* not in step yet: this chunk is passed over */
        st->gap[dir] = false;
    }
    const struct pgsql_cfg *cfg = pflow_cfg(pf);
    if (cfg->stream_depth) {
        if (st->bytes[dir] >= cfg->stream_depth) {
            pflow_count(pf, PG_C_DEPTH, n);
            return;
        }
        if (n > cfg->stream_depth - st->bytes[dir]) {
            pflow_count(pf, PG_C_DEPTH, n - (cfg->stream_depth - st->bytes[dir]));
            n = (size_t)(cfg->stream_depth - st->bytes[dir]);
        }
    }
    st->bytes[dir] += n;
    struct pbuf *in = &pf->in[dir];
    while (n && !pf->dead[dir]) {
        if (st->skip[dir]) { /* the rest of an over-long message */
            uint32_t k = st->skip[dir] < n ? st->skip[dir] : (uint32_t)n;
            st->skip[dir] -= k, d += k, n -= k;
            continue;
        }
        bool ssl_byte = dir == 1 && st->phase == PG_SSL_WAIT;
        uint32_t hdr = ssl_byte ? 1 : dir == 0 && st->phase == PG_STARTUP ? 4 : 5;
        if (in->len < hdr) {
            uint32_t k = hdr - in->len < n ? hdr - in->len : (uint32_t)n;
            pbuf_add(in, d, k, 0);
            d += k, n -= k;
            if (in->len < hdr)
                break;
        }
        if (ssl_byte) {
            uint8_t b = in->p[0];
            pbuf_reset(in);
            pg_response(pf, f, b, NULL, 0);
            if (st->to_tls) {
                finish_chunk(pf, f);
                to_tls(pf, f, dir, d, n);
                return;
            }
            continue;
        }
        uint8_t type = hdr == 5 ? in->p[0] : 0;
        uint32_t len = rd_be32(in->p + hdr - 4);
        if (len < (hdr == 4 ? 8u : 4u)) {
            pflow_count(pf, PG_C_MALFORMED, 1);
            pflow_anomaly(pf, f, dir, PG_AE_INVALID_LENGTH);
            pf->dead[dir] = true;
            break;
        }
        uint32_t body = len - 4;
        if (body > PG_MSG_MAX) { /* not read: skipped, counted */
            pflow_count(pf, PG_C_SKIPPED, 1);
            struct pg_tx *last = st->nopen ? st->open[st->nopen - 1] : NULL;
            if (last && dir == 1 && type == 'D')
                last->rows++, last->data_size += body;
            else if (last && dir == 1 && type == 'd')
                last->copy_out_rows++, last->copy_out_size += body;
            else if (last && dir == 0 && type == 'd')
                last->copy_in_msgs++, last->copy_in_size += body;
            st->skip[dir] = body;
            pbuf_reset(in);
            continue;
        }
        uint32_t have = in->len - hdr;
        uint32_t k = body - have < n ? body - have : (uint32_t)n;
        if (k && pbuf_add(in, d, k, 0) != k) {
            pf->dead[dir] = true;
            break;
        }
        d += k, n -= k;
        if (in->len - hdr < body)
            break;
        if (dir == 0)
            pg_request(pf, f, type, in->p + hdr, body);
        else
            pg_response(pf, f, type, in->p + hdr, body);
        pbuf_reset(in);
    }
    if (dir == 1)
        finish_chunk(pf, f);
}

void pgsql_end(struct pflow *pf, struct mon_flow *f)
{
    struct pgsql_state *st = pf->state;
    if (!st)
        return;
    finish_chunk(pf, f);
    while (st->nopen) /* as Suricata logs what is open at the flow's end */
        pg_tx_finish(pf, f, st->open[0]);
}

void pgsql_free(void *state)
{
    struct pgsql_state *st = state;
    if (!st)
        return;
    for (uint32_t i = 0; i < st->nopen; i++)
        pg_tx_free(st->open[i]);
    free(st->open);
    free(st);
}
