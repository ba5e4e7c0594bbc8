/* plan_pkt.c — the plan functions of the options on the packet and the flow: flow, dsize,
 * the header fields (ttl, itype, seq …), flags, fragbits, ipopts, ip_proto, sameip, the packet
 * and flow properties (tcp.mss, vlan.id, flow.pkts …), geoip, stream_size. Their units'
 * ops say which make the rule a packet rule (det_unit_ops.packet_only). */
#include "opt_eval.h"
#include "plan.h"

int plan_flow(struct plan_ctx *ctx)
{
    const struct opt_flow *f = ctx->o->arg;
    if ((ctx->pl->why = flow_compile_check(f)))
        return 0;
    ctx->no_stream |= (f->flags & (FLOW_NO_STREAM | FLOW_ONLY_FRAG | FLOW_NO_FRAG)) != 0;
    ctx->only_stream |= (f->flags & FLOW_ONLY_STREAM) != 0;
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_flow, .flow = f});
    return 0;
}

int plan_dsize(struct plan_ctx *ctx)
{
    if ((ctx->pl->why = cmp_compile_check(ctx->o->arg)))
        return 0;
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_dsize, .cmp = ctx->o->arg});
    return 0;
}

int plan_hdr_field(struct plan_ctx *ctx) /* itype, icode, ttl, tos, id, seq … */
{
    if ((ctx->pl->why = cmp_compile_check(ctx->o->arg)))
        return 0;
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_hdr, .field = hdr_field_of(ctx->name),
                                         .cmp = ctx->o->arg});
    return 0;
}

int plan_geoip(struct plan_ctx *ctx)
{
    if (!ctx->d->geoip) {
        ctx->pl->why = "needs geoip-database (a MaxMind .mmdb)";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_geoip, .geo = ctx->o->arg,
                                         .geodb = ctx->d->geoip});
    return 0;
}

int plan_ip_proto(struct plan_ctx *ctx)
{
    struct det_unit u = {.ops = &det_unit_ipproto};
    ipproto_compile(ctx->o->value, &u.ipp);
    plan_add_unit(ctx, u);
    return 0;
}

int plan_sameip(struct plan_ctx *ctx)
{
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_sameip});
    return 0;
}

int plan_pktprop(struct plan_ctx *ctx) /* evaluated per packet */
{
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_pktprop, .pp = ctx->o->arg});
    return 0;
}

int plan_tcpflags(struct plan_ctx *ctx) /* flags, tcp.flags */
{
    struct det_unit u = {.ops = &det_unit_tcpflags};
    tcpflags_compile(ctx->o->value, &u.tf);
    plan_add_unit(ctx, u);
    return 0;
}

int plan_fragbits(struct plan_ctx *ctx) /* IP header bits: packets only */
{
    struct det_unit u = {.ops = &det_unit_fragbits};
    fragbits_compile(ctx->o->value, &u.tf);
    plan_add_unit(ctx, u);
    return 0;
}

int plan_ipopts(struct plan_ctx *ctx)
{
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_ipopts,
                                         .ipopt = ipopts_compile(ctx->o->value)});
    return 0;
}

int plan_stream_size(struct plan_ctx *ctx)
{
    if ((ctx->pl->why = stream_size_compile_check(ctx->o->arg)))
        return 0;
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_streamsize, .cmp = ctx->o->arg});
    ctx->pl->pkt_required = true; /* Suricata: stream_size inspects packets too */
    return 0;
}
