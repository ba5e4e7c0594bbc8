/* plan.c — see plan.h. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "osprey_parsers.h"
#include "pkt_units.h"
#include "registry.h"
#include "ruleset.h"
#include "tls_units.h"

static uint8_t proto_of(const char *p, bool *ok)
{
    *ok = true;
    if (!strcmp(p, "tcp"))
        return 6;
    if (!strcmp(p, "udp"))
        return 17;
    if (!strcmp(p, "icmp"))
        return 1;
    if (!strcmp(p, "sctp"))
        return 132;
    if (!strcmp(p, "ip") || !strcmp(p, "pkthdr")) /* pkthdr: any packet (Suricata) */
        return 0;
    struct det_hdr_proto hp; /* tcp-pkt, tcp-stream, ipv4, ipv6, icmpv4, icmpv6 */
    if (det_hdr_proto_of(p, &hp))
        return hp.l4;
    *ok = false;
    return 0;
}



/* The bit of a flowbit name: names are numbered in order of first use, across all rules. */
static int bit_ids(struct osprey_detect *d, const struct opt_bits *b, uint32_t **out)
{
    uint32_t *ids = malloc((b->n ? b->n : 1) * sizeof *ids);
    if (!ids || det_own(d, ids) < 0)
        return -1;
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t k = 0;
        while (k < d->nbit_names && strcmp(d->bit_names[k], b->names[i]))
            k++;
        if (k == d->nbit_names) {
            if (d->nbit_names == d->cap_bit_names) {
                uint32_t cap = d->cap_bit_names ? d->cap_bit_names * 2 : 64;
                const char **n = realloc(d->bit_names, cap * sizeof *n);
                if (!n)
                    return -1;
                d->bit_names = n;
                d->cap_bit_names = cap;
            }
            d->bit_names[d->nbit_names++] = b->names[i];
        }
        ids[i] = k;
    }
    *out = ids;
    return 0;
}

/* ---- application-layer buffers ---- */

static uint8_t group_app(uint8_t base)
{
    switch (base) {
    case DB_TLS_CLIENT_HELLO:
    case DB_TLS_SERVER_HELLO:
    case DB_TLS_CERTIFICATE:
    case DB_TLS_CLIENT_CERTIFICATE:
        return OSPREY_APP_TLS;
    case DB_DNS_QUERY:
    case DB_DNS_RESPONSE:
        return OSPREY_APP_DNS;
    default:
        return OSPREY_APP_HTTP;
    }
}

struct app_need {
    uint8_t base;        /* the latest base event the buffers need (DB_PKT: none) */
    uint8_t side;        /* the rule's direction for the TLS units: 0 either, 1 to server,
                            2 to client */
    bool raw;            /* payload options on the packet/stream too */
    uint32_t nbufs;      /* distinct buffers (roughly: changes of buffer in rule order) */
    unsigned last_buf;
};

static bool payload_kw(const struct opt_def *def)
{
    return def->kind == OPT_PAYLOAD;
}

/* An application event the rule needs: the latest one is its base. NULL, or why not. */
static const char *app_base_add(struct osprey_detect *d, uint8_t base, struct app_need *need)
{
    if (!d->parsers)
        return "application-layer buffers need the parsers";
    if (det_base_is_app(need->base) && group_app(need->base) != group_app(base))
        return "buffers of two application protocols";
    if (base > need->base)
        need->base = base;
    return NULL;
}

/* Option i's contribution to the rule's buffers; NULL, or why it cannot be compiled. */
static const char *app_need_add(struct osprey_detect *d, const struct osprey_rule *r,
                                uint32_t i, bool to_client, struct app_need *need)
{
    const struct osprey_rule_option *o = &r->opts[i];
    const struct opt_def *def = opt_def_by_id(o->kw);
    unsigned buf = o->buffer;
    to_client = det_app_opt_to_client(r, i, to_client);
    if (det_tls_keyword(def->name)) /* a TLS unit: under the event its value comes with */
        return app_base_add(d, det_tls_base(o, need->side), need);
    if (buf == BUF_BASE64)
        return NULL; /* base64_data: the buffer of its base64_decode */
    if (det_app_match_buffer(def->name) != BUF_COUNT)
        buf = det_app_match_buffer(def->name);
    else if (!payload_kw(def))
        return NULL;
    if (det_hdr_buffer_of(buf) >= 0) { /* a header of the packet (pkt_units.c) */
        if (!strcmp(def->name, "bsize") || !strcmp(def->name, "bufferlen"))
            return "a buffer length on a packet header";
        return o->nxforms ? "a transform on a packet header" : NULL;
    }
    if (buf == BUF_IP_SRC || buf == BUF_IP_DST) /* the packet's address */
        return strcmp(def->name, "dataset") && strcmp(def->name, "datarep")
                   ? "ip.src/ip.dst with an option other than dataset/datarep"
                   : NULL;
    if (buf == BUF_PKT || buf == BUF_RAW) {
        if (!strcmp(def->name, "bsize") || !strcmp(def->name, "bufferlen"))
            return "a buffer length on the packet payload";
        need->raw = true;
        return NULL;
    }
    uint8_t ob, base;
    if (det_app_buffer_of(buf, to_client, &ob, &base) < 0)
        return "a buffer Osprey does not fill yet";
    for (uint32_t k = 0; k < o->nxforms; k++) {
        const char *x = opt_def_by_id(r->opts[o->xform_at + k].kw)->name;
        if (!det_xform_supported(x))
            return "a transform Osprey does not apply yet";
    }
    const char *why = app_base_add(d, base, need);
    if (why)
        return why;
    if (need->nbufs == 0 || need->last_buf != buf)
        need->nbufs++;
    need->last_buf = buf;
    return NULL;
}

