/* quic.c — QUIC's descriptor: a probe (a QUIC header on UDP 443 / 80), one event per
 * long-header packet and direction (each its transaction), the buffers Suricata 8 has on QUIC
 * (quic.version, quic.sni, quic.ua, quic.cyu.hash / .string, and ja3.hash / ja3.string /
 * ja4.hash / ja3s.* of the TLS hello in its Initials), its app-layer events (quic.*),
 * counters and the EVE `quic` object. Registered in core/registry.c. */
#include "quic_int.h"

static const struct proto_probe PROBES[] = {{17, 0, quic_probe}, {0, 0, NULL}};

#define TS "quic_packet_to_server"
#define TC "quic_packet_to_client"
static const struct proto_event EVENTS[] = {
    [QUIC_EV_TS] = {TS, 0, NULL},
    [QUIC_EV_TC] = {TC, 1, NULL},
};

static const uint8_t *pb(const struct pbuf *b, bool has, uint32_t *len)
{
    if (!has)
        return NULL;
    *len = b->len;
    return b->p ? b->p : (const uint8_t *)"";
}

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    const struct quic_state *st = pf->state;
    const struct quic_tx *tx = &st->tx;
    if (!tx->id || i > 0)
        return NULL;
    static const enum tls_buf TLS[] = {[QB_JA3_HASH] = TB_JA3_HASH,
                                       [QB_JA3_STRING] = TB_JA3_STRING, [QB_JA4] = TB_JA4,
                                       [QB_JA3S_HASH] = TB_JA3S_HASH,
                                       [QB_JA3S_STRING] = TB_JA3S_STRING};
    switch (key) {
    case QB_VERSION: /* the long header's four bytes */
        if (!tx->h.is_long && !tx->h.has_version)
            return NULL;
        *len = 4;
        return tx->h.version_buf;
    case QB_SNI: return pb(&tx->sni, tx->has_sni, len);
    case QB_UA: return pb(&tx->ua, tx->has_ua, len);
    case QB_CYU_HASH:
        if (!tx->has_cyu)
            return NULL;
        *len = 32;
        return (const uint8_t *)tx->cyu_hash;
    case QB_CYU_STRING: return pb(&tx->cyu, tx->has_cyu, len);
    default: { /* the hello of this packet: the TLS reader's spans */
        const struct tls_wire *t = st->tls;
        const struct span *sp = t && tx->hello ? &t->sp[TLS[key]] : NULL;
        if (!sp || !sp->set || (tx->dir == 0) != (key < QB_JA3S_HASH))
            return NULL;
        *len = sp->len;
        return t->copy.p + sp->off;
    }
    }
}

#define B(n, d, k) {.name = n, .dir = d, .event = (d) ? TC : TS, .key = k, .get = get}
static const struct proto_buffer BUFFERS[] = {
    B("quic.version", 0, QB_VERSION), B("quic.version", 1, QB_VERSION),
    B("quic.sni", 0, QB_SNI),
    B("quic.ua", 0, QB_UA),
    /* (one CHLO per packet: a list of one, Suricata's multi-buffer) */
    {.name = "quic.cyu.hash", .dir = 0, .event = TS, .multi = true, .key = QB_CYU_HASH,
     .get = get},
    {.name = "quic.cyu.string", .dir = 0, .event = TS, .multi = true, .key = QB_CYU_STRING,
     .get = get},
    /* the TLS fingerprints, as on TLS flows (`alert quic … ja4.hash`) */
    B("ja3.hash", 0, QB_JA3_HASH), B("ja3.string", 0, QB_JA3_STRING),
    B("ja4.hash", 0, QB_JA4),
    B("ja3s.hash", 1, QB_JA3S_HASH), B("ja3s.string", 1, QB_JA3S_STRING),
};

static const char *const ANOMALIES[] = {
    [QUIC_AE_FAILED_DECRYPT] = "quic.failed_decrypt",   /* a protected packet that does not
                                                           authenticate with the Initial keys */
    [QUIC_AE_ERROR_ON_DATA] = "quic.error_on_data",     /* frames that do not decode */
    [QUIC_AE_ERROR_ON_HEADER] = "quic.error_on_header", /* a header that does not parse */
    [QUIC_AE_CRYPTO_FRAG_TOO_LONG] = "quic.crypto_frag_too_long", /* CRYPTO past
                                                                     QUIC_CRYPTO_MAX */
};

static const char *const COUNTERS[] = {
    [QUIC_C_PACKETS] = "quic_datagrams",
    [QUIC_C_TXS] = "quic_packets",                 /* long-header packets: transactions */
    [QUIC_C_DECRYPTED] = "quic_decrypted",         /* protected packets read */
    [QUIC_C_FAILED_DECRYPT] = "quic_failed_decrypt",
    [QUIC_C_MALFORMED] = "quic_malformed",         /* headers, frames, hellos that do not
                                                      decode */
    [QUIC_C_CRYPTO_SHED] = "quic_crypto_bytes_shed", /* CRYPTO bytes past QUIC_CRYPTO_MAX */
    [QUIC_C_TAGS_SHED] = "quic_tags_shed",         /* gQUIC tags past QUIC_TAGS_MAX */
};

const struct osprey_proto_def quic_proto = {
    .name = "quic",
    .flow_stat = "flow.quic",
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = quic_parse_dgram,
    .state_free = quic_free,
    .tx_id = quic_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = QUIC_C_TXS,
    .eve = quic_eve,
};
