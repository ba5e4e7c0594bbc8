/* tx.c — SMTP transactions (an envelope and its message: HELO/EHLO, MAIL FROM, RCPT TO,
 * DATA or BDAT, as Suricata counts them) and the message's MIME reading: the headers that
 * become email.*, the URLs of its text, its attachments (smtp_file_chunk: the one place their
 * bytes go), and the MIME reader's anomalies as Suricata's smtp.mime_* events. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "smtp_int.h"

bool slist_add(struct slist *l, const uint8_t *d, size_t n)
{
    if (l->n >= SMTP_LIST_MAX)
        return false;
    uint32_t off = l->b.len;
    if (pbuf_add(&l->b, d, n, 0) != n) {
        l->b.len = off;
        return false;
    }
    l->off[l->n] = off;
    l->len[l->n] = (uint32_t)n;
    l->n++;
    return true;
}

static void slist_free(struct slist *l)
{
    pbuf_free(&l->b);
}

void smtp_tx_free(struct smtp_tx *t)
{
    if (!t)
        return;
    pbuf_free(&t->mail_from);
    slist_free(&t->rcpt);
    for (int i = 0; i < EH_N; i++)
        pbuf_free(&t->hdr[i]);
    slist_free(&t->received);
    slist_free(&t->urls);
    slist_free(&t->attach);
    pbuf_free(&t->file);
    free(t);
}

struct smtp_tx *smtp_tx_get(struct smtp_state *st)
{
    if (!st->tx && (st->tx = calloc(1, sizeof *st->tx)))
        st->tx->id = st->ntx++;
    return st->tx;
}

void smtp_tx_finish(struct smtp_state *st)
{
    if (!st->tx)
        return;
    if (st->in_msg) { /* the message was cut (RSET, the flow's end): what it had is kept */
        st->in_msg = false;
        st->cut = true; /* (an attachment still open is a truncated file) */
        mime_end(st->mime);
        st->cut = false;
        /* its buffers are inspected once more, as Suricata inspects a transaction that
           completes cut short: the file rows (a truncated attachment's name), email.url */
        pflow_raise(st->pf, st->f, 0, SMTP_EV_DATA_DONE);
    }
    struct smtp_tx *t = st->tx;
    st->tx = NULL;
    if (t->has_mail_from || t->rcpt.n || t->has_data || st->has_helo) {
        st->rep = t;
        pflow_count(st->pf, SMTP_C_TXS, 1);
        pflow_tx_done(st->pf, st->f);
        st->rep = NULL;
    }
    smtp_tx_free(t);
}

/* ---- the MIME reader's callbacks ---- */

static void on_header(void *arg, unsigned level, const uint8_t *name, size_t nl,
                      const uint8_t *val, size_t vl)
{
    static const char *const NAMES[EH_N] = {
        [EH_FROM] = "from", [EH_TO] = "to", [EH_CC] = "cc", [EH_SUBJECT] = "subject",
        [EH_DATE] = "date", [EH_MSGID] = "message-id", [EH_XMAILER] = "x-mailer"};
    struct smtp_state *st = arg;
    struct smtp_tx *t = st->tx;
    if (!t || level > 0) /* email.* are the message's own headers */
        return;
    if (nl == 8 && !strncasecmp((const char *)name, "received", 8)) {
        if (!slist_add(&t->received, val, vl))
            pflow_count(st->pf, SMTP_C_LIST_SHED, 1);
        return;
    }
    for (int i = 0; i < EH_N; i++) {
        if (strlen(NAMES[i]) != nl || strncasecmp((const char *)name, NAMES[i], nl))
            continue;
        if (t->has_hdr[i]) { /* the first one stands */
            pflow_anomaly(st->pf, st->f, 0, SMTP_A_DUPLICATE_FIELDS);
            return;
        }
        t->has_hdr[i] = true;
        pbuf_add(&t->hdr[i], val, vl, MIME_VALUE_MAX);
        return;
    }
}

static void on_headers_end(void *arg, unsigned level)
{
    struct smtp_state *st = arg;
    struct smtp_tx *t = st->tx;
    if (!t || level > 0 || t->headers_done)
        return;
    t->headers_done = true;
    pflow_raise(st->pf, st->f, 0, SMTP_EV_EMAIL);
}

