/* eve.c — SSH's EVE object, as Suricata writes it: ssh{client{proto_version,
 * software_version, hassh{hash, string}}, server{…}}, each side once its banner is in, its
 * hassh once its KEXINIT is (HASSH computed). */
#include "osprey_json_writer.h"
#include "ssh_int.h"

static void side_object(struct osprey_jw *w, const char *key, const struct ssh_side *s)
{
    if (!s->done)
        return;
    osprey_jw_open(w, key);
    if (s->proto.set)
        osprey_jw_strn(w, "proto_version", s->line.p + s->proto.off, s->proto.len);
    if (s->software.set)
        osprey_jw_strn(w, "software_version", s->line.p + s->software.off, s->software.len);
    if (s->kexinit) {
        osprey_jw_open(w, "hassh");
        osprey_jw_str(w, "hash", s->hassh);
        osprey_jw_strn(w, "string", s->hassh_string.p, s->hassh_string.len);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
}

bool ssh_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct ssh_state *st = pf->state;
    if (!st || (!st->side[0].done && !st->side[1].done))
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "ssh");
    side_object(w, "client", &st->side[0]);
    side_object(w, "server", &st->side[1]);
    osprey_jw_close(w);
    return true;
}
