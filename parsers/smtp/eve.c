/* eve.c — SMTP's EVE objects for a transaction, as Suricata 8 writes them:
 * smtp{helo, mail_from, rcpt_to[]} and, once a message began, email{status, from, to[],
 * cc[], subject, date, message_id, x_mailer, received[], url[], attachment[]}. The To and Cc
 * headers are split into addresses at commas outside quotes. */
#include "osprey_json_writer.h"
#include "smtp_int.h"

static const struct smtp_tx *tx_of(const struct smtp_state *st)
{
    return st->rep ? st->rep : st->tx;
}

static void list(struct osprey_jw *w, const char *key, const struct slist *l)
{
    if (!l->n)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < l->n; i++)
        osprey_jw_strn(w, NULL, l->b.p ? l->b.p + l->off[i] : (const uint8_t *)"", l->len[i]);
    osprey_jw_array_end(w);
}

static void trimmed(struct osprey_jw *w, const uint8_t *d, size_t n)
{
    while (n && (*d == ' ' || *d == '\t'))
        d++, n--;
    while (n && (d[n - 1] == ' ' || d[n - 1] == '\t'))
        n--;
    osprey_jw_strn(w, NULL, d, n);
}

/* an address list header as an array of its addresses */
static void addresses(struct osprey_jw *w, const char *key, const struct pbuf *b)
{
    osprey_jw_array(w, key);
    size_t s = 0;
    bool q = false;
    for (size_t i = 0; i <= b->len; i++) {
        if (i < b->len && b->p[i] == '"')
            q = !q;
        if (i < b->len && (b->p[i] != ',' || q))
            continue;
        trimmed(w, b->p + s, i - s);
        s = i + 1;
    }
    osprey_jw_array_end(w);
}

static void str(struct osprey_jw *w, const char *key, const struct pbuf *b)
{
    osprey_jw_strn(w, key, b->p ? b->p : (const uint8_t *)"", b->len);
}

bool smtp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct smtp_state *st = pf->state;
    const struct smtp_tx *t = st ? tx_of(st) : NULL;
    if (!t)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "smtp");
    if (st->has_helo)
        str(w, "helo", &st->helo);
    if (t->has_mail_from)
        str(w, "mail_from", &t->mail_from);
    list(w, "rcpt_to", &t->rcpt);
    osprey_jw_close(w);
    if (!t->has_data)
        return true;
    osprey_jw_open(w, "email");
    osprey_jw_str(w, "status", t->data_done      ? "PARSE_DONE"
                               : t->headers_done ? "BODY_STARTED"
                                                 : "HEADER_READY");
    if (t->has_hdr[EH_FROM])
        str(w, "from", &t->hdr[EH_FROM]);
    if (t->has_hdr[EH_TO] && t->hdr[EH_TO].len)
        addresses(w, "to", &t->hdr[EH_TO]);
    if (t->has_hdr[EH_CC] && t->hdr[EH_CC].len)
        addresses(w, "cc", &t->hdr[EH_CC]);
    list(w, "received", &t->received);
    if (t->has_hdr[EH_SUBJECT])
        str(w, "subject", &t->hdr[EH_SUBJECT]);
    if (t->has_hdr[EH_DATE])
        str(w, "date", &t->hdr[EH_DATE]);
    if (t->has_hdr[EH_MSGID])
        str(w, "message_id", &t->hdr[EH_MSGID]);
    if (t->has_hdr[EH_XMAILER])
        str(w, "x_mailer", &t->hdr[EH_XMAILER]);
    list(w, "url", &t->urls);
    list(w, "attachment", &t->attach);
    osprey_jw_close(w);
    return true;
}