static void on_url(void *arg, const uint8_t *u, size_t ul)
{
    struct smtp_state *st = arg;
    struct slist *l = &st->tx->urls;
    for (uint32_t i = 0; i < l->n; i++) /* each URL once */
        if (l->len[i] == ul && !memcmp(l->b.p + l->off[i], u, ul))
            return;
    if (!slist_add(l, u, ul))
        pflow_count(st->pf, SMTP_C_LIST_SHED, 1);
}

static void on_text(void *arg, const uint8_t *line, size_t n)
{
    struct smtp_state *st = arg;
    if (st->tx)
        mime_urls(line, n, on_url, st);
}

static void on_file(void *arg, const uint8_t *name, size_t nl, const uint8_t *d, size_t n,
                    bool end)
{
    smtp_file_chunk(arg, name, nl, d, n, end);
}

void smtp_file_chunk(struct smtp_state *st, const uint8_t *name, size_t nl, const uint8_t *d,
                     size_t n, bool end)
{
    struct smtp_tx *t = st->tx;
    if (!t)
        return;
    if (!t->file_active) { /* a new attachment: a file of the client's, this transaction's */
        t->file_active = true;
        pbuf_reset(&t->file);
        if (!slist_add(&t->attach, name, nl))
            pflow_count(st->pf, SMTP_C_LIST_SHED, 1);
        t->file_id = pfile_open(st->pf, 0, t->id, name, nl);
    }
    uint32_t max = ((const struct smtp_cfg *)pflow_cfg(st->pf))->attachment_limit;
    uint32_t took = n ? pbuf_add(&t->file, d, n, max) : 0;
    if (took < n)
        pflow_count(st->pf, SMTP_C_FILE_BYTES_SHED, n - took);
    pfile_data(st->pf, t->file_id, d, n); /* the file layer sees it whole (its own memcap) */
    if (!end)
        return;
    /* whole (or cut with its message): file.data is its bytes while smtp_file runs, and the
     * file is closed first so its hashes and size are final there */
    pfile_close(st->pf, t->file_id, st->cut);
    t->file_id = 0;
    pflow_count(st->pf, SMTP_C_FILES, 1);
    pflow_raise(st->pf, st->f, 0, SMTP_EV_FILE);
    t->file_active = false;
}

static void on_anomaly(void *arg, enum mime_anomaly a)
{
    static const unsigned MAP[MIME_A_N] = {
        [MIME_A_INVALID_BASE64] = SMTP_A_MIME_INVALID_BASE64,
        [MIME_A_INVALID_QP] = SMTP_A_MIME_INVALID_QP,
        [MIME_A_LONG_LINE] = SMTP_A_MIME_LONG_LINE,
        [MIME_A_LONG_ENC_LINE] = SMTP_A_MIME_LONG_ENC_LINE,
        [MIME_A_LONG_HEADER_NAME] = SMTP_A_MIME_LONG_HEADER_NAME,
        [MIME_A_LONG_HEADER_VALUE] = SMTP_A_MIME_LONG_HEADER_VALUE,
        [MIME_A_LONG_BOUNDARY] = SMTP_A_MIME_LONG_BOUNDARY,
        [MIME_A_LONG_FILENAME] = SMTP_A_MIME_LONG_FILENAME,
        [MIME_A_MALFORMED] = SMTP_A_MIME_MALFORMED,
        [MIME_A_DEPTH] = SMTP_A_MIME_PARSE_FAILED,
    };
    struct smtp_state *st = arg;
    pflow_anomaly(st->pf, st->f, 0, MAP[a]);
}

static const struct mime_ops MIME_OPS = {
    .header = on_header,
    .headers_end = on_headers_end,
    .file = on_file,
    .text = on_text,
    .anomaly = on_anomaly,
};

void smtp_message_begin(struct smtp_state *st)
{
    struct smtp_tx *t = smtp_tx_get(st);
    if (!t || st->in_msg || (!st->mime && !(st->mime = malloc(sizeof *st->mime))))
        return;
    t->has_data = true;
    st->in_msg = true;
    mime_init(st->mime, &MIME_OPS, st);
}

void smtp_message_end(struct smtp_state *st)
{
    if (!st->in_msg)
        return;
    st->in_msg = false;
    mime_end(st->mime);
    if (st->tx) {
        st->tx->data_done = true;
        pflow_raise(st->pf, st->f, 0, SMTP_EV_DATA_DONE);
    }
}
