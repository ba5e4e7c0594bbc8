/* access.c — what handlers may do: look at or change the current packet, read streams,
 * get and set socket options, raise children of a multi-event filter. */
#include <string.h>

#include "core_internal.h"

const struct mon_packet *mon_getlastpkt(struct mon_ctx *ctx)
{
    return ctx->cur;
}

bool mon_ack_delivery(const struct mon_ctx *ctx)
{
    return ctx->tcp.cfg.ack_delivery;
}

int mon_ack_view(struct mon_ctx *ctx, bool on)
{
    if (!ctx->cur || on == (ctx->viewed != NULL))
        return MON_EINVAL;
    if (!on) {
        ctx->cur = ctx->viewed;
        ctx->viewed = NULL;
        return MON_OK;
    }
    struct mon_packet *p = ctx->cur, *v = &ctx->view;
    *v = *p;
    v->src = p->dst, v->dst = p->src;
    v->sport = p->dport, v->dport = p->sport;
    v->payload = NULL, v->payload_len = 0;
    v->flags |= MON_PKT_ACK_VIEW;
    ctx->viewed = p;
    ctx->cur = v;
    return MON_OK;
}

static bool sender_phase(const struct mon_ctx *ctx)
{
    return ctx->cur && (ctx->phase == PH_SND || ctx->phase == PH_REXMIT);
}

int mon_setlastpkt(struct mon_ctx *ctx, enum mon_anchor anchor, size_t offset,
                   const void *data, size_t len)
{
    if (!sender_phase(ctx))
        return core_err(ctx, MON_ESTATE, "packets can only be changed by sender-side handlers");
    struct mon_packet *p = ctx->cur;
    const uint8_t *base;
    switch (anchor) {
    case MON_AT_FRAME: base = p->frame; break;
    case MON_AT_IP: base = p->l3; break;
    case MON_AT_L4: base = p->l4; break;
    case MON_AT_PAYLOAD: base = p->payload; break;
    default: return core_err(ctx, MON_EINVAL, "unknown anchor %d", (int)anchor);
    }
    /* only bytes of the captured frame itself (not a reassembled datagram) can change */
    if (!base || base < p->frame || base > p->frame + p->caplen)
        return core_err(ctx, MON_ERANGE, "that header is not in the captured frame");
    size_t start = (size_t)(base - p->frame);
    if (offset > p->caplen - start || len > p->caplen - start - offset)
        return core_err(ctx, MON_ERANGE, "write past the captured frame");
    memcpy((uint8_t *)p->frame + start + offset, data, len); /* frames are writable */
    p->flags |= MON_PKT_MODIFIED;
    return MON_OK;
}

int mon_drop(struct mon_ctx *ctx)
{
    if (!sender_phase(ctx))
        return core_err(ctx, MON_ESTATE, "packets can only be dropped by sender-side handlers");
    ctx->cur->flags |= MON_PKT_DROPPED;
    return MON_OK;
}

static int tcp_flow(struct mon_ctx *ctx, const struct mon_flow *f, int side)
{
    if (!f || (side != MON_SIDE_CLI && side != MON_SIDE_SVR))
        return core_err(ctx, MON_EINVAL, "a flow and a side are needed");
    if (f->proto != 6 || !(f->mon_flags & FF_TCP_LIVE))
        return core_err(ctx, MON_EINVAL, "not a tracked TCP connection");
    return MON_OK;
}

ssize_t mon_peek(struct mon_ctx *ctx, struct mon_flow *f, int side, void *buf, size_t len)
{
    int rc = tcp_flow(ctx, f, side);
    return rc ? rc : tcp_peek(&ctx->tcp, f, side, buf, len);
}

ssize_t mon_ppeek(struct mon_ctx *ctx, struct mon_flow *f, int side, void *buf, size_t len,
                  uint64_t off)
{
    int rc = tcp_flow(ctx, f, side);
    return rc ? rc : tcp_ppeek(&ctx->tcp, f, side, buf, len, off);
}

int mon_getsockopt(struct mon_ctx *ctx, struct mon_flow *f, int side, enum mon_sockopt opt,
                   void *val, size_t *len)
{
    int rc = tcp_flow(ctx, f, side);
    return rc ? rc : tcp_getsockopt(&ctx->tcp, f, side, opt, val, len);
}

int mon_setsockopt(struct mon_ctx *ctx, struct mon_flow *f, int side, enum mon_sockopt opt,
                   const void *val, size_t len)
{
    int rc = tcp_flow(ctx, f, side);
    return rc ? rc : tcp_setsockopt(&ctx->tcp, f, side, opt, val, len);
}

int mon_raise_event(struct mon_ctx *ctx, mon_event_t child)
{
    return ev_raise(ctx->nest ? ctx->nested[ctx->nest - 1] : ctx->runner, child);
}

int mon_run_event(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev)
{
    /* a packet without a flow (ORPHAN, DECODE_EVENT): the socket's forest being walked */
    struct ev_forest *forest = f ? f->forest : ctx->forest_now;
    if (!forest)
        return core_err(ctx, MON_EINVAL, "mon_run_event needs a flow with events");
    if (ev < MON_EV_BUILTIN_COUNT || !ev_exists(ctx->eng->reg, ev))
        return core_err(ctx, MON_ENOENT, "mon_run_event: %u is not a user-defined event", ev);
    if (ctx->nest == CORE_RUN_NEST)
        return core_err(ctx, MON_ESTATE, "mon_run_event nested more than %d deep", CORE_RUN_NEST);
    struct ev_runner *rn = ctx->nested[ctx->nest];
    if (!rn && !(rn = ctx->nested[ctx->nest] = ev_runner_create(ctx->eng->reg)))
        return core_err(ctx, MON_ENOMEM, "no memory for a runner");
    /* hold the forest: a handler may re-register on this flow and swap f->forest */
    ev_forest_retain(forest);
    int saved_hook = ctx->hook_now, found = 0, rc = MON_OK;
    ctx->nest++;
    for (int hook = MON_HK_SND; hook <= MON_HK_RCV && rc >= 0; hook++) {
        ctx->hook_now = hook;
        rc = ev_run_event(rn, forest, hook, ev, ctx, f, side, &ctx->evstats);
        found += rc > 0;
    }
    ctx->nest--;
    ctx->hook_now = saved_hook;
    ev_forest_release(ctx->forests, forest);
    return rc < 0 ? rc : found;
}

int mon_hook_now(const struct mon_ctx *ctx)
{
    return ctx->hook_now;
}
