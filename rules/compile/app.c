/* app.c — application-layer buffers for the compiler: which parser buffer and event a rule
 * buffer means, which header protocols are application protocols, and the buffers as the
 * units see them (through the rule's transforms). Every answer comes from the parsers'
 * registry (osprey_parsers.h), by name: no parser buffer, event or protocol is enumerated
 * here; a match keyword's message (urilen reads the URI, dns.opcode a DNS message, ftp.mode
 * an FTP transaction) is its keyword row's buffer (rules/options/registry.h).
 *
 * Direction matters for the buffers Suricata shares between requests and responses
 * (http.header, http.cookie, file_data, the TLS certificate buffers …: two rows in the
 * registry): the response's in a rule that inspects to the client (flow:to_client /
 * from_server), the request's in a to_server rule, and both in a rule that names no
 * direction (compiled twice, once per side, as Suricata registers such a buffer's inspection
 * in both directions). A request buffer read under the response (a to_client rule on
 * http.uri) is a "late" row: it runs when the response arrives. */
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "detect_int.h"
#include "osprey_parsers.h"
#include "osprey_rules.h"
#include "pkt_units.h"
#include "registry.h"
#include "xform_args.h"

/* A rule buffer's name as the parsers' registry knows it (the dialect tables in
 * rules/options/buffers.h spell every buffer Suricata's way; the parsers register theirs
 * under the same names). */
static const char *parser_name(unsigned rule_buffer)
{
    return osprey_rules_buffer_name(rule_buffer);
}

bool det_app_multi(const struct osprey_detect *d, uint16_t ob)
{
    return ob != DET_OB_RAW && ob < d->nob && d->ob_multi[ob];
}

int det_app_buffer_side(unsigned rule_buffer)
{
    const char *name = parser_name(rule_buffer);
    int b = osprey_buffer_find(name, 0);
    if (b < 0 || osprey_buffer_two_sided(name) ||
        !osprey_app_proto_buffers_imply_dir(osprey_buffer_proto((uint16_t)b)))
        return 0;
    return osprey_event_dir(osprey_buffer_event((uint16_t)b)) == 0 ? 1 : 2;
}

unsigned det_app_match_buffer(const struct opt_def *def)
{
    /* the keyword's row says which message it reads (registry.h: opt_def.buffer) */
    return def->kind == OPT_MATCH && def->buffer != BUF_PKT ? def->buffer : BUF_COUNT;
}

int det_app_buffer_of(unsigned rule_buffer, bool to_client, uint16_t *ob, uint16_t *base)
{
    return det_app_buffer_of_in(rule_buffer, to_client, 0, ob, base);
}

int det_app_buffer_of_in(unsigned rule_buffer, bool to_client, uint16_t app, uint16_t *ob,
                         uint16_t *base)
{
    int b = osprey_buffer_find_in(parser_name(rule_buffer), to_client ? 1 : 0, app);
    if (b < 0)
        return -1;
    *ob = (uint16_t)b;
    *base = det_app_base(osprey_buffer_event((uint16_t)b));
    return 0;
}

uint16_t det_app_base_last_of_message(uint16_t base)
{
    uint16_t ev = det_base_event(base);
    while (ev + 1 < osprey_event_count() &&
           osprey_event_proto((uint16_t)(ev + 1)) == osprey_event_proto(ev) &&
           osprey_event_dir((uint16_t)(ev + 1)) == osprey_event_dir(ev))
        ev++;
    return det_app_base(ev);
}

bool det_app_opt_to_client(const struct osprey_rule *r, uint32_t i, bool to_client)
{
    if (r->dir != OSPREY_DIR_TX)
        return to_client;
    switch (r->opts[i].side) {
    case OSPREY_SIDE_TO_SERVER:
        return false;
    case OSPREY_SIDE_TO_CLIENT:
        return true;
    default:
        /* a buffer both messages have means the request's unless its argument says
         * to_client; the others are one side's and are read when the response comes */
        return !det_app_buffer_two_sided(r->opts[i].buffer);
    }
}

bool det_app_buffer_two_sided(unsigned rule_buffer)
{
    return osprey_buffer_two_sided(parser_name(rule_buffer));
}

uint16_t det_app_proto_of(const char *proto, uint8_t *l4)
{
    *l4 = 6;
    int p = osprey_app_proto_find(proto);
    if (p <= OSPREY_APP_PROTO_FAILED)
        return 0;
    /* a name for another protocol's flows (doh2: HTTP/2's) is that protocol's rule */
    p = osprey_app_proto_parsed_by((uint16_t)p);
    *l4 = osprey_app_proto_l4((uint16_t)p);
    return (uint16_t)p;
}

static const char *const XFORMS[] = {"to_lowercase", "to_uppercase", "strip_whitespace",
                                     "compress_whitespace", "dotprefix", "url_decode",
                                     "header_lowercase", "strip_pseudo_headers", "to_md5",
                                     "to_sha1", "to_sha256", NULL};

bool det_xform_supported(const char *keyword)
{
    for (size_t i = 0; XFORMS[i]; i++)
        if (!strcmp(XFORMS[i], keyword))
            return true;
    return xstep_has_own(keyword);
}

/* Room for one transform step in the worker's slot (grows, never shrinks). */
static uint8_t *room(struct osprey_detect_worker *w, int slot, uint32_t need)
{
    if (need <= w->xcap[slot])
        return w->xbuf[slot];
    uint8_t *b = realloc(w->xbuf[slot], need);
    if (!b)
        return NULL;
    w->xbuf[slot] = b;
    w->xcap[slot] = need;
    return b;
}

