/* opt_geoip.h — Suricata's geoip: keyword: where the packet's addresses are, by country.
 *
 *   geoip:src,RU;  geoip:dst,CN,RU,IR;  geoip:both,US,CA;  geoip:any,CN,IR;  geoip:src,!US;
 *
 * src / dst: that address's country is in the list; both: both are; any: either is. A "!"
 * before the first country negates the list (the address is in none of them). Countries are
 * ISO 3166 alpha-2 codes (any case), looked up in geoip-database (a MaxMind .mmdb with
 * countries); an address the database does not know is in no country. */
#ifndef RULES_OPT_GEOIP_H
#define RULES_OPT_GEOIP_H

#include <stdbool.h>
#include <stdint.h>

#include "osprey_geoip.h"

#define GEOIP_MAX_COUNTRIES 32

enum geoip_dir { GEOIP_SRC, GEOIP_DST, GEOIP_BOTH, GEOIP_ANY };

struct opt_geoip {
    uint8_t dir;                          /* enum geoip_dir */
    bool neg;
    uint8_t n;
    char cc[GEOIP_MAX_COUNTRIES][2];      /* upper case */
};

/* Does the packet (addresses src, dst: 4 or 16 bytes by ipver) match? */
bool geoip_match(const struct opt_geoip *g, const struct osprey_geoip *db, const uint8_t *src,
                 const uint8_t *dst, int ipver);

#endif
