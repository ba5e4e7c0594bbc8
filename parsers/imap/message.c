/* message.c — a message literal (a FETCH's BODY[] / RFC822 from the server, an APPEND's from
 * the client) read by the MIME reader (../mime/): its attachments become files of the
 * transaction in the literal's direction (core/files.h) and file.data while imap_file runs,
 * as POP3's (../pop3/message.c) do. */
#include <stdlib.h>

#include "files.h"
#include "imap_int.h"

static void on_file(void *arg, const uint8_t *name, size_t nl, const uint8_t *d, size_t n,
                    bool end)
{
    struct imap_state *st = arg;
    int dir = st->msg_dir;
    struct imap_tx *t = dir >= 0 ? imap_tx_of(st, dir) : NULL;
    if (!t)
        return;
    if (!t->file_active[dir]) { /* a new attachment */
        t->file_active[dir] = true;
        pbuf_reset(&t->file[dir]);
        t->file_id[dir] = pfile_open(st->pf, dir, t->id, name, nl);
    }
    uint32_t max = ((const struct imap_cfg *)pflow_cfg(st->pf))->attachment_limit;
    uint32_t took = n ? pbuf_add(&t->file[dir], d, n, max) : 0;
    if (took < n)
        pflow_count(st->pf, IMAP_C_FILE_BYTES_SHED, n - took);
    pfile_data(st->pf, t->file_id[dir], d, n);
    if (!end)
        return;
    pfile_close(st->pf, t->file_id[dir], st->cut); /* closed first: final when imap_file runs */
    t->file_id[dir] = 0;
    t->has_file[dir] = true;
    pflow_count(st->pf, IMAP_C_FILES, 1);
    struct imap_tx *was = st->cur;
    st->cur = t;
    pflow_raise(st->pf, st->f, dir, dir == 0 ? IMAP_EV_FILE_TS : IMAP_EV_FILE_TC);
    st->cur = was;
    t->file_active[dir] = false;
}

static const struct mime_ops MIME_OPS = {.file = on_file};

bool imap_message_begin(struct imap_state *st, int dir)
{
    if (st->msg_dir >= 0 || (!st->mime && !(st->mime = malloc(sizeof *st->mime))))
        return false;
    st->msg_dir = dir;
    struct imap_tx *t = imap_tx_of(st, dir);
    st->msg_tx = t ? t->id : UINT32_MAX;
    mime_init(st->mime, &MIME_OPS, st);
    return true;
}

void imap_message_line(struct imap_state *st, const uint8_t *l, size_t n, bool more)
{
    if (st->msg_dir >= 0 && more)
        mime_part(st->mime, l, n);
    else if (st->msg_dir >= 0)
        mime_line(st->mime, l, n);
}

void imap_message_end(struct imap_state *st)
{
    if (st->msg_dir < 0)
        return;
    mime_end(st->mime);
    st->msg_dir = -1;
}
