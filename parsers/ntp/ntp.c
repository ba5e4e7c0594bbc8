/* ntp.c — NTP's descriptor and its datagrams (RFC 5905 §7.3): a probe (UDP port 123), one
 * message per datagram and each a transaction of its direction (ntp_request from the client,
 * ntp_response from the server), Suricata 8's keywords' fields ntp.version, ntp.stratum,
 * ntp.mode (with Suricata's mode names) and sticky buffer ntp.reference_id (the 4 bytes, not
 * for control messages), an app-layer event, counters and its EVE object. Registered in
 * core/registry.c. */
#include <stdlib.h>
#include <string.h>

#include "ntp_int.h"

bool ntp_decode(struct ntp_msg *m, const uint8_t *d, size_t n)
{
    memset(m, 0, sizeof *m);
    if (n < 1)
        return false;
    m->version = d[0] >> 3 & 7;
    m->mode = d[0] & 7;
    if (m->version < 1 || m->version > 4 || m->mode == 0)
        return false;
    if (m->mode == NTP_MODE_CONTROL || m->mode == NTP_MODE_PRIVATE)
        return n >= NTP_CTL_LEN;
    if (n < NTP_HDR_LEN)
        return false;
    m->stratum = d[1];
    m->has_stratum = true;
    memcpy(m->refid, d + 12, 4);
    return true;
}

static const struct proto_probe PROBES[] = {{17, 0, ntp_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [NTP_EV_REQUEST] = {"ntp_request", 0, NULL},
    [NTP_EV_RESPONSE] = {"ntp_response", 1, NULL},
};

static const struct ntp_msg *cur(struct pflow *pf)
{
    const struct ntp_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    const struct ntp_msg *m = cur(pf);
    if (!m || i || !m->has_stratum)
        return NULL;
    *len = 4;
    return m->refid;
}

/* each side's, under that side's event (a rule without direction inspects both) */
static const struct proto_buffer BUFFERS[] = {
    {.name = "ntp.reference_id", .dir = 0, .event = "ntp_request", .get = buffer},
    {.name = "ntp.reference_id", .dir = 1, .event = "ntp_response", .get = buffer},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct ntp_msg *m = cur(pf);
    if (!m || i || (key == NF_STRATUM && !m->has_stratum))
        return false;
    *out = key == NF_VERSION ? m->version : key == NF_MODE ? m->mode : m->stratum;
    return true;
}

/* Suricata's names of the modes (ntp.mode:client) */
static const struct proto_value MODES[] = {
    {"reserved", 0}, {"symmetric_active", 1}, {"symmetric_passive", 2}, {"client", 3},
    {"server", 4}, {"broadcast", 5}, {"control", 6}, {"private", 7}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"ntp.version", NF_VERSION, field, NULL},
    {"ntp.stratum", NF_STRATUM, field, NULL},
    {"ntp.mode", NF_MODE, field, MODES},
};

static const char *const ANOMALIES[] = {
    [NTP_AE_MALFORMED] = "ntp.malformed_data", /* a datagram of the flow that does not decode */
};

static const char *const COUNTERS[] = {
    [NTP_C_TX] = "ntp_tx",
    [NTP_C_MALFORMED] = "ntp_malformed",
};

static void ntp_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                            size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct ntp_state))))
        return;
    struct ntp_state *st = pf->state;
    struct ntp_msg m;
    if (!ntp_decode(&m, d, n)) {
        pflow_count(pf, NTP_C_MALFORMED, 1);
        pflow_anomaly(pf, f, dir, NTP_AE_MALFORMED);
        return;
    }
    st->cur = m;
    st->cur.id = st->next_id++;
    st->has_cur = true;
    pflow_count(pf, NTP_C_TX, 1);
    pflow_raise(pf, f, dir, dir == 0 ? NTP_EV_REQUEST : NTP_EV_RESPONSE);
    pflow_tx_done(pf, f);
}

static void ntp_free(void *state)
{
    free(state);
}

static uint32_t ntp_tx_id(const struct pflow *pf)
{
    const struct ntp_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}

const struct osprey_proto_def ntp_proto = {
    .name = "ntp",
    .flow_stat = "flow.ntp",
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = ntp_parse_dgram,
    .state_free = ntp_free,
    .tx_id = ntp_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = NTP_C_TX,
    .eve = ntp_eve,
};
