/* enip.c — EtherNet/IP's descriptor (TCP and UDP port 44818): probes, a transaction per
 * request and its reply (stream.c), the events enip_request and enip_response, the fields of
 * the message in force that enip_command, cip_service and Suricata 8's enip.* keywords read
 * (command, status, protocol version, CIP services, paths and statuses, the identity's),
 * the sticky buffers enip.product_name and enip.service_name, Suricata's app-layer events,
 * counters and its EVE object. Registered in core/registry.c. */
#include <stddef.h>

#include "enip_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, enip_probe}, {6, 1, enip_probe}, {17, 0, enip_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [ENIP_EV_REQUEST] = {"enip_request", 0, NULL},
    [ENIP_EV_RESPONSE] = {"enip_response", 1, NULL},
};

/* the message just read (the side whose event runs) */
static const struct enip_msg *msg(struct pflow *pf)
{
    const struct enip_state *st = pf->state;
    if (!st || !st->has_cur)
        return NULL;
    if (st->last == 0)
        return st->cur.has_req ? &st->cur.req : NULL;
    return st->cur.has_resp ? &st->cur.resp : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    const struct enip_msg *m = msg(pf);
    if (!m || i)
        return NULL;
    if (key == ENIPB_PDU) { /* no bytes: what the integer keywords run on */
        *len = 0;
        return (const uint8_t *)"";
    }
    if ((key == ENIPB_PRODUCT_NAME && !m->has_identity) ||
        (key == ENIPB_SERVICE_NAME && !m->has_services))
        return NULL;
    *len = m->name_len;
    return m->name;
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "enip.pdu", .dir = 0, .event = "enip_request", .key = ENIPB_PDU, .get = buffer},
    {.name = "enip.pdu", .dir = 1, .event = "enip_response", .key = ENIPB_PDU, .get = buffer},
    {.name = "enip.product_name", .dir = 1, .event = "enip_response",
     .key = ENIPB_PRODUCT_NAME, .get = buffer},
    {.name = "enip.service_name", .dir = 1, .event = "enip_response",
     .key = ENIPB_SERVICE_NAME, .get = buffer},
};

/* element i of the CIP messages holding what key reads */
static bool cip_field(const struct enip_msg *m, bool request, unsigned key, uint32_t i,
                      int64_t *out)
{
    uint32_t k = 0;
    for (uint8_t j = 0; j < m->ncip; j++) {
        const struct enip_cip *c = &m->cip[j];
        int64_t v;
        switch (key) {
        case EF_CIP_SERVICE: v = c->service; break;
        case EF_CIP_PATH: /* cip_service: service, class, attribute in one (CMP_MASK) */
            if (c->reply || !request)
                continue;
            v = (int64_t)c->service << 48 |
                (int64_t)(c->class_id == ENIP_NONE ? 0xffffff : c->class_id & 0xffffff) << 24 |
                (c->attribute == ENIP_NONE ? 0xffffff : c->attribute & 0xffffff);
            break;
        case EF_CIP_CLASS: if (c->class_id == ENIP_NONE) continue; v = c->class_id; break;
        case EF_CIP_INSTANCE: if (c->instance == ENIP_NONE) continue; v = c->instance; break;
        case EF_CIP_ATTRIBUTE: if (c->attribute == ENIP_NONE) continue; v = c->attribute; break;
        case EF_CIP_STATUS: if (!c->reply) continue; v = c->status; break;
        default: /* EF_CIP_EXTSTATUS */
            if (!c->reply || !c->has_ext)
                continue;
            v = c->ext_status;
            break;
        }
        if (k++ == i) {
            *out = v;
            return true;
        }
    }
    return false;
}

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct enip_msg *m = msg(pf);
    if (!m)
        return false;
    if (key >= EF_CIP_SERVICE && key <= EF_CIP_EXTSTATUS)
        return cip_field(m, ((const struct enip_state *)pf->state)->last == 0, key, i, out);
    if (i)
        return false;
    switch (key) {
    case EF_COMMAND: *out = m->command; return true;
    case EF_STATUS: *out = m->status; return true;
    case EF_PROTOCOL_VERSION: *out = m->version; return m->has_version;
    case EF_CAPABILITIES: *out = m->capabilities; return m->has_services;
    default: break;
    }
    if (!m->has_identity)
        return false;
    switch (key) {
    case EF_VENDOR_ID: *out = m->vendor; return true;
    case EF_DEVICE_TYPE: *out = m->device_type; return true;
    case EF_PRODUCT_CODE: *out = m->product_code; return true;
    case EF_REVISION: *out = (int64_t)m->rev_major << 8 | m->rev_minor; return true;
    case EF_IDENTITY_STATUS: *out = m->id_status; return true;
    case EF_SERIAL: *out = m->serial; return true;
    case EF_STATE: *out = m->state; return true;
    default: return false;
    }
}

