/* websocket.c — WebSocket's descriptor: no probes (a flow becomes WebSocket only through
 * HTTP/1's 101 Switching Protocols with "Upgrade: websocket", http/stream.c), one event per
 * direction's frame, websocket.payload (unmasked, a message's last frame the whole message,
 * inflated), the fields websocket.opcode / .mask / .flags, Suricata's two events, counters,
 * its EVE object and its max-payload-size. Registered in core/registry.c. */
#include <stddef.h>

#include "websocket_int.h"

static const struct proto_probe PROBES[] = {{0, 0, NULL}}; /* reached by upgrade only */

static const struct proto_event EVENTS[] = {
    [WS_EV_FRAME_TO_SERVER] = {"websocket_frame_to_server", 0, NULL},
    [WS_EV_FRAME_TO_CLIENT] = {"websocket_frame_to_client", 1, NULL},
};

static const struct ws_pdu *pdu(struct pflow *pf)
{
    const struct websocket_state *st = pf->state;
    return st && st->side[st->cur].pdu.set ? &st->side[st->cur].pdu : NULL;
}

static const uint8_t *payload(struct pflow *pf, unsigned key, uint32_t i,
                              struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)i, (void)s;
    const struct ws_pdu *p = pdu(pf);
    if (!p)
        return NULL;
    *len = p->payload.len;
    return p->payload.p ? p->payload.p : (const uint8_t *)"";
}

/* each direction's frame, under that direction's event (a rule without direction: both) */
static const struct proto_buffer BUFFERS[] = {
    {.name = "websocket.payload", .dir = 0, .event = "websocket_frame_to_server",
     .key = WSB_PAYLOAD, .get = payload},
    {.name = "websocket.payload", .dir = 1, .event = "websocket_frame_to_client",
     .key = WSB_PAYLOAD, .get = payload},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct ws_pdu *p = pdu(pf);
    if (!p || i > 0)
        return false;
    switch (key) {
    case WSF_OPCODE:
        *out = p->opcode;
        return true;
    case WSF_MASK: /* "the mask if any": an unmasked frame has none */
        *out = p->mask;
        return p->masked;
    default:
        *out = p->flags;
        return true;
    }
}

/* Suricata's names of the opcodes and flag bits (rules: websocket.opcode:ping, flags:fin) */
static const struct proto_value OPCODES[] = {
    {"continuation", 0}, {"text", 1}, {"binary", 2}, {"close", 8}, {"ping", 9}, {"pong", 10},
    {NULL, 0}};
static const struct proto_value FLAGS[] = {{"fin", WS_FIN}, {"comp", WS_RSV1}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"websocket.opcode", WSF_OPCODE, field, OPCODES},
    {"websocket.mask", WSF_MASK, field, NULL},
    {"websocket.flags", WSF_FLAGS, field, FLAGS},
};

static const char *const ANOMALIES[] = {
    [WS_AE_SKIP_END_OF_PAYLOAD] = "websocket.skip_end_of_payload",
    [WS_AE_REASSEMBLY_LIMIT_REACHED] = "websocket.reassembly_limit_reached",
};

static const char *const COUNTERS[] = {
    [WS_C_FRAMES] = "websocket_frames",
    [WS_C_PAYLOAD_SHED] = "websocket_payload_shed",     /* bytes past max-payload-size */
    [WS_C_INFLATE_FAILED] = "websocket_inflate_failed", /* compressed messages kept as sent */
    [WS_C_INFLATE_SHED] = "websocket_inflate_shed",     /* messages inflated past the limit */
};

static uint32_t tx_id(const struct pflow *pf)
{
    const struct websocket_state *st = pf->state;
    return st && st->frames ? st->frames - 1 : 0;
}

static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    {.key = "app-layer.protocols.websocket.max-payload-size", .kind = OSPREY_CFG_SIZE,
     .offset = offsetof(struct websocket_cfg, max_payload), .min = 1},
};

static void cfg_defaults(void *v)
{
    ((struct websocket_cfg *)v)->max_payload = WS_MAX_PAYLOAD_DEFAULT;
}

const struct osprey_proto_def websocket_proto = {
    .name = "websocket",
    .flow_stat = "flow.websocket",
    .l4 = 6,
    .probes = PROBES,
    .parse = websocket_parse,
    .state_free = websocket_free,
    .tx_id = tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = WS_C_FRAMES,
    .eve = websocket_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct websocket_cfg), .cfg_defaults = cfg_defaults,
};
