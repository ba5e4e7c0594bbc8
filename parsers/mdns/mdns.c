/* mdns.c — mDNS's descriptor (Suricata 8's `mdns`: DNS messages on UDP 5353 under an app-layer
 * name of their own). Each datagram is decoded by the shared DNS decoder (../dns_wire: dns_wire_message with
 * this descriptor's rows) and is a transaction; as Suricata, queries and responses may go
 * either way (a multicast response is "to server"), so the event is the direction's and the
 * QR bit only says request or response. The buffers are Suricata 8's mdns.* sticky buffers over
 * DNS's lists; the anomalies are Suricata's DNS events under mdns.*. Registered in
 * core/registry.c, before DNS. */
#include "mdns_int.h"

static const struct proto_probe PROBES[] = {{17, 0, mdns_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [MDNS_EV_TS] = {"mdns_to_server", 0, NULL},
    [MDNS_EV_TC] = {"mdns_to_client", 1, NULL},
};

static const uint8_t *buf(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    const struct dns_wire *st = pf->state;
    if (!st || !st->has_msg)
        return NULL;
    return dns_wire_list_at(st, (enum dns_wire_list)key, i, len);
}

#define L(name_, dir_, key_)                                                                \
    {.name = name_, .dir = dir_, .event = dir_ ? "mdns_to_client" : "mdns_to_server",         \
     .multi = true, .key = key_, .get = buf}
static const struct proto_buffer BUFFERS[] = {
    L("mdns.queries.rrname", 0, DNS_L_QUERIES), L("mdns.queries.rrname", 1, DNS_L_QUERIES),
    L("mdns.answers.rrname", 0, DNS_L_ANSWERS), L("mdns.answers.rrname", 1, DNS_L_ANSWERS),
    L("mdns.authorities.rrname", 0, DNS_L_AUTHORITIES),
    L("mdns.authorities.rrname", 1, DNS_L_AUTHORITIES),
    L("mdns.additionals.rrname", 0, DNS_L_ADDITIONALS),
    L("mdns.additionals.rrname", 1, DNS_L_ADDITIONALS),
    L("mdns.response.rrname", 0, DNS_L_RESPONSE), L("mdns.response.rrname", 1, DNS_L_RESPONSE),
};
#undef L

static const char *const ANOMALIES[] = {
    [MDNS_AE_MALFORMED] = "mdns.malformed_data",
    [MDNS_AE_Z_FLAG_SET] = "mdns.z_flag_set",
    /* Suricata's names, never raised on mDNS (either direction carries either kind) */
    [MDNS_AE_NOT_REQUEST] = "mdns.not_request",
    [MDNS_AE_NOT_RESPONSE] = "mdns.not_response",
    [MDNS_AE_INVALID_AUTHORITIES] = "mdns.invalid_authorities",
    [MDNS_AE_INVALID_ADDITIONALS] = "mdns.invalid_additionals",
    [MDNS_AE_NAME_TOO_LONG] = "mdns.name_too_long",
    [MDNS_AE_INVALID_OPCODE] = "mdns.invalid_opcode",
    /* a name's pointer to itself, more than DNS_NAME_STEPS labels and pointers (DNS's
     * decoder, ../dns_wire/name.c) */
    [MDNS_AE_INFINITE_LOOP] = "mdns.infinite_loop",
    [MDNS_AE_TOO_MANY_LABELS] = "mdns.too_many_labels",
};

static const char *const COUNTERS[] = {
    [MDNS_C_MESSAGES] = "mdns_messages",
    [MDNS_C_MALFORMED] = "mdns_malformed",
};

static const struct dns_wire_rows MDNS_ROWS = {
    .ev_query = MDNS_EV_TS, .ev_response = MDNS_EV_TC,
    .ae = {[DNS_WIRE_P_MALFORMED_DATA] = MDNS_AE_MALFORMED,
           [DNS_WIRE_P_Z_FLAG_SET] = MDNS_AE_Z_FLAG_SET,
           [DNS_WIRE_P_NOT_REQUEST] = DNS_WIRE_ROW_NONE,
           [DNS_WIRE_P_NOT_RESPONSE] = DNS_WIRE_ROW_NONE,
           [DNS_WIRE_P_INVALID_AUTHORITIES] = MDNS_AE_INVALID_AUTHORITIES,
           [DNS_WIRE_P_INVALID_ADDITIONALS] = MDNS_AE_INVALID_ADDITIONALS,
           [DNS_WIRE_P_NAME_TOO_LONG] = MDNS_AE_NAME_TOO_LONG,
           [DNS_WIRE_P_INVALID_OPCODE] = MDNS_AE_INVALID_OPCODE,
           [DNS_WIRE_P_INFINITE_LOOP] = MDNS_AE_INFINITE_LOOP,
           [DNS_WIRE_P_TOO_MANY_LABELS] = MDNS_AE_TOO_MANY_LABELS},
    .c_messages = MDNS_C_MESSAGES, .c_malformed = MDNS_C_MALFORMED,
    .by_dir = true, .any_message = true,
};

static void mdns_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                             size_t n)
{
    dns_wire_message(pf, f, dir, d, n, &MDNS_ROWS);
}

const struct osprey_proto_def mdns_proto = {
    .name = "mdns",
    .flow_stat = "flow.mdns",
    .l4 = 17,
    .probes = PROBES,
    .probe_rank = -1, /* before DNS, whose probe takes 5353 too */
    .parse_dgram = mdns_parse_dgram,
    .state_free = dns_wire_free,
    .tx_id = dns_wire_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = MDNS_C_MESSAGES,
    .eve = mdns_eve,
};
