/* eve.c — POP3's EVE object for a transaction, as Suricata 8's schema has it:
 * pop3{request{command, args[]}, response{success, status, header, data[]}} — a part only
 * when the transaction has it (the greeting has no request). A retrieved message's lines are
 * not listed (Suricata keeps none either): its attachments are fileinfo records. */
#include "osprey_json_writer.h"
#include "pop3_int.h"

static void list(struct osprey_jw *w, const char *key, const struct p3list *l)
{
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < l->n; i++)
        osprey_jw_strn(w, NULL, l->b.p ? l->b.p + l->off[i] : (const uint8_t *)"", l->len[i]);
    osprey_jw_array_end(w);
}

bool pop3_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct pop3_state *st = pf->state;
    const struct pop3_tx *t = st ? st->cur : NULL;
    if (!t || (!t->has_req && !t->has_resp))
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "pop3");
    if (t->has_req) {
        osprey_jw_open(w, "request");
        if (t->cmd == P3_UNKNOWN)
            osprey_jw_strn(w, "command", t->word.p ? t->word.p : (const uint8_t *)"",
                           t->word.len);
        else
            osprey_jw_str(w, "command", pop3_cmd_names[t->cmd]);
        list(w, "args", &t->args);
        osprey_jw_close(w);
    }
    if (t->has_resp) {
        osprey_jw_open(w, "response");
        osprey_jw_bool(w, "success", t->ok);
        osprey_jw_str(w, "status", t->ok ? "+OK" : "-ERR");
        osprey_jw_strn(w, "header", t->header.p ? t->header.p : (const uint8_t *)"",
                       t->header.len);
        list(w, "data", &t->data);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
