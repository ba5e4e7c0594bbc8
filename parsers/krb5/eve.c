/* eve.c — Kerberos 5's EVE object, as Suricata writes it: krb5{msg_type, failed_request and
 * error_code (a KRB-ERROR), cname, realm, sname ("<empty>" when absent), encryption ("<none>"
 * when absent), weak_encryption, ticket_encryption and ticket_weak_encryption (a reply)}. */
#include <stdio.h>

#include "krb5_int.h"
#include "osprey_json_writer.h"

/* a PrincipalName as one string, its components joined by '/' */
static void name(struct osprey_jw *w, const char *key, const struct krb5_msg *m,
                 const struct krb5_name *n)
{
    if (!n->set) {
        osprey_jw_str(w, key, "<empty>");
        return;
    }
    char out[512];
    size_t o = 0;
    for (uint32_t i = 0; i < n->n; i++) {
        if (i && o < sizeof out)
            out[o++] = '/';
        for (uint32_t k = 0; k < n->part[i].len && o < sizeof out; k++)
            out[o++] = (char)m->body[n->part[i].off + k];
    }
    osprey_jw_strn(w, key, (const uint8_t *)out, o);
}

static void etype(struct osprey_jw *w, const char *key, int32_t e)
{
    const char *s = krb5_etype_name(e);
    char num[16];
    if (!s) {
        snprintf(num, sizeof num, "%d", (int)e);
        s = num;
    }
    osprey_jw_str(w, key, s);
}

bool krb5_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct krb5_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct krb5_msg *m = &st->cur;
    osprey_jw_open(w, "krb5");
    if (m->has_error) {
        char num[16];
        osprey_jw_str(w, "msg_type", "KRB_ERROR");
        const char *f = krb5_msg_type_name(m->failed);
        snprintf(num, sizeof num, "%u", m->failed);
        osprey_jw_str(w, "failed_request", f ? f : num);
        const char *e = krb5_error_name(m->error_code);
        snprintf(num, sizeof num, "%d", (int)m->error_code);
        osprey_jw_str(w, "error_code", e ? e : num);
    } else {
        osprey_jw_str(w, "msg_type", krb5_msg_type_name(m->type));
    }
    name(w, "cname", m, &m->cname);
    if (m->realm.set)
        osprey_jw_strn(w, "realm", m->body + m->realm.off, m->realm.len);
    else
        osprey_jw_str(w, "realm", "<empty>");
    name(w, "sname", m, &m->sname);
    if (m->has_etype)
        etype(w, "encryption", m->etype);
    else
        osprey_jw_str(w, "encryption", "<none>");
    osprey_jw_bool(w, "weak_encryption", m->has_etype && krb5_weak(m->etype));
    if (m->has_ticket_etype) {
        etype(w, "ticket_encryption", m->ticket_etype);
        osprey_jw_bool(w, "ticket_weak_encryption", krb5_weak(m->ticket_etype));
    }
    osprey_jw_close(w);
    return true;
}
