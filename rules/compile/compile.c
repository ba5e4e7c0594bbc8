/* compile.c — accepted rules → UDE chains on a libmon engine (see osprey_detect.h).
 *
 * Per rule: choose the base (packet or stream), split the options into units, pick the fast
 * pattern, then define base → [mpm → pattern hit] → header → units → leaf. The leaf's
 * handler is the action (runtime.c). Arguments are interned so that identical headers and
 * units are the same pointer, which is what makes mon_define_event share the prefix.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler.h"
#include "dataset.h"
#include "detect_int.h"
#include "explain.h"
#include "intern.h"
#include "osprey_parsers.h"
#include "plan.h"
#include "opt_eval.h"
#include "registry.h"
#include "ruleset.h"

/* ---- the compiler ----------------------------------------------------------------------- */

/* Record a UDE for --dump-chains and --explain the first time it is defined: fn and arg are
 * its filter (NULL for a child a multi-event filter raises) and the filter's argument. */
static int note_node(struct osprey_detect *d, mon_event_t ev, mon_event_t parent,
                     const char *label, mon_filter_fn fn, const void *arg)
{
    /* event ids are small and dense: a flag per id says whether it is noted already */
    if (ev >= d->cap_noted) {
        uint32_t cap = d->cap_noted ? d->cap_noted : 1024;
        while (cap <= ev)
            cap *= 2;
        uint8_t *n = realloc(d->noted, cap);
        if (!n)
            return -1;
        memset(n + d->cap_noted, 0, cap - d->cap_noted);
        d->noted = n;
        d->cap_noted = cap;
    }
    if (d->noted[ev])
        return 0;
    if (d->nnodes == d->cap_nodes) {
        uint32_t cap = d->cap_nodes ? d->cap_nodes * 2 : 256;
        struct det_node *n = realloc(d->nodes, cap * sizeof *n);
        if (!n)
            return -1;
        d->nodes = n;
        d->cap_nodes = cap;
    }
    char *l = NULL; /* the label only for a dump or an explanation */
    if (d->labels && label && !(l = strdup(label)))
        return -1;
    d->nodes[d->nnodes++] = (struct det_node){ev, parent, l, fn, arg};
    d->noted[ev] = 1;
    return 0;
}

static int64_t define(struct compiler *c, mon_event_t parent, mon_filter_fn fn, void *arg,
                      const char *label)
{
    /* --explain: the same filter inside a tracing wrapper (explain_trace.c) */
    int64_t ev = mon_define_event(c->eng, parent, det_explain_filter(c->d, fn), arg);
    if (ev < 0)
        return ev;
    if (note_node(c->d, (mon_event_t)ev, parent, label, fn, arg) < 0)
        return MON_ENOMEM;
    return ev;
}

static int prof_push(uint32_t **v, uint32_t *n, uint32_t id)
{
    uint32_t *g = realloc(*v, (*n + 1) * sizeof *g);
    if (!g)
        return -1;
    g[(*n)++] = id;
    *v = g;
    return 0;
}

static int64_t hdx_child(struct compiler *c, struct det_hdx *x, const struct det_header *h,
                         const char *label)
{
    for (uint32_t i = x->n; i > 0; i--)
        if (x->hdr[i - 1] == h)
            return x->ev[i - 1];
    if (x->n == x->cap) {
        uint32_t cap = x->cap ? x->cap * 2 : 64;
        const struct det_header **hd = realloc(x->hdr, cap * sizeof *hd);
        if (hd)
            x->hdr = hd;
        mon_event_t *ev = realloc(x->ev, cap * sizeof *ev);
        if (ev)
            x->ev = ev;
        if (!hd || !ev)
            return MON_ENOMEM;
        x->cap = cap;
    }
    int64_t ev = mon_alloc_event(c->eng, x->self);
    if (ev < 0 || note_node(c->d, (mon_event_t)ev, x->self, label, NULL, h) < 0)
        return ev < 0 ? ev : MON_ENOMEM;
    x->hdr[x->n] = h;
    x->ev[x->n++] = (mon_event_t)ev;
    return ev;
}

