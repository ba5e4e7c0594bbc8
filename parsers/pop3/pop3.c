/* pop3.c — POP3's descriptor: the probes (a server's +OK greeting, a client's POP3 command),
 * events in the order a transaction reaches them (the command, each attachment of a
 * retrieved message, the response), the buffers Suricata 8's rules name (pop3.args,
 * pop3.response; file.data: an attachment's decoded bytes, and the file layer's rows), the
 * fields its pop3.command and pop3.status keywords compare, Suricata's pop3 app-layer
 * events, counters, configuration and the EVE `pop3` object. Registered in core/registry.c. */
#include <stddef.h>

#include "files.h"
#include "pop3_int.h"

static const struct proto_probe PROBES[] = {
    {6, 1, pop3_probe_server}, {6, 0, pop3_probe_client}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [POP3_EV_REQUEST] = {"pop3_request", 0, NULL},   /* a command line is in */
    [POP3_EV_FILE] = {"pop3_file", 1, NULL},         /* a retrieved attachment is whole */
    [POP3_EV_RESPONSE] = {"pop3_response", 1, NULL}, /* a response is whole (all its lines) */
};

static const uint8_t *el(const struct p3list *l, uint32_t i, uint32_t *len)
{
    if (i >= l->n)
        return NULL;
    *len = l->len[i];
    return l->b.p ? l->b.p + l->off[i] : (const uint8_t *)"";
}

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)s;
    const struct pop3_state *st = pf->state;
    const struct pop3_tx *t = st ? st->cur : NULL;
    if (!t)
        return NULL;
    switch (key) {
    case PB_ARGS:
        return t->has_req ? el(&t->args, i, len) : NULL;
    case PB_RESPONSE: /* its first line (after the status), then its other lines */
        if (!t->has_resp)
            return NULL;
        if (i == 0) {
            *len = t->header.len;
            return t->header.p ? t->header.p : (const uint8_t *)"";
        }
        return el(&t->data, i - 1, len);
    case PB_FILE:
        if (i || !t->attach.n)
            return NULL;
        *len = t->file.len;
        return t->file.p ? t->file.p : (const uint8_t *)"";
    }
    return NULL;
}

static const struct proto_value COMMANDS[] = {
    {"user", P3_USER}, {"pass", P3_PASS}, {"apop", P3_APOP}, {"auth", P3_AUTH},
    {"capa", P3_CAPA}, {"stls", P3_STLS}, {"stat", P3_STAT}, {"list", P3_LIST},
    {"retr", P3_RETR}, {"top", P3_TOP},   {"uidl", P3_UIDL}, {"dele", P3_DELE},
    {"noop", P3_NOOP}, {"rset", P3_RSET}, {"quit", P3_QUIT}, {"unknown", P3_UNKNOWN},
    {NULL, 0}};
static const struct proto_value STATUS[] = {
    {"ok", 1}, {"+ok", 1}, {"err", 0}, {"-err", 0}, {NULL, 0}};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct pop3_state *st = pf->state;
    const struct pop3_tx *t = st ? st->cur : NULL;
    if (!t || i)
        return false;
    if (key == PF_COMMAND && t->has_req && t->cmd != P3_SASL) {
        *out = t->cmd;
        return true;
    }
    if (key == PF_STATUS && t->has_resp) {
        *out = t->ok;
        return true;
    }
    return false;
}

static const struct proto_field FIELDS[] = {
    {"pop3.command", PF_COMMAND, field, COMMANDS}, /* the command (pop3.command:RETR) */
    {"pop3.status", PF_STATUS, field, STATUS},     /* 1 +OK, 0 -ERR (pop3.status:ok) */
};

static const struct proto_buffer BUFFERS[] = {
    {.name = "pop3.args", .dir = 0, .event = "pop3_request", .multi = true, .key = PB_ARGS,
     .get = get},
    {.name = "pop3.response", .dir = 1, .event = "pop3_response", .multi = true,
     .key = PB_RESPONSE, .get = get},
    /* an attachment of a retrieved message, decoded, while its pop3_file runs (Snort 3's
     * file_data on POP3) */
    {.name = "file.data", .dir = 1, .event = "pop3_file", .key = PB_FILE, .get = get},
    /* the client sends none: a rule without direction on file.data finds this row for its
     * request side and reads the server's attachments once */
    {.name = "file.data", .dir = 0, .event = "pop3_request", .key = PB_NONE, .get = get},
    /* file.name, file.magic and the file keywords: the response's files once it is whole */
    PFILE_BUFFERS("pop3_request", "pop3_response"),
};

static const char *const ANOMALIES[] = {
    [POP3_A_TOO_MANY_TX] = "pop3.too_many_transactions",
    [POP3_A_REQUEST_TOO_LONG] = "pop3.request_too_long",
    [POP3_A_BAD_ARG_COUNT] = "pop3.incorrect_argument_count",
    [POP3_A_UNKNOWN_COMMAND] = "pop3.unknown_command",
    [POP3_A_RESPONSE_TOO_LONG] = "pop3.response_too_long",
};

static const char *const COUNTERS[] = {
    [POP3_C_TXS] = "pop3_transactions",
    [POP3_C_FILES] = "pop3_attachments",
    [POP3_C_STLS] = "pop3_stls",                 /* flows handed to TLS */
    [POP3_C_TX_SHED] = "pop3_commands_shed",     /* past POP3_TX_MAX waiting: not kept */
    [POP3_C_LIST_SHED] = "pop3_list_shed",       /* arguments, lines, names past 64 */
    [POP3_C_FILE_BYTES_SHED] = "pop3_file_bytes_shed", /* past attachment-limit */
};

static uint32_t tx_id(const struct pflow *pf)
{
    const struct pop3_state *st = pf->state;
    return st->cur ? st->cur->id : st->head ? st->head->id : st->ntx;
}

#define POP3_KEY "app-layer.protocols.pop3."
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    {.key = POP3_KEY "attachment-limit", .kind = OSPREY_CFG_SIZE,
     .offset = offsetof(struct pop3_cfg, attachment_limit), .min = 1},
};

static void pop3_cfg_defaults(void *v)
{
    ((struct pop3_cfg *)v)->attachment_limit = POP3_ATTACH_MAX;
}

const struct osprey_proto_def pop3_proto = {
    .name = "pop3",
    .flow_stat = "flow.pop3",
    .l4 = 6,
    .suricata_stats = true,
    .probes = PROBES,
    .parse = pop3_parse,
    .gap = pop3_gap,
    .end = pop3_end,
    .state_free = pop3_free,
    .state_trim = pop3_trim,
    .tx_id = tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = POP3_C_TXS,
    .eve = pop3_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct pop3_cfg), .cfg_defaults = pop3_cfg_defaults,
};