/* Option i's parser buffer and transforms (interned). -1: out of memory. */
static int app_buffer_of(struct osprey_detect *d, const struct osprey_rule *r, uint32_t i,
                         bool to_client, uint8_t *ob, const struct det_xform **xf)
{
    const struct osprey_rule_option *o = &r->opts[i];
    uint8_t base;
    *xf = NULL;
    to_client = det_app_opt_to_client(r, i, to_client);
    if (det_app_buffer_of(o->buffer, to_client, ob, &base) < 0) {
        *ob = DET_OB_RAW; /* the packet/stream, under the application event */
        return 0;
    }
    if (!o->nxforms)
        return 0;
    uint16_t kw[32];
    const char *val[32];
    const void *arg[32];
    uint32_t n = o->nxforms < 32 ? o->nxforms : 32;
    for (uint32_t k = 0; k < n; k++) {
        kw[k] = r->opts[o->xform_at + k].kw;
        val[k] = r->opts[o->xform_at + k].value;
        arg[k] = r->opts[o->xform_at + k].arg;
    }
    return (*xf = det_xform_intern(d, kw, val, arg, n)) ? 0 : -1;
}

/* app-layer-protocol:[!]NAME[,mode] — the modes all mean the flow's one protocol here. */
static const char *app_proto_unit(const char *value, struct det_unit *u)
{
    *u = (struct det_unit){.type = DU_APPPROTO};
    const char *p = value;
    while (*p == ' ')
        p++;
    if (*p == '!') {
        u->app_neg = true;
        p++;
        while (*p == ' ')
            p++;
    }
    size_t n = strcspn(p, ", ");
    static const struct { const char *name; uint8_t app; } N[] = {
        {"http", OSPREY_APP_HTTP}, {"http1", OSPREY_APP_HTTP}, {"tls", OSPREY_APP_TLS},
        {"ssl", OSPREY_APP_TLS},   {"dns", OSPREY_APP_DNS},    {"failed", OSPREY_APP_FAILED}};
    for (size_t k = 0; k < sizeof N / sizeof N[0]; k++)
        if (strlen(N[k].name) == n && !strncmp(N[k].name, p, n)) {
            u->app = (uint8_t)(1u << N[k].app);
            return NULL;
        }
    return "a protocol the parsers do not detect";
}

/* The variable number of a flowint name (numbered in order of first use, across rules). */
static int int_id(struct osprey_detect *d, const char *name, uint32_t *id)
{
    uint32_t k = 0;
    while (k < d->nint_names && strcmp(d->int_names[k], name))
        k++;
    if (k == d->nint_names) {
        if (d->nint_names == d->cap_int_names) {
            uint32_t cap = d->cap_int_names ? d->cap_int_names * 2 : 16;
            const char **n = realloc(d->int_names, cap * sizeof *n);
            if (!n)
                return -1;
            d->int_names = n;
            d->cap_int_names = cap;
        }
        d->int_names[d->nint_names++] = name;
    }
    *id = k;
    return 0;
}

static const char *const META[] = {"msg", "sid", "gid", "rev", "classtype", "priority",
                                   "reference", "metadata", "target", "prefilter",
                                   "requires", "bypass", /* opt_hints.c */
                                   NULL};

static bool is_meta(const char *name)
{
    for (size_t i = 0; META[i]; i++)
        if (!strcmp(META[i], name))
            return true;
    return false;
}

/* Number the byte variables pi's option names (defined earlier: the parser checked that)
 * and the one it defines. NULL, or why the rule cannot be compiled. */
static const char *bind_vars(struct det_pitem *pi, const char **vnames, uint32_t *nvars)
{
    const char *names[BYTE_VAR_FIELDS];
    if (pi->type == PI_CONTENT)
        content_var_names(pi->arg, names);
    else if (pi->type == PI_ISDATAAT)
        isdataat_var_names(pi->arg, names);
    else if (pi->type == PI_PCRE || pi->type == PI_BASE64 || pi->type == PI_ENTROPY ||
             pi->type == PI_ASN1)
        return NULL;
    else
        byte_var_names(pi->arg, names);
    for (int f = 0; f < BYTE_VAR_FIELDS; f++) {
        if (!names[f])
            continue;
        uint32_t v = 0;
        while (v < *nvars && strcmp(vnames[v], names[f]))
            v++;
        if (v == *nvars)
            return "a byte variable defined outside the payload options";
        pi->var[f] = (uint8_t)(v + 1);
    }
    if (pi->type == PI_BYTE_EXTRACT || pi->type == PI_BYTE_MATH) {
        const char *name = ((const struct opt_byte *)pi->arg)->name;
        uint32_t v = 0;
        while (v < *nvars && strcmp(vnames[v], name))
            v++;
        if (v == BYTE_MAX_VARS)
            return "more than 8 byte variables";
        if (v == *nvars)
            vnames[(*nvars)++] = name;
        pi->def = (uint8_t)(v + 1);
    }
    return NULL;
}