static void not_compiled(struct compiler *c, const struct osprey_rule *r, const struct plan *pl)
{
    c->d->stats.not_compiled++;
    char line[1024];
    if (pl->why_opt)
        snprintf(line, sizeof line, "%s:%u: sid %u: not compiled: %s: %s", r->file, r->line,
                 r->sid, pl->why_opt->keyword, pl->why);
    else
        snprintf(line, sizeof line, "%s:%u: sid %u: not compiled: protocol %s: %s", r->file,
                 r->line, r->sid, r->proto, pl->why);
    det_explain_not_compiled(c->d, r, line);
    if (c->diag)
        fprintf(c->diag, "%s\n", line);
}

static void rule_meta(struct det_rule *dr)
{
    const struct osprey_rule *r = dr->rule;
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->nopts; i++)
        if (!strcmp(opt_def_by_id(r->opts[i].kw)->name, "metadata"))
            n += ((const struct opt_metadata *)r->opts[i].arg)->n;
    dr->meta = n ? calloc(n, sizeof *dr->meta) : NULL;
    if (!dr->meta)
        return;
    for (uint32_t i = 0; i < r->nopts; i++) {
        if (strcmp(opt_def_by_id(r->opts[i].kw)->name, "metadata"))
            continue;
        const struct opt_metadata *m = r->opts[i].arg;
        for (uint32_t j = 0; j < m->n; j++)
            dr->meta[dr->nmeta++] = (struct osprey_detect_meta){m->e[j].key, m->e[j].value};
    }
}

/* The flowbits gate (det_gate_filter): a stream rule that only reads flowbits (isset) and
 * alerts, without flowint, xbits or setters. Its chain stops at the gate while a bit is
 * unset and its units run at commit, after the commit's setters, only if the bits are set
 * then: what the commit decides is unchanged, and the units are not evaluated for the many
 * deliveries where the bit was never set. Such a match only alerts, so its place among the
 * commit's other alert-readers changes nothing but the order of their alerts. */
static bool gate_eligible(const struct osprey_rule *r, const struct plan *pl)
{
    /* stream rules, and application rules: their commit comes at the end of the same
     * application event's walk, while the event's buffers are still the current ones */
    if ((pl->kind != DK_STREAM && pl->kind != DK_APP) || r->action != OSPREY_ACTION_ALERT ||
        !pl->nconds ||
        pl->nbits || pl->nxbits || pl->nints)
        return false;
    for (uint32_t i = 0; i < pl->nconds; i++)
        if (pl->conds[i].b->op != BITS_ISSET)
            return false;
    /* units whose answer is the same at commit as during the walk (the app-layer protocol
     * is not: the parsers decide it on the same data) */
    for (uint32_t u = 0; u < pl->nunits; u++)
        if (!pl->units[u].u.ops->gate_safe)
            return false;
    return true;
}

/* The rule's tag options, started when it alerts (runtime.c). -1: out of memory. */
static int rule_tags(struct osprey_detect *d, const struct osprey_rule *r, struct det_rule *dr)
{
    for (uint32_t i = 0; i < r->nopts; i++) {
        if (strcmp(opt_def_by_id(r->opts[i].kw)->name, "tag"))
            continue;
        const struct opt_tag **t = realloc(dr->tags, (dr->ntags + 1) * sizeof *t);
        if (!t)
            return -1;
        dr->tags = t;
        dr->tags[dr->ntags++] = r->opts[i].arg;
        d->has_tags = true;
    }
    return 0;
}

/* Suricata's default action-order: pass, drop, reject, alert. */

static uint8_t order_action(enum osprey_rule_action a)
{
    switch (a) {
    case OSPREY_ACTION_PASS:
        return DO_PASS;
    case OSPREY_ACTION_DROP:
    case OSPREY_ACTION_SDROP:
    case OSPREY_ACTION_BLOCK:
        return DO_DROP;
    case OSPREY_ACTION_REJECT:
    case OSPREY_ACTION_REJECTSRC:
    case OSPREY_ACTION_REJECTDST:
    case OSPREY_ACTION_REJECTBOTH:
        return DO_REJECT;
    default:
        return DO_ALERT;
    }
}