/* Suricata's names of the commands (enip_command:list_identity; EVE's spelling lowercased
 * is taken too) */
static const struct proto_value COMMANDS[] = {
    {"nop", 0}, {"list_services", 4}, {"list_identity", 0x63}, {"list_interfaces", 0x64},
    {"register_session", 0x65}, {"unregister_session", 0x66}, {"send_rr_data", 0x6f},
    {"send_unit_data", 0x70}, {"indicate_status", 0x72}, {"cancel", 0x73},
    {"listservices", 4}, {"listidentity", 0x63}, {"listinterfaces", 0x64},
    {"registersession", 0x65}, {"unregistersession", 0x66}, {"sendrrdata", 0x6f},
    {"sendunitdata", 0x70}, {"indicatestatus", 0x72}, {NULL, 0}};

/* Suricata's names of the encapsulation statuses (enip.status:invalid_cmd) */
static const struct proto_value STATUSES[] = {
    {"success", 0}, {"invalid_cmd", 1}, {"no_resources", 2}, {"incorrect_data", 3},
    {"invalid_session", 0x64}, {"invalid_length", 0x65}, {"unsupported_prot_rev", 0x69},
    {"encap_header_error", 0x6a}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"enip.command", EF_COMMAND, field, COMMANDS},
    {"enip.status", EF_STATUS, field, STATUSES},
    {"enip.protocol_version", EF_PROTOCOL_VERSION, field, NULL},
    {"enip.cip_service", EF_CIP_SERVICE, field, NULL},
    {"enip.cip_path", EF_CIP_PATH, field, NULL},
    {"enip.cip_class", EF_CIP_CLASS, field, NULL},
    {"enip.cip_instance", EF_CIP_INSTANCE, field, NULL},
    {"enip.cip_attribute", EF_CIP_ATTRIBUTE, field, NULL},
    {"enip.cip_status", EF_CIP_STATUS, field, NULL},
    {"enip.cip_extendedstatus", EF_CIP_EXTSTATUS, field, NULL},
    {"enip.vendor_id", EF_VENDOR_ID, field, NULL},
    {"enip.device_type", EF_DEVICE_TYPE, field, NULL},
    {"enip.product_code", EF_PRODUCT_CODE, field, NULL},
    {"enip.revision", EF_REVISION, field, NULL},
    {"enip.identity_status", EF_IDENTITY_STATUS, field, NULL},
    {"enip.serial", EF_SERIAL, field, NULL},
    {"enip.state", EF_STATE, field, NULL},
    {"enip.capabilities", EF_CAPABILITIES, field, NULL},
};

static const char *const ANOMALIES[] = {
    [ENIP_AE_TOO_MANY_TX] = "enip.too_many_transactions",
    [ENIP_AE_INVALID_PDU] = "enip.invalid_pdu",
};

static const char *const COUNTERS[] = {
    [ENIP_C_TX] = "enip_tx",
    [ENIP_C_MALFORMED] = "enip_malformed",
    [ENIP_C_CIP_SHED] = "enip_cip_shed", /* CIP messages past ENIP_CIP_MAX in one */
};

static uint32_t enip_tx_id(const struct pflow *pf)
{
    const struct enip_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}

const struct osprey_proto_def enip_proto = {
    .name = "enip",
    .flow_stat = "flow.enip",
    .l4 = 0,
    .probes = PROBES,
    .parse = enip_parse,
    .parse_dgram = enip_parse_dgram,
    .gap = enip_gap,
    .end = enip_end,
    .state_free = enip_free,
    .tx_id = enip_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = ENIP_C_TX,
    .eve = enip_eve,
};
