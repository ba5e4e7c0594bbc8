/* smtp.c — SMTP's descriptor: the probes (a client's EHLO / HELO, a server's 220 greeting),
 * events in the order a transaction reaches them (the envelope's commands, the message's
 * headers, each attachment, the message's end), the buffers Suricata 8's rules name
 * (smtp.helo, smtp.mail_from, smtp.rcpt_to; email.from … email.received; file.data: an
 * attachment's decoded bytes), Suricata's smtp app-layer events, counters, configuration and
 * the EVE `smtp` and `email` objects. Registered in core/registry.c. */
#include <stddef.h>

#include "files.h"
#include "smtp_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, smtp_probe_client}, {6, 1, smtp_probe_server}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SMTP_EV_HELO] = {"smtp_helo", 0, NULL},
    [SMTP_EV_MAIL_FROM] = {"smtp_mail_from", 0, NULL},
    [SMTP_EV_RCPT_TO] = {"smtp_rcpt_to", 0, NULL},
    [SMTP_EV_EMAIL] = {"smtp_email", 0, NULL},     /* the message's headers are in */
    [SMTP_EV_FILE] = {"smtp_file", 0, NULL},       /* an attachment is whole */
    [SMTP_EV_DATA_DONE] = {"smtp_data_done", 0, NULL}, /* the message ended */
    [SMTP_EV_REPLY] = {"smtp_reply", 1, NULL},          /* a server reply is complete */
};

static const uint8_t *pb(const struct pbuf *b, uint32_t *len)
{
    *len = b->len;
    return b->p ? b->p : (const uint8_t *)"";
}

static const uint8_t *el(const struct slist *l, uint32_t i, uint32_t *len)
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
    const struct smtp_state *st = pf->state;
    const struct smtp_tx *t = st->rep ? st->rep : st->tx;
    if (key == SB_HELO)
        return st->has_helo ? pb(&st->helo, len) : NULL;
    if (!t)
        return NULL;
    switch (key) {
    case SB_MAIL_FROM:
        return t->has_mail_from ? pb(&t->mail_from, len) : NULL;
    case SB_RCPT_TO:
        return el(&t->rcpt, t->rcpt_from + i, len);
    case SB_EM_FROM: case SB_EM_TO: case SB_EM_CC: case SB_EM_SUBJECT: case SB_EM_DATE:
    case SB_EM_MSGID: case SB_EM_XMAILER: {
        unsigned h = key - SB_EM_FROM;
        return t->has_hdr[h] ? pb(&t->hdr[h], len) : NULL;
    }
    case SB_EM_RECEIVED:
        return el(&t->received, i, len);
    case SB_EM_URL:
        return el(&t->urls, i, len);
    case SB_FILE:
        return t->attach.n ? pb(&t->file, len) : NULL;
    case SB_FILE_NAME:
        return t->attach.n ? el(&t->attach, t->attach.n - 1, len) : NULL;
    }
    return NULL;
}

#define ROW(n, ev, k, ...) {.name = n, .dir = 0, .event = ev, .key = k, .get = get, __VA_ARGS__}
static const struct proto_buffer BUFFERS[] = {
    ROW("smtp.helo", "smtp_helo", SB_HELO),
    ROW("smtp.mail_from", "smtp_mail_from", SB_MAIL_FROM),
    ROW("smtp.rcpt_to", "smtp_rcpt_to", SB_RCPT_TO, .multi = true),
    ROW("email.from", "smtp_email", SB_EM_FROM),
    ROW("email.to", "smtp_email", SB_EM_TO),
    ROW("email.cc", "smtp_email", SB_EM_CC),
    ROW("email.subject", "smtp_email", SB_EM_SUBJECT),
    ROW("email.date", "smtp_email", SB_EM_DATE),
    ROW("email.message_id", "smtp_email", SB_EM_MSGID),
    ROW("email.x_mailer", "smtp_email", SB_EM_XMAILER),
    ROW("email.received", "smtp_email", SB_EM_RECEIVED, .multi = true),
    ROW("email.url", "smtp_data_done", SB_EM_URL, .multi = true),
    /* an attachment's decoded bytes, while its smtp_file event runs (Suricata's file_data
     * on SMTP) */
    ROW("file.data", "smtp_file", SB_FILE),
    /* the server sends none: a rule without direction on file.data (HTTP's is two-sided)
     * finds this row for its response side, and reads the client's attachments once */
    {.name = "file.data", .dir = 1, .event = "smtp_reply", .key = SB_NONE, .get = get},
    /* its name, for records (osprey-trace) */
    ROW("smtp.attachment", "smtp_file", SB_FILE_NAME, .record = true),
    /* the file layer's rows (file.name, file.magic, and so the file keywords: filename,
     * filemd5, filesize …): the message's attachments once it ended; the server sends none */
    PFILE_BUFFERS("smtp_data_done", "smtp_reply"),
};
#undef ROW

