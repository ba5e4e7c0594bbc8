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



/* ---- application-layer buffers ---- */

struct app_need {
    uint16_t base;       /* the latest base event the buffers need (DB_PKT: none) */
    uint8_t side;        /* the rule's direction for the TLS units: 0 either, 1 to server,
                            2 to client */
    bool raw;            /* payload options on the packet/stream too */
    uint32_t nbufs;      /* distinct buffers (roughly: changes of buffer in rule order) */
    unsigned last_buf;
    uint16_t app;        /* the protocol whose buffers the rule reads (0: any, the first) */
};

static bool payload_kw(const struct opt_def *def)
{
    return def->kind == OPT_PAYLOAD;
}

/* An application event the rule needs: the latest one is its base. NULL, or why not. */
static const char *app_base_add(struct osprey_detect *d, uint16_t base, struct app_need *need)
{
    if (!d->parsers)
        return "application-layer buffers need the parsers";
    if (det_base_is_app(need->base) && det_base_proto(need->base) != det_base_proto(base))
        return "buffers of two application protocols";
    if (base > need->base)
        need->base = base;
    return NULL;
}

/* Is the keyword a TLS unit option (its plan is plan_tls: tls_units.c)? */
static bool tls_unit(uint16_t kw)
{
    return plan_fn_of_kw(kw) == plan_tls;
}

/* Option i's contribution to the rule's buffers; NULL, or why it cannot be compiled. */
static const char *app_need_add(struct osprey_detect *d, const struct osprey_rule *r,
                                uint32_t i, bool to_client, struct app_need *need)
{
    const struct osprey_rule_option *o = &r->opts[i];
    const struct opt_def *def = opt_def_by_id(o->kw);
    unsigned buf = o->buffer;
    to_client = det_app_opt_to_client(r, i, to_client);
    if (tls_unit(o->kw)) /* a TLS unit: under the event its value comes with */
        return app_base_add(d, det_tls_base(o, need->side), need);
    if (buf == BUF_BASE64)
        return NULL; /* base64_data: the buffer of its base64_decode */
    if (det_app_match_buffer(def) != BUF_COUNT)
        buf = det_app_match_buffer(def);
    else if (!payload_kw(def))
        return NULL;
    if (buf == BUF_FILE_MAGIC)
        d->file_flags |= OSPREY_FILES_MAGIC; /* the parsers ask libmagic about each file */
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
    uint16_t ob, base;
    if (det_app_buffer_of_in(buf, to_client, need->app, &ob, &base) < 0)
        return "a buffer Osprey does not fill yet";
    for (uint32_t k = 0; k < o->nxforms; k++) {
        const char *x = opt_def_by_id(r->opts[o->xform_at + k].kw)->name;
        if (!det_xform_supported(x))
            return "a transform Osprey does not apply yet";
    }
    if (!strcmp(def->name, "absent")) /* known missing only once the message is whole */
        base = det_app_base_last_of_message(base);
    const char *why = app_base_add(d, base, need);
    if (why)
        return why;
    if (need->nbufs == 0 || need->last_buf != buf)
        need->nbufs++;
    need->last_buf = buf;
    return NULL;
}

/* absent: or_else on a buffer: its units also hold when the buffer is missing (so none of
 * their contents can be the fast pattern, which needs the buffer). */
static void mark_or_absent(struct plan *pl, const struct det_unit *or_else, uint32_t n)
{
    for (uint32_t u = 0; u < pl->nunits; u++)
        for (uint32_t k = 0; k < n; k++)
            if ((pl->units[u].u.ops == &det_unit_payload ||
                 pl->units[u].u.ops == &det_unit_buflen) &&
                pl->units[u].u.ob == or_else[k].ob && pl->units[u].u.xf == or_else[k].xf)
                pl->units[u].u.or_absent = true;
}

/* Suricata's fast-pattern priority: application buffers first, then the packet/stream, and
 * http.method last (its few values are in every request). */
static int fp_priority(const struct det_unit *du, uint8_t kind)
{
    if (kind != DK_APP)
        return 1;
    if (du->ob == DET_OB_RAW)
        return 1;
    return osprey_buffer_is_fp_last(du->ob) ? 0 : 2;
}

/* Fast pattern: the one marked, else among the contents of the highest priority the longest
 * (the first on a tie). */
