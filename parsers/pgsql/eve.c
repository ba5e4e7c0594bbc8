/* eve.c — PostgreSQL's EVE object as Suricata 8 writes it: pgsql{tx_id, request{…},
 * response{…}}: each side's items in the order they came (tx.c); ParameterStatus messages in
 * a row are one parameter_status array of {name: value}, the startup's parameters
 * startup_parameters{user, optional_parameters[…]}. Parameter names as sent, Suricata's
 * renamings of three (DateStyle, IntervalStyle, TimeZone) applied. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "osprey_json_writer.h"
#include "pgsql_int.h"

static const char *param_name(const char *n)
{
    if (!strcasecmp(n, "DateStyle"))
        return "date_style";
    if (!strcasecmp(n, "IntervalStyle"))
        return "interval_style";
    if (!strcasecmp(n, "TimeZone"))
        return "time_zone";
    return n;
}

static void items(struct osprey_jw *w, const struct pbuf *b)
{
    uint32_t at = 0;
    int open_objects = 0; /* PI_OPEN without their PI_CLOSE yet (a close shed: closed here) */
    char open_array[256] = "";
    while (at + 2 <= b->len) {
        uint8_t kind = b->p[at], kl = b->p[at + 1];
        if (at + 6u + kl > b->len)
            break; /* (an item cut by a failed allocation) */
        char key[256];
        memcpy(key, b->p + at + 2, kl);
        key[kl] = 0;
        uint32_t vl = rd_be32(b->p + at + 2 + kl);
        if (vl > b->len - (at + 6u + kl))
            break;
        const uint8_t *v = b->p + at + 6 + kl;
        at += 6u + kl + vl;
        if (open_array[0] && (kind != PI_PARAM || strcmp(key, open_array))) {
            osprey_jw_array_end(w);
            open_array[0] = 0;
        }
        switch (kind) {
        case PI_STR: osprey_jw_strn(w, key, v, vl); break;
        case PI_INT: {
            uint64_t x = 0;
            for (int i = 0; i < 8; i++)
                x = x << 8 | v[i];
            osprey_jw_int(w, key, (int64_t)x);
            break;
        }
        case PI_BOOL: osprey_jw_bool(w, key, v[0]); break;
        case PI_OPEN: osprey_jw_open(w, key), open_objects++; break;
        case PI_CLOSE:
            if (open_objects)
                osprey_jw_close(w), open_objects--;
            break;
        case PI_PARAM: {
            if (!open_array[0]) {
                osprey_jw_array(w, key);
                snprintf(open_array, sizeof open_array, "%s", key);
            }
            char name[256];
            size_t nl = strnlen((const char *)v, vl < 255 ? vl : 255);
            memcpy(name, v, nl);
            name[nl] = 0;
            osprey_jw_open(w, NULL);
            osprey_jw_strn(w, param_name(name), v + nl + 1, nl < vl ? vl - nl - 1 : 0);
            osprey_jw_close(w);
            break;
        }
        }
    }
    if (open_array[0])
        osprey_jw_array_end(w);
    while (open_objects--)
        osprey_jw_close(w);
}

bool pgsql_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct pgsql_state *st = pf->state;
    const struct pg_tx *tx = st ? st->cur : NULL;
    if (!tx)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "pgsql");
    osprey_jw_int(w, "tx_id", (int64_t)tx->id);
    if (tx->has_req) {
        osprey_jw_open(w, "request");
        items(w, &tx->req);
        osprey_jw_close(w);
    }
    if (tx->resp.len) {
        osprey_jw_open(w, "response");
        items(w, &tx->resp);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
