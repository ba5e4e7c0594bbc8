/* pgsql.c — PostgreSQL's descriptor (TCP, Suricata's port 5432): its probe, the events a
 * request and a response run under, Suricata 8's sticky buffer pgsql.query (a simple query's
 * text), its events (pgsql.*), counters, settings (max-tx, stream-depth) and EVE object.
 * Registered in core/registry.c. */
#include <stddef.h>

#include "pgsql_int.h"

static const struct proto_probe PROBES[] = {{6, 0, pgsql_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [PG_EV_REQUEST] = {"pgsql_request", 0, NULL},
    [PG_EV_RESPONSE] = {"pgsql_response", 1, NULL},
};

static const uint8_t *query(struct pflow *pf, unsigned key, uint32_t i,
                            struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    const struct pgsql_state *st = pf->state;
    const struct pg_tx *tx = st ? st->cur : NULL;
    if (!tx || i || !tx->has_query)
        return NULL;
    *len = tx->query_len;
    return tx->req.p + tx->query_off;
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "pgsql.query", .dir = 0, .event = "pgsql_request", .get = query},
};

static const char *const ANOMALIES[] = {
    [PG_AE_TOO_MANY_TX] = "pgsql.too_many_transactions", /* past max-tx open */
    [PG_AE_MALFORMED_REQUEST] = "pgsql.malformed_request",
    [PG_AE_MALFORMED_RESPONSE] = "pgsql.malformed_response",
    [PG_AE_INVALID_LENGTH] = "pgsql.invalid_length",
};

static const char *const COUNTERS[] = {
    [PG_C_TX] = "pgsql_tx",
    [PG_C_MALFORMED] = "pgsql_malformed",
    [PG_C_SKIPPED] = "pgsql_msg_skipped",   /* messages longer than PG_MSG_MAX */
    [PG_C_SHED] = "pgsql_items_shed",       /* what a transaction could not keep */
    [PG_C_UNKNOWN] = "pgsql_msg_unread",    /* types not read (extended query …) */
    [PG_C_TX_SHED] = "pgsql_tx_shed",       /* finished early past max-tx */
    [PG_C_DEPTH] = "pgsql_depth_bytes",     /* bytes past stream-depth */
    [PG_C_TLS] = "pgsql_tls",               /* flows handed to TLS after an SSLRequest */
};

#define PG_KEY "app-layer.protocols.pgsql."
#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct pgsql_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG(PG_KEY "max-tx", OSPREY_CFG_UINT, max_tx, 1),
    CFG(PG_KEY "stream-depth", OSPREY_CFG_SIZE, stream_depth, 0),
};
#undef CFG

static void pgsql_cfg_defaults(void *v)
{
    struct pgsql_cfg *c = v;
    c->max_tx = 1024;     /* Suricata's */
    c->stream_depth = 0;  /* Suricata's: all of it */
}

static uint32_t pgsql_tx_id(const struct pflow *pf)
{
    const struct pgsql_state *st = pf->state;
    return st && st->cur ? (uint32_t)(st->cur->id - 1) : 0;
}

const struct osprey_proto_def pgsql_proto = {
    .name = "pgsql",
    .flow_stat = "flow.pgsql",
    .l4 = 6,
    .probes = PROBES,
    .parse = pgsql_parse,
    .gap = pgsql_gap,
    .end = pgsql_end,
    .state_free = pgsql_free,
    .tx_id = pgsql_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = PG_C_TX,
    .eve = pgsql_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct pgsql_cfg), .cfg_defaults = pgsql_cfg_defaults,
};