/* The commit barrier of one base event: an always-true UDE libmon walks last (see
 * detect_int.h). Not listed by --dump-chains: it is no rule's. */
static int define_barrier(struct compiler *c, uint16_t base)
{
    int64_t ev = mon_define_last_event(c->eng, c->d->base_ev[base], det_barrier_filter, NULL);
    if (ev < 0)
        return -1;
    c->d->barrier[base] = (mon_event_t)ev;
    return 0;
}

/* The multi-event filter of one application buffer under one base event. */
static struct det_mpm *app_mpm(struct osprey_detect *d, uint16_t base, uint16_t ob,
                               const struct det_xform *xf)
{
    for (uint32_t i = 0; i < d->napp_mpm; i++) {
        struct det_mpm *m = d->app_mpm[i];
        if (m->base == base && m->ob == ob && m->xf == xf)
            return m;
    }
    struct det_mpm **v = realloc(d->app_mpm, (d->napp_mpm + 1) * sizeof *v);
    if (!v)
        return NULL;
    d->app_mpm = v;
    struct det_mpm *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->kind = DK_APP;
    m->cache = d->mpm_cache;
    m->base = base;
    m->ob = ob;
    m->xf = xf;
    d->app_mpm[d->napp_mpm++] = m;
    return m;
}

/* One chain of rule r (plan.h: enum plan_variant) for its own protocol (app_as 0) or for one
 * that also runs it; *next: the rule's other chain to compile after this one, PV_MAIN for
 * none; *base: the application event base of the chain (DB_PKT: none or not compiled). */
