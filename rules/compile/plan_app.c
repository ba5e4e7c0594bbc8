/* plan_app.c — the plan functions of the options on application buffers and events that are
 * not payload runs: a buffer's length (urilen, bsize, bufferlen), absent, dataset/datarep,
 * the DNS header fields, the TLS units, and the engine's events (decode-event, stream-event,
 * app-layer-event). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "plan.h"
#include "tls_units.h"

int plan_buflen(struct plan_ctx *ctx) /* urilen, bsize, bufferlen (Snort 3's bsize) */
{
    const struct opt_cmp *cm = ctx->o->arg;
    struct opt_cmp plain = *cm;
    bool uri = ctx->name[0] == 'u';
    if (!uri && cm->flags == 1 && !cm->var) /* bufferlen's relative: left after the cursor */
        return plan_bufferlen_relative(ctx);
    plain.flags = uri ? 0 : plain.flags; /* urilen's norm/raw: below */
    if ((ctx->pl->why = cmp_compile_check(&plain)))
        return 0;
    uint16_t ob = 0, ub;
    const struct det_xform *xf = NULL;
    if (uri) { /* urilen: the normalized URI unless ",raw" */
        if (det_app_buffer_of(cm->flags == 2 ? BUF_HTTP_URI_RAW : BUF_HTTP_URI,
                              det_app_opt_to_client(ctx->r, ctx->i, ctx->to_client), &ob,
                              &ub) < 0) {
            ctx->pl->why = "a buffer Osprey does not fill yet";
            return 0;
        }
    } else if (plan_app_buffer(ctx, &ob, &xf) < 0) {
        return -1;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_buflen, .cmp = cm, .ob = ob,
                                         .xf = xf});
    return 0;
}

int plan_absent(struct plan_ctx *ctx)
{
    uint16_t ob = 0;
    const struct det_xform *xf = NULL;
    if (!det_base_is_app(ctx->app_base) || ctx->nor_else == 8) {
        ctx->pl->why = "absent on a buffer Osprey does not fill";
        return 0;
    }
    if (plan_app_buffer(ctx, &ob, &xf) < 0)
        return -1;
    if (*(const bool *)ctx->o->arg) /* or_else: make_plan marks the buffer's units */
        ctx->or_else[ctx->nor_else++] = (struct det_unit){.ob = ob, .xf = xf};
    else
        plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_absent, .ob = ob, .xf = xf});
    return 0;
}

/* dataset / datarep: the unit on the option's buffer and its set (made, and its file read,
 * on first use). */
int plan_dataset(struct plan_ctx *ctx)
{
    struct osprey_detect *d = ctx->d;
    const struct osprey_rule_option *o = ctx->o;
    char why[512];
    if (d->datasets_disabled) {
        ctx->pl->why = "datasets are disabled (datasets.enabled: no)";
        return 0;
    }
    if (!d->datasets &&
        !(d->datasets = det_datasets_create(d->dataset_memcap, d->dataset_hashsize)))
        return -1;
    struct det_dataset *set = det_dataset_open(d->datasets, o->arg, ctx->r->file, why,
                                               sizeof why);
    if (!set) {
        char *msg = strdup(why);
        if (!msg || det_own(d, msg) < 0)
            return -1;
        ctx->pl->why = msg;
        return 0;
    }
    uint16_t ob = 0;
    const struct det_xform *xf = NULL;
    if (plan_app_buffer(ctx, &ob, &xf) < 0)
        return -1;
    struct det_unit u = {.ops = &det_unit_dataset, .ds = o->arg, .set = set, .ob = ob,
                         .xf = xf};
    u.addr = o->buffer == BUF_IP_SRC ? 1 : o->buffer == BUF_IP_DST ? 2 : 0;
    plan_add_unit(ctx, u);
    return 0;
}

/* dns.opcode, dns.rcode, dns.rrtype, the mqtt.* integers, ftp.dynamic_port, ftp.mode,
 * ftp.reply_received, krb5_msg_type, krb5_err_code, snmp.version, snmp.pdu_type,
 * ldap.request.operation, pop3.command, pop3.status: a comparison on the parsers' field of
 * that name */
int plan_dns_field(struct plan_ctx *ctx)
{
    const struct opt_cmp *cm = ctx->o->arg;
    char named[64];
    snprintf(named, sizeof named, "%s.name", ctx->name); /* a value given by name */
    int fld = osprey_field_find(cm && (cm->flags & OPT_CMP_BY_NAME) ? named : ctx->name);
    if (fld < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field, .cmp = ctx->o->arg,
                                         .field = fld});
    return 0;
}

/* ldap.responses.operation / .result_code / .count: a list field by position (unit_fields.c) */
int plan_field_index(struct plan_ctx *ctx)
{
    const struct opt_field_index *x = ctx->o->arg;
    if (x->field < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field_index, .fidx = x});
    return 0;
}

/* krb5.ticket_encryption (unit_fields.c) */
int plan_krb5_enc(struct plan_ctx *ctx)
{
    const struct opt_krb5_enc *x = ctx->o->arg;
    if (x->field < 0 || x->weak_field < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_krb5_enc, .kenc = x});
    return 0;
}

/* ike.chosen_sa_attribute: its attribute's field equal to the value (opt_ike.c) */
int plan_ike_attr(struct plan_ctx *ctx)
{
    const struct opt_ike_attr *x = ctx->o->arg;
    if (x->field < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field, .cmp = &x->cmp,
                                         .field = x->field});
    return 0;
}

/* sip_method, sip_stat_code: the field in one of the ranges (unit_fields.c) */
int plan_field_set(struct plan_ctx *ctx)
{
    const struct opt_field_set *x = ctx->o->arg;
    if (x->field < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field_set, .fset = x});
    return 0;
}

/* ftpbounce: a PORT command naming another host than the client (the parsers' field) */
int plan_ftpbounce(struct plan_ctx *ctx)
{
    static const struct opt_cmp yes = {.op = CMP_EQ, .lo = 1};
    int fld = osprey_field_find("ftpbounce");
    if (fld < 0) {
        ctx->pl->why = "a field no parser registers";
        return 0;
    }
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_field, .cmp = &yes, .field = fld});
    return 0;
}

int plan_event(struct plan_ctx *ctx) /* decode-event, stream-event, app-layer-event */
{
    if (!ctx->o->arg) {
        ctx->pl->why = "option not compiled yet";
        return 0;
    }
    uint16_t b = DB_PKT;
    struct det_unit u;
    if (!(ctx->pl->why = det_event_unit(ctx->o->arg, &u, &b)) && ctx->ev_base != DB_PKT &&
        ctx->ev_base != b)
        ctx->pl->why = "events of two kinds (decoder, stream, application) in one rule";
    if (ctx->pl->why)
        return 0;
    if (b != DB_APP_EVENT)
        ctx->packet_only = true; /* decoder and stream events: a property of the packet */
    ctx->ev_base = b;
    plan_add_unit(ctx, u);
    return 0;
}

int plan_tls(struct plan_ctx *ctx) /* ssl_state, ssl_version, tls.version … (tls_units.c) */
{
    struct det_tls *t = malloc(sizeof *t);
    if (!t || det_own(ctx->d, t) < 0)
        return -1;
    if ((ctx->pl->why = det_tls_compile(ctx->o, ctx->side, t)))
        return 0;
    plan_add_unit(ctx, (struct det_unit){.ops = &det_unit_tls, .tls = t});
    return 0;
}
