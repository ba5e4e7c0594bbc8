/* smb.c — SMB's descriptor: a probe (a NetBIOS message carrying an SMB1/SMB2 header, either
 * side), events (each message for its frames, each request and final response, a tree
 * connect answered, a file's data at its close), the buffers (smb.share, smb.named_pipe, the
 * NTLMSSP user and domain, file.data, the smb1 / smb2 frames), the smb.version field,
 * Suricata's SMB app-layer events, counters, the EVE `smb` object, and DCERPC as the protocol
 * its named pipes carry (`carries`: parsers/dcerpc's events and buffers run on SMB flows).
 * Registered in core/registry.c. */
#include "files.h"
#include "smb_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, smb_probe_client}, {6, 1, smb_probe_server}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SMB_EV_PDU_TS] = {"smb_pdu_to_server", 0},
    [SMB_EV_REQUEST] = {"smb_request", 0},
    [SMB_EV_TREE_TS] = {"smb_tree_connect_to_server", 0},
    [SMB_EV_FILE_TS] = {"smb_file_to_server", 0},
    [SMB_EV_PDU_TC] = {"smb_pdu_to_client", 1},
    [SMB_EV_RESPONSE] = {"smb_response", 1},
    [SMB_EV_TREE] = {"smb_tree_connect", 1},
    [SMB_EV_FILE_TC] = {"smb_file_to_client", 1},
};

/* frame keys: the kind (SMBB_PDU / HDR / DATA) and the SMB version above it */
#define FRAME(kind, ver) ((kind) | (ver) << 4)

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)i, (void)s;
    const struct smb_state *st = pf->state;
    const struct smb_tx *tx = &st->tx;
    const struct smb_file *fl = st->cur_file;
    switch (key & 15) {
    case SMBB_SHARE: /* the share in force: a disk (or printer) share, or IPC$ */
    case SMBB_PIPE:
        if (!st->has_tree || st->is_pipe != (key == SMBB_PIPE))
            return NULL;
        *len = st->share_len;
        return st->share;
    case SMBB_NTLM_USER:
    case SMBB_NTLM_DOMAIN:
        if (!tx->ntlm)
            return NULL;
        *len = key == SMBB_NTLM_USER ? tx->user_len : tx->domain_len;
        return key == SMBB_NTLM_USER ? tx->user : tx->domain;
    case SMBB_TX: /* the transaction itself (what smb.version runs on) */
        if (!tx->id)
            return NULL;
        *len = 0;
        return (const uint8_t *)"";
    case SMBB_FILE_TS:
    case SMBB_FILE_TC:
        if (!fl || !fl->data[key == SMBB_FILE_TC].len)
            return NULL;
        *len = fl->data[key == SMBB_FILE_TC].len;
        return fl->data[key == SMBB_FILE_TC].p;
    default: /* the frames of the message being run */
        if (!st->pdu || st->pdu_ver != key >> 4)
            return NULL;
        if ((key & 15) == SMBB_PDU) {
            *len = st->pdu_len;
            return st->pdu;
        }
        if ((key & 15) == SMBB_HDR) {
            *len = st->hdr_len;
            return st->pdu;
        }
        *len = st->pdu_len - st->hdr_len;
        return st->pdu + st->hdr_len;
    }
}

#define FR(n, d, kind, ver)                                                                  \
    {.name = n, .dir = d, .event = (d) ? "smb_pdu_to_client" : "smb_pdu_to_server",          \
     .key = FRAME(kind, ver), .get = get}
static const struct proto_buffer BUFFERS[] = {
    /* a tree connect answered. SMB1's share both ways (Suricata's transaction is there from
     * the request, the share inspected as the request comes and again with the answer), a
     * named pipe to the client (only the answer says it is one); SMB2's to the client (its
     * transaction is made when the answer comes) */
    {.name = "smb.share", .alias = {"smb_share"}, .dir = 0,
     .event = "smb_tree_connect_to_server", .key = SMBB_SHARE, .get = get},
    {.name = "smb.share", .alias = {"smb_share"}, .dir = 1, .event = "smb_tree_connect",
     .key = SMBB_SHARE, .get = get},
    {.name = "smb.named_pipe", .alias = {"smb_named_pipe"}, .dir = 1,
     .event = "smb_tree_connect", .key = SMBB_PIPE, .get = get},
    {.name = "smb.ntlmssp_user", .dir = 0, .event = "smb_request", .key = SMBB_NTLM_USER,
     .get = get},
    {.name = "smb.ntlmssp_domain", .dir = 0, .event = "smb_request", .key = SMBB_NTLM_DOMAIN,
     .get = get},
    /* each transaction's request and response: what smb.version runs on */
    {.name = "smb.transaction", .dir = 0, .event = "smb_request", .key = SMBB_TX, .get = get},
    {.name = "smb.transaction", .dir = 1, .event = "smb_response", .key = SMBB_TX, .get = get},
    /* a file's bytes, each way, at its close (files.c) */
    {.name = "file.data", .dir = 0, .event = "smb_file_to_server", .key = SMBB_FILE_TS,
     .get = get},
    {.name = "file.data", .dir = 1, .event = "smb_file_to_client", .key = SMBB_FILE_TC,
     .get = get},
    /* the file layer's rows (file.name, file.magic; the file keywords run there too) */
    PFILE_BUFFERS("smb_file_to_server", "smb_file_to_client"),
    /* Suricata's frames: each message (each command of an SMB2 compound), its header, the
     * rest */
    FR("frame:smb1.pdu", 0, SMBB_PDU, 1), FR("frame:smb1.pdu", 1, SMBB_PDU, 1),
    FR("frame:smb1.hdr", 0, SMBB_HDR, 1), FR("frame:smb1.hdr", 1, SMBB_HDR, 1),
    FR("frame:smb1.data", 0, SMBB_DATA, 1), FR("frame:smb1.data", 1, SMBB_DATA, 1),
    FR("frame:smb2.pdu", 0, SMBB_PDU, 2), FR("frame:smb2.pdu", 1, SMBB_PDU, 2),
    FR("frame:smb2.hdr", 0, SMBB_HDR, 2), FR("frame:smb2.hdr", 1, SMBB_HDR, 2),
    FR("frame:smb2.data", 0, SMBB_DATA, 2), FR("frame:smb2.data", 1, SMBB_DATA, 2),
};