static const char *const ANOMALIES[] = {
    [SMTP_A_INVALID_REPLY] = "smtp.invalid_reply",
    [SMTP_A_UNMATCHED_REPLY] = "smtp.unable_to_match_reply_with_request",
    [SMTP_A_CMD_TOO_LONG] = "smtp.max_command_line_len_exceeded",
    [SMTP_A_REPLY_TOO_LONG] = "smtp.max_reply_line_len_exceeded",
    [SMTP_A_INVALID_PIPELINED] = "smtp.invalid_pipelined_sequence",
    [SMTP_A_BDAT_TOO_LONG] = "smtp.bdat_chunk_len_exceeded",
    [SMTP_A_NO_WELCOME] = "smtp.no_server_welcome_message",
    [SMTP_A_TLS_REJECTED] = "smtp.tls_rejected",
    [SMTP_A_DATA_REJECTED] = "smtp.data_command_rejected",
    [SMTP_A_MIME_PARSE_FAILED] = "smtp.mime_parse_failed",
    [SMTP_A_MIME_MALFORMED] = "smtp.mime_malformed_msg",
    [SMTP_A_MIME_INVALID_BASE64] = "smtp.mime_invalid_base64",
    [SMTP_A_MIME_LONG_HEADER_NAME] = "smtp.mime_long_header_name",
    [SMTP_A_MIME_LONG_HEADER_VALUE] = "smtp.mime_long_header_value",
    [SMTP_A_MIME_INVALID_QP] = "smtp.mime_invalid_qp",
    [SMTP_A_MIME_LONG_LINE] = "smtp.mime_long_line",
    [SMTP_A_MIME_LONG_ENC_LINE] = "smtp.mime_long_enc_line",
    [SMTP_A_MIME_LONG_BOUNDARY] = "smtp.mime_long_boundary",
    [SMTP_A_DUPLICATE_FIELDS] = "smtp.duplicate_fields",
    [SMTP_A_UNPARSABLE] = "smtp.unparsable_content",
    [SMTP_A_MIME_LONG_FILENAME] = "smtp.mime_long_filename",
    [SMTP_A_FAILED_PROTOCOL_CHANGE] = "smtp.failed_protocol_change",
    [SMTP_A_INVALID_BDAT] = "smtp.invalid_bdat",
};

static const char *const COUNTERS[] = {
    [SMTP_C_TXS] = "smtp_transactions",
    [SMTP_C_FILES] = "smtp_attachments",
    [SMTP_C_STARTTLS] = "smtp_starttls",       /* flows handed to TLS */
    [SMTP_C_CMDS_SHED] = "smtp_commands_shed", /* pipelined past SMTP_CMD_MAX: unanswered */
    [SMTP_C_LIST_SHED] = "smtp_list_shed",     /* recipients, Received, URLs, names past 64 */
    [SMTP_C_FILE_BYTES_SHED] = "smtp_file_bytes_shed", /* past attachment-limit: not inspected */
};

static uint32_t tx_id(const struct pflow *pf)
{
    const struct smtp_state *st = pf->state;
    return st->rep ? st->rep->id : st->tx ? st->tx->id : st->ntx;
}

#define SMTP_KEY "app-layer.protocols.smtp."
#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct smtp_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG(SMTP_KEY "attachment-limit", OSPREY_CFG_SIZE, attachment_limit, 1),
};
#undef CFG

static void smtp_cfg_defaults(void *v)
{
    ((struct smtp_cfg *)v)->attachment_limit = SMTP_ATTACH_MAX;
}

const struct osprey_proto_def smtp_proto = {
    .name = "smtp",
    .raw_trigger = true, /* Suricata triggers raw reassembly at a message body's end */
    .flow_stat = "flow.smtp",
    .l4 = 6,
    .buffers_imply_dir = true, /* all the client's: a rule without direction reads them once */
    .suricata_stats = true,
    .probes = PROBES,
    .parse = smtp_parse,
    .end = smtp_end,
    .state_free = smtp_free,
    .state_trim = smtp_trim,
    .tx_id = tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SMTP_C_TXS,
    .eve = smtp_eve,
    .eve_tx_id = true,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct smtp_cfg), .cfg_defaults = smtp_cfg_defaults,
};
