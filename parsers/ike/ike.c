/* ike.c — IKE's descriptor (IKEv1 / ISAKMP and IKEv2, UDP 500 and 4500 after the non-ESP
 * marker): a probe, one message per datagram and each a transaction of its direction
 * (ike_request from the initiator, ike_response from the responder), Suricata's sticky
 * buffers ike.init_spi / ike.resp_spi (hex), ike.vendor (IKEv1 vendor ids, hex, one element
 * each), ike.key_exchange_payload / ike.nonce_payload (IKEv1, raw), its fields ike.exchtype,
 * ike.key_exchange_payload_length, ike.nonce_payload_length and ike.chosen_sa_attribute.<name>
 * (IKEv1: the message's first transform; IKEv2: its first transform of each type), Suricata's
 * IKE events (weak crypto on IKEv2 proposals …), counters and its EVE object. The flow keeps
 * what IKEv1 gathers over its messages (each side's key exchange and nonce, the server's
 * chosen transform) for the record. Registered in core/registry.c. */
#include <stdlib.h>
#include <string.h>

#include "ike_int.h"

static const struct proto_probe PROBES[] = {{17, 0, ike_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [IKE_EV_REQUEST] = {"ike_request", 0, NULL},
    [IKE_EV_RESPONSE] = {"ike_response", 1, NULL},
};

static const struct ike_msg *cur(struct pflow *pf)
{
    const struct ike_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

static const uint8_t *hex_of(struct osprey_scratch *s, const uint8_t *d, size_t n,
                             uint32_t *len)
{
    static const char X[] = "0123456789abcdef";
    s->len = 0; /* the caller's room is reused element after element: built from its start */
    for (size_t i = 0; i < n; i++) {
        char two[2] = {X[d[i] >> 4], X[d[i] & 15]};
        if (!scratch_put(s, two, 2))
            return NULL;
    }
    return scratch_bytes(s, len);
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    const struct ike_msg *m = cur(pf);
    if (!m || (i && key != IB_VENDOR))
        return NULL;
    const struct span *sp = NULL;
    switch (key) {
    case IB_TX: /* the message itself: nothing to read, only that it is here */
        *len = 0;
        return (const uint8_t *)"";
    case IB_INIT_SPI:
    case IB_RESP_SPI:
        return hex_of(s, m->body + (key == IB_INIT_SPI ? 0 : 8), 8, len);
    case IB_VENDOR:
        return i < m->nvendor ? hex_of(s, m->body + m->vendor[i].off, m->vendor[i].len, len)
                              : NULL;
    case IB_KE:
        sp = &m->ke;
        break;
    default:
        sp = &m->nonce;
        break;
    }
    if (m->maj != 1 || !sp->set || !sp->len)
        return NULL;
    *len = sp->len;
    return m->body + sp->off;
}

#define BUF2(n, k, multi_)                                                                 \
    {.name = n, .dir = 0, .event = "ike_request", .multi = multi_, .key = k, .get = buffer}, \
    {.name = n, .dir = 1, .event = "ike_response", .multi = multi_, .key = k, .get = buffer}
/* each side's, under that side's event (a rule without direction inspects both) */
static const struct proto_buffer BUFFERS[] = {
    /* the message: what the ike.* integer keywords run on (no keyword names it) */
    BUF2("ike.transaction", IB_TX, false),
    BUF2("ike.init_spi", IB_INIT_SPI, false),
    BUF2("ike.resp_spi", IB_RESP_SPI, false),
    BUF2("ike.vendor", IB_VENDOR, true),
    BUF2("ike.key_exchange_payload", IB_KE, false),
    BUF2("ike.nonce_payload", IB_NONCE, false),
};
#undef BUF2

/* The first IKEv2 transform of a type answering the attribute name's (alg_enc ENCR,
 * alg_prf PRF, alg_auth INTEG, alg_dh DH), as Suricata reads them. */
static bool v2_attr(const struct ike_msg *m, unsigned type, int64_t *out)
{
    unsigned t = type == 1 ? 1 : type == 13 ? 2 : type == 3 ? 3 : type == 4 ? 4 : 0;
    for (uint32_t i = 0; t && i < m->nv2t; i++)
        if (m->v2t[i].type == t) {
            *out = m->v2t[i].id;
            return true;
        }
    return false;
}

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct ike_msg *m = cur(pf);
    if (!m || i)
        return false;
    switch (key) {
    case IF_EXCHTYPE:
        *out = m->exch;
        return true;
    case IF_KE_LEN:
    case IF_NONCE_LEN: {
        const struct span *sp = key == IF_KE_LEN ? &m->ke : &m->nonce;
        *out = sp->len;
        return m->maj == 1 && sp->set && sp->len;
    }
    default:
        break;
    }
    unsigned type = key - IF_ATTR;
    if (m->maj == 2)
        return v2_attr(m, type, out);
    if (!m->nv1t)
        return false;
    for (uint8_t k = 0; k < m->v1t[0].nattr; k++) /* the first transform: the chosen one */
        if (m->v1t[0].attr[k].type == type && m->v1t[0].attr[k].numeric) {
            *out = m->v1t[0].attr[k].value;
            return true;
        }
    return false;
}

#define ATTR(n, t) {"ike.chosen_sa_attribute." n, IF_ATTR + (t), field, NULL}
static const struct proto_field FIELDS[] = {
    {"ike.exchtype", IF_EXCHTYPE, field, NULL},
    {"ike.key_exchange_payload_length", IF_KE_LEN, field, NULL},
    {"ike.nonce_payload_length", IF_NONCE_LEN, field, NULL},
    ATTR("alg_enc", 1), ATTR("alg_hash", 2), ATTR("alg_auth", 3), ATTR("alg_dh", 4),
    ATTR("sa_group_type", 5), ATTR("sa_group_prime", 6), ATTR("sa_group_generator_one", 7),
    ATTR("sa_group_generator_two", 8), ATTR("sa_group_curve_a", 9),
    ATTR("sa_group_curve_b", 10), ATTR("sa_life_type", 11), ATTR("sa_life_duration", 12),
    ATTR("alg_prf", 13), ATTR("sa_key_length", 14), ATTR("sa_field_size", 15),
    ATTR("sa_group_order", 16),
};
#undef ATTR

static const char *const ANOMALIES[] = {
    [IKE_AE_MALFORMED_DATA] = "ike.malformed_data",
    [IKE_AE_NO_ENCRYPTION] = "ike.no_encryption",
    [IKE_AE_WEAK_CRYPTO_ENC] = "ike.weak_crypto_enc",
    [IKE_AE_WEAK_CRYPTO_PRF] = "ike.weak_crypto_prf",
    [IKE_AE_WEAK_CRYPTO_DH] = "ike.weak_crypto_dh",
    [IKE_AE_WEAK_CRYPTO_AUTH] = "ike.weak_crypto_auth",
    [IKE_AE_WEAK_CRYPTO_NO_DH] = "ike.weak_crypto_no_dh",
    [IKE_AE_WEAK_CRYPTO_NO_AUTH] = "ike.weak_crypto_no_auth",
    [IKE_AE_INVALID_PROPOSAL] = "ike.invalid_proposal",
    [IKE_AE_UNKNOWN_PROPOSAL] = "ike.unknown_proposal",
    [IKE_AE_PAYLOAD_EXTRA_DATA] = "ike.payload_extra_data",
    [IKE_AE_MULTIPLE_SERVER_PROPOSAL] = "ike.multiple_server_proposal",
};
_Static_assert(PROTO_N(ANOMALIES) == IKE_AE__COUNT, "one name per event");

static const char *const COUNTERS[] = {
    [IKE_C_TX] = "ike_tx",
    [IKE_C_MALFORMED] = "ike_malformed", /* a datagram of the flow that is no IKE message */
    [IKE_C_SHED] = "ike_shed",           /* payloads, transforms, vendor ids … past limits */
};

/* IKEv1: what the record reports of each side over the flow */
static void keep_v1(struct ike_state *st, int dir)
{
    struct ike_msg *m = &st->cur;
    struct ike_side *side = &st->side[dir];
    if (m->has_doi) {
        st->has_doi = true;
        st->doi = m->doi;
    }
    if (m->ke.set) {
        pbuf_reset(&side->ke);
        pbuf_add(&side->ke, m->body + m->ke.off, m->ke.len, IKE_KEEP_MAX);
    }
    if (m->nonce.set) {
        pbuf_reset(&side->nonce);
        pbuf_add(&side->nonce, m->body + m->nonce.off, m->nonce.len, IKE_KEEP_MAX);
    }
    if (dir == 1 && m->nv1t) {
        side->chosen = m->v1t[0];
        for (uint8_t k = 0; k < side->chosen.nattr; k++) /* its spans die with the message */
            side->chosen.attr[k].bytes.set = false;
        side->ntransforms = m->nv1t;
        if (m->nv1t > 1)
            m->events |= 1u << IKE_AE_MULTIPLE_SERVER_PROPOSAL;
    }
}

static void ike_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                            size_t n)
{
    int at = ike_offset(d, n, f);
    if (at < 0) /* ESP or a keepalive on 4500: not IKE's */
        return;
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct ike_state))))
        return;
    struct ike_state *st = pf->state;
    struct ike_msg m;
    d += at, n -= (size_t)at;
    if (n > UINT32_MAX || !ike_decode(&m, d, (uint32_t)n)) {
        pflow_count(pf, IKE_C_MALFORMED, 1);
        pflow_anomaly(pf, f, dir, IKE_AE_MALFORMED_DATA);
        return;
    }
    ike_msg_free(&st->cur);
    st->cur = m;
    st->cur.dir = (uint8_t)dir;
    st->cur.id = st->next_id++;
    st->has_cur = true;
    if (m.maj == 1 && !m.encrypted)
        keep_v1(st, dir);
    if (st->cur.shed)
        pflow_count(pf, IKE_C_SHED, st->cur.shed);
    pflow_count(pf, IKE_C_TX, 1);
    for (unsigned e = 0; e < IKE_AE__COUNT; e++) /* each kind once per message */
        if (st->cur.events & 1u << e)
            pflow_anomaly(pf, f, dir, e);
    pflow_raise(pf, f, dir, dir == 0 ? IKE_EV_REQUEST : IKE_EV_RESPONSE);
    pflow_tx_done(pf, f);
}

static void ike_free(void *state)
{
    struct ike_state *st = state;
    if (!st)
        return;
    ike_msg_free(&st->cur);
    for (int k = 0; k < 2; k++) {
        pbuf_free(&st->side[k].ke);
        pbuf_free(&st->side[k].nonce);
    }
    free(st);
}

static uint32_t ike_tx_id(const struct pflow *pf)
{
    const struct ike_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}

const struct osprey_proto_def ike_proto = {
    .name = "ike",
    .flow_stat = "flow.ike",
    .alias = {"ikev2", NULL}, /* Suricata's name before 6.0, still accepted */
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = ike_parse_dgram,
    .state_free = ike_free,
    .tx_id = ike_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = IKE_C_TX,
    .eve = ike_eve,
};
