/* osprey_geoip.h — where an address is, from a MaxMind database (libmaxminddb).
 *
 * One database per run (geoip-database: PATH.mmdb), opened read-only and memory-mapped;
 * lookups are thread-safe. Country, city and ASN come from whatever the database holds
 * (a GeoIP2/GeoLite2 City database has the first three, an ASN database the last), so a
 * missing field is just left empty. Its own small library on the ground floor (common/,
 * osprey_geoip), so the rules' geoip: keyword (rules/options/opt_geoip.c) uses the same
 * lookups as EVE's geoip objects (outputs/).
 */
#ifndef OSPREY_GEOIP_H
#define OSPREY_GEOIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the database says about one address; empty strings / 0 = unknown. */
struct osprey_geo {
    bool found;
    char country_iso[8];
    char country_name[64];
    char city[96];
    uint32_t asn;
    char as_org[128];
};

struct osprey_geoip;

/* NULL with the reason in err ("PATH: The MaxMind DB file's metadata ..."). */
struct osprey_geoip *osprey_geoip_open(const char *path, char *err, size_t errlen);
void osprey_geoip_close(struct osprey_geoip *g);

/* Look up 4 or 16 raw address bytes; out->found says whether the database knows it. */
void osprey_geoip_lookup(const struct osprey_geoip *g, const uint8_t *addr, int ipver,
                         struct osprey_geo *out);

#endif
