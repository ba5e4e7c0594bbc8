/* dcerpc.c — DCERPC's descriptor: probes (connection-oriented on TCP from either side,
 * connectionless on UDP), events (each PDU, for its frames; a request and a response once
 * their last fragment is in), the stub buffers and frames, the fields the dce keywords read
 * (rules/compile/dce_units.c), counters and its EVE object. Registered in core/registry.c. */
#include "dcerpc_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, dce_probe_co}, {6, 1, dce_probe_co}, {17, 0, dce_probe_cl}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [DCE_EV_PDU_REQ] = {"dcerpc_pdu_to_server", 0},
    [DCE_EV_REQUEST] = {"dcerpc_request", 0},
    [DCE_EV_PDU_RESP] = {"dcerpc_pdu_to_client", 1},
    [DCE_EV_RESPONSE] = {"dcerpc_response", 1},
};

static const uint8_t *get(struct pflow *pf, unsigned key, int dir, uint32_t *len)
{
    const struct dce_state *st = pf->state;
    if (!st)
        return NULL;
    const struct dce_side *s = &st->side[dir];
    const struct pbuf *b = key == DB_STUB ? &s->stub : &s->pdu;
    if (key == DB_STUB) {
        if (!s->frags || s->open || (dir == 0 ? !st->has_req : !st->has_resp))
            return NULL;
        *len = b->len;
        return b->p ? b->p : (const uint8_t *)"";
    }
    uint32_t hdr = st->udp ? DCE_CL_HDR : DCE_CO_HDR;
    if (b->len < hdr)
        return NULL;
    if (key == DB_HDR) {
        *len = hdr;
        return b->p;
    }
    uint32_t from = key == DB_DATA ? hdr : 0;
    *len = b->len - from;
    return b->p + from;
}

static const uint8_t *client(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    return get(pf, key, 0, len);
}

static const uint8_t *server(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    return get(pf, key, 1, len);
}

#define ROW(n, d, ev, k) {.name = n, .dir = d, .event = ev, .key = k, .get = (d) ? server : client}
static const struct proto_buffer BUFFERS[] = {
    /* the reassembled stub of the request, of the response */
    {.name = "dcerpc.stub_data", .alias = {"dce_stub_data"}, .dir = 0,
     .event = "dcerpc_request", .key = DB_STUB, .get = client},
    {.name = "dcerpc.stub_data", .alias = {"dce_stub_data"}, .dir = 1,
     .event = "dcerpc_response", .key = DB_STUB, .get = server},
    /* Suricata's frames: each PDU whole, its common header, its body */
    ROW("frame:dcerpc.pdu", 0, "dcerpc_pdu_to_server", DB_PDU),
    ROW("frame:dcerpc.pdu", 1, "dcerpc_pdu_to_client", DB_PDU),
    ROW("frame:dcerpc.hdr", 0, "dcerpc_pdu_to_server", DB_HDR),
    ROW("frame:dcerpc.hdr", 1, "dcerpc_pdu_to_client", DB_HDR),
    ROW("frame:dcerpc.data", 0, "dcerpc_pdu_to_server", DB_DATA),
    ROW("frame:dcerpc.data", 1, "dcerpc_pdu_to_client", DB_DATA),
};

/* The fields of the transaction in force (absent without a request). */
static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct dce_state *st = pf->state;
    if (i > 0 || !st)
        return false;
    if (key == DF_LE) { /* the byte order of the PDU read last (its stub is inspected now) */
        *out = st->side[st->last_dir].little;
        return true;
    }
    if (!st->tx_open || !st->has_req)
        return false;
    const uint8_t *u = NULL;
    uint32_t ver = 0;
    if (st->udp) {
        u = st->cl_iface;
        ver = st->cl_iface_ver & 0xFFFF;
    } else {
        const struct dce_ctx *c = dce_tx_ctx(st);
        if (c)
            u = c->uuid, ver = c->vmaj;
    }
    uint64_t half = 0;
    switch (key) {
    case DF_OPNUM:
        *out = st->opnum;
        return true;
    case DF_FIRST_FRAG:
        *out = st->first_frag;
        return true;
    case DF_IFACE_VER:
        *out = ver;
        return u != NULL;
    default: /* the interface UUID's two halves, in the text's byte order */
        if (!u)
            return false;
        for (int k = 0; k < 8; k++)
            half = half << 8 | u[(key == DF_IFACE_HI ? 0 : 8) + k];
        *out = (int64_t)half;
        return true;
    }
}

static const struct proto_field FIELDS[] = {
    {"dcerpc.opnum", DF_OPNUM, field, NULL},
    {"dcerpc.iface_hi", DF_IFACE_HI, field, NULL},
    {"dcerpc.iface_lo", DF_IFACE_LO, field, NULL},
    {"dcerpc.iface_version", DF_IFACE_VER, field, NULL},
    {"dcerpc.first_frag", DF_FIRST_FRAG, field, NULL},
    {"dcerpc.little_endian", DF_LE, field, NULL},
};

static const char *const COUNTERS[] = {
    [DCE_C_PDUS] = "dcerpc_pdus",
    [DCE_C_TXS] = "dcerpc_txs",
    [DCE_C_MALFORMED] = "dcerpc_malformed",   /* a header that is not DCERPC's: given up */
    [DCE_C_STUB_SHED] = "dcerpc_stub_shed",   /* stub bytes past DCE_STUB_MAX */
    [DCE_C_CTX_SHED] = "dcerpc_ctx_shed",     /* contexts past DCE_MAX_CTX */
    [DCE_C_GAPS] = "dcerpc_gaps",             /* TCP bytes lost: resynced after */
};

const struct osprey_proto_def dcerpc_proto = {
    .name = "dcerpc",
    .flow_stat = "flow.dcerpc",
    .l4 = 0,
    .probes = PROBES,
    .parse = dce_parse,
    .parse_dgram = dce_parse_dgram,
    .end = dce_end,
    .gap = dce_gap,
    .state_free = dce_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = DCE_C_TXS,
    .eve = dce_eve,
    .eve_carried = dce_eve_carried,
};
