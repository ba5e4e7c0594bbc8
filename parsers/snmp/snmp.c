/* snmp.c — SNMP's descriptor and its datagrams: a probe (UDP, ports 161/162), one message per
 * datagram and each a transaction (snmp_request from the client, snmp_response from the
 * server: Suricata inspects both ways), Suricata's sticky buffers snmp.community (v1/v2c) and
 * snmp.usm (v3's user name), its integer fields snmp.version (1, 2, 3) and snmp.pdu_type
 * (not for an encrypted v3 PDU), app-layer events, counters and its EVE object. Registered
 * in core/registry.c. */
#include <stddef.h>
#include <stdlib.h>

#include "snmp_int.h"

static const struct proto_probe PROBES[] = {{17, 0, snmp_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SNMP_EV_REQUEST] = {"snmp_request", 0, NULL},
    [SNMP_EV_RESPONSE] = {"snmp_response", 1, NULL},
};

static const struct snmp_msg *cur(struct pflow *pf)
{
    const struct snmp_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    const struct snmp_msg *m = cur(pf);
    const struct span *sp = !m || i ? NULL : key == SB_COMMUNITY ? &m->community : &m->usm;
    if (!sp || !sp->set)
        return NULL;
    *len = sp->len;
    return sp->len ? m->body + sp->off : (const uint8_t *)"";
}

/* each side's, under that side's event (a rule without direction inspects both) */
#define BUF(n, d, ev, k) {.name = n, .dir = d, .event = ev, .key = k, .get = buffer}
static const struct proto_buffer BUFFERS[] = {
    BUF("snmp.community", 0, "snmp_request", SB_COMMUNITY),
    BUF("snmp.community", 1, "snmp_response", SB_COMMUNITY),
    BUF("snmp.usm", 0, "snmp_request", SB_USM),
    BUF("snmp.usm", 1, "snmp_response", SB_USM),
};
#undef BUF

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct snmp_msg *m = cur(pf);
    if (!m || i)
        return false;
    if (key == SF_VERSION) {
        *out = m->version;
        return true;
    }
    *out = m->pdu_type;
    return m->has_pdu;
}

static const struct proto_field FIELDS[] = {
    {"snmp.version", SF_VERSION, field, NULL},
    {"snmp.pdu_type", SF_PDU_TYPE, field, NULL},
};

static const char *const ANOMALIES[] = {
    [SNMP_AE_MALFORMED] = "snmp.malformed_data",   /* a datagram that does not decode */
    [SNMP_AE_VERSION_MISMATCH] = "snmp.version_mismatch", /* not the flow's first version */
    [SNMP_AE_UNKNOWN_SECURITY_MODEL] = "snmp.unknown_security_model", /* v3 and not USM */
};

static const char *const COUNTERS[] = {
    [SNMP_C_TX] = "snmp_tx",
    [SNMP_C_MALFORMED] = "snmp_malformed",
    [SNMP_C_SHED] = "snmp_shed",          /* variable bindings past SNMP_VARS_MAX */
};

void snmp_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n)
{
    if (n > UINT32_MAX)
        return;
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct snmp_state))))
        return;
    struct snmp_state *st = pf->state;
    struct snmp_msg m;
    if (!snmp_decode(&m, d, (uint32_t)n)) {
        snmp_msg_free(&m);
        pflow_count(pf, SNMP_C_MALFORMED, 1);
        pflow_anomaly(pf, f, dir, SNMP_AE_MALFORMED);
        return;
    }
    if (m.shed)
        pflow_count(pf, SNMP_C_SHED, m.shed);
    bool mismatch = st->version && st->version != m.version;
    bool unknown_model = m.version == 3 && m.security_model != 3;
    if (!st->version)
        st->version = m.version;
    snmp_msg_free(&st->cur);
    st->cur = m;
    st->cur.dir = (uint8_t)dir;
    st->cur.id = st->next_id++;
    st->has_cur = true;
    pflow_count(pf, SNMP_C_TX, 1);
    if (mismatch)
        pflow_anomaly(pf, f, dir, SNMP_AE_VERSION_MISMATCH);
    if (unknown_model)
        pflow_anomaly(pf, f, dir, SNMP_AE_UNKNOWN_SECURITY_MODEL);
    pflow_raise(pf, f, dir, dir == 0 ? SNMP_EV_REQUEST : SNMP_EV_RESPONSE);
    pflow_tx_done(pf, f);
}

static void snmp_free(void *state)
{
    struct snmp_state *st = state;
    if (!st)
        return;
    snmp_msg_free(&st->cur);
    free(st);
}

static uint32_t snmp_tx_id(const struct pflow *pf)
{
    const struct snmp_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}

const struct osprey_proto_def snmp_proto = {
    .name = "snmp",
    .flow_stat = "flow.snmp",
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = snmp_parse_dgram,
    .state_free = snmp_free,
    .tx_id = snmp_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SNMP_C_TX,
    .eve = snmp_eve,
};