int compile_rule(struct compiler *c, const struct osprey_rule *r, enum plan_variant variant,
                 uint16_t app_as, enum plan_variant *next, uint16_t *base_out)
{
    struct osprey_detect *d = c->d;
    struct plan pl;
    int rc = make_plan(d, r, variant, app_as, &pl);
    bool second = variant != PV_MAIN || app_as; /* reported and counted once, as the first */
    *base_out = rc || pl.why ? DB_PKT : pl.base;
    *next = rc || pl.why ? PV_MAIN : pl.two_sided ? PV_RESPONSE : pl.also_packet ? PV_PACKET
                                                                                : PV_MAIN;
    /* Suricata inspects a packet after the application layer parsed its data: a packet rule
     * whose header names a protocol (`pass tls … (flow:established;)`) matches the packet
     * that lets the parser decide that protocol. Here packet rules run before the parse,
     * so such a rule (with no fast pattern: the header dispatcher's) has a second chain
     * under the parsers' app_detected, which runs on that packet. */
    if (rc == 0 && !pl.why && variant == PV_MAIN && !app_as && pl.base == DB_PKT && pl.app &&
        !pl.fp && d->parsers && pl.fw_table == FW_NONE) /* (a firewall rule has its table) */
        *next = PV_DETECTED;
    if (rc < 0 || pl.why) {
        if (rc == 0 && !second)
            not_compiled(c, r, &pl);
        plan_free(&pl);
        return rc;
    }
    if (pl.base == DB_PKT && !d->pkt_root) {
        int64_t ev = define(c, MON_ON_PKT_IN, det_pkt_root_filter, NULL,
                            "packets (also TCP packets of a connection not picked up)");
        if (ev < 0) {
            plan_free(&pl);
            return -1;
        }
        d->base_ev[DB_PKT] = (mon_event_t)ev;
        d->pkt_root = true;
    }
    if (pl.base == DB_STREAM && !d->stream_root) {
        int64_t ev = define(c, MON_ON_CONN_NEW_DATA, det_pkt_root_filter, NULL,
                            "stream data (also the payload of a TCP packet of no connection)");
        if (ev < 0) {
            plan_free(&pl);
            return -1;
        }
        d->base_ev[DB_STREAM] = (mon_event_t)ev;
        d->stream_root = true;
    }
    mon_event_t base = d->base_ev[pl.base];
    int64_t parent = base;
    uint32_t len = 0;
    uint32_t *prof_ids = NULL, nprof = 0; /* profiling: the chain's unit slots */
    rc = -1;
    struct buf lb = {0};
    if (pl.fp) {
        struct det_mpm *m = pl.kind == DK_APP ? app_mpm(d, pl.base, pl.fp_ob, pl.fp_xf)
                                              : &d->mpm[pl.kind];
        if (!m)
            goto out;
        if (!m->defined) {
            char l[96];
            if (pl.kind == DK_APP)
                snprintf(l, sizeof l, "mpm %s %s%s (Hyperscan, all fast patterns)",
                         det_base_name(pl.base),
                         det_ob_name(pl.fp_ob),
                         pl.fp_xf ? " transformed" : "");
            else
                snprintf(l, sizeof l, "mpm %s (Hyperscan, all fast patterns)",
                         det_base_name(pl.base));
            int64_t ev = define(c, base, det_mpm_filter, m, l);
            if (ev < 0)
                goto out;
            m->self = (mon_event_t)ev;
            m->defined = true;
            if (pl.kind == DK_PKT)
                m->base = pl.base; /* whose side convention its filter's calls follow */
        }
        const uint8_t *p;
        uint32_t n, id;
        content_fast_bytes(pl.fp, &p, &n);
        const struct det_header *fh = header_arg(c, r, &pl);
        if (!fh || det_mpm_add(m, p, n, pl.fp->nocase, &id) < 0 ||
            det_mpm_place(m, id, fh, pl.flow_dirs) < 0)
            goto out;
        det_mpm_bound(m, id, plan_fp_maxend(&pl));
        if (pl.kind == DK_STREAM && variant == PV_PACKET && pl.pkt_required)
            det_mpm_arrival(m, id);
        if (pl.kind == DK_APP && pl.fp_ob == DET_OB_RAW && !pl.fp_xf &&
            det_mpm_via_stream(m, &d->mpm[DK_STREAM], id) < 0)
            goto out;
        if (!m->ev[id]) { /* its first rule here (a pattern may be in already for another) */
            int64_t ev = mon_alloc_event(c->eng, m->self);
            if (ev < 0)
                goto out;
            m->ev[id] = (mon_event_t)ev;
            lb.n = 0;
            if (d->labels)
                label_fp(&lb, p, n, pl.fp->nocase);
            if (lb.oom || note_node(d, (mon_event_t)ev, m->self, (char *)lb.p, NULL, m) < 0)
                goto out;
        }
        parent = m->ev[id];
        len += 2;
    }
    const struct det_header *h = header_arg(c, r, &pl);
    if (!h)
        goto out;
    if (!pl.fp) {
        /* no fast pattern: below the header dispatcher, which checks headers once per flow
         * direction instead of once per packet */
        struct det_hdx *x = &d->hdx[pl.base];
        if (!x->defined) {
            char l[64];
            snprintf(l, sizeof l, "headers %s (rules without a fast pattern)",
                     det_base_name(pl.base));
            int64_t ev = define(c, base, det_hdx_filter, x, l);
            if (ev < 0)
                goto out;
            x->self = (mon_event_t)ev;
            x->defined = true;
            x->slot = d->nhdx_slots++;
        }
        parent = x->self;
        len++;
    }
    lb.n = 0;
    if (d->labels)
        label_header(&lb, r, pl.base);
    if (lb.oom)
        goto out;
    if (pl.fp) {
        if ((parent = define(c, (mon_event_t)parent, det_header_filter, (void *)h,
                             (char *)lb.p)) < 0)
            goto out;
    } else if ((parent = hdx_child(c, &d->hdx[pl.base], h, (char *)lb.p)) < 0) {
        goto out;
    }
    len++;
    const struct det_unit **late = NULL;
    if (gate_eligible(r, &pl)) {
        /* the flowbits gate, before the units; they are kept for a deferred evaluation */
        if (!(late = calloc(pl.nunits ? pl.nunits : 1, sizeof *late)))
            goto out;
        if ((parent = define(c, (mon_event_t)parent, det_gate_filter,
                             &d->rules[d->nrules], "flowbits gate (isset now, or at commit)"))
            < 0) {
            free(late);
            goto out;
        }
        len++;
    }
    const struct det_unit *capu[DET_MAX_CAP_UNITS];
    uint8_t ncapu = 0;
    for (uint32_t u = 0; u < pl.nunits; u++) {
        const struct det_unit *a = unit_arg(c, &pl.units[u].u);
        if (!a) {
            free(late);
            goto out;
        }
        for (uint32_t i = 0; a->ops == &det_unit_payload && i < a->n; i++)
            if (a->items[i].cap && ncapu < DET_MAX_CAP_UNITS) { /* captures.c */
                capu[ncapu++] = a;
                break;
            }
        if (late)
            late[u] = a;
        lb.n = 0;
        if (d->labels) {
            if (variant == PV_PACKET)
                buf_puts(&lb, "[packet] "); /* the units of the packet chain read the packet */
            if (pl.units[u].first_opt == PLAN_HEADER) /* the rule header's (ipv4, http …) */
                label_unit(&lb, a);
            else
                label_opts(&lb, r, pl.units[u].first_opt, pl.units[u].last_opt);
        }
        const struct det_prof_unit *pu = d->prof ? det_prof_unit_of(d, (mon_event_t)parent, a) : NULL;
        if (d->prof && (!pu || prof_push(&prof_ids, &nprof, pu->id) < 0)) {
            free(late);
            goto out;
        }
        if (lb.oom || (parent = define(c, (mon_event_t)parent,
                                       pu ? det_unit_prof_filter : det_unit_filter,
                                       pu ? (void *)pu : (void *)a, (char *)lb.p)) < 0) {
            free(late);
            goto out;
        }
        len++;
    }
    struct det_rule *dr = &d->rules[d->nrules];
    memset(dr, 0, sizeof *dr);
    dr->rule = r;
    memcpy(dr->capu, capu, ncapu * sizeof capu[0]);
    dr->ncapu = ncapu;
    dr->prof_ids = prof_ids;
    dr->nprof = nprof;
    prof_ids = NULL;
    dr->kind = pl.kind;
    dr->base = pl.base;
    dr->twin = variant == PV_PACKET ? DET_TWIN_PACKET
               : pl.also_packet     ? DET_TWIN_STREAM
               : variant == PV_DETECTED || *next == PV_DETECTED ? DET_TWIN_DETECTED
                                                                : DET_TWIN_NONE;
    dr->pkt_required = pl.pkt_required;
    dr->idx = d->nrules;
    dr->rule_idx = d->nrules > c->rule_start ? d->rules[c->rule_start].rule_idx : d->nrules;
    dr->leaf = (mon_event_t)parent;
    dr->chain_len = len;
    dr->late = late;
    dr->nlate = late ? pl.nunits : 0;
    dr->fp_why = pl.fp ? pl.fp_why : NULL;
    dr->severity = r->priority > 0 ? r->priority : 3;
    dr->category = "";
    if (r->classtype) {
        const struct classtype *ct = conf_classtype(d->rs, r->classtype, strlen(r->classtype));
        if (ct && ct->desc)
            dr->category = ct->desc;
    }
    rule_meta(dr);
    dr->thr[0] = pl.thr[0];
    dr->thr[1] = pl.thr[1];
    d->has_thresholds |= pl.thr[0] || pl.thr[1];
    d->has_pkt_required |= dr->twin == DET_TWIN_PACKET && dr->pkt_required;
    d->arrival_unprefiltered |= dr->twin == DET_TWIN_PACKET && dr->pkt_required && !pl.fp;
    dr->noalert = pl.noalert;
    dr->filestore = pl.filestore;
    dr->pass_alerts = pl.pass_alerts;
    dr->fw_table = pl.fw_table;
    dr->fw_dir = pl.fw_dir;
    dr->fw_rank = pl.fw_rank;
    dr->fw_proto = pl.app;
    if (dr->fw_table != FW_NONE && det_fw_note(d, dr) < 0) {
        lb.oom = true;
        goto out;
    }
    d->hold_alerts |= r->action == OSPREY_ACTION_PASS; /* held.c */
    /* Suricata's action scope: a match on the stream or a transaction, a header naming an
     * application protocol (its app-layer signature) or a rule with no option to evaluate
     * (its IP-only kind) drops or passes the flow; a match on a packet's payload (a packet
     * rule, or a TCP rule's packet twin) only its packet */
    dr->flow_action = (pl.kind != DK_PKT && variant != PV_PACKET) || pl.app ||
                      (pl.nunits == 0 && !pl.nconds && !pl.nxbits && !pl.nints);
    if (pl.nbits) {
        dr->bits = pl.bits; /* kept: freed with the rule */
        dr->nbits = pl.nbits;
        pl.bits = NULL;
    }
    if (pl.nconds) {
        dr->conds = pl.conds;
        dr->nconds = pl.nconds;
        pl.conds = NULL;
    }
    if (pl.nxbits) {
        dr->xbits = pl.xbits;
        dr->nxbits = pl.nxbits;
        pl.xbits = NULL;
    }
    if (pl.nints) {
        dr->ints = pl.ints;
        dr->nints = pl.nints;
        pl.ints = NULL;
    }
    if (rule_tags(d, r, dr) < 0) {
        lb.oom = true;
        goto out;
    }
    dr->order_action = order_action(r->action);
    /* setters and readers of flowbits, xbits and flowint */
    bool sets = dr->nbits > 0, reads = dr->nconds > 0;
    for (uint32_t i = 0; i < dr->nxbits; i++) {
        uint8_t op = dr->xbits[i].b->op;
        sets |= op != BITS_ISSET && op != BITS_ISNOTSET;
        reads |= op == BITS_ISSET || op == BITS_ISNOTSET;
    }
    for (uint32_t i = 0; i < dr->nints; i++) {
        char op = dr->ints[i].arg->op[0];
        sets |= (op == '=' && dr->ints[i].arg->op[1] == 0) || op == '+' || op == '-';
        reads |= !((op == '=' && dr->ints[i].arg->op[1] == 0) || op == '+' || op == '-');
    }
    dr->order_bits = sets ? (reads ? DOB_SET_READ : DOB_SET) : (reads ? DOB_READ : DOB_NONE);
    d->base_rules[pl.base]++;
    d->nrules++;
    d->stats.compiled += !second;
    d->stats.option_nodes += len;
    if (!second) { /* a rule with two chains is counted once */
        if (pl.kind == DK_PKT)
            d->stats.packet_rules++;
        else if (pl.kind == DK_STREAM)
            d->stats.stream_rules++;
        else
            d->stats.app_rules++;
    }
    rc = 0;
out:
    if (rc < 0 && c->diag)
        fprintf(c->diag, "osprey: compiling sid %u: %s\n", r->sid,
                lb.oom ? "out of memory" : "cannot define its events");
    free(prof_ids);
    free(lb.p);
    plan_free(&pl);
    return rc;
}