static void pick_fast_pattern(struct plan *pl)
{
    int best_prio = -1;
    uint32_t best = 0;
    for (uint32_t u = 0; u < pl->nunits; u++) {
        const struct det_unit *du = &pl->units[u].u;
        if (du->ops != &det_unit_payload || det_ob_is_hdr(du->ob))
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
                pl->fp_why = ct->fast_pattern ? "the rule marks it fast_pattern"
                             : prio == 2      ? "the longest content on an application buffer"
                             : prio == 1 && pl->kind == DK_APP
                                 ? "the longest content (no application-buffer content to use)"
                             : prio == 1 ? "the longest positive content"
                                         : "the longest content (http.method only when "
                                           "nothing else can be)";
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
            if ((pl->units[u].u.ops == &det_unit_payload && pl->units[u].u.ob == DET_OB_RAW) == raw)
                tmp[k++] = pl->units[u];
    memcpy(pl->units, tmp, pl->nunits * sizeof *tmp);
}

/* Lua scripts run after every other unit of the rule: the cheap tests (and the fast
 * pattern before them) decide first whether the script is worth a run. Their own order
 * stays the rule's. */
static void lua_units_last(struct plan *pl)
{
    uint32_t k = 0;
    struct unit_plan tmp[pl->nunits ? pl->nunits : 1];
    for (int lua = 0; lua < 2; lua++)
        for (uint32_t u = 0; u < pl->nunits; u++)
            if ((pl->units[u].u.ops == &det_unit_lua) == lua)
                tmp[k++] = pl->units[u];
    memcpy(pl->units, tmp, pl->nunits * sizeof *tmp);
}

/* Suricata 8's rule hook in the header: an application protocol's progress state is the
 * parsers' event registered under its name (the rule runs there: *base); the packet hook
 * flow_start is a unit (the first packet of each direction). NULL, or why not. */
static const char *hook_of(const struct osprey_rule *r, const char *hook, struct plan *pl,
                           uint16_t *base)
{
    if (r->scope != OSPREY_SCOPE_NONE) { /* a firewall rule: its table (firewall_plan.c) */
        const char *why = det_fw_plan(r, pl->app, &pl->fw_table, base, &pl->fw_dir,
                                      &pl->fw_rank);
        if (!why && !strcmp(hook, "flow_start"))
            pl->units[pl->nunits++] = (struct unit_plan){
                (struct det_unit){.ops = &det_unit_flow_start}, PLAN_HEADER, PLAN_HEADER};
        return why;
    }
    if (pl->app) {
        int ev = osprey_event_find_hook(pl->app, hook);
        if (ev < 0)
            return "a rule hook Osprey does not run yet";
        *base = det_app_base((uint16_t)ev);
        return NULL;
    }
    if (strcmp(hook, "flow_start"))
        return "a rule hook Osprey does not run yet";
    pl->units[pl->nunits++] = (struct unit_plan){(struct det_unit){.ops = &det_unit_flow_start},
                                                 PLAN_HEADER, PLAN_HEADER};
    return NULL;
}

/* app-layer-state:STATE (Suricata 8) is the header hook's other spelling: the rule runs at
 * that state of the header's protocol (*hook). NULL, or why not. */
static const char *app_state_hook(const struct osprey_rule *r, const struct plan *pl,
                                  const char **hook)
{
    for (uint32_t i = 0; i < r->nopts; i++) {
        if (strcmp(opt_def_by_id(r->opts[i].kw)->name, "app-layer-state"))
            continue;
        const struct opt_app_state *a = r->opts[i].arg;
        if (!a || a->mode)
            continue; /* (refused by its check) */
        if (!pl->app)
            return "app-layer-state in a rule whose header names no application protocol";
        if (*hook && strcmp(*hook, a->state))
            return "two rule hooks (the header's and app-layer-state)";
        *hook = a->state;
    }
    return NULL;
}

/* Snort 3's `service:` list of a rule whose header names no application protocol; NULL when
 * it has none. */
const struct opt_words *plan_service_words(const struct osprey_rule *r)
{
    uint8_t l4;
    if (det_app_proto_of(r->proto, &l4))
        return NULL;
    for (uint32_t i = 0; i < r->nopts; i++)
        if (!strcmp(opt_def_by_id(r->opts[i].kw)->name, "service"))
            return r->opts[i].arg;
    return NULL;
}

/* Does protocol p register every application buffer the rule inspects (in either
 * direction)? false when it inspects none: its service unit alone restricts it. */
bool plan_registers_buffers(const struct osprey_rule *r, uint16_t p)
{
    bool any = false;
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct osprey_rule_option *o = &r->opts[i];
        if (opt_def_by_id(o->kw)->kind != OPT_PAYLOAD || !buffer_parsed(o->buffer))
            continue;
        uint16_t ob, b;
        if (det_app_buffer_of_in(o->buffer, false, p, &ob, &b) < 0 &&
            det_app_buffer_of_in(o->buffer, true, p, &ob, &b) < 0)
            return false;
        any = true;
    }
    return any;
}

