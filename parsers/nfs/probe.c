/* probe.c — NFS detection: an ONC-RPC CALL to program 100003 (NFS), version 2 to 4, in the
 * first datagram or the client's first TCP record (behind its record mark); on TCP a server
 * on port 2049 whose first bytes are an RPC REPLY (a flow picked up mid-stream) too. */
#include "nfs_int.h"

static enum probe_verdict call(const uint8_t *d, size_t n)
{
    enum probe_verdict v = rpc_probe_call(d, n, NFS_PROG);
    if (v != DET_YES)
        return v;
    uint32_t vers = rd_be32(d + 16);
    return vers >= 2 && vers <= 4 ? DET_YES : DET_NO;
}

enum probe_verdict nfs_probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    return call(d, n);
}

enum probe_verdict nfs_probe_tcp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n >= 1 && !(d[0] & 0x80) && n >= 4 && rd_be32(d) == 0)
        return DET_NO; /* (an empty first fragment that does not end the record: not RPC) */
    return n < 4 ? DET_NEED_MORE : call(d + 4, n - 4);
}

enum probe_verdict nfs_probe_tcp_reply(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || f->sport != 2049)
        return DET_NO;
    return n < 4 ? DET_NEED_MORE : rpc_probe_reply(d + 4, n - 4);
}
