/* modbus.c — Modbus/TCP's descriptor: a probe (port 502, an MBAP header), a transaction per
 * request and its response (stream.c), the events modbus_request and modbus_response, the
 * fields Suricata's `modbus:` keyword reads of the request (function, subfunction, category,
 * unit, the tables read and written, every address accessed, each register written with its
 * address) and the
 * response's exception code, Suricata's app-layer events, counters, the setting
 * app-layer.protocols.modbus.request-flood and its EVE object. Registered in
 * core/registry.c. */
#include <stddef.h>

#include "modbus_int.h"

static const struct proto_probe PROBES[] = {{6, 0, modbus_probe}, {6, 1, modbus_probe},
                                            {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [MB_EV_REQUEST] = {"modbus_request", 0, NULL},
    [MB_EV_RESPONSE] = {"modbus_response", 1, NULL},
};

static const struct modbus_tx *cur(struct pflow *pf)
{
    const struct modbus_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

/* what the modbus keyword runs on: the request in force (no bytes of its own: "") */
static const uint8_t *request(struct pflow *pf, unsigned key, uint32_t i,
                              struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    const struct modbus_tx *tx = cur(pf);
    if (!tx || !tx->has_req || i)
        return NULL;
    *len = 0;
    return (const uint8_t *)"";
}

static const struct proto_buffer BUFFERS[] = {
    [MBB_REQUEST] = {.name = "modbus.request", .dir = 0, .event = "modbus_request",
                     .key = MBB_REQUEST, .get = request},
};

/* the i-th register a request writes, with its address: a single write's (functions 5, 6), a
 * Write Multiple Registers' (16) or a Read/Write Multiple's write part (23), from the PDU's
 * kept bytes */
static bool write_value(const struct modbus_pdu *p, uint32_t i, int64_t *out)
{
    if (p->has_value) {
        *out = i ? 0 : (int64_t)p->write_addr << 16 | p->value;
        return i == 0;
    }
    uint32_t at = p->fc == 16 ? 5 : p->fc == 23 ? 9 : 0;
    if (!at || !p->has_write || i >= p->write_qty || at + 2 * i + 2 > p->ndata)
        return false;
    *out = (int64_t)((p->write_addr + i) & 0xffff) << 16 | rd_be16(p->data + at + 2 * i);
    return true;
}

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct modbus_tx *tx = cur(pf);
    if (!tx)
        return false;
    if (key == MBF_EXCEPTION) {
        if (i || !tx->has_resp || !tx->resp.exception)
            return false;
        *out = tx->resp.exc_code;
        return true;
    }
    if (!tx->has_req)
        return false;
    const struct modbus_pdu *p = &tx->req;
    /* every address accessed, one element each */
    if (key == MBF_READ_ADDRESS || key == MBF_WRITE_ADDRESS) {
        bool has = key == MBF_READ_ADDRESS ? p->has_read : p->has_write;
        uint32_t start = key == MBF_READ_ADDRESS ? p->read_addr : p->write_addr;
        uint32_t qty = key == MBF_READ_ADDRESS ? p->read_qty : p->write_qty;
        if (!has || i >= (qty ? qty : 1))
            return false;
        *out = (int64_t)start + i;
        return true;
    }
    if (key == MBF_WRITE_VALUE) /* address << 16 | value, one element per register written */
        return write_value(p, i, out);
    if (i)
        return false;
    switch (key) {
    case MBF_FUNCTION: *out = p->raw_fc; return true;
    case MBF_SUBFUNCTION: *out = p->sub; return p->has_sub;
    case MBF_CATEGORY: *out = p->category; return p->category != MB_CAT_NONE;
    case MBF_UNIT: *out = p->unit; return true;
    case MBF_READ_TABLE: *out = p->read_table; return p->has_read;
    case MBF_WRITE_TABLE: *out = p->write_table; return p->has_write;
    default: return false;
    }
}

static const struct proto_value CATEGORIES[] = {
    {"assigned", MB_CAT_ASSIGNED}, {"unassigned", MB_CAT_UNASSIGNED}, {"user", MB_CAT_USER},
    {"reserved", MB_CAT_RESERVED}, {NULL, 0}};
static const struct proto_value TABLES[] = {
    {"discretes", MB_T_DISCRETES}, {"coils", MB_T_COILS}, {"input", MB_T_INPUT},
    {"holding", MB_T_HOLDING}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"modbus.function", MBF_FUNCTION, field, NULL},
    {"modbus.subfunction", MBF_SUBFUNCTION, field, NULL},
    {"modbus.category", MBF_CATEGORY, field, CATEGORIES},
    {"modbus.unit", MBF_UNIT, field, NULL},
    {"modbus.read_table", MBF_READ_TABLE, field, TABLES},
    {"modbus.write_table", MBF_WRITE_TABLE, field, TABLES},
    {"modbus.read_address", MBF_READ_ADDRESS, field, NULL},
    {"modbus.write_address", MBF_WRITE_ADDRESS, field, NULL},
    {"modbus.write_value", MBF_WRITE_VALUE, field, NULL},
    {"modbus.exception", MBF_EXCEPTION, field, NULL},
};

static const char *const ANOMALIES[] = {
    [MB_AE_INVALID_PROTOCOL_ID] = "modbus.invalid_protocol_id",
    [MB_AE_UNSOLICITED_RESPONSE] = "modbus.unsolicited_response",
    [MB_AE_INVALID_LENGTH] = "modbus.invalid_length",
    [MB_AE_INVALID_FUNCTION_CODE] = "modbus.invalid_function_code",
    [MB_AE_INVALID_VALUE] = "modbus.invalid_value",
    [MB_AE_INVALID_EXCEPTION_CODE] = "modbus.invalid_exception_code",
    [MB_AE_VALUE_MISMATCH] = "modbus.value_mismatch",
    [MB_AE_FLOODED] = "modbus.flooded",
};

static const char *const COUNTERS[] = {
    [MB_C_TX] = "modbus_tx",
    [MB_C_MALFORMED] = "modbus_malformed",       /* a length no ADU can have: side given up */
    [MB_C_PENDING_SHED] = "modbus_pending_shed", /* requests shed past MB_PENDING_MAX */
};

#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct modbus_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG("app-layer.protocols.modbus.request-flood", OSPREY_CFG_UINT, request_flood, 0),
};
#undef CFG

static void modbus_cfg_defaults(void *v)
{
    ((struct modbus_cfg *)v)->request_flood = MB_FLOOD_DEFAULT;
}

static uint32_t modbus_tx_id(const struct pflow *pf)
{
    const struct modbus_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur.id : 0;
}

const struct osprey_proto_def modbus_proto = {
    .name = "modbus",
    .flow_stat = "flow.modbus",
    .l4 = 6,
    .probes = PROBES,
    .parse = modbus_parse,
    .end = modbus_end,
    .state_free = modbus_free,
    .tx_id = modbus_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = MB_C_TX,
    .eve = modbus_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct modbus_cfg), .cfg_defaults = modbus_cfg_defaults,
};
