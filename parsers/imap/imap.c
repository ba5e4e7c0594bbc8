/* imap.c — IMAP's descriptor. Suricata 8 only detects IMAP (no keywords, no EVE record of its
 * own): the flow's app_proto, `alert imap` headers and Snort 3's `service:imap` rules (content
 * and pcre on the stream; file_data the messages' attachments, as Snort 3's IMAP inspector
 * gives them). Events in the order a transaction reaches them (a command line, an
 * attachment of a message either side sends, a server line, the transaction's end),
 * file.data and the file layer's
 * rows, counters and configuration. Registered in core/registry.c. */
#include <stddef.h>

#include "files.h"
#include "imap_int.h"

static const struct proto_probe PROBES[] = {
    {6, 1, imap_probe_server}, {6, 0, imap_probe_client}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [IMAP_EV_REQUEST] = {"imap_request", 0, NULL},   /* a client line (a command, its data) */
    [IMAP_EV_FILE_TS] = {"imap_file_ts", 0, NULL},   /* an APPEND's attachment is whole */
    [IMAP_EV_FILE_TC] = {"imap_file_tc", 1, NULL},   /* a fetched attachment is whole */
    [IMAP_EV_RESPONSE] = {"imap_response", 1, NULL}, /* a server line */
    /* the transaction is complete (its tagged status line, or the flow's end): once each,
     * where its files are read (a FETCH's untagged lines would read them again) */
    [IMAP_EV_REQUEST_DONE] = {"imap_request_done", 0, NULL},
    [IMAP_EV_RESPONSE_DONE] = {"imap_response_done", 1, NULL},
};

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    const struct imap_state *st = pf->state;
    const struct imap_tx *t = st ? st->cur : NULL;
    if (!t || i || key > IB_FILE_TC || !t->has_file[key])
        return NULL;
    *len = t->file[key].len;
    return t->file[key].p ? t->file[key].p : (const uint8_t *)"";
}

static const struct proto_buffer BUFFERS[] = {
    /* an attachment's decoded bytes while its event runs (Snort 3's file_data on IMAP) */
    {.name = "file.data", .dir = 0, .event = "imap_file_ts", .key = IB_FILE_TS, .get = get},
    {.name = "file.data", .dir = 1, .event = "imap_file_tc", .key = IB_FILE_TC, .get = get},
    /* file.name, file.magic and the file keywords: the transaction's files once it is done */
    PFILE_BUFFERS("imap_request_done", "imap_response_done"),
};

static const char *const COUNTERS[] = {
    [IMAP_C_TXS] = "imap_transactions",
    [IMAP_C_FILES] = "imap_attachments",
    [IMAP_C_STARTTLS] = "imap_starttls",           /* flows handed to TLS */
    [IMAP_C_CMDS_SHED] = "imap_commands_shed",     /* past IMAP_TX_MAX waiting: not kept */
    [IMAP_C_LITERAL_BYTES] = "imap_literal_bytes", /* literal bytes read (messages or not) */
    [IMAP_C_FILE_BYTES_SHED] = "imap_file_bytes_shed", /* past attachment-limit */
};

static uint32_t tx_id(const struct pflow *pf)
{
    const struct imap_state *st = pf->state;
    return st->cur ? st->cur->id : st->head ? st->head->id : st->ntx;
}

#define IMAP_KEY "app-layer.protocols.imap."
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    {.key = IMAP_KEY "attachment-limit", .kind = OSPREY_CFG_SIZE,
     .offset = offsetof(struct imap_cfg, attachment_limit), .min = 1},
};

static void imap_cfg_defaults(void *v)
{
    ((struct imap_cfg *)v)->attachment_limit = IMAP_ATTACH_MAX;
}

const struct osprey_proto_def imap_proto = {
    .name = "imap",
    .flow_stat = "flow.imap",
    .l4 = 6,
    .suricata_stats = true,
    .probes = PROBES,
    .parse = imap_parse,
    .end = imap_end,
    .gap = imap_gap,
    .state_free = imap_free,
    .state_trim = imap_trim,
    .tx_id = tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = IMAP_C_TXS,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct imap_cfg), .cfg_defaults = imap_cfg_defaults,
};
