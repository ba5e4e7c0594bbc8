/* rfb.c — RFB's (VNC's) descriptor: a probe (either side's ProtocolVersion), two events
 * (rfb_auth: the security handshake is over; rfb_server_init: the desktop name is in), the
 * buffers rfb.name and rfb.auth (what rfb.sectype and rfb.secresult run on), those two
 * fields with Suricata's result names, Suricata's four events, counters and its EVE object.
 * Registered in core/registry.c. */
#include "rfb_int.h"

static const struct proto_probe PROBES[] = {{6, 1, rfb_probe}, {6, 0, rfb_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [RFB_EV_AUTH] = {"rfb_auth", 1, NULL},
    [RFB_EV_SERVER_INIT] = {"rfb_server_init", 1, NULL},
};

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    const struct rfb_state *st = pf->state;
    if (!st)
        return NULL;
    if (key == RFBB_AUTH) { /* empty: present once the handshake is over */
        if (!st->auth_raised)
            return NULL;
        *len = 0;
        return (const uint8_t *)"";
    }
    if (!st->init_set)
        return NULL;
    *len = st->name.len;
    return st->name.p ? st->name.p : (const uint8_t *)"";
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "rfb.name", .dir = 1, .event = "rfb_server_init", .key = RFBB_NAME, .get = buffer},
    /* the security handshake: no keyword reads its bytes (rfb.sectype, rfb.secresult run
     * under it) */
    {.name = "rfb.auth", .dir = 1, .event = "rfb_auth", .key = RFBB_AUTH, .get = buffer},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct rfb_state *st = pf->state;
    if (!st || i > 0)
        return false;
    if (key == RFBF_SECTYPE) {
        *out = st->sectype;
        return st->sectype_set;
    }
    *out = st->result;
    return st->result_set;
}

/* rfb.secresult's names (Suricata's): unknown is any other value, 3 when a rule names it */
static const struct proto_value RESULTS[] = {
    {"ok", 0}, {"fail", 1}, {"toomany", 2}, {"unknown", 3}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"rfb.sectype", RFBF_SECTYPE, field, NULL},
    {"rfb.secresult", RFBF_SECRESULT, field, RESULTS},
};

static const char *const ANOMALIES[] = {
    [RFB_AE_MALFORMED_MESSAGE] = "rfb.malformed_message",
    [RFB_AE_UNIMPLEMENTED_SECURITY_TYPE] = "rfb.unimplemented_security_type",
    [RFB_AE_UNKNOWN_SECURITY_RESULT] = "rfb.unknown_security_result",
    [RFB_AE_CONFUSED_STATE] = "rfb.confused_state",
};

static const char *const COUNTERS[] = {
    [RFB_C_HANDSHAKES] = "rfb_handshakes",
    [RFB_C_MALFORMED] = "rfb_malformed",
    [RFB_C_SHED] = "rfb_shed", /* a name or reason cut at RFB_NAME_MAX */
};

const struct osprey_proto_def rfb_proto = {
    .name = "rfb",
    .flow_stat = "flow.rfb",
    .l4 = 6,
    .probes = PROBES,
    .parse = rfb_parse,
    .end = rfb_end,
    .state_free = rfb_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = RFB_C_HANDSHAKES,
    .eve = rfb_eve,
};
