/* messages.c — what PostgreSQL's message readers share (frontend.c, backend.c): NUL-terminated
 * strings read in bounds, and a message that does not read (the side given up). */
#include <string.h>

#include "pgsql_int.h"

/* a NUL-terminated string at *at in b[0..n): its length, *at moved past the NUL; -1 none */
int64_t pg_cstr(const uint8_t *b, uint32_t n, uint32_t *at)
{
    const uint8_t *z = *at < n ? memchr(b + *at, 0, n - *at) : NULL;
    if (!z)
        return -1;
    int64_t l = z - (b + *at);
    *at += (uint32_t)l + 1;
    return l;
}

void pg_bad(struct pflow *pf, struct mon_flow *f, int dir, unsigned ae)
{
    pflow_count(pf, PG_C_MALFORMED, 1);
    pflow_anomaly(pf, f, dir, ae);
    pf->dead[dir] = true;
}
