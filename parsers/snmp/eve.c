/* eve.c — SNMP's EVE object, as Suricata writes it: snmp{version, pdu_type ("encrypted" for
 * an encrypted v3 PDU), vars (the bindings' OIDs, dotted), community or usm, and a v1 trap's
 * trap_type, trap_oid, trap_address}. */
#include <stdio.h>

#include "osprey_json_writer.h"
#include "snmp_int.h"

static void sp(struct osprey_jw *w, const char *key, const struct snmp_msg *m,
               const struct span *s)
{
    if (s->set)
        osprey_jw_strn(w, key, m->body + s->off, s->len);
}

/* RFC 1157's generic trap types, by the names Suricata writes */
static const char *trap_name(int64_t t)
{
    static const char *const N[] = {"ColdStart", "WarmStart", "LinkDown", "LinkUp",
                                    "AuthenticationFailure", "EgpNeighborLoss",
                                    "EnterpriseSpecific"};
    return t >= 0 && t < 7 ? N[t] : NULL;
}

bool snmp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct snmp_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct snmp_msg *m = &st->cur;
    char oid[256];
    osprey_jw_open(w, "snmp");
    osprey_jw_int(w, "version", m->version);
    if (m->encrypted)
        osprey_jw_str(w, "pdu_type", "encrypted");
    else if (m->has_pdu)
        osprey_jw_str(w, "pdu_type", snmp_pdu_name(m->pdu_type));
    if (m->pdu_type == SNMP_TRAP_V1 && m->has_pdu) {
        const char *t = trap_name(m->trap_type);
        if (t)
            osprey_jw_str(w, "trap_type", t);
        size_t k = snmp_oid_str(m->body + m->trap_oid.off, m->trap_oid.len, oid, sizeof oid);
        if (k)
            osprey_jw_strn(w, "trap_oid", (const uint8_t *)oid, k);
        if (m->trap_addr.set) {
            const uint8_t *a = m->body + m->trap_addr.off;
            snprintf(oid, sizeof oid, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
            osprey_jw_str(w, "trap_address", oid);
        }
    }
    if (m->nvars) {
        osprey_jw_array(w, "vars");
        for (uint32_t i = 0; i < m->nvars; i++) {
            size_t k = snmp_oid_str(m->body + m->vars[i].off, m->vars[i].len, oid, sizeof oid);
            osprey_jw_strn(w, NULL, (const uint8_t *)oid, k);
        }
        osprey_jw_array_end(w);
    }
    sp(w, "community", m, &m->community);
    sp(w, "usm", m, &m->usm);
    osprey_jw_close(w);
    return true;
}