/* The protocol a service rule's first compile reads its buffers in: 0 (the first protocol
 * registering them, make_plan's default) unless that one is not listed and a listed one
 * registers them — then the first such. */
uint16_t plan_service_proto(const struct osprey_rule *r)
{
    const struct opt_words *sw = plan_service_words(r);
    uint16_t first = 0;
    for (uint32_t k = 0; sw && k < sw->n; k++) {
        uint8_t l4;
        uint16_t p = det_app_proto_of(sw->words[k], &l4);
        if (!p || !plan_registers_buffers(r, p))
            continue;
        first = first ? first : p;
        bool dflt = true; /* is p the default row's protocol for every buffer? */
        for (uint32_t i = 0; i < r->nopts && dflt; i++) {
            const struct osprey_rule_option *o = &r->opts[i];
            uint16_t ob, b;
            if (opt_def_by_id(o->kw)->kind != OPT_PAYLOAD || !buffer_parsed(o->buffer))
                continue;
            if (det_app_buffer_of_in(o->buffer, false, 0, &ob, &b) < 0 &&
                det_app_buffer_of_in(o->buffer, true, 0, &ob, &b) < 0)
                continue;
            dflt = osprey_buffer_proto(ob) == p;
        }
        if (dflt)
            return 0;
    }
    return first;
}

/* Suricata's filestore is a file keyword: a rule of an application protocol with nothing
 * else to inspect (no buffer, no payload) runs as a file rule — once per complete file of
 * its protocol, under that protocol's file.name event (`alert nfs … (filestore;)`). */
static bool filestore_file_rule(const struct osprey_rule *r, uint16_t app)
{
    bool fs = false;
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct opt_def *def = opt_def_by_id(r->opts[i].kw);
        if (!strcmp(def->name, "filestore"))
            fs = true;
        else if (def->kind == OPT_PAYLOAD || def->kind == OPT_STICKY ||
                 def->kind == OPT_HTTP_LEGACY || det_app_match_buffer(def) != BUF_COUNT ||
                 tls_unit(r->opts[i].kw))
            return false;
    }
    uint16_t ob, base;
    return fs && app && det_app_buffer_of_in(BUF_FILE_NAME, false, app, &ob, &base) == 0;
}