const uint8_t *det_app_buffer(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                              struct mon_flow *f, uint16_t base, uint16_t ob,
                              const struct det_xform *xf, int slot, uint32_t *len,
                              uint64_t *origin)
{
    return det_app_buffer_at(w, ctx, f, base, ob, xf, slot, 0, len, origin);
}

const uint8_t *det_app_buffer_at(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                                 struct mon_flow *f, uint16_t base, uint16_t ob,
                                 const struct det_xform *xf, int slot, uint32_t i,
                                 uint32_t *len, uint64_t *origin)
{
    *len = 0;
    *origin = 0;
    if (!f)
        return NULL;
    uint32_t n = 0;
    const uint8_t *b;
    if (i > 0 && !det_app_multi(w->d, ob))
        return NULL;
    if (ob == DET_OB_RAW) {
        int side = det_to_server(0, base) ? MON_SIDE_SVR : MON_SIDE_CLI; /* the receiver */
        b = det_buffer(ctx, f, side, f->proto == 6 ? DK_STREAM : DK_PKT, &n, origin);
    } else {
        /* derived buffers are built in the slot's scratch: the transforms read it next */
        b = osprey_parsers_buffer_at(ctx, f, ob, i, &w->dscratch[slot], &n);
    }
    return b ? det_app_xform(w, xf, slot, b, n, len) : NULL;
}

const uint8_t *det_app_xform(struct osprey_detect_worker *w, const struct det_xform *xf,
                             int slot, const uint8_t *b, uint32_t n, uint32_t *len)
{
    if (!xf)
        return *len = n, b;
    /* each step reads the previous result: two halves of the slot, used alternately; no
     * step outputs more than max(its input, a digest) + 1 bytes (xstep_out_max for the
     * inflating ones), so one allocation does */
    uint32_t half = n + XFORM_DIGEST_MAX + 2 * xf->n + 2;
    for (uint32_t i = 0; i < xf->n; i++)
        if (xf->step[i].name && xstep_out_max(&xf->step[i], 0) > half)
            half = xstep_out_max(&xf->step[i], 0) + XFORM_DIGEST_MAX + 2 * xf->n + 2;
    uint8_t *area = room(w, slot, 2 * half);
    if (!area)
        return NULL; /* out of memory: the buffer is missing, nothing matches */
    for (uint32_t i = 0; i < xf->n; i++) {
        uint8_t *out = area + (i % 2 ? half : 0);
        if (xf->step[i].name && !strcmp(xf->step[i].name, "luaxform")) {
            /* a failed run (a limit, an error): the buffer is missing, nothing matches */
            if (det_lua_xform(w, xf->step[i].arg, b, n, out, half, &n) < 0)
                return NULL;
        } else {
            n = xf->step[i].name ? xstep_apply(&xf->step[i], b, n, out, w->md)
                                 : xform_apply(opt_def_by_id(xf->kw[i])->name, b, n, out);
        }
        b = out;
    }
    *len = n;
    return b;
}

const char *det_ob_name(uint16_t ob)
{
    if (ob == DET_OB_RAW)
        return "payload";
    const char *n = osprey_buffer_name(ob);
    return n ? n : "?";
}

const char *det_base_name(uint16_t base)
{
    static const char *const N[DB__FIXED] = {
        [DB_PKT] = "packet",
        [DB_STREAM] = "stream",
        [DB_DECODE] = "decode_event",
        [DB_APP_EVENT] = "app_anomaly",
        [DB_PKT_RCV] = "packet_rcv",
        [DB_APP_DETECTED] = "app_detected"};
    if (base < DB__FIXED)
        return N[base];
    const char *n = osprey_event_name(det_base_event(base));
    return n ? n : "?";
}

static bool same_val(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

const struct det_xform *det_xform_intern(struct osprey_detect *d, const uint16_t *kw,
                                         const char *const *val, const void *const *arg,
                                         uint32_t n)
{
    for (uint32_t i = 0; i < d->nxfs; i++) {
        const struct det_xform *x = d->xfs[i];
        bool same = x->n == n && !memcmp(x->kw, kw, n * sizeof *kw);
        for (uint32_t k = 0; same && k < n; k++)
            same = same_val(x->val[k], val[k]);
        if (same)
            return x;
    }
    struct det_xform **v = realloc(d->xfs, (d->nxfs + 1) * sizeof *v);
    if (!v)
        return NULL;
    d->xfs = v;
    struct det_xform *x = calloc(1, sizeof *x + n * (sizeof *kw + sizeof *x->val));
    struct det_xstep *st = calloc(n ? n : 1, sizeof *st);
    if (!x || !st) {
        free(x);
        free(st);
        return NULL;
    }
    x->val = (const char **)(x + 1);
    uint16_t *ids = (uint16_t *)(x->val + n);
    memcpy(ids, kw, n * sizeof *kw);
    memcpy(x->val, val, n * sizeof *val);
    x->n = n;
    x->kw = ids;
    x->step = st;
    for (uint32_t k = 0; k < n; k++) {
        const char *name = opt_def_by_id(kw[k])->name;
        if (xstep_has_own(name) && xstep_prepare(&st[k], name, arg[k]) < 0) {
            det_xform_free(x);
            return NULL;
        }
    }
    d->xfs[d->nxfs++] = x;
    return x;
}

void det_xform_free(struct det_xform *x)
{
    if (!x)
        return;
    for (uint32_t k = 0; x->step && k < x->n; k++)
        xstep_free(&x->step[k]);
    free(x->step);
    free(x);
}