int osprey_detect_build(struct osprey_detect **out, struct mon_engine *eng,
                        const struct osprey_ruleset *rs, FILE *diag)
{
    return osprey_detect_build_opts(out, eng, rs, diag, NULL);
}

int osprey_detect_build_opts(struct osprey_detect **out, struct mon_engine *eng,
                             const struct osprey_ruleset *rs, FILE *diag,
                             const struct osprey_detect_opts *opts)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *out = NULL;
    struct osprey_detect *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    d->rs = rs;
    size_t n = osprey_ruleset_count(rs);
    d->rules = calloc(compile_room(rs), sizeof *d->rules);
    /* per base: the fixed ones and one per application event the parsers register */
    d->nbases = det_nbases();
    d->barrier = calloc(d->nbases, sizeof *d->barrier);
    d->base_rules = calloc(d->nbases, sizeof *d->base_rules);
    d->base_ev = calloc(d->nbases, sizeof *d->base_ev);
    d->hdx = calloc(d->nbases, sizeof *d->hdx);
    if (!d->rules || !d->barrier || !d->base_rules || !d->base_ev || !d->hdx) {
        osprey_detect_free(d);
        return -1;
    }
    for (int k = 0; k < DK__COUNT; k++) {
        d->mpm[k].kind = (uint8_t)k;
        d->mpm[k].base = (uint8_t)k;
        d->mpm[k].grouped = true; /* port groups (mpm_group.c) */
    }
    d->mpm[DK_STREAM].streaming = opts && opts->stream_mpm == OSPREY_STREAM_MPM_STREAM;
    if (opts && opts->mpm_cache_dir && *opts->mpm_cache_dir &&
        !(d->mpm_cache = strdup(opts->mpm_cache_dir))) {
        osprey_detect_free(d);
        return -1;
    }
    for (int k = 0; k < DK__COUNT; k++)
        d->mpm[k].cache = d->mpm_cache;
    /* --explain wraps the unit filters itself, and a traced run's times would be the
     * printing's: no profile then */
    d->prof = opts && opts->profile_rules && !opts->explain_sid;
    d->labels = !opts || opts->labels || opts->explain_sid;
    if (opts)
        pcre_set_limits(opts->pcre_match_limit, opts->pcre_depth_limit);
    for (uint16_t b = 0; b < d->nbases; b++) {
        d->hdx[b].base = b;
        d->hdx[b].kind = det_kind_of(b);
    }
    d->base_ev[DB_PKT] = MON_ON_PKT_IN;
    d->base_ev[DB_STREAM] = MON_ON_CONN_NEW_DATA;
    d->base_ev[DB_DECODE] = MON_ON_DECODE_EVENT;
    d->base_ev[DB_PKT_RCV] = MON_ON_PKT_IN; /* its rules and barrier in the RCV hook */
    d->parsers = opts ? opts->parsers : NULL;
    d->nob = osprey_buffer_count();
    d->ob_multi = calloc(d->nob + 1u, sizeof *d->ob_multi);
    if (det_own(d, d->ob_multi) < 0) { /* (frees it) */
        osprey_detect_free(d);
        return -1;
    }
    for (uint16_t b = 0; b < d->nob; b++)
        d->ob_multi[b] = osprey_buffer_is_multi(b);
    d->dce_proto = osprey_app_proto_find("dcerpc");
    d->dce_le_field = osprey_field_find("dcerpc.little_endian");
    if (opts) {
        d->datasets_disabled = opts->datasets_disabled;
        d->dataset_memcap = opts->dataset_memcap;
        d->dataset_hashsize = opts->dataset_hashsize;
    }
    if (opts && opts->geoip_database && opts->geoip_database[0]) {
        char err[4400];
        if (!(d->geoip = osprey_geoip_open(opts->geoip_database, err, sizeof err))) {
            if (diag)
                fprintf(diag, "osprey: geoip-database: %s\n", err);
            osprey_detect_free(d);
            return -1;
        }
    }
    if (d->parsers) {
        for (uint16_t e = 0; e < osprey_event_count(); e++)
            d->base_ev[det_app_base(e)] = osprey_parsers_event(d->parsers, e);
        d->base_ev[DB_APP_EVENT] = osprey_parsers_app_anomaly(d->parsers);
        d->base_ev[DB_APP_DETECTED] = osprey_parsers_app_detected(d->parsers);
    }
    struct compiler c = {d, eng, {0}, diag, 0};
    int rc = opts && opts->explain_sid ? det_explain_open(d, opts->explain_sid, opts->explain_out)
                                       : 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const struct osprey_rule *r = osprey_ruleset_rule(rs, i);
        if (r->status != OSPREY_RULE_ACCEPTED)
            continue;
        d->stats.rules++;
        c.rule_start = d->nrules;
        enum plan_variant next;
        uint16_t base, b2;
        rc = compile_rule(&c, r, PV_MAIN, 0, &next, &base);
        if (rc == 0 && next != PV_MAIN)
            rc = compile_rule(&c, r, next, 0, &next, &b2);
        if (rc == 0)
            rc = compile_also(&c, r, base);
    }
    intern_free(&c.args);
    if (rc == 0)
        rc = det_explain_index(d);
    /* firewall mode: every packet meets the packet tables, and every protocol state its
     * table (a default policy decides where no rule is), so those bases commit always */
    for (uint16_t i = 0; i < d->nbases && rc == 0; i++) {
        uint16_t b = det_base_order(i);
        struct osprey_hook h;
        bool fw = d->fw && (b == DB_PKT || (det_base_is_app(b) &&
                                           osprey_event_hook(det_base_event(b), &h) == 0));
        if (d->base_rules[b] || fw)
            rc = define_barrier(&c, b);
    }
    if (rc == 0 && d->fw && opts && opts->config) /* firewall.policies.* */
        rc = det_fw_policies(d->fw, opts->config, diag);
    if (rc == 0)
        rc = det_threshold_config(d, diag);
    if (rc == 0 && d->has_thresholds && !(d->thr = det_thr_create()))
        rc = -1;
    for (uint16_t b = 0; b < d->nbases && rc == 0; b++)
        if (d->hdx[b].defined)
            rc = det_hdx_index(&d->hdx[b]);
    for (int k = 0; k < DK__COUNT && rc == 0; k++) {
        rc = det_mpm_compile(&d->mpm[k], diag);
        d->stats.fast_patterns += d->mpm[k].n;
    }
    if (rc == 0) /* a TCP packet's payload: one pass for packet rules and arrival twins */
        rc = det_mpm_compile_merged(&d->mpm[DK_PKT], &d->mpm[DK_STREAM], diag);
    for (uint32_t i = 0; i < d->napp_mpm && rc == 0; i++) {
        rc = det_mpm_compile(d->app_mpm[i], diag);
        d->stats.fast_patterns += d->app_mpm[i]->n;
    }
    if (rc == 0 && d->mpm_cache) /* after this ruleset's files were read (and so touched) */
        det_mpm_cache_prune(d->mpm_cache, opts->mpm_cache_max_age);
    if (rc < 0) {
        osprey_detect_free(d);
        return -1;
    }
    d->stats.ude_nodes = d->nnodes;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    d->stats.compile_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                          (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    *out = d;
    return 0;
}

