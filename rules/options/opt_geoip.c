/* opt_geoip.c — geoip: (see opt_geoip.h): argument grammar and evaluation. */
#include <ctype.h>
#include <string.h>

#include "opt_geoip.h"
#include "opt_util.h"
#include "registry.h"

static int parse_geoip(struct rule_ctx *c, char *val)
{
    static const char *const DIRS[] = {"src", "dst", "both", "any", NULL};
    struct opt_geoip *g = opt_arg_new(c, sizeof *g);
    if (!g)
        return -1;
    char *comma = strchr(val, ',');
    if (!comma)
        return opt_error(c, val, "expected a direction and countries, e.g. geoip:src,RU");
    int d = parse_choice(c, val, (size_t)(rtrim(val, comma) - val), DIRS, "direction");
    if (d < 0)
        return -1;
    g->dir = (uint8_t)d;
    const char *p = comma + 1;
    for (;;) {
        p += strspn(p, " \t");
        if (*p == '!') {
            if (g->n)
                return opt_error(c, p, "'!' may only come before the first country");
            g->neg = true;
            p++;
            p += strspn(p, " \t");
        }
        size_t n = strcspn(p, ", \t");
        if (n != 2 || !isalpha((unsigned char)p[0]) || !isalpha((unsigned char)p[1]))
            return opt_error(c, p, "expected a two-letter country code, got '%.*s'",
                             (int)strcspn(p, ","), p);
        if (g->n == GEOIP_MAX_COUNTRIES)
            return opt_error(c, p, "at most %d countries", GEOIP_MAX_COUNTRIES);
        g->cc[g->n][0] = (char)toupper((unsigned char)p[0]);
        g->cc[g->n][1] = (char)toupper((unsigned char)p[1]);
        g->n++;
        p += n;
        p += strspn(p, " \t");
        if (*p == '\0')
            return 0;
        if (*p != ',')
            return opt_error(c, p, "unexpected '%c'", *p);
        p++;
    }
}

static const struct opt_def DEFS[] = {
    {"geoip", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_geoip, true, NULL},
};
OPT_TABLE(opt_table_geoip, DEFS);

/* Is this address in the list (before negation)? */
static bool in_list(const struct opt_geoip *g, const struct osprey_geoip *db, const uint8_t *a,
                    int ipver)
{
    struct osprey_geo geo;
    osprey_geoip_lookup(db, a, ipver, &geo);
    if (!geo.found || strlen(geo.country_iso) != 2)
        return false;
    for (uint8_t i = 0; i < g->n; i++)
        if (g->cc[i][0] == geo.country_iso[0] && g->cc[i][1] == geo.country_iso[1])
            return true;
    return false;
}

bool geoip_match(const struct opt_geoip *g, const struct osprey_geoip *db, const uint8_t *src,
                 const uint8_t *dst, int ipver)
{
    bool s = false, d = false;
    if (g->dir != GEOIP_DST)
        s = in_list(g, db, src, ipver) != g->neg;
    if (g->dir != GEOIP_SRC)
        d = in_list(g, db, dst, ipver) != g->neg;
    switch (g->dir) {
    case GEOIP_SRC: return s;
    case GEOIP_DST: return d;
    case GEOIP_BOTH: return s && d;
    default: return s || d;
    }
}