/* base64_data options join the run of the base64_decode before them (they read its decoded
 * bytes); other options never join a run that has one. NULL, or why not compiled. */
static const char *b64_join(struct plan *pl, bool decoded, struct unit_plan **last, bool *join)
{
    struct unit_plan *b64 = NULL;
    for (uint32_t u = pl->nunits; u > 0 && !b64; u--)
        for (uint32_t i = 0; pl->units[u - 1].u.type == DU_PAYLOAD && i < pl->units[u - 1].u.n;
             i++)
            if (pl->units[u - 1].u.items[i].type == PI_BASE64)
                b64 = &pl->units[u - 1];
    if (decoded) {
        if (!b64 || b64->u.items + b64->u.n != &pl->items[pl->nitems])
            return "base64_data options apart from their base64_decode";
        *last = b64;
        *join = true;
    } else if (*last && *last == b64) {
        *join = false; /* the decoded bytes end that run */
    }
    return NULL;
}

/* absent: or_else on a buffer: its units also hold when the buffer is missing (so none of
 * their contents can be the fast pattern, which needs the buffer). */
static void mark_or_absent(struct plan *pl, const struct det_unit *or_else, uint32_t n)
{
    for (uint32_t u = 0; u < pl->nunits; u++)
        for (uint32_t k = 0; k < n; k++)
            if ((pl->units[u].u.type == DU_PAYLOAD || pl->units[u].u.type == DU_BUFLEN) &&
                pl->units[u].u.ob == or_else[k].ob && pl->units[u].u.xf == or_else[k].xf)
                pl->units[u].u.or_absent = true;
}

/* pi's variables must be defined in its own run (unit u); it defines its own there. NULL, or
 * why the rule cannot be compiled. */
static const char *var_in_run(const struct det_pitem *pi, uint32_t u,
                              uint32_t var_unit[BYTE_MAX_VARS])
{
    for (int f = 0; f < BYTE_VAR_FIELDS; f++)
        if (pi->var[f] && var_unit[pi->var[f] - 1] != u)
            return "a byte variable used in another buffer than the one that defines it";
    if (pi->def)
        var_unit[pi->def - 1] = u;
    return NULL;
}

/* Suricata's fast-pattern priority: application buffers first, then the packet/stream, and
 * http.method last (its few values are in every request). */
static int fp_priority(const struct det_unit *du, uint8_t kind)
{
    if (kind != DK_APP)
        return 1;
    return du->ob == OB_HTTP_METHOD ? 0 : du->ob == DET_OB_RAW ? 1 : 2;
}

/* Fast pattern: the one marked, else among the contents of the highest priority the longest
 * (the first on a tie). */
static void pick_fast_pattern(struct plan *pl)
{
    int best_prio = -1;
    uint32_t best = 0;
    for (uint32_t u = 0; u < pl->nunits; u++) {
        const struct det_unit *du = &pl->units[u].u;
        if (du->type != DU_PAYLOAD || det_ob_is_hdr(du->ob))
            continue; /* no fast pattern in a packet header: the header dispatcher finds it */
        int prio = fp_priority(du, pl->kind);
        for (uint32_t i = 0; i < du->n; i++) {
            const struct opt_content *ct = du->items[i].arg;
            if (du->items[i].type != PI_CONTENT || ct->negated || du->items[i].decoded ||
                du->or_absent)
                continue;
            const uint8_t *p;
            uint32_t n;
            content_fast_bytes(ct, &p, &n);
            if (best == UINT32_MAX) /* a marked one was found */
                continue;
            if (ct->fast_pattern || prio > best_prio || (prio == best_prio && n > best)) {
                best = ct->fast_pattern ? UINT32_MAX : n;
                best_prio = prio;
                pl->fp = ct;
                pl->fp_ob = du->ob;
                pl->fp_xf = du->xf;
            }
        }
    }
}

/* In an application rule, the units on the packet/stream go last: they search the whole
 * stream, the others only the message's buffers (the order of units does not change what
 * matches). */
static void raw_units_last(struct plan *pl)
{
    uint32_t k = 0;
    struct unit_plan tmp[pl->nunits ? pl->nunits : 1];
    for (int raw = 0; raw < 2; raw++)
        for (uint32_t u = 0; u < pl->nunits; u++)
            if ((pl->units[u].u.type == DU_PAYLOAD && pl->units[u].u.ob == DET_OB_RAW) == raw)
                tmp[k++] = pl->units[u];
    memcpy(pl->units, tmp, pl->nunits * sizeof *tmp);
}

