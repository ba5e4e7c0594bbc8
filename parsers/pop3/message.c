/* message.c — a retrieved message (the lines of a RETR or TOP response, dot-stuffing undone)
 * read by the MIME reader (../mime/): its attachments become files of the transaction in the
 * server's direction (core/files.h: named, hashed, magic, fileinfo, filestore) and file.data
 * while pop3_file runs, as SMTP's (../smtp/tx.c) do in the client's. */
#include <stdlib.h>

#include "files.h"
#include "pop3_int.h"

static void on_file(void *arg, const uint8_t *name, size_t nl, const uint8_t *d, size_t n,
                    bool end)
{
    struct pop3_state *st = arg;
    struct pop3_tx *t = st->head;
    if (!t)
        return;
    if (!t->file_active) { /* a new attachment: a file the server sends */
        t->file_active = true;
        pbuf_reset(&t->file);
        if (!p3list_add(&t->attach, name, nl))
            pflow_count(st->pf, POP3_C_LIST_SHED, 1);
        t->file_id = pfile_open(st->pf, 1, t->id, name, nl);
    }
    uint32_t max = ((const struct pop3_cfg *)pflow_cfg(st->pf))->attachment_limit;
    uint32_t took = n ? pbuf_add(&t->file, d, n, max) : 0;
    if (took < n)
        pflow_count(st->pf, POP3_C_FILE_BYTES_SHED, n - took);
    pfile_data(st->pf, t->file_id, d, n);
    if (!end)
        return;
    pfile_close(st->pf, t->file_id, st->cut); /* closed first: final when pop3_file runs */
    t->file_id = 0;
    pflow_count(st->pf, POP3_C_FILES, 1);
    struct pop3_tx *was = st->cur;
    st->cur = t;
    pflow_raise(st->pf, st->f, 1, POP3_EV_FILE);
    st->cur = was;
    t->file_active = false;
}

static const struct mime_ops MIME_OPS = {
    .file = on_file, /* (its headers, text and anomalies are not POP3's: Suricata has no
                        email.* or MIME events on POP3) */
};

void pop3_message_begin(struct pop3_state *st)
{
    if (st->in_msg || (!st->mime && !(st->mime = malloc(sizeof *st->mime))))
        return;
    st->in_msg = true;
    mime_init(st->mime, &MIME_OPS, st);
}

void pop3_message_end(struct pop3_state *st)
{
    if (!st->in_msg)
        return;
    st->in_msg = false;
    mime_end(st->mime);
}
