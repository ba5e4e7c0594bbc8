/* eve_stats.c — EVE "stats" records: counters named with dots become nested objects
 * ("decoder.ipv4" → "decoder": {"ipv4": N}), the layout Suricata's stats records have. */
#include <jansson.h>
#include <string.h>

#include "eve_json.h"
#include "osprey_outputs.h"

/* Put value at the dotted path name under root, making the objects on the way. */
static void put_path(json_t *root, const char *name, uint64_t value)
{
    json_t *at = root;
    char part[128];
    const char *p = name;
    for (const char *dot; (dot = strchr(p, '.')) != NULL; p = dot + 1) {
        size_t n = (size_t)(dot - p) < sizeof part - 1 ? (size_t)(dot - p) : sizeof part - 1;
        memcpy(part, p, n);
        part[n] = '\0';
        json_t *next = json_object_get(at, part);
        if (!json_is_object(next)) {
            next = json_object();
            json_object_set_new(at, part, next);
        }
        at = next;
    }
    json_object_set_new(at, p, json_integer((json_int_t)(value & INT64_MAX)));
}

char *osprey_eve_stats_line(uint64_t ts_us, uint64_t uptime_s, const struct osprey_stat *st,
                            size_t n)
{
    json_t *o = json_object();
    json_t *s = json_object();
    if (!o || !s) {
        json_decref(o);
        json_decref(s);
        return NULL;
    }
    osprey_eve_put_time(o, "timestamp", ts_us);
    json_object_set_new(o, "event_type", json_string("stats"));
    json_object_set_new(s, "uptime", json_integer((json_int_t)uptime_s));
    for (size_t i = 0; i < n; i++)
        put_path(s, st[i].name, st[i].value);
    json_object_set_new(o, "stats", s);
    return osprey_eve_line(o);
}
