/* geoip.c — MaxMind lookups for EVE's geoip objects and the geoip: rule keyword. */
#include "osprey_geoip.h"

#include <arpa/inet.h>
#include <maxminddb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct osprey_geoip {
    MMDB_s db;
};

struct osprey_geoip *osprey_geoip_open(const char *path, char *err, size_t errlen)
{
    struct osprey_geoip *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    int rc = MMDB_open(path, MMDB_MODE_MMAP, &g->db);
    if (rc != MMDB_SUCCESS) {
        snprintf(err, errlen, "%s: %s", path, MMDB_strerror(rc));
        free(g);
        return NULL;
    }
    return g;
}

void osprey_geoip_close(struct osprey_geoip *g)
{
    if (!g)
        return;
    MMDB_close(&g->db);
    free(g);
}

/* Copy the string at path (NULL-terminated list) into out, if the entry has one. */
static void get_str(MMDB_entry_s *e, char *out, size_t len, ...)
{
    MMDB_entry_data_s d;
    va_list ap;
    va_start(ap, len);
    int rc = MMDB_vget_value(e, &d, ap);
    va_end(ap);
    if (rc == MMDB_SUCCESS && d.has_data && d.type == MMDB_DATA_TYPE_UTF8_STRING) {
        size_t n = d.data_size < len - 1 ? d.data_size : len - 1;
        memcpy(out, d.utf8_string, n);
        out[n] = '\0';
    }
}

void osprey_geoip_lookup(const struct osprey_geoip *g, const uint8_t *addr, int ipver,
                         struct osprey_geo *out)
{
    memset(out, 0, sizeof *out);
    if (!g)
        return;
    struct sockaddr_storage ss = {0};
    if (ipver == 6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
        s6->sin6_family = AF_INET6;
        memcpy(&s6->sin6_addr, addr, 16);
    } else {
        struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
        s4->sin_family = AF_INET;
        memcpy(&s4->sin_addr, addr, 4);
    }
    int mmdb_err;
    MMDB_lookup_result_s r =
        MMDB_lookup_sockaddr((MMDB_s *)&g->db, (const struct sockaddr *)&ss, &mmdb_err);
    if (mmdb_err != MMDB_SUCCESS || !r.found_entry)
        return;
    out->found = true;
    get_str(&r.entry, out->country_iso, sizeof out->country_iso, "country", "iso_code", NULL);
    get_str(&r.entry, out->country_name, sizeof out->country_name, "country", "names", "en",
            NULL);
    get_str(&r.entry, out->city, sizeof out->city, "city", "names", "en", NULL);
    get_str(&r.entry, out->as_org, sizeof out->as_org, "autonomous_system_organization", NULL);
    MMDB_entry_data_s d;
    if (MMDB_get_value(&r.entry, &d, "autonomous_system_number", NULL) == MMDB_SUCCESS &&
        d.has_data && d.type == MMDB_DATA_TYPE_UINT32)
        out->asn = d.uint32;
}
