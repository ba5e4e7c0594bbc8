/* ftp.c — FTP's descriptor: the probes (a client's command, a server's 220 greeting), one
 * event per command and one per finished reply, the buffers Suricata's rules name
 * (ftp.command, ftp.command_data, the multi-buffers ftp.reply and ftp.completion_code), the
 * fields (ftp.dynamic_port, ftp.mode, ftp.reply_received), Suricata's anomaly names, counters
 * and the EVE `ftp` object. Registered in core/registry.c. */
#include <stddef.h>

#include "ftp_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, ftp_probe_client}, {6, 1, ftp_probe_server}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [FTP_EV_REQUEST] = {"ftp_request", 0},
    [FTP_EV_REPLY] = {"ftp_reply", 1},
    /* the command's side once its reply is in: Suricata inspects a transaction's to_server
     * side until it is done, so a to_server rule sees what the reply announced (PASV) */
    [FTP_EV_DONE] = {"ftp_request_done", 0},
};

static const struct ftp_tx *cur(struct pflow *pf)
{
    const struct ftp_state *st = pf->state;
    return st ? st->cur : NULL;
}

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    const struct ftp_tx *t = cur(pf);
    if (!t)
        return NULL;
    switch (key) {
    case FB_COMMAND:
        if (!t->has_cmd)
            return NULL;
        *len = t->verb_len;
        return t->cmd.p;
    case FB_COMMAND_DATA:
        if (!t->has_cmd || t->verb_len >= t->cmd.len)
            return NULL;
        *len = t->cmd.len - t->verb_len - 1;
        return t->cmd.p + t->verb_len + 1;
    case FB_REPLY:
        if (i >= t->nlines)
            return NULL;
        *len = t->len[i];
        return t->reply.p ? t->reply.p + t->off[i] : (const uint8_t *)"";
    case FB_CODE: { /* element i: the i-th line that has a code */
        for (uint32_t k = 0; k < t->nlines; k++)
            if (t->has_code[k] && i-- == 0) {
                *len = 3;
                return (const uint8_t *)t->code[k];
            }
        return NULL;
    }
    case FB_TX:
        *len = t->cmd.len;
        return t->cmd.p ? t->cmd.p : (const uint8_t *)"";
    case FB_LINE:
        if (!t->has_cmd)
            return NULL;
        *len = t->cmd.len;
        return t->cmd.p ? t->cmd.p : (const uint8_t *)"";
    }
    return NULL;
}

/* The command's buffers are read under the reply too (a to_client rule on ftp.command):
 * late rows. The reply's are current when the reply is finished. */
static const struct proto_buffer BUFFERS[] = {
    {.name = "ftp.command", .dir = 0, .event = "ftp_request", .key = FB_COMMAND, .get = get},
    {.name = "ftp.command", .dir = 1, .event = "ftp_reply", .late = true, .key = FB_COMMAND,
     .get = get},
    {.name = "ftp.command_data", .dir = 0, .event = "ftp_request", .key = FB_COMMAND_DATA,
     .get = get},
    {.name = "ftp.command_data", .dir = 1, .event = "ftp_reply", .late = true,
     .key = FB_COMMAND_DATA, .get = get},
    {.name = "ftp.reply", .dir = 1, .event = "ftp_reply", .multi = true, .key = FB_REPLY,
     .get = get},
    {.name = "ftp.completion_code", .dir = 1, .event = "ftp_reply", .multi = true,
     .key = FB_CODE, .get = get},
    /* the transaction itself (its command line, or nothing for a greeting): what the field
     * keywords ftp.mode and ftp.dynamic_port run on, in both directions as Suricata inspects
     * a transaction per direction (ftp.reply_received runs on the reply side) */
    {.name = "ftp.transaction", .dir = 0, .event = "ftp_request_done", .key = FB_TX,
     .get = get},
    {.name = "ftp.transaction", .dir = 1, .event = "ftp_reply", .key = FB_TX, .get = get},
    /* the whole command line, for records (osprey-trace) */
    {.name = "ftp.request_line", .dir = 0, .event = "ftp_request", .record = true,
     .key = FB_LINE, .get = get},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct ftp_tx *t = cur(pf);
    if (!t || i > 0)
        return false;
    switch (key) {
    case FF_DYN_PORT:
        *out = t->dyn_port;
        return t->dyn_port >= 0;
    case FF_MODE:
        *out = t->mode;
        return t->mode != FTP_MODE_NONE;
    case FF_BOUNCE: /* a PORT command's */
        *out = t->bounce;
        return t->is_port;
    case FF_REPLY_RECEIVED: /* a command's: a greeting answers none */
        *out = t->reply_received;
        return t->has_cmd;
    }
    return false;
}

static const struct proto_value MODES[] = {
    {"active", FTP_MODE_ACTIVE}, {"passive", FTP_MODE_PASSIVE}, {NULL, 0}};
static const struct proto_value YESNO[] = {{"no", 0}, {"yes", 1}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"ftp.dynamic_port", FF_DYN_PORT, field, NULL},
    {"ftp.mode", FF_MODE, field, MODES},
    {"ftp.reply_received", FF_REPLY_RECEIVED, field, YESNO},
    {"ftpbounce", FF_BOUNCE, field, YESNO}, /* a PORT to another host than the client */
};

static const char *const ANOMALIES[] = {
    [FTP_A_REQ_TOO_LONG] = "ftp.request_command_too_long",
    [FTP_A_RESP_TOO_LONG] = "ftp.response_command_too_long",
    [FTP_A_TOO_MANY_TX] = "ftp.too_many_transactions",
    /* a RETR / STOR before any PORT / EPRT / 227 / 229 gave a data port */
    [FTP_A_FILE_BEFORE_PORT] = "ftp.file_before_port",
    [FTP_A_FILE_WITHOUT_NAME] = "ftp.file_without_name", /* a RETR / STOR without argument */
};

static const char *const COUNTERS[] = {
    [FTP_C_TXS] = "ftp_transactions",
    [FTP_C_TX_SHED] = "ftp_tx_shed",       /* a command past max-tx: the side given up */
    [FTP_C_LINES_SHED] = "ftp_lines_shed", /* reply lines past FTP_REPLY_LINES */
    [FTP_C_EXPECT] = "ftp_expect",         /* data connections announced (RETR / STOR) */
    [FTP_C_EXPECT_SHED] = "ftp_expect_shed", /* expectations shed: the table was full */
};

#define FTP_KEY "app-layer.protocols.ftp."
#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct ftp_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG(FTP_KEY "max-tx", OSPREY_CFG_UINT, max_tx, 1),
    CFG(FTP_KEY "max-line-length", OSPREY_CFG_SIZE, max_line, 64),
};
#undef CFG

static void ftp_cfg_defaults(void *v)
{
    struct ftp_cfg *c = v;
    c->max_tx = FTP_TX_MAX;
    c->max_line = FTP_LINE_MAX;
}

const struct osprey_proto_def ftp_proto = {
    .name = "ftp",
    .flow_stat = "flow.ftp",
    .l4 = 6,
    .suricata_stats = true,
    .probes = PROBES,
    .parse = ftp_parse,
    .end = ftp_end,
    .state_free = ftp_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = FTP_C_TXS,
    .eve = ftp_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct ftp_cfg), .cfg_defaults = ftp_cfg_defaults,
};
