/* telnet.c — Telnet's descriptor: a probe (IAC option negotiation first, either side), the
 * frame events of each direction and the buffers frame:telnet.data / .ctl / .pdu they carry,
 * counters. No EVE object and no transactions (Suricata logs none for Telnet): `alert
 * telnet`, `app-layer-protocol:telnet`, Snort's `service:telnet` and content on the stream
 * are what it gives rules. Registered in core/registry.c. */
#include "telnet_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, telnet_probe}, {6, 1, telnet_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [TN_EV_DATA_TO_SERVER] = {"telnet_data_to_server", 0, NULL},
    [TN_EV_CTL_TO_SERVER] = {"telnet_ctl_to_server", 0, NULL},
    [TN_EV_PDU_TO_SERVER] = {"telnet_pdu_to_server", 0, NULL},
    [TN_EV_DATA_TO_CLIENT] = {"telnet_data_to_client", 1, NULL},
    [TN_EV_CTL_TO_CLIENT] = {"telnet_ctl_to_client", 1, NULL},
    [TN_EV_PDU_TO_CLIENT] = {"telnet_pdu_to_client", 1, NULL},
};

/* the last frame of the flow's direction in force, when it is of the kind key asks */
static const uint8_t *frame_of(struct pflow *pf, unsigned key, int dir, uint32_t *len)
{
    const struct telnet_state *st = pf->state;
    const struct tn_side *s = st ? &st->side[dir] : NULL;
    if (!s || !s->frame.len || (key == TNB_DATA && s->frame_is_ctl) ||
        (key == TNB_CTL && !s->frame_is_ctl))
        return NULL;
    *len = s->frame.len;
    return s->frame.p;
}

static const uint8_t *to_server(struct pflow *pf, unsigned key, uint32_t i,
                                struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    return frame_of(pf, key, 0, len);
}

static const uint8_t *to_client(struct pflow *pf, unsigned key, uint32_t i,
                                struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    return frame_of(pf, key, 1, len);
}

#define ROWS(nm, k, ev)                                                                       \
    {.name = nm, .dir = 0, .event = ev "_to_server", .key = k, .get = to_server},              \
    {.name = nm, .dir = 1, .event = ev "_to_client", .key = k, .get = to_client}
static const struct proto_buffer BUFFERS[] = {
    ROWS("frame:telnet.data", TNB_DATA, "telnet_data"),
    ROWS("frame:telnet.ctl", TNB_CTL, "telnet_ctl"),
    ROWS("frame:telnet.pdu", TNB_PDU, "telnet_pdu"),
};
#undef ROWS

static const char *const COUNTERS[] = {
    [TN_C_DATA] = "telnet_data_frames",
    [TN_C_CTL] = "telnet_ctl_frames",
    [TN_C_SHED] = "telnet_shed", /* bytes past TN_FRAME_MAX in one frame */
};

const struct osprey_proto_def telnet_proto = {
    .name = "telnet",
    .flow_stat = "flow.telnet",
    .l4 = 6,
    .probes = PROBES,
    .parse = telnet_parse,
    .gap = telnet_gap,
    .end = telnet_end,
    .state_free = telnet_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = -1,
};
