/* unit_rpc.c — rpc:PROGRAM[,VERSION|*[,PROCEDURE|*]] (Snort's and Suricata's): the packet's
 * payload is an ONC-RPC CALL (RFC 5531) of that program, version and procedure. As both
 * engines read it, on the packet itself: behind a TCP segment's 4-byte record mark, at the
 * start of a UDP datagram; message type CALL (0), RPC version 2. A packet property. */
#include "detect_int.h"
#include "intern.h"
#include "plan.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool rpc_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                     int side)
{
    (void)f, (void)side;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (!p || !p->payload || (p->proto != 6 && p->proto != 17))
        return false;
    const uint8_t *d = p->payload;
    uint32_t n = p->payload_len;
    if (p->proto == 6) { /* the record mark */
        if (n < 4)
            return false;
        d += 4, n -= 4;
    }
    if (n < 24 || be32(d + 4) != 0 || be32(d + 8) != 2)
        return false;
    const struct opt_rpc *r = u->rpc;
    return be32(d + 12) == r->prog && (r->any_vers || be32(d + 16) == r->vers) &&
           (r->any_proc || be32(d + 20) == r->proc);
}

static void rpc_key(struct buf *k, const struct det_unit *u)
{
    buf_put(k, &u->rpc->prog, sizeof u->rpc->prog);
    buf_put(k, &u->rpc->vers, sizeof u->rpc->vers);
    buf_put(k, &u->rpc->proc, sizeof u->rpc->proc);
    buf_put(k, &u->rpc->any_vers, sizeof u->rpc->any_vers);
    buf_put(k, &u->rpc->any_proc, sizeof u->rpc->any_proc);
}

const struct det_unit_ops det_unit_rpc = {
    .name = "rpc", .eval = rpc_eval, .key = rpc_key, .packet_only = true, .gate_safe = true};

int plan_rpc(struct plan_ctx *ctx)
{
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_rpc, .rpc = ctx->o->arg});
    return 0;
}