int make_plan(struct osprey_detect *d, const struct osprey_rule *r, enum plan_variant variant,
              uint16_t app_as, struct plan *pl)
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
    pl->buf_app = pl->app;
    if (!app_as && !pl->app) /* Snort 3's service list: its buffers in a listed service */
        pl->buf_app = plan_service_proto(r);
    if (app_as) {
        /* compiled again for a protocol that also runs this rule (HTTP/2 for `alert http`
         * and for HTTP buffers): its buffers, and its flows for the header's protocol */
        pl->buf_app = app_as;
        if (pl->app)
            pl->app = app_as;
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
    bool no_stream = false, only_stream = false;
    struct det_hdr_proto hp;
    bool hp_stream_only = false;
    if (det_hdr_proto_of(r->proto, &hp)) {
        hp_stream_only = hp.stream_only;
        no_stream = hp.pkt_only;     /* tcp-pkt: as flow:no_stream */
        only_stream = hp.stream_only; /* tcp-stream: as flow:only_stream */
        if (hp.ipver)
            pl->units[pl->nunits++] = (struct unit_plan){
                (struct det_unit){.ops = &det_unit_pktprop, .pp = hp.ipver}, PLAN_HEADER,
                PLAN_HEADER};
    }
    /* A rule with byte variables keeps all its payload options in one run: a variable's
     * definition is then evaluated before its uses, and again when the run backtracks. */
    bool has_vars = false, to_server = false, two_sided = false;
    uint8_t flow_dirs = DET_DIR_BOTH; /* of the flow options alone (not => or buffers) */
    bool to_client = r->dir == OSPREY_DIR_TX; /* => : on the response, with the request's */
    int tls_side = 0;
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct opt_def *def = opt_def_by_id(r->opts[i].kw);
        const char *kw = def->name;
        has_vars |= !strcmp(kw, "byte_extract") || !strcmp(kw, "byte_math");
        if (!strcmp(kw, "flow")) {
            unsigned fl = ((const struct opt_flow *)r->opts[i].arg)->flags;
            to_client |= (fl & FLOW_TO_CLIENT) != 0;
            to_server |= (fl & FLOW_TO_SERVER) != 0;
            flow_dirs &= (uint8_t)((fl & FLOW_TO_SERVER   ? DET_DIR_TS
                                    : fl & FLOW_TO_CLIENT ? DET_DIR_TC
                                                          : DET_DIR_BOTH));
        }
        if (opt_def_by_id(r->opts[i].kw)->kind == OPT_PAYLOAD) {
            two_sided |= det_app_buffer_two_sided(r->opts[i].buffer);
            tls_side |= det_app_buffer_side(r->opts[i].buffer);
        } else if (det_app_match_buffer(def) != BUF_COUNT) {
            two_sided |= det_app_buffer_two_sided(det_app_match_buffer(def));
        }
        if (tls_unit(r->opts[i].kw)) {
            two_sided |= det_tls_two_sided(&r->opts[i]);
            tls_side |= det_tls_side(&r->opts[i]);
        }
    }
    /* a TLS buffer or option of one side only (tls.sni, tls.cert_chain_len …) gives the rule
     * its direction, as in Suricata: tls.alpn beside tls.sni is the client's */
    if (!to_client && !to_server && (tls_side == 1 || tls_side == 2)) {
        to_server = tls_side == 1;
        to_client = tls_side == 2;
        two_sided = false;
    }
    pl->filestore_file = filestore_file_rule(r, pl->buf_app);
    two_sided |= pl->filestore_file && det_app_buffer_two_sided(BUF_FILE_NAME);
    pl->two_sided = two_sided && !to_client && !to_server && !response;
    pl->flow_dirs = flow_dirs;
    to_client |= response;
    /* which application buffers, and so which base event, the rule needs */
    int side = to_client ? 2 : to_server || pl->two_sided ? 1 : 0; /* (for the TLS units) */
    struct app_need need = {.base = DB_PKT, .side = (uint8_t)side, .app = pl->buf_app};
    uint16_t hook_base = DB_PKT;
    const char *hook = r->hook;
    if ((pl->why = app_state_hook(r, pl, &hook)))
        return 0;
    if (hook && (pl->why = hook_of(r, hook, pl, &hook_base)))
        return 0;
    need.base = hook_base;
    for (uint32_t i = 0; i < r->nopts; i++)
        if ((pl->why = app_need_add(d, r, i, to_client, &need))) {
            pl->why_opt = &r->opts[i];
            return 0;
        }
    if (pl->filestore_file) { /* under the protocol's file event (filestore_file_rule) */
        uint16_t ob, base;
        if (det_app_buffer_of_in(BUF_FILE_NAME, to_client, need.app, &ob, &base) == 0 &&
            (pl->why = app_base_add(d, base, &need)))
            return 0;
    }
    if (det_base_is_app(need.base) && need.raw)
        d->app_raw = true; /* the stream copy is kept for them */
    if (det_base_is_app(need.base) && has_vars && need.nbufs > 1) {
        pl->why = "byte variables across several buffers";
        return 0;
    }
    if (det_base_is_app(hook_base) && need.base != hook_base) {
        pl->why = "buffers of a later state than the rule's hook";
        return 0;
    }
    bool carried = det_base_is_app(need.base) && pl->app &&
                   osprey_app_proto_carries(pl->app, det_base_proto(need.base));
    if (det_base_is_app(need.base) && pl->app && pl->app != det_base_proto(need.base) &&
        !carried) {
        pl->why = "buffers of another application protocol than the header's";
        return 0;
    }
    if (pl->app && (!det_base_is_app(need.base) || carried)) {
        /* (a protocol's buffers carried in the header's, DCERPC's in SMB: their events also
         * run on flows of their own protocol, so the header's is checked too) */
        /* an application protocol in the header without its buffers: the flow's app_proto
         * is checked as an option */
        struct det_unit au = {.ops = &det_unit_appproto};
        osprey_app_proto_set_add(&au.app, pl->app);
        if (r->scope == OSPREY_SCOPE_NONE) /* (doh2 is http2's and dns's; a firewall rule's
                                              header compares exactly) */
            osprey_app_proto_set_widen(&au.app);
        pl->units[pl->nunits++] = (struct unit_plan){au, PLAN_HEADER, PLAN_HEADER};
    }
    /* a firewall rule of a packet table runs on packets, never on the stream */
    no_stream |= pl->fw_table != FW_NONE && pl->fw_table != FW_APP;
    struct plan_ctx pc = {.d = d, .r = r, .pl = pl, .variant = variant, .app_base = need.base,
                          .to_client = to_client, .side = side, .has_vars = has_vars,
                          .no_stream = no_stream, .only_stream = only_stream,
                          .ev_base = DB_PKT};
    /* each option through its keyword's plan function (plan_*.c) */
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct osprey_rule_option *o = &r->opts[i];
        const struct opt_def *def = opt_def_by_id(o->kw);
        const char *name = def->name;
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
        plan_fn fn = plan_fn_of_kw(o->kw); /* plan_table.c */
        if (!fn) {
            pl->why = "option not compiled yet";
            pl->why_opt = o;
            return 0;
        }
        pc.i = i;
        pc.o = o;
        pc.name = name;
        uint32_t nunits = pl->nunits;
        if (fn(&pc) < 0)
            return -1;
        if (pl->why) {
            pl->why_opt = o;
            return 0;
        }
        for (uint32_t u = nunits; u < pl->nunits; u++)
            pc.packet_only |= pl->units[u].u.ops->packet_only; /* dsize, header fields … */
    }
    /* Suricata inspects TCP payload rules on the reassembled stream; dsize and no_stream are
     * packet properties, and rules without payload options look at packets. */
    pl->kind = pl->proto == 6 && pl->nitems && !pc.packet_only && !pc.no_stream ? DK_STREAM
                                                                                 : DK_PKT;
    if (hp_stream_only && pl->kind != DK_STREAM) {
        pl->why = "a tcp-stream rule without payload options on the stream, or with "
                  "packet-only options";
        return 0;
    }
    pl->base = pl->kind;
    if (det_base_is_app(need.base)) {
        if (pc.packet_only || pc.no_stream) {
            pl->why = "packet-only options (dsize, header fields, flow:no_stream) in a rule on "
                      "application-layer buffers";
            return 0;
        }
        pl->kind = DK_APP;
        pl->base = need.base;
    }
    if (pc.ev_base != DB_PKT) {
        if ((pl->why = det_event_base_check(d, pc.ev_base, pl->nitems, need.base,
                                            pc.packet_only || pc.no_stream)))
            return 0;
        /* an application-layer event beside buffers: the rule stays under the buffers' event
         * and its event unit asks whether the transaction raised it */
        if (!(pc.ev_base == DB_APP_EVENT && det_base_is_app(need.base))) {
            pl->base = pc.ev_base;
            pl->kind = det_kind_of(pc.ev_base);
        }
    }
    if (pl->base == DB_PKT && d->parsers && pl->fw_table == FW_NONE && plan_pd_only(pl, r)) {
        pl->base = DB_APP_DETECTED; /* app-layer-protocol alone: where detection ends */
        pl->kind = det_kind_of(DB_APP_DETECTED);
    } else if (variant == PV_DETECTED) {
        pl->base = DB_APP_DETECTED; /* its units still read the packet (kind DK_PKT) */
    }
    /* Suricata inspects a TCP payload rule on the stream and on each packet's payload: offset
     * and depth count from the stream's start in one, from the payload's in the other. The
     * packet chain hangs under the stream's fast patterns too (one scan of the new bytes; a
     * retransmission, which brings none, is not inspected again), its units read the packet
     * that brought the data. */
    pl->also_packet = pl->kind == DK_STREAM && variant == PV_MAIN && !pc.only_stream;
    uint8_t unit_kind = pl->kind == DK_STREAM && variant == PV_PACKET ? DK_PKT : pl->kind;
    for (uint32_t u = 0; u < pl->nunits; u++) {
        pl->units[u].u.kind = unit_kind;
        pl->units[u].u.base = pl->base;
    }
    if (pl->kind == DK_APP)
        raw_units_last(pl);
    lua_units_last(pl);
    mark_or_absent(pl, pc.or_else, pc.nor_else);
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
