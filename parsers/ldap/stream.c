/* stream.c — LDAP over TCP (each direction cut into LDAPMessages by their BER length, any
 * segment boundary) and CLDAP over UDP (the messages of one datagram), grouped into
 * transactions as Suricata groups them: a request and the responses carrying its message id
 * (search entries and references, then the final result). A request runs `ldap_request`
 * when it comes; each response runs `ldap_response` with the transaction's responses so far
 * current; the final one (or unbind / abandon, which have none) finishes it: its record is
 * written. A response no request asked for opens a transaction of its own (an unsolicited
 * notification).
 *
 * Limits: a message longer than LDAP_MSG_MAX is skipped (counted); at most ldap-max-tx
 * transactions wait (the oldest is finished with ldap.too_many_transactions, counted) and
 * they keep at most LDAP_OPEN_BYTES_MAX bytes (the oldest finished early, counted);
 * LDAP_RESP_MAX responses per transaction are kept (more: counted, still numbered). A
 * message that does not decode raises ldap.invalid_data and that side is given up on TCP.
 * Bytes lost on TCP (ldap_gap): the message the hole cut is dropped, and the direction is
 * read again from the first chunk that starts with a whole LDAPMessage that decodes
 * (Suricata's resync); the chunks before it are passed over. */
#include <stdlib.h>
#include <string.h>

#include "ldap_int.h"

static void tx_free(struct ldap_tx *tx)
{
    if (!tx)
        return;
    if (tx->has_req)
        ldap_msg_free(&tx->req);
    for (uint32_t i = 0; i < tx->nkept; i++)
        ldap_msg_free(&tx->resp[i]);
    free(tx->resp);
    free(tx);
}

static void tx_unlink(struct ldap_state *st, struct ldap_tx *tx)
{
    struct ldap_tx **pp = &st->open, *prev = NULL;
    while (*pp && *pp != tx)
        prev = *pp, pp = &(*pp)->next;
    if (!*pp)
        return;
    *pp = tx->next;
    if (st->open_tail == tx)
        st->open_tail = prev;
    tx->next = NULL;
    st->nopen--;
    st->open_bytes -= tx->bytes;
}

/* tx is complete (and no longer listed): its record; it stays readable until the next */
static void tx_finish(struct pflow *pf, struct mon_flow *f, struct ldap_tx *tx)
{
    struct ldap_state *st = pf->state;
    st->cur = tx;
    pflow_count(pf, LDAP_C_TX, 1);
    pflow_tx_done(pf, f);
    if (st->last && st->last != tx)
        tx_free(st->last);
    st->last = tx;
}

static void anomaly(struct pflow *pf, struct mon_flow *f, int dir, struct ldap_tx *tx,
                    unsigned e)
{
    struct ldap_state *st = pf->state;
    struct ldap_tx *saved = st->cur;
    st->cur = tx;
    pflow_anomaly(pf, f, dir, e);
    st->cur = saved;
}

/* the oldest waiting transactions (never keep) finished while past the limits */
static void shed(struct pflow *pf, struct mon_flow *f, int dir, struct ldap_tx *keep)
{
    struct ldap_state *st = pf->state;
    struct ldap_tx *saved = st->cur; /* (an open one: never freed here) */
    uint32_t max_tx = ((const struct ldap_cfg *)pflow_cfg(pf))->max_tx;
    while (st->open && st->open != keep &&
           (st->nopen > max_tx || st->open_bytes > LDAP_OPEN_BYTES_MAX)) {
        struct ldap_tx *old = st->open;
        bool too_many = st->nopen > max_tx;
        tx_unlink(st, old);
        pflow_count(pf, LDAP_C_TX_SHED, 1);
        if (too_many)
            anomaly(pf, f, dir, old, LDAP_AE_TOO_MANY_TX);
        tx_finish(pf, f, old);
    }
    st->cur = saved;
}

static void tx_open(struct pflow *pf, struct mon_flow *f, int dir, struct ldap_tx *tx)
{
    struct ldap_state *st = pf->state;
    if (st->open_tail)
        st->open_tail->next = tx;
    else
        st->open = tx;
    st->open_tail = tx;
    st->nopen++;
    st->open_bytes += tx->bytes;
    shed(pf, f, dir, tx);
}

static struct ldap_tx *tx_find(struct ldap_state *st, int64_t id)
{
    for (struct ldap_tx *t = st->open; t; t = t->next)
        if ((t->has_req ? t->req.id : t->nkept ? t->resp[0].id : -1) == id)
            return t;
    return NULL;
}

static struct ldap_tx *tx_new(struct ldap_state *st)
{
    struct ldap_tx *tx = calloc(1, sizeof *tx);
    if (tx)
        tx->id = st->next_id++;
    return tx;
}

static bool final_response(uint8_t op)
{
    return op != LOP_SEARCH_ENTRY && op != LOP_SEARCH_REF && op != LOP_INTERMEDIATE;
}

static void request(struct pflow *pf, struct mon_flow *f, int dir, struct ldap_msg *m)
{
    struct ldap_state *st = pf->state;
    struct ldap_tx *tx = tx_new(st);
    if (!tx) {
        ldap_msg_free(m);
        return;
    }
    tx->req = *m;
    tx->has_req = true;
    tx->bytes = m->len;
    if (m->shed)
        pflow_count(pf, LDAP_C_SHED, m->shed);
    st->cur = tx;
    pflow_raise(pf, f, dir, LDAP_EV_REQUEST);
    if (m->op == LOP_UNBIND_REQ || m->op == LOP_ABANDON_REQ)
        tx_finish(pf, f, tx); /* no response comes */
    else
        tx_open(pf, f, dir, tx);
}

