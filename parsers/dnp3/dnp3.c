/* dnp3.c — DNP3's descriptor (TCP port 20000): a probe (a link header whose CRC checks), a
 * transaction per application fragment (link.c), the events dnp3_request and dnp3_response,
 * the sticky buffer dnp3.data (the fragment, CRCs and transport headers removed), the fields
 * dnp3_func, dnp3_ind and dnp3_obj read (function code, a response's IIN, each object
 * header's group and variation), Suricata's app-layer events, counters and its EVE object.
 * Registered in core/registry.c. */
#include <stddef.h>

#include "dnp3_int.h"

static const struct proto_probe PROBES[] = {{6, 0, dnp3_probe}, {6, 1, dnp3_probe},
                                            {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [DNP3_EV_REQUEST] = {"dnp3_request", 0, NULL},
    [DNP3_EV_RESPONSE] = {"dnp3_response", 1, NULL},
};

static const struct dnp3_msg *cur(struct pflow *pf)
{
    const struct dnp3_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    const struct dnp3_state *st = pf->state;
    if (!cur(pf) || i)
        return NULL;
    *len = st->cur_data.len;
    return st->cur_data.p ? st->cur_data.p : (const uint8_t *)"";
}

/* each side's, under that side's event (a rule without direction inspects both) */
static const struct proto_buffer BUFFERS[] = {
    {.name = "dnp3.data", .alias = {"dnp3_data"}, .dir = 0, .event = "dnp3_request",
     .key = DNP3B_DATA, .get = buffer},
    {.name = "dnp3.data", .alias = {"dnp3_data"}, .dir = 1, .event = "dnp3_response",
     .key = DNP3B_DATA, .get = buffer},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct dnp3_msg *m = cur(pf);
    if (!m)
        return false;
    if (key == DF_OBJ) { /* group << 8 | variation, one element per object header */
        if (i >= m->nobj)
            return false;
        *out = (int64_t)m->obj[i].group << 8 | m->obj[i].variation;
        return true;
    }
    if (i)
        return false;
    if (key == DF_FUNC) {
        *out = m->func;
        return true;
    }
    *out = m->iin;
    return m->has_iin;
}

/* Suricata's names of the function codes (dnp3_func:read) */
static const struct proto_value FUNCS[] = {
    {"confirm", 0}, {"read", 1}, {"write", 2}, {"select", 3}, {"operate", 4},
    {"direct_operate", 5}, {"direct_operate_nr", 6}, {"immed_freeze", 7},
    {"immed_freeze_nr", 8}, {"freeze_clear", 9}, {"freeze_clear_nr", 10},
    {"freeze_at_time", 11}, {"freeze_at_time_nr", 12}, {"cold_restart", 13},
    {"warm_restart", 14}, {"initialize_data", 15}, {"initialize_appl", 16},
    {"start_appl", 17}, {"stop_appl", 18}, {"save_config", 19}, {"enable_unsolicited", 20},
    {"disable_unsolicited", 21}, {"assign_class", 22}, {"delay_measure", 23},
    {"record_current_time", 24}, {"open_file", 25}, {"close_file", 26},
    {"delete_file", 27}, {"get_file_info", 28}, {"authenticate_file", 29},
    {"abort_file", 30}, {"activate_config", 31}, {"authenticate_req", 32},
    {"authenticate_err", 33}, {"response", 129}, {"unsolicited_response", 130},
    {"authenticate_resp", 131}, {NULL, 0}};

/* the internal indications' bits as dnp3_ind names them (IIN1 high byte, IIN2 low) */
static const struct proto_value INDS[] = {
    {"all_stations", 0x0100}, {"class_1_events", 0x0200}, {"class_2_events", 0x0400},
    {"class_3_events", 0x0800}, {"need_time", 0x1000}, {"local_control", 0x2000},
    {"device_trouble", 0x4000}, {"device_restart", 0x8000},
    {"no_func_code_support", 0x0001}, {"object_unknown", 0x0002},
    {"parameter_error", 0x0004}, {"event_buffer_overflow", 0x0008},
    {"already_executing", 0x0010}, {"config_corrupt", 0x0020}, {"reserved_2", 0x0040},
    {"reserved_1", 0x0080}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"dnp3.func", DF_FUNC, field, FUNCS},
    {"dnp3.ind", DF_IND, field, INDS},
    {"dnp3.obj", DF_OBJ, field, NULL},
};

static const char *const ANOMALIES[] = {
    [DNP3_AE_FLOODED] = "dnp3.flooded",
    [DNP3_AE_LEN_TOO_SMALL] = "dnp3.len_too_small",
    [DNP3_AE_BAD_LINK_CRC] = "dnp3.bad_link_crc",
    [DNP3_AE_BAD_TRANSPORT_CRC] = "dnp3.bad_transport_crc",
    [DNP3_AE_UNKNOWN_OBJECT] = "dnp3.unknown_object",
    [DNP3_AE_TOO_MANY_POINTS] = "dnp3.too_many_points",
    [DNP3_AE_TOO_MANY_OBJECTS] = "dnp3.too_many_objects",
    [DNP3_AE_TOO_LONG_REASSEMBLY] = "dnp3.too_long_reassembly",
};

static const char *const COUNTERS[] = {
    [DNP3_C_TX] = "dnp3_tx",
    [DNP3_C_BAD_CRC] = "dnp3_bad_crc",       /* frames dropped for a CRC */
    [DNP3_C_OBJ_SHED] = "dnp3_objects_shed", /* fragments with headers past DNP3_OBJ_MAX */
    [DNP3_C_FRAG_SHED] = "dnp3_frag_shed",   /* fragments dropped past DNP3_FRAG_MAX */
    [DNP3_C_SKIPPED] = "dnp3_skipped",       /* bytes before a start, skipped */
};

static uint32_t dnp3_tx_id(const struct pflow *pf)
{
    const struct dnp3_state *st = pf->state;
    return st && st->has_cur ? (uint32_t)st->cur_id : 0;
}

const struct osprey_proto_def dnp3_proto = {
    .name = "dnp3",
    .flow_stat = "flow.dnp3",
    .l4 = 6,
    .probes = PROBES,
    .parse = dnp3_parse,
    .state_free = dnp3_free,
    .tx_id = dnp3_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = DNP3_C_TX,
    .eve = dnp3_eve,
    .eve_packet_dir = true,
};
