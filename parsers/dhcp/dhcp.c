/* dhcp.c — DHCP's descriptor and its datagrams: a probe (UDP, ports 67/68), one message per
 * datagram and each its own transaction of one direction (dhcp_request from the client,
 * dhcp_reply from the server: Suricata's issue 8621, a message is inspected once), the
 * integer fields Suricata's keywords read (dhcp.leasetime, dhcp.rebinding_time,
 * dhcp.renewal_time: options 51, 59, 58, absent when the message has none), its
 * app-layer events, counters and EVE object. Registered in core/registry.c. */
#include <stdlib.h>

#include "dhcp_int.h"

static const struct proto_probe PROBES[] = {{17, 0, dhcp_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [DHCP_EV_REQUEST] = {"dhcp_request", 0, NULL},
    [DHCP_EV_REPLY] = {"dhcp_reply", 1, NULL},
};

static const struct dhcp_msg *cur(struct pflow *pf)
{
    const struct dhcp_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    *len = 0; /* the message itself: nothing to read, only that it is here */
    return cur(pf) && i == 0 ? (const uint8_t *)"" : NULL;
}

/* each side's message: what the dhcp.* integer keywords run on (no keyword names it) */
static const struct proto_buffer BUFFERS[] = {
    {.name = "dhcp.transaction", .dir = 0, .event = "dhcp_request", .get = buffer},
    {.name = "dhcp.transaction", .dir = 1, .event = "dhcp_reply", .get = buffer},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    static const uint8_t CODE[] = {[DF_LEASETIME] = DHCP_OPT_LEASE_TIME,
                                   [DF_REBINDING_TIME] = DHCP_OPT_REBINDING_TIME,
                                   [DF_RENEWAL_TIME] = DHCP_OPT_RENEWAL_TIME};
    const struct dhcp_msg *m = cur(pf);
    if (!m || i)
        return false;
    if (key == DF_TYPE) { /* option 53, the DHCP message type (1 discover … 8 inform) */
        const struct dhcp_opt *o = dhcp_opt_find(m, DHCP_OPT_TYPE);
        if (!o || o->len < 1)
            return false;
        *out = m->body[o->off];
        return true;
    }
    uint32_t v;
    if (!dhcp_opt_u32(m, CODE[key], &v))
        return false;
    *out = v;
    return true;
}

static const struct proto_value TYPES[] = {
    {"discover", 1}, {"offer", 2}, {"request", 3}, {"decline", 4}, {"ack", 5},
    {"nak", 6}, {"release", 7}, {"inform", 8}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"dhcp.leasetime", DF_LEASETIME, field, NULL},
    {"dhcp.rebinding_time", DF_REBINDING_TIME, field, NULL},
    {"dhcp.renewal_time", DF_RENEWAL_TIME, field, NULL},
    {"dhcp.dhcp_type", DF_TYPE, field, TYPES}, /* for records (trace) */
};

static const char *const ANOMALIES[] = {
    [DHCP_AE_TRUNCATED_OPTIONS] = "dhcp.truncated_options", /* no END before the datagram's */
    [DHCP_AE_MALFORMED_OPTIONS] = "dhcp.malformed_options", /* an option runs past it */
};

static const char *const COUNTERS[] = {
    [DHCP_C_TX] = "dhcp_tx",
    [DHCP_C_MALFORMED] = "dhcp_malformed", /* a datagram that is no BOOTP/DHCP message */
    [DHCP_C_SHED] = "dhcp_shed",           /* options past DHCP_OPTS_MAX */
};

static void dhcp_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                             size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct dhcp_state))))
        return;
    struct dhcp_state *st = pf->state;
    struct dhcp_msg m;
    if (n > UINT32_MAX || !dhcp_decode(&m, d, (uint32_t)n)) {
        pflow_count(pf, DHCP_C_MALFORMED, 1);
        return;
    }
    if (m.shed)
        pflow_count(pf, DHCP_C_SHED, m.shed);
    dhcp_msg_free(&st->cur);
    st->cur = m;
    st->cur.id = st->next_id++;
    st->has_cur = true;
    pflow_count(pf, DHCP_C_TX, 1);
    if (m.truncated)
        pflow_anomaly(pf, f, dir, DHCP_AE_TRUNCATED_OPTIONS);
    if (m.malformed)
        pflow_anomaly(pf, f, dir, DHCP_AE_MALFORMED_OPTIONS);
    pflow_raise(pf, f, dir, dir == 0 ? DHCP_EV_REQUEST : DHCP_EV_REPLY);
    pflow_tx_done(pf, f);
}

static void dhcp_free(void *state)
{
    struct dhcp_state *st = state;
    if (!st)
        return;
    dhcp_msg_free(&st->cur);
    free(st);
}

static uint32_t dhcp_tx_id(const struct pflow *pf)
{
    const struct dhcp_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}

const struct osprey_proto_def dhcp_proto = {
    .name = "dhcp",
    .flow_stat = "flow.dhcp",
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = dhcp_parse_dgram,
    .state_free = dhcp_free,
    .tx_id = dhcp_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = DHCP_C_TX,
    .eve = dhcp_eve,
};