/* Split a rule into units; decide base and fast pattern. plan->units/items/bits are
 * malloc'd. */
/* flowbits / xbits: refuse what the compiler cannot run (0, pl->why set), note noalert (1 with
 * *ids NULL), else intern the bit names (1 with *ids set); -1 when out of memory. */
static int plan_bits(struct osprey_detect *d, struct plan *pl,
                     const struct osprey_rule_option *o,
                     const char *(*check)(const struct opt_bits *), uint32_t **ids)
{
    const struct opt_bits *b = o->arg;
    *ids = NULL;
    if ((pl->why = check(b))) {
        pl->why_opt = o;
        return 0;
    }
    if (b->op == BITS_NOALERT) {
        pl->noalert = true;
        return 1;
    }
    return bit_ids(d, b, ids) < 0 ? -1 : 1;
}

/* dataset / datarep: the unit on option i's buffer and its set (made, and its file read, on
 * first use). 1; 0 with pl->why when the set cannot be used; -1 when out of memory. */
static int plan_dataset(struct osprey_detect *d, const struct osprey_rule *r, uint32_t i,
                        bool to_client, struct det_unit *u, struct plan *pl)
{
    const struct osprey_rule_option *o = &r->opts[i];
    char why[512];
    if (d->datasets_disabled) {
        pl->why = "datasets are disabled (datasets.enabled: no)";
        pl->why_opt = o;
        return 0;
    }
    if (!d->datasets &&
        !(d->datasets = det_datasets_create(d->dataset_memcap, d->dataset_hashsize)))
        return -1;
    struct det_dataset *set = det_dataset_open(d->datasets, o->arg, r->file, why, sizeof why);
    if (!set) {
        char *msg = strdup(why);
        if (!msg || det_own(d, msg) < 0)
            return -1;
        pl->why = msg;
        pl->why_opt = o;
        return 0;
    }
    uint8_t ob = 0;
    const struct det_xform *xf = NULL;
    if (app_buffer_of(d, r, i, to_client, &ob, &xf) < 0)
        return -1;
    *u = (struct det_unit){.type = DU_DATASET, .ds = o->arg, .set = set, .ob = ob, .xf = xf};
    u->addr = o->buffer == BUF_IP_SRC ? 1 : o->buffer == BUF_IP_DST ? 2 : 0;
    return 1;
}

