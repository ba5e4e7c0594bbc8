/* reply.c — the server's side: replies "DDD text" or multi-line "DDD-text" … "DDD text"
 * (RFC 5321 §4.2), each answering the oldest command waiting (pipelining). The first reply is
 * the greeting (when no command waits: else the capture began after it). What a reply decides: DATA refused (not 354) turns the client's side back to
 * commands (smtp.data_command_rejected); the reply to the message's end (or to BDAT LAST)
 * finishes the transaction, as Suricata 8.0.7 does; STARTTLS accepted (220) hands the flow to
 * the TLS parser (smtp_parse does it once the line is read), refused: smtp.tls_rejected. */
#include <ctype.h>
#include <string.h>

#include "smtp_int.h"

static bool pop(struct smtp_state *st, enum smtp_cmd *c)
{
    if (!st->nq)
        return false;
    *c = (enum smtp_cmd)st->q[st->qhead];
    st->qhead = (st->qhead + 1) % SMTP_CMD_MAX;
    st->nq--;
    return true;
}

void smtp_reply(struct smtp_state *st, const uint8_t *l, size_t n, bool trunc)
{
    if (trunc || n > SMTP_RFC_LINE)
        pflow_anomaly(st->pf, st->f, 1, SMTP_A_REPLY_TOO_LONG);
    bool coded = n >= 3 && isdigit(l[0]) && isdigit(l[1]) && isdigit(l[2]) &&
                 (n == 3 || l[3] == ' ' || l[3] == '-');
    if (!coded) {
        pflow_anomaly(st->pf, st->f, 1, SMTP_A_INVALID_REPLY);
        return;
    }
    if (st->in_multi && memcmp(l, st->multi, 3)) {
        pflow_anomaly(st->pf, st->f, 1, SMTP_A_INVALID_REPLY);
        st->in_multi = false;
    }
    if (n > 3 && l[3] == '-') { /* more lines follow */
        st->in_multi = true;
        memcpy(st->multi, l, 3);
        return;
    }
    st->in_multi = false;
    pflow_raise(st->pf, st->f, 1, SMTP_EV_REPLY);
    /* the greeting: the first reply, unless commands already wait (a capture that began
     * after it: that reply answers the oldest) */
    bool first = !st->greeted;
    st->greeted = true;
    if (first && !st->nq) {
        if (memcmp(l, "220", 3))
            pflow_anomaly(st->pf, st->f, 1, SMTP_A_NO_WELCOME);
        return;
    }
    enum smtp_cmd c;
    if (!pop(st, &c)) {
        pflow_anomaly(st->pf, st->f, 1, SMTP_A_UNMATCHED_REPLY);
        return;
    }
    switch (c) {
    case SC_DATA:
        if (!memcmp(l, "354", 3))
            break;
        pflow_anomaly(st->pf, st->f, 1, SMTP_A_DATA_REJECTED);
        if (st->mode == SM_DATA) { /* no message follows: what came is commands */
            st->mode = SM_CMD;
            st->in_msg = false;
            if (st->tx)
                st->tx->has_data = false;
        }
        break;
    case SC_DATA_END:
    case SC_BDAT_LAST:
        smtp_tx_finish(st);
        break;
    case SC_STARTTLS:
        if (!memcmp(l, "220", 3)) {
            st->tls = true;
            pflow_count(st->pf, SMTP_C_STARTTLS, 1);
        } else {
            pflow_anomaly(st->pf, st->f, 1, SMTP_A_TLS_REJECTED);
        }
        break;
    default:
        break;
    }
}