void osprey_detect_free(struct osprey_detect *d)
{
    if (!d)
        return;
    osprey_geoip_close(d->geoip);
    det_thr_free(d->thr);
    det_fw_free(d->fw);
    for (int k = 0; k < DK__COUNT; k++)
        det_mpm_free(&d->mpm[k]);
    for (uint16_t b = 0; d->hdx && b < d->nbases; b++) {
        det_hdx_index_free(&d->hdx[b]);
        free(d->hdx[b].hdr);
        free(d->hdx[b].ev);
    }
    free(d->hdx);
    free(d->mpm_cache);
    det_prof_free(d);
    free(d->barrier);
    free(d->base_rules);
    free(d->base_ev);
    for (uint32_t i = 0; i < d->napp_mpm; i++) {
        det_mpm_free(d->app_mpm[i]);
        free(d->app_mpm[i]);
    }
    free(d->app_mpm);
    for (uint32_t i = 0; i < d->nxfs; i++)
        det_xform_free(d->xfs[i]);
    free(d->xfs);
    for (uint32_t i = 0; i < d->nrules; i++) {
        free(d->rules[i].meta);
        free(d->rules[i].bits);
        free(d->rules[i].conds);
        free(d->rules[i].late);
        free(d->rules[i].prof_ids);
        free(d->rules[i].xbits);
        free(d->rules[i].ints);
        free(d->rules[i].tags);
        free(d->rules[i].sup);
    }
    det_datasets_free(d->datasets, stderr); /* save and state files are written now */
    free(d->bit_names);
    free(d->int_names);
    free(d->rules);
    for (uint32_t i = 0; i < d->nnodes; i++)
        free(d->nodes[i].label);
    free(d->nodes);
    free(d->noted);
    det_explain_free(d->explain);
    for (uint32_t i = 0; i < d->nowned; i++)
        free(d->owned[i]);
    for (uint32_t i = 0; i < d->ncodes; i++)
        pcre_free_code(d->codes[i]);
    free(d->codes);
    free(d->owned);
    free(d);
}

const struct osprey_detect_stats *osprey_detect_stats(const struct osprey_detect *d)
{
    return &d->stats;
}

int osprey_detect_dataset(struct osprey_detect *d, enum osprey_dataset_op op, const char *set,
                          const char *type, const char *value, char *why, size_t whylen)
{
    return det_dataset_edit(d->datasets, op, set, type, value, why, whylen);
}