static void response(struct pflow *pf, struct mon_flow *f, int dir, struct ldap_msg *m)
{
    struct ldap_state *st = pf->state;
    struct ldap_tx *tx = tx_find(st, m->id);
    bool listed = tx != NULL;
    if (!tx && !(tx = tx_new(st))) {
        ldap_msg_free(m);
        return;
    }
    if (m->shed)
        pflow_count(pf, LDAP_C_SHED, m->shed);
    bool final = final_response(m->op);
    tx->nresp++;
    struct ldap_msg *r;
    if (tx->nkept < LDAP_RESP_MAX &&
        (r = realloc(tx->resp, (tx->nkept + 1) * sizeof *tx->resp))) {
        tx->resp = r;
        tx->resp[tx->nkept++] = *m;
        tx->bytes += m->len;
        if (listed)
            st->open_bytes += m->len;
    } else {
        pflow_count(pf, LDAP_C_SHED, 1); /* numbered (ldap.responses.count), not kept */
        ldap_msg_free(m);
        if (tx->nresp == LDAP_RESP_MAX + 1) /* once per transaction */
            anomaly(pf, f, dir, tx, LDAP_AE_TOO_MANY_RESPONSES);
    }
    st->cur = tx;
    pflow_raise(pf, f, dir, LDAP_EV_RESPONSE);
    if (final) {
        if (listed)
            tx_unlink(st, tx);
        tx_finish(pf, f, tx);
    } else if (!listed) {
        tx_open(pf, f, dir, tx);
    } else {
        shed(pf, f, dir, tx);
    }
}

/* one whole message; false: malformed */
static bool message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                    uint32_t n)
{
    struct ldap_msg m;
    pflow_count(pf, LDAP_C_MESSAGES, 1);
    if (!ldap_decode(&m, d, n)) {
        ldap_msg_free(&m);
        pflow_count(pf, LDAP_C_MALFORMED, 1);
        anomaly(pf, f, dir, NULL, LDAP_AE_INVALID);
        return false;
    }
    if (ldap_is_request(m.op))
        request(pf, f, dir, &m);
    else
        response(pf, f, dir, &m);
    return true;
}

static struct ldap_state *state_of(struct pflow *pf, int dir)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct ldap_state))))
        pf->dead[dir] = true;
    return pf->state;
}

void ldap_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n)
{
    if (!state_of(pf, dir))
        return;
    struct ber_tlv t;
    while (n && ber_read(d, n, &t) == BER_OK) {
        size_t k = (size_t)t.hdr + t.len;
        if (!message(pf, f, dir, d, (uint32_t)k))
            return;
        d += k, n -= k;
    }
}

/* a BER header (framing.h) */
static int frame_header(const uint8_t *p, size_t n, uint32_t *hlen, uint64_t *body)
{
    struct ber_tlv t;
    if (ber_read(p, n, &t) == BER_BAD)
        return -1;
    if (!t.hdr)
        return 0;
    *hlen = t.hdr, *body = t.len;
    return 1;
}

static bool frame_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                          uint32_t hlen, uint32_t body)
{
    return message(pf, f, dir, p, hlen + body);
}

static void frame_over_long(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                            uint32_t hlen, uint64_t body)
{
    (void)f, (void)dir, (void)p, (void)hlen, (void)body;
    pflow_count(pf, LDAP_C_SKIPPED, 1);
}

static void frame_bad(struct pflow *pf, struct mon_flow *f, int dir)
{
    pflow_count(pf, LDAP_C_MALFORMED, 1);
    anomaly(pf, f, dir, NULL, LDAP_AE_INVALID);
}

/* Does a chunk after a gap start with a whole LDAPMessage (what Suricata's resync asks)? */
static bool resyncs(const uint8_t *d, size_t n)
{
    struct ber_tlv t;
    if (ber_read(d, n, &t) != BER_OK || d[0] != 0x30 || (uint64_t)t.hdr + t.len > LDAP_MSG_MAX)
        return false;
    struct ldap_msg m;
    bool ok = ldap_decode(&m, d, (uint32_t)(t.hdr + t.len));
    ldap_msg_free(&m);
    return ok;
}

static const struct pframe_ops FRAMING = {
    .header = frame_header, .header_max = 16, .max = LDAP_MSG_MAX,
    .message = frame_message, .over_long = frame_over_long, .bad = frame_bad,
    .resyncs = resyncs,
};

void ldap_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct ldap_state *st = state_of(pf, dir);
    if (!st)
        return;
    pframe_gap(&st->dir[dir]);
}

void ldap_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct ldap_state *st = state_of(pf, dir);
    if (!st)
        return;
    pframe_feed(&st->dir[dir], &FRAMING, pf, f, dir, d, n);
}

/* The flow ends: what still waits is finished as it is. */
void ldap_end(struct pflow *pf, struct mon_flow *f)
{
    struct ldap_state *st = pf->state;
    while (st && st->open) {
        struct ldap_tx *tx = st->open;
        tx_unlink(st, tx);
        tx_finish(pf, f, tx);
    }
}

/* The connection closed: a message cut at the close will never complete. */
void ldap_trim(void *state)
{
    struct ldap_state *st = state;
    pframe_free(&st->dir[0]);
    pframe_free(&st->dir[1]);
}

void ldap_free(void *state)
{
    struct ldap_state *st = state;
    if (!st)
        return;
    while (st->open) {
        struct ldap_tx *tx = st->open;
        st->open = tx->next;
        tx_free(tx);
    }
    tx_free(st->last);
    pframe_free(&st->dir[0]);
    pframe_free(&st->dir[1]);
    free(st);
}

uint32_t ldap_tx_id(const struct pflow *pf)
{
    const struct ldap_state *st = pf->state;
    return st && st->cur ? (uint32_t)st->cur->id : 0;
}
