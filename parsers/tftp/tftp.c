/* tftp.c — TFTP's descriptors: tftp (requests on UDP port 69: probe, the tftp_request event
 * with the request current, counters, its EVE object) and tftp-data (the transfer a request
 * announced, decided by expectation only: its file and each direction's file event).
 * app-layer.protocols.tftp.enabled / tftp-data.enabled are the core's. Registered in
 * core/registry.c. */
#include "tftp_int.h"

static const struct proto_probe PROBES[] = {{17, 0, tftp_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [TFTP_EV_REQUEST] = {"tftp_request", 0, NULL},
};

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    const struct tftp_state *st = pf->state;
    if (!st || !st->opcode || i)
        return NULL;
    const struct pbuf *b = key == TB_FILE ? &st->file : &st->mode;
    *len = b->len;
    return b->p ? b->p : (const uint8_t *)"";
}

/* the request's file name and mode, for records (trace): Suricata has no TFTP buffers */
static const struct proto_buffer BUFFERS[] = {
    {.name = "tftp.file", .dir = 0, .event = "tftp_request", .record = true, .key = TB_FILE,
     .get = buffer},
    {.name = "tftp.mode", .dir = 0, .event = "tftp_request", .record = true, .key = TB_MODE,
     .get = buffer},
};

static const char *const COUNTERS[] = {
    [TFTP_C_TX] = "tftp_tx",
    [TFTP_C_MALFORMED] = "tftp_malformed",        /* a datagram that is no RRQ / WRQ */
    [TFTP_C_EXPECT_SHED] = "tftp_expect_shed",    /* a transfer announced past PEXPECT_MAX */
};

static uint32_t tx_id(const struct pflow *pf)
{
    const struct tftp_state *st = pf->state;
    return st && st->txs ? (uint32_t)(st->txs - 1) : 0;
}

const struct osprey_proto_def tftp_proto = {
    .name = "tftp",
    .flow_stat = "flow.tftp",
    .l4 = 17,
    .probes = PROBES,
    .parse_dgram = tftp_parse_dgram,
    .state_free = tftp_free,
    .tx_id = tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = TFTP_C_TX,
    .eve = tftp_eve,
};

static const struct proto_event DATA_EVENTS[] = {
    [TD_EV_FILE_TS] = {"tftp_data_file_to_server", 0, NULL},
    [TD_EV_FILE_TC] = {"tftp_data_file_to_client", 1, NULL},
};

static const struct proto_buffer DATA_BUFFERS[] = {
    PFILE_BUFFERS("tftp_data_file_to_server", "tftp_data_file_to_client"),
};

static const char *const DATA_COUNTERS[] = {
    [TD_C_FILES] = "tftp_data_files",
    [TD_C_BLOCKS_SKIPPED] = "tftp_data_blocks_skipped", /* a block again, or out of order */
};

const struct osprey_proto_def tftp_data_proto = {
    .name = "tftp-data",
    .flow_stat = "flow.tftp-data",
    .eve_name = "tftp_data",
    .l4 = 17,
    .expected = true,
    .parse_dgram = tftp_data_parse_dgram,
    .end = tftp_data_end,
    .state_free = tftp_data_free,
    .events = DATA_EVENTS, .nevents = PROTO_N(DATA_EVENTS),
    .buffers = DATA_BUFFERS, .nbuffers = PROTO_N(DATA_BUFFERS),
    .counters = DATA_COUNTERS, .ncounters = PROTO_N(DATA_COUNTERS),
    .tx_counter = TD_C_FILES,
};
