/* rdp.c — RDP's descriptor: probes (the client's X.224 Connection Request, the server's
 * Connection Confirm, in TPKTs), one event per message Suricata makes a transaction of, the
 * cookie for records, counters and its EVE object. Suricata has no RDP rule keywords: `alert
 * rdp`, `app-layer-protocol:rdp`, Snort's `service:rdp` and content on the stream are what it
 * gives rules. Registered in core/registry.c. */
#include "rdp_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, rdp_probe_client}, {6, 1, rdp_probe_server}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [RDP_EV_INITIAL_REQUEST] = {"rdp_initial_request", 0, NULL},
    [RDP_EV_INITIAL_RESPONSE] = {"rdp_initial_response", 1, NULL},
    [RDP_EV_CONNECT_REQUEST] = {"rdp_connect_request", 0, NULL},
    [RDP_EV_CONNECT_RESPONSE] = {"rdp_connect_response", 1, NULL},
    [RDP_EV_TLS_HANDSHAKE] = {"rdp_tls_handshake", 1, NULL},
};

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)i, (void)s;
    const struct rdp_state *st = pf->state;
    if (!st || !st->cookie.len)
        return NULL;
    *len = st->cookie.len;
    return st->cookie.p;
}

static const struct proto_buffer BUFFERS[] = {
    /* the cookie, for records (osprey-trace) */
    {.name = "rdp.cookie", .dir = 0, .event = "rdp_initial_request", .record = true,
     .key = RDPB_COOKIE, .get = buffer},
};

static const char *const COUNTERS[] = {
    [RDP_C_TXS] = "rdp_transactions",
    [RDP_C_MALFORMED] = "rdp_malformed", /* a TPKT that does not parse, or past RDP_PDU_MAX */
    [RDP_C_SHED] = "rdp_shed",           /* channels past RDP_CHANNELS_MAX */
};

static uint32_t tx_id(const struct pflow *pf)
{
    const struct rdp_state *st = pf->state;
    return st && st->ntx ? st->ntx - 1 : 0;
}

const struct osprey_proto_def rdp_proto = {
    .name = "rdp",
    .flow_stat = "flow.rdp",
    .l4 = 6,
    .probes = PROBES,
    .parse = rdp_parse,
    .state_free = rdp_free,
    .tx_id = tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = RDP_C_TXS,
    .eve = rdp_eve,
};