int make_plan(struct osprey_detect *d, const struct osprey_rule *r, enum plan_variant variant,
              struct plan *pl)
{
    bool response = variant == PV_RESPONSE;
    memset(pl, 0, sizeof *pl);
    bool ok;
    pl->proto = proto_of(r->proto, &ok);
    pl->app = ok ? 0 : det_app_proto_of(r->proto, &pl->proto);
    if (!ok && !pl->app) {
        pl->why = "not supported yet";
        return 0;
    }
    if (pl->app && !d->parsers) {
        pl->why = "application-layer rules need the parsers";
        return 0;
    }
    pl->units = calloc(r->nopts + 1, sizeof *pl->units);
    pl->items = calloc(r->nopts + 1, sizeof *pl->items);
    pl->bits = calloc(r->nopts + 1, sizeof *pl->bits);
    pl->conds = calloc(r->nopts + 1, sizeof *pl->conds);
    pl->xbits = calloc(r->nopts + 1, sizeof *pl->xbits);
    pl->ints = calloc(r->nopts + 1, sizeof *pl->ints);
    if (!pl->units || !pl->items || !pl->bits || !pl->conds || !pl->xbits || !pl->ints)
        return -1;
    bool dsize = false, no_stream = false, only_stream = false; /* dsize: a packet-only option */
    struct det_hdr_proto hp;
    bool hp_stream_only = false;
    if (det_hdr_proto_of(r->proto, &hp)) {
        hp_stream_only = hp.stream_only;
        no_stream = hp.pkt_only;     /* tcp-pkt: as flow:no_stream */
        only_stream = hp.stream_only; /* tcp-stream: as flow:only_stream */
        if (hp.ipver)
            pl->units[pl->nunits++].u = (struct det_unit){.type = DU_PKTPROP, .pp = hp.ipver};
    }
    uint8_t ev_base = DB_PKT; /* decoder or application-layer events: their base (events.c) */
    /* A rule with byte variables keeps all its payload options in one run: a variable's
     * definition is then evaluated before its uses, and again when the run backtracks. */
    const char *vnames[BYTE_MAX_VARS];
    uint32_t nvars = 0, var_unit[BYTE_MAX_VARS], nor_else = 0;
    struct det_unit or_else[8]; /* the buffers of absent: or_else (ob, xf) */
    bool has_vars = false, to_server = false, two_sided = false;
    bool to_client = r->dir == OSPREY_DIR_TX; /* => : on the response, with the request's */
    int tls_side = 0;
    for (uint32_t i = 0; i < r->nopts; i++) {
        const char *kw = opt_def_by_id(r->opts[i].kw)->name;
        has_vars |= !strcmp(kw, "byte_extract") || !strcmp(kw, "byte_math");
        if (!strcmp(kw, "flow")) {
            unsigned fl = ((const struct opt_flow *)r->opts[i].arg)->flags;
            to_client |= (fl & FLOW_TO_CLIENT) != 0;
            to_server |= (fl & FLOW_TO_SERVER) != 0;
        }
        if (opt_def_by_id(r->opts[i].kw)->kind == OPT_PAYLOAD) {
            two_sided |= det_app_buffer_two_sided(r->opts[i].buffer);
            tls_side |= det_app_tls_side(r->opts[i].buffer);
        } else if (det_app_match_buffer(kw) != BUF_COUNT) {
            two_sided |= det_app_buffer_two_sided(det_app_match_buffer(kw));
        }
        two_sided |= det_tls_two_sided(kw);
        tls_side |= det_tls_side(kw);
    }
    /* a TLS buffer or option of one side only (tls.sni, tls.cert_chain_len …) gives the rule
     * its direction, as in Suricata: tls.alpn beside tls.sni is the client's */
    if (!to_client && !to_server && (tls_side == 1 || tls_side == 2)) {
        to_server = tls_side == 1;
        to_client = tls_side == 2;
        two_sided = false;
    }
    pl->two_sided = two_sided && !to_client && !to_server && !response;
    to_client |= response;
    /* which application buffers, and so which base event, the rule needs */
    int side = to_client ? 2 : to_server || pl->two_sided ? 1 : 0; /* (for the TLS units) */
    struct app_need need = {.base = DB_PKT, .side = (uint8_t)side};
    for (uint32_t i = 0; i < r->nopts; i++)
        if ((pl->why = app_need_add(d, r, i, to_client, &need))) {
            pl->why_opt = &r->opts[i];
            return 0;
        }
    if (det_base_is_app(need.base) && need.raw)
        d->app_raw = true; /* the stream copy is kept for them */
    if (det_base_is_app(need.base) && has_vars && need.nbufs > 1) {
        pl->why = "byte variables across several buffers";
        return 0;
    }
    if (det_base_is_app(need.base) && pl->app && pl->app != group_app(need.base)) {
        pl->why = "buffers of another application protocol than the header's";
        return 0;
    }
    if (pl->app && !det_base_is_app(need.base)) {
        /* an application protocol in the header without its buffers: the flow's app_proto
         * is checked as an option */
        pl->units[pl->nunits++].u =
            (struct det_unit){.type = DU_APPPROTO, .app = (uint8_t)(1u << pl->app)};
    }
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct osprey_rule_option *o = &r->opts[i];
        const struct opt_def *def = opt_def_by_id(o->kw);
        const char *name = def->name;
        if (is_meta(name))
            continue;
        if (def->kind == OPT_MODIFIER || (def->kind == OPT_HTTP_LEGACY && o->arg == NULL &&
                                           r->dialect != OSPREY_DIALECT_SNORT3)) {
            if (pl->nunits)
                pl->units[pl->nunits - 1].last_opt = i; /* folded into its content */
            continue;
        }
        if ((def->kind == OPT_STICKY || def->kind == OPT_HTTP_LEGACY) && o->value && !o->side &&
            strcmp(name, "frame")) {
            pl->why = "a Snort 3 buffer selector (field, path, request …)";
            pl->why_opt = o;
            return 0;
        }
        if (def->kind == OPT_STICKY || def->kind == OPT_HTTP_LEGACY ||
            def->kind == OPT_TRANSFORM)
            continue; /* the options after it carry the buffer and its transforms */
        struct unit_plan *up = &pl->units[pl->nunits];
        up->first_opt = up->last_opt = i;
        struct det_pitem pi = {0};
        if (!strcmp(name, "content") || !strcmp(name, "uricontent")) {
            pl->why = content_compile_check(o->arg);
            pi = (struct det_pitem){.type = PI_CONTENT, .relative = content_is_relative(o->arg),
                                    .arg = o->arg};
        } else if (!strcmp(name, "pcre")) {
            pl->why = pcre_compile_check(o->arg);
            pi = (struct det_pitem){.type = PI_PCRE,
                                    .relative = ((const struct opt_pcre *)o->arg)->relative,
                                    .arg = o->arg};
        } else if (!strcmp(name, "isdataat")) {
            pl->why = isdataat_compile_check(o->arg);
            pi = (struct det_pitem){.type = PI_ISDATAAT,
                                    .relative = ((const struct opt_isdataat *)o->arg)->relative,
                                    .arg = o->arg};
        } else if (!strcmp(name, "entropy")) {
            pi = (struct det_pitem){.type = PI_ENTROPY, .arg = o->arg};
        } else if (!strcmp(name, "base64_decode")) {
            pi = (struct det_pitem){.type = PI_BASE64,
                                    .relative = ((const struct opt_base64 *)o->arg)->relative,
                                    .arg = o->arg};
        } else if (!strncmp(name, "byte_", 5)) { /* byte_test, _jump, _extract, _math */
            const struct opt_byte *b = o->arg;
            pl->why = byte_compile_check(b);
            uint8_t t = name[5] == 't' ? PI_BYTE_TEST : name[5] == 'j' ? PI_BYTE_JUMP
                      : name[5] == 'e' ? PI_BYTE_EXTRACT : PI_BYTE_MATH;
            pi = (struct det_pitem){.type = t, .relative = (b->flags & BYTE_RELATIVE) != 0,
                                    .arg = b};
        } else if (!strcmp(name, "asn1")) { /* relative_offset: joins the run before it */
            pi = (struct det_pitem){.type = PI_ASN1,
                                    .relative = ((const struct opt_asn1 *)o->arg)->has_relative,
                                    .arg = o->arg};
        }
        if (!pl->why && pi.arg)
            pl->why = bind_vars(&pi, vnames, &nvars);
        pi.decoded = o->buffer == BUF_BASE64;
        int hdr_ob = pi.arg ? det_hdr_buffer_of(o->buffer) : -1;
        dsize |= hdr_ob >= 0; /* a packet header: packets only */
        if (pl->why) {
            pl->why_opt = o;
            return 0;
        }
        if (pi.arg) {
            /* a relative option joins the run of the payload options before it (wherever
             * that run sits among the match options: order between units does not matter) */
            uint8_t ob = 0;
            const struct det_xform *xf = NULL;
            if (hdr_ob >= 0)
                ob = (uint8_t)hdr_ob;
            else if (det_base_is_app(need.base) &&
                     app_buffer_of(d, r, i, to_client, &ob, &xf) < 0)
                return -1;
            struct unit_plan *last = NULL;
            for (uint32_t u = pl->nunits; u > 0 && !last; u--)
                if (pl->units[u - 1].u.type == DU_PAYLOAD && pl->units[u - 1].u.ob == ob &&
                    pl->units[u - 1].u.xf == xf)
                    last = &pl->units[u - 1];
            pl->items[pl->nitems] = pi;
            /* on a multi-buffer the whole list holds within one element: one run (one
             * instance: the sticky buffer not named again in between) */
            bool join = pi.relative || has_vars ||
                        (det_app_multi(ob) && last &&
                         det_multi_same_instance(r, last->last_opt, i));
            if ((pl->why = b64_join(pl, pi.decoded, &last, &join))) {
                pl->why_opt = o;
                return 0;
            }
            if (join && last && last->u.items + last->u.n == &pl->items[pl->nitems]) {
                last->u.n++;
                last->last_opt = i;
            } else {
                up->u = (struct det_unit){.type = DU_PAYLOAD, .n = 1,
                                          .items = &pl->items[pl->nitems], .ob = ob, .xf = xf};
                pl->nunits++;
                last = up;
            }
            pl->nitems++;
            /* a byte variable lives in the run that defines it (ipv4.hdr then tcp.hdr are two) */
            if ((pl->why = var_in_run(&pi, (uint32_t)(last - pl->units), var_unit))) {
                pl->why_opt = o;
                return 0;
            }
        } else if (!strcmp(name, "flow")) {
            const struct opt_flow *f = o->arg;
            if ((pl->why = flow_compile_check(f))) {
                pl->why_opt = o;
                return 0;
            }
            no_stream |= (f->flags & (FLOW_NO_STREAM | FLOW_ONLY_FRAG | FLOW_NO_FRAG)) != 0;
            only_stream |= (f->flags & FLOW_ONLY_STREAM) != 0;
            up->u = (struct det_unit){.type = DU_FLOW, .flow = f};
            pl->nunits++;
        } else if (!strcmp(name, "threshold") || !strcmp(name, "detection_filter")) {
            if ((pl->why = threshold_compile_check(o->arg))) {
                pl->why_opt = o;
                return 0;
            }
            pl->thr[name[0] == 'd'] = o->arg; /* the parser allows each once */
        } else if (!strcmp(name, "flowbits")) {
            const struct opt_bits *b = o->arg;
            uint32_t *ids;
            int k = plan_bits(d, pl, o, flowbits_compile_check, &ids);
            if (k <= 0)
                return k;
            if (!ids)
                continue; /* noalert */
            if (b->op == BITS_ISSET || b->op == BITS_ISNOTSET) {
                /* tested when the packet's matches are committed, after its setters */
                pl->conds[pl->nconds++] = (struct det_bits_action){b, ids};
            } else {
                pl->bits[pl->nbits++] = (struct det_bits_action){b, ids};
            }
        } else if (hdr_field_of(name) >= 0) {
            if ((pl->why = cmp_compile_check(o->arg))) {
                pl->why_opt = o;
                return 0;
            }
            dsize = true; /* a header field: packets only */
            up->u = (struct det_unit){.type = DU_HDR, .field = hdr_field_of(name),
                                      .cmp = o->arg};
            pl->nunits++;
        } else if (!strcmp(name, "geoip")) {
            if (!d->geoip) {
                pl->why = "needs geoip-database (a MaxMind .mmdb)";
                pl->why_opt = o;
                return 0;
            }
            up->u = (struct det_unit){.type = DU_GEOIP, .geo = o->arg, .geodb = d->geoip};
            pl->nunits++;
        } else if (!strcmp(name, "ip_proto") || !strcmp(name, "sameip")) {
            dsize = true;
            up->u = (struct det_unit){.type = name[0] == 'i' ? DU_IPPROTO : DU_SAMEIP};
            if (name[0] == 'i')
                ipproto_compile(o->value, &up->u.ipp);
            pl->nunits++;
        } else if (pktprop_keyword(name)) {
            dsize = true; /* packet and flow properties: evaluated per packet */
            up->u = (struct det_unit){.type = DU_PKTPROP, .pp = o->arg};
            pl->nunits++;
        } else if (!strcmp(name, "flags") || !strcmp(name, "tcp.flags")) {
            dsize = true;
            up->u = (struct det_unit){.type = DU_TCPFLAGS};
            tcpflags_compile(o->value, &up->u.tf);
            pl->nunits++;
        } else if (!strcmp(name, "fragbits") || !strcmp(name, "ipopts")) {
            dsize = true; /* IP header bits: packets only */
            if (name[0] == 'f') {
                up->u = (struct det_unit){.type = DU_FRAGBITS};
                fragbits_compile(o->value, &up->u.tf);
            } else {
                up->u = (struct det_unit){.type = DU_IPOPTS, .ipopt = ipopts_compile(o->value)};
            }
            pl->nunits++;
        } else if (!strcmp(name, "service")) {
            /* Snort 3: the flows of these services (service_compile_check: all detected) */
            const struct opt_words *sw = o->arg;
            uint8_t mask = 0, l4;
            for (uint32_t k = 0; k < sw->n; k++)
                mask |= (uint8_t)(1u << det_app_proto_of(sw->words[k], &l4));
            if (det_base_is_app(need.base)) {
                if (!(mask & (1u << group_app(need.base)))) {
                    pl->why = "a service other than the protocol of its buffers";
                    pl->why_opt = o;
                    return 0;
                }
            } else {
                up->u = (struct det_unit){.type = DU_APPPROTO, .app = mask};
                pl->nunits++;
            }
        } else if (!strcmp(name, "stream_size")) {
            if ((pl->why = stream_size_compile_check(o->arg))) {
                pl->why_opt = o;
                return 0;
            }
            up->u = (struct det_unit){.type = DU_STREAMSIZE, .cmp = o->arg};
            pl->nunits++;
        } else if (!strcmp(name, "noalert")) {
            pl->noalert = true; /* Suricata's keyword: match, change state, never alert */
        } else if (!strcmp(name, "xbits") || !strcmp(name, "hostbits")) {
            const struct opt_bits *b = o->arg;
            uint32_t *ids;
            int k = plan_bits(d, pl, o, xbits_compile_check, &ids);
            if (k <= 0)
                return k;
            if (!ids)
                continue; /* noalert */
            pl->xbits[pl->nxbits++] = (struct det_bits_action){b, ids};
            d->has_xbits = true;
        } else if (!strcmp(name, "dataset") || !strcmp(name, "datarep")) {
            if (plan_dataset(d, r, i, to_client, &up->u, pl) <= 0)
                return pl->why ? 0 : -1;
            pl->nunits++;
        } else if (!strcmp(name, "tag")) {
            continue; /* started when the rule alerts (compile.c rule_tags, tag.c) */
        } else if (!strcmp(name, "flowint")) {
            const struct opt_flowint *fi = o->arg;
            struct det_flowint x = {fi, 0, 0};
            if (int_id(d, fi->name, &x.id) < 0 ||
                (fi->value_var && int_id(d, fi->value_var, &x.value_id) < 0))
                return -1;
            pl->ints[pl->nints++] = x;
        } else if (!strcmp(name, "urilen") || !strcmp(name, "bsize") ||
                   !strcmp(name, "bufferlen")) { /* bufferlen: Snort 3's bsize */
            const struct opt_cmp *cm = o->arg;
            struct opt_cmp plain = *cm;
            plain.flags = name[0] == 'u' ? 0 : plain.flags; /* urilen's norm/raw: below */
            if ((pl->why = cmp_compile_check(&plain))) {
                pl->why_opt = o;
                return 0;
            }
            uint8_t ob = 0;
            const struct det_xform *xf = NULL;
            if (name[0] == 'u') /* urilen: the normalized URI unless ",raw" */
                ob = cm->flags == 2 ? OB_HTTP_URI_RAW : OB_HTTP_URI;
            else if (app_buffer_of(d, r, i, to_client, &ob, &xf) < 0)
                return -1;
            up->u = (struct det_unit){.type = DU_BUFLEN, .cmp = cm, .ob = ob, .xf = xf};
            pl->nunits++;
        } else if (det_app_match_buffer(name) == BUF_DNS_QUERIES_RRNAME) { /* dns.opcode … */
            up->u = (struct det_unit){.type = DU_DNSHDR, .cmp = o->arg,
                                      .field = name[4] == 'o'   ? DNS_F_OPCODE
                                               : name[5] == 'c' ? DNS_F_RCODE
                                                                : DNS_F_RRTYPE};
            pl->nunits++;
        } else if (!strcmp(name, "app-layer-protocol")) {
            if ((pl->why = app_proto_unit(o->value, &up->u))) {
                pl->why_opt = o;
                return 0;
            }
            pl->nunits++;
        } else if (o->arg && (!strcmp(name, "decode-event") || !strcmp(name, "stream-event") ||
                              !strcmp(name, "app-layer-event"))) {
            uint8_t b;
            if (!(pl->why = det_event_unit(o->arg, &up->u, &b)) && ev_base != DB_PKT &&
                ev_base != b)
                pl->why = "events of two kinds (decoder, stream, application) in one rule";
            if (pl->why) {
                pl->why_opt = o;
                return 0;
            }
            if (b != DB_APP_EVENT)
                dsize = true; /* decoder and stream events: a property of the packet */
            ev_base = b;
            pl->nunits++;
        } else if (det_tls_keyword(name)) {
            struct det_tls *t = malloc(sizeof *t);
            if (!t || det_own(d, t) < 0)
                return -1;
            if ((pl->why = det_tls_compile(o, side, t))) {
                pl->why_opt = o;
                return 0;
            }
            up->u = (struct det_unit){.type = DU_TLS, .tls = t};
            pl->nunits++;
        } else if (!strcmp(name, "absent")) {
            uint8_t ob = 0;
            const struct det_xform *xf = NULL;
            if (!det_base_is_app(need.base) || nor_else == 8) {
                pl->why = "absent on a buffer Osprey does not fill";
                pl->why_opt = o;
                return 0;
            }
            if (app_buffer_of(d, r, i, to_client, &ob, &xf) < 0)
                return -1;
            if (*(const bool *)o->arg) {
                or_else[nor_else++] = (struct det_unit){.ob = ob, .xf = xf};
            } else {
                up->u = (struct det_unit){.type = DU_ABSENT, .ob = ob, .xf = xf};
                pl->nunits++;
            }
        } else if (!strcmp(name, "dsize")) {
            if ((pl->why = cmp_compile_check(o->arg))) {
                pl->why_opt = o;
                return 0;
            }
            dsize = true;
            up->u = (struct det_unit){.type = DU_DSIZE, .cmp = o->arg};
            pl->nunits++;
        } else {
            pl->why = "option not compiled yet";
            pl->why_opt = o;
            return 0;
        }
    }
    /* Suricata inspects TCP payload rules on the reassembled stream; dsize and no_stream are
     * packet properties, and rules without payload options look at packets. */
    pl->kind = pl->proto == 6 && pl->nitems && !dsize && !no_stream ? DK_STREAM : DK_PKT;
    if (hp_stream_only && pl->kind != DK_STREAM) {
        pl->why = "a tcp-stream rule without payload options on the stream, or with "
                  "packet-only options";
        return 0;
    }
    pl->base = pl->kind;
    if (det_base_is_app(need.base)) {
        if (dsize || no_stream) {
            pl->why = "packet-only options (dsize, header fields, flow:no_stream) in a rule on "
                      "application-layer buffers";
            return 0;
        }
        pl->kind = DK_APP;
        pl->base = need.base;
    }
    if (ev_base != DB_PKT) {
        if ((pl->why = det_event_base_check(d, ev_base, pl->nitems, need.base,
                                            dsize || no_stream)))
            return 0;
        pl->base = ev_base;
        pl->kind = det_kind_of(ev_base);
    }
    /* Suricata inspects a TCP payload rule on the stream and on each packet's payload: offset
     * and depth count from the stream's start in one, from the payload's in the other. The
     * packet chain hangs under the stream's fast patterns too (one scan of the new bytes; a
     * retransmission, which brings none, is not inspected again), its units read the packet
     * that brought the data. */
    pl->also_packet = pl->kind == DK_STREAM && variant == PV_MAIN && !only_stream;
    uint8_t unit_kind = pl->kind == DK_STREAM && variant == PV_PACKET ? DK_PKT : pl->kind;
    for (uint32_t u = 0; u < pl->nunits; u++) {
        pl->units[u].u.kind = unit_kind;
        pl->units[u].u.base = pl->base;
    }
    if (pl->kind == DK_APP)
        raw_units_last(pl);
    mark_or_absent(pl, or_else, nor_else);
    pick_fast_pattern(pl);
    return 0;
}

void plan_free(struct plan *pl)
{
    free(pl->units);
    free(pl->items);
    free(pl->bits);
    free(pl->conds);
    free(pl->xbits);
    free(pl->ints);
}
