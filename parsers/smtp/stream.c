/* stream.c — SMTP's bytes: each direction cut into lines (LF, a CR before it dropped; a
 * command or reply line keeps SMTP_LINE_MAX bytes, the rest skipped and flagged), the
 * client's side read as commands, message lines (DATA) or counted chunk bytes (BDAT).
 * STARTTLS accepted: the transaction is reported, the flow's protocol is detected again with
 * TLS expected (core's pflow_redetect, as Suricata's protocol change: what follows is TLS's
 * when it is TLS, another protocol's when another's probe takes it). */
#include <stdlib.h>
#include <string.h>

#include "smtp_int.h"

static void line_done(struct smtp_state *st, int dir)
{
    struct smtp_side *s = &st->side[dir];
    uint32_t n = s->line.len;
    if (n && s->line.p[n - 1] == '\r')
        n--;
    const uint8_t *l = s->line.p ? s->line.p : (const uint8_t *)"";
    bool trunc = s->over;
    s->over = false;
    if (dir == 1)
        smtp_reply(st, l, n, trunc);
    else if (st->mode == SM_DATA)
        smtp_data_line(st, l, n);
    else
        smtp_command(st, l, n, trunc);
    pbuf_reset(&s->line);
}

/* The flow is TLS from here: the SMTP transaction is reported and its state goes. */
static void to_tls(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct smtp_state *st = pf->state;
    smtp_tx_finish(st);
    int id = osprey_app_proto_find("tls");
    if (id <= OSPREY_APP_PROTO_FAILED) {
        pflow_anomaly(pf, f, dir, SMTP_A_FAILED_PROTOCOL_CHANGE);
        pf->dead[0] = pf->dead[1] = true;
        return;
    }
    /* detection again, TLS expected (Suricata's protocol change): what follows may be
     * another protocol (HTTP where TLS was announced). The rest of this chunk is the
     * server's, after its reply: SMTP's still (Suricata's SMTP parser reads it) */
    (void)d, (void)n;
    pflow_redetect(pf, f, dir, (uint16_t)id, NULL, 0);
}

void smtp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct smtp_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct smtp_state *st = pf->state;
    st->pf = pf;
    st->f = f;
    struct smtp_side *s = &st->side[dir];
    while (n && !st->tls) {
        if (dir == 0 && st->mode == SM_BDAT) {
            size_t take = n < st->bdat_left ? n : (size_t)st->bdat_left;
            st->bdat_left -= take;
            smtp_bdat_bytes(st, d, take);
            d += take, n -= take;
            continue;
        }
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        bool data = dir == 0 && st->mode == SM_DATA;
        uint32_t max = data ? SMTP_DATA_LINE_MAX : SMTP_LINE_MAX;
        if (!s->over) {
            size_t room = max - s->line.len;
            size_t take = k < room ? k : room;
            if (pbuf_add(&s->line, d, take, max) != take) {
                pf->dead[dir] = true;
                return;
            }
            if (take < k && data) { /* a long message line: to MIME in pieces, one line */
                smtp_data_part(st, s->line.p ? s->line.p : (const uint8_t *)"", s->line.len);
                pbuf_reset(&s->line);
                d += take, n -= take;
                continue;
            }
            if (take < k)
                s->over = true;
        }
        if (!lf)
            return;
        d += k + 1, n -= k + 1;
        line_done(st, dir);
        if (pf->dead[dir])
            return;
    }
    if (st->tls)
        to_tls(pf, f, dir, d, n);
}

void smtp_end(struct pflow *pf, struct mon_flow *f)
{
    struct smtp_state *st = pf->state;
    if (!st)
        return;
    st->pf = pf;
    st->f = f;
    smtp_tx_finish(st);
}

void smtp_trim(void *state)
{
    struct smtp_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->side[0].line);
    pbuf_free(&st->side[1].line);
    pbuf_free(&st->bline);
    if (!st->in_msg) { /* (a message still open is ended, by its reader, at the flow's end) */
        free(st->mime);
        st->mime = NULL;
    }
}

void smtp_free(void *state)
{
    struct smtp_state *st = state;
    if (!st)
        return;
    smtp_tx_free(st->tx);
    pbuf_free(&st->helo);
    pbuf_free(&st->bline);
    free(st->mime);
    pbuf_free(&st->side[0].line);
    pbuf_free(&st->side[1].line);
    free(st);
}
