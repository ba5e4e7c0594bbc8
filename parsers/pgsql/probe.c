/* probe.c — is this PostgreSQL? Suricata probes TCP 5432 (its port; here a hint on either
 * side) with its request parser: the client's first message must be a startup packet of
 * protocol 3.x, an SSLRequest or a CancelRequest (their lengths exact), or a simple query /
 * Terminate (a flow picked up later). */
#include "pgsql_int.h"

#define PG_PORT 5432

enum probe_verdict pgsql_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || !(f->sport == PG_PORT || f->cport == PG_PORT))
        return DET_NO;
    if (n && (d[0] == 'Q' || d[0] == 'X')) { /* type, length */
        if (n < 5)
            return DET_NEED_MORE;
        uint32_t l = rd_be32(d + 1);
        return l >= 4 && l < PG_MSG_MAX && (d[0] == 'Q' || l == 4) ? DET_YES : DET_NO;
    }
    if (n < 8)
        return n && d[0] == 0 ? DET_NEED_MORE : DET_NO;
    uint32_t len = rd_be32(d), code = rd_be32(d + 4);
    if (code == 80877103u || code == 80877104u)  /* SSLRequest, GSSENCRequest */
        return len == 8 ? DET_YES : DET_NO;
    if (code == 80877102u)                       /* CancelRequest */
        return len == 16 ? DET_YES : DET_NO;
    if (code >> 16 == 3 && len >= 9 && len < 10000) /* a startup packet: 3.x and parameters */
        return DET_YES;
    return DET_NO;
}