/* smb.version: the transaction's (its request's header), else the last message's */
static bool version(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    (void)key;
    const struct smb_state *st = pf->state;
    if (i > 0 || !st->version)
        return false;
    *out = st->tx.id ? st->tx.ver : st->version;
    return true;
}

static const struct proto_field FIELDS[] = {
    {"smb.version", 0, version, NULL},
};

static const char *const ANOMALIES[] = {
    [SMB_AE_MALFORMED] = "smb.malformed_data",        /* a session message that is no SMB */
    [SMB_AE_RECORD_OVERFLOW] = "smb.record_overflow", /* a message past SMB_MSG_MAX */
    [SMB_AE_FILE_OVERLAP] = "smb.file_overlap",       /* a write / read over seen bytes */
    [SMB_AE_REQ_TO_CLIENT] = "smb.request_to_client",
    [SMB_AE_RESP_TO_SERVER] = "smb.response_to_server",
    [SMB_AE_NBSS_TYPE] = "smb.unusual_nbss_type",     /* not a NetBIOS session type */
    [SMB_AE_NTLMSSP_REQ] = "smb.malformed_ntlmssp_request",
    /* an SMB1 negotiate's dialect entry empty (no 0x02 or no name), or its response's index
     * past the dialects */
    [SMB_AE_BAD_DIALECTS] = "smb.negotiate_malformed_dialects",
    /* SMB2: a negotiate response offering, or a read / write asking, more than
     * SMB_RW_SIZE_MAX (or than negotiated): the data is not read */
    [SMB_AE_NEGO_READ_LARGE] = "smb.negotiate_max_read_size_too_large",
    [SMB_AE_NEGO_WRITE_LARGE] = "smb.negotiate_max_write_size_too_large",
    [SMB_AE_READ_REQ_LARGE] = "smb.read_request_too_large",
    [SMB_AE_READ_RESP_LARGE] = "smb.read_response_too_large",
    [SMB_AE_WRITE_REQ_LARGE] = "smb.write_request_too_large",
};

static const char *const COUNTERS[] = {
    [SMB_C_MSGS] = "smb_messages",
    [SMB_C_TREES] = "smb_tree_connects",
    [SMB_C_MALFORMED] = "smb_malformed",            /* framing lost: resynced */
    [SMB_C_PENDING_SHED] = "smb_pending_shed",      /* requests past SMB_PENDING_MAX */
    [SMB_C_TXS] = "smb_transactions",
    [SMB_C_MSG_SHED] = "smb_message_bytes_shed",    /* message bytes past SMB_MSG_MAX */
    [SMB_C_FILES] = "smb_files",
    [SMB_C_FILES_SHED] = "smb_files_shed",          /* files past SMB_FILES_MAX */
    [SMB_C_FILE_BYTES_SHED] = "smb_file_bytes_shed", /* file bytes past SMB_FILE_MAX */
    [SMB_C_PIPE_BYTES] = "smb_pipe_bytes",          /* named pipe bytes given to DCERPC */
    [SMB_C_GAPS] = "smb_gaps",                      /* bytes lost: resynced after */
};


const struct osprey_proto_def smb_proto = {
    .name = "smb",
    .flow_stat = "flow.smb",
    .alias = {"netbios-ssn", NULL}, /* Snort 3's service name (the session service SMB rides) */
    .l4 = 6,
    .carries = {"dcerpc"},
    .probes = PROBES,
    .parse = smb_parse,
    .gap = smb_gap,
    .end = smb_end,
    .state_free = smb_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SMB_C_TXS,
    .eve = smb_eve,
};
