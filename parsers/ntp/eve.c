/* eve.c — NTP's EVE object, as Suricata 8 writes it: ntp{version, mode, stratum,
 * reference_id (its 4 bytes as colon-separated hex)}; a control message has only the first
 * two. */
#include <stdio.h>

#include "ntp_int.h"
#include "osprey_json_writer.h"

bool ntp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct ntp_state *st = pf->state;
    if (!st || !st->has_cur)
        return false;
    if (!w)
        return true;
    const struct ntp_msg *m = &st->cur;
    osprey_jw_open(w, "ntp");
    osprey_jw_int(w, "version", m->version);
    osprey_jw_int(w, "mode", m->mode);
    if (m->has_stratum) {
        char id[12];
        osprey_jw_int(w, "stratum", m->stratum);
        snprintf(id, sizeof id, "%02x:%02x:%02x:%02x", m->refid[0], m->refid[1], m->refid[2],
                 m->refid[3]);
        osprey_jw_str(w, "reference_id", id);
    }
    osprey_jw_close(w);
    return true;
}
