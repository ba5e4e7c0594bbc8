/* nfs.c — NFS's descriptor: probes (an ONC-RPC call to program 100003 over UDP or TCP, a
 * reply from port 2049 on TCP), events (nfs_request when a transaction starts — a call, a
 * file transfer's first call —, nfs_response when its reply completes it, and each
 * direction's file-complete event), the transaction row the integer keywords run on
 * (nfs.transaction: nfs_procedure, nfs.version / nfs_version, to the server as Suricata
 * registers them), the file rows, Suricata's nfs app-layer events, counters and its EVE
 * objects (nfs + rpc). app-layer.protocols.nfs.enabled is the core's. Registered in
 * core/registry.c. */
#include "nfs_int.h"

static const struct proto_probe PROBES[] = {
    {17, 0, nfs_probe_udp}, {6, 0, nfs_probe_tcp}, {6, 1, nfs_probe_tcp_reply},
    {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [NFS_EV_REQUEST] = {"nfs_request", 0, NULL},
    [NFS_EV_RESPONSE] = {"nfs_response", 1, NULL},
    [NFS_EV_FILE_TS] = {"nfs_file_to_server", 0, NULL},
    [NFS_EV_FILE_TC] = {"nfs_file_to_client", 1, NULL},
};

static const struct nfs_tx *cur(struct pflow *pf)
{
    const struct nfs_state *st = pf->state;
    return st ? st->cur : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    if (!cur(pf) || i)
        return NULL;
    *len = 0; /* the transaction itself: nothing to read, only that it is here */
    return (const uint8_t *)"";
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "nfs.transaction", .dir = 0, .event = "nfs_request", .key = NB_TX, .get = buffer},
    PFILE_BUFFERS("nfs_file_to_server", "nfs_file_to_client"),
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct nfs_tx *tx = cur(pf);
    const struct nfs_state *st = pf->state;
    if (!tx || i)
        return false;
    uint32_t version = st->version ? st->version : tx->version;
    if (key == NF_PROCEDURE_NAME) {
        *out = nfs_procedure_name_id(version, tx->procedure);
        return *out >= 0;
    }
    *out = key == NF_PROCEDURE ? tx->procedure : version;
    return true;
}

static const struct proto_field FIELDS[] = {
    {"nfs_procedure", NF_PROCEDURE, field, NULL},
    /* nfs_procedure:NAME (opt_nfs.c) reads this one: the name whatever the version */
    {"nfs_procedure.name", NF_PROCEDURE_NAME, field, nfs_procedure_names},
    {"nfs.version", NF_VERSION, field, NULL},
    {"nfs_version", NF_VERSION, field, NULL},
};

static const char *const ANOMALIES[] = {
    [NFS_AE_MALFORMED] = "nfs.malformed_data",               /* arguments that do not decode */
    [NFS_AE_NON_EXISTING_VERSION] = "nfs.non_existing_version", /* an NFS call of version
                                                                   other than 2, 3, 4 */
    [NFS_AE_UNSUPPORTED_VERSION] = "nfs.unsupported_version", /* (Suricata's name; not
                                                                  raised: every version is read) */
    [NFS_AE_TOO_MANY_TX] = "nfs.too_many_transactions",       /* NFS_TX_MAX open: one shed */
};

static const char *const COUNTERS[] = {
    [NFS_C_TX] = "nfs_tx",
    [NFS_C_MALFORMED] = "nfs_malformed",
    [NFS_C_SKIPPED] = "nfs_records_skipped", /* TCP records past NFS_RECORD_MAX */
    [NFS_C_TX_SHED] = "nfs_tx_shed",         /* open transactions past NFS_TX_MAX */
    [NFS_C_XID_SHED] = "nfs_calls_shed",     /* unanswered calls past NFS_XID_MAX */
    [NFS_C_NAME_SHED] = "nfs_names_shed",    /* handle names past NFS_NAMES_MAX */
    [NFS_C_GAPS] = "nfs_gaps",               /* TCP bytes lost: resynced after */
};

const struct osprey_proto_def nfs_proto = {
    .name = "nfs",
    .flow_stat = "flow.nfs",
    .l4 = 0,
    .probes = PROBES,
    .parse = nfs_parse,
    .parse_dgram = nfs_parse_dgram,
    .end = nfs_end,
    .gap = nfs_gap,
    .state_free = nfs_free,
    .tx_id = nfs_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = NFS_C_TX,
    .eve = nfs_eve,
    .eve_packet_dir = true, /* a reply's record is the server's, as Suricata writes it */
};
