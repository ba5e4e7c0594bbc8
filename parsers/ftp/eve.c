/* eve.c — FTP's EVE object, as Suricata 8 writes it for a transaction: ftp{command,
 * command_data, completion_code[], reply[], dynamic_port, mode, reply_received,
 * command_truncated, reply_truncated}; a reply without command (the greeting) has no
 * command keys. */
#include "ftp_int.h"
#include "osprey_json_writer.h"

bool ftp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct ftp_state *st = pf->state;
    const struct ftp_tx *t = st ? st->cur : NULL;
    if (!t)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "ftp");
    if (t->has_cmd) {
        osprey_jw_strn(w, "command", t->cmd.p, t->verb_len);
        if (t->verb_len < t->cmd.len)
            osprey_jw_strn(w, "command_data", t->cmd.p + t->verb_len + 1,
                           t->cmd.len - t->verb_len - 1);
    }
    bool any = false;
    for (uint32_t k = 0; k < t->nlines; k++)
        any |= t->has_code[k];
    if (any) {
        osprey_jw_array(w, "completion_code");
        for (uint32_t k = 0; k < t->nlines; k++)
            if (t->has_code[k])
                osprey_jw_strn(w, NULL, (const uint8_t *)t->code[k], 3);
        osprey_jw_array_end(w);
    }
    if (t->nlines) {
        osprey_jw_array(w, "reply");
        for (uint32_t k = 0; k < t->nlines; k++)
            osprey_jw_strn(w, NULL, t->reply.p ? t->reply.p + t->off[k] : (const uint8_t *)"",
                           t->len[k]);
        osprey_jw_array_end(w);
    }
    if (t->dyn_port >= 0)
        osprey_jw_int(w, "dynamic_port", t->dyn_port);
    if (t->mode != FTP_MODE_NONE)
        osprey_jw_str(w, "mode", t->mode == FTP_MODE_ACTIVE ? "active" : "passive");
    osprey_jw_str(w, "reply_received", t->reply_received ? "yes" : "no");
    osprey_jw_bool(w, "command_truncated", t->cmd_trunc);
    osprey_jw_bool(w, "reply_truncated", t->reply_trunc);
    osprey_jw_close(w);
    return true;
}
