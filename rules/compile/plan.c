/* plan.c — see plan.h. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "opt_eval.h"
#include "registry.h"
#include "ruleset.h"

static uint8_t proto_of(const char *p, bool *ok)
{
    *ok = true;
    if (!strcmp(p, "tcp"))
        return 6;
    if (!strcmp(p, "udp"))
        return 17;
    if (!strcmp(p, "icmp"))
        return 1;
    if (!strcmp(p, "ip"))
        return 0;
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

static const char *const META[] = {"msg", "sid", "gid", "rev", "classtype", "priority",
                                   "reference", "metadata", "target", NULL};

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
    else if (pi->type == PI_PCRE)
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

/* Split a rule into units; decide base and fast pattern. plan->units/items/bits are
 * malloc'd. */
int make_plan(struct osprey_detect *d, const struct osprey_rule *r, struct plan *pl)
{
    memset(pl, 0, sizeof *pl);
    bool ok;
    pl->proto = proto_of(r->proto, &ok);
    if (!ok) {
        pl->why = "not supported yet";
        return 0;
    }
    pl->units = calloc(r->nopts + 1, sizeof *pl->units);
    pl->items = calloc(r->nopts + 1, sizeof *pl->items);
    pl->bits = calloc(r->nopts + 1, sizeof *pl->bits);
    if (!pl->units || !pl->items || !pl->bits)
        return -1;
    bool dsize = false, no_stream = false; /* dsize: any packet-only option */
    /* A rule with byte variables keeps all its payload options in one run: a variable's
     * definition is then evaluated before its uses, and again when the run backtracks. */
    const char *vnames[BYTE_MAX_VARS];
    uint32_t nvars = 0;
    bool has_vars = false;
    for (uint32_t i = 0; i < r->nopts; i++) {
        const char *kw = opt_def_by_id(r->opts[i].kw)->name;
        has_vars |= !strcmp(kw, "byte_extract") || !strcmp(kw, "byte_math");
    }
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct osprey_rule_option *o = &r->opts[i];
        const struct opt_def *def = opt_def_by_id(o->kw);
        const char *name = def->name;
        if (is_meta(name))
            continue;
        if (def->kind == OPT_MODIFIER) {
            if (pl->nunits)
                pl->units[pl->nunits - 1].last_opt = i; /* folded into its content */
            continue;
        }
        struct unit_plan *up = &pl->units[pl->nunits];
        up->first_opt = up->last_opt = i;
        struct det_pitem pi = {0};
        if (!strcmp(name, "content")) {
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
        } else if (!strncmp(name, "byte_", 5)) { /* byte_test, _jump, _extract, _math */
            const struct opt_byte *b = o->arg;
            pl->why = byte_compile_check(b);
            uint8_t t = name[5] == 't' ? PI_BYTE_TEST : name[5] == 'j' ? PI_BYTE_JUMP
                      : name[5] == 'e' ? PI_BYTE_EXTRACT : PI_BYTE_MATH;
            pi = (struct det_pitem){.type = t, .relative = (b->flags & BYTE_RELATIVE) != 0,
                                    .arg = b};
        }
        if (!pl->why && pi.arg)
            pl->why = bind_vars(&pi, vnames, &nvars);
        if (pl->why) {
            pl->why_opt = o;
            return 0;
        }
        if (pi.arg) {
            /* a relative option joins the run of the payload options before it (wherever
             * that run sits among the match options: order between units does not matter) */
            struct unit_plan *last = NULL;
            for (uint32_t u = pl->nunits; u > 0 && !last; u--)
                if (pl->units[u - 1].u.type == DU_PAYLOAD)
                    last = &pl->units[u - 1];
            pl->items[pl->nitems] = pi;
            if ((pi.relative || has_vars) && last &&
                last->u.items + last->u.n == &pl->items[pl->nitems]) {
                last->u.n++;
                last->last_opt = i;
            } else {
                up->u = (struct det_unit){.type = DU_PAYLOAD, .n = 1,
                                          .items = &pl->items[pl->nitems]};
                pl->nunits++;
            }
            pl->nitems++;
        } else if (!strcmp(name, "flow")) {
            const struct opt_flow *f = o->arg;
            if ((pl->why = flow_compile_check(f))) {
                pl->why_opt = o;
                return 0;
            }
            no_stream |= (f->flags & (FLOW_NO_STREAM | FLOW_ONLY_FRAG | FLOW_NO_FRAG)) != 0;
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
            if ((pl->why = flowbits_compile_check(b))) {
                pl->why_opt = o;
                return 0;
            }
            if (b->op == BITS_NOALERT) {
                pl->noalert = true;
                continue;
            }
            uint32_t *ids;
            if (bit_ids(d, b, &ids) < 0)
                return -1;
            if (b->op == BITS_ISSET || b->op == BITS_ISNOTSET) {
                up->u = (struct det_unit){.type = DU_FLOWBITS, .bits = b, .bit_ids = ids};
                pl->nunits++;
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
        } else if (!strcmp(name, "ip_proto") || !strcmp(name, "sameip")) {
            dsize = true;
            up->u = (struct det_unit){.type = name[0] == 'i' ? DU_IPPROTO : DU_SAMEIP};
            if (name[0] == 'i')
                ipproto_compile(o->value, &up->u.ipp);
            pl->nunits++;
        } else if (!strcmp(name, "flags")) {
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
    for (uint32_t u = 0; u < pl->nunits; u++)
        pl->units[u].u.kind = pl->kind;
    /* Fast pattern: the one marked, else the longest positive content (first on a tie). */
    uint32_t best = 0;
    for (uint32_t i = 0; i < pl->nitems; i++) {
        if (pl->items[i].type != PI_CONTENT)
            continue;
        const struct opt_content *ct = pl->items[i].arg;
        if (ct->negated)
            continue;
        const uint8_t *p;
        uint32_t n;
        content_fast_bytes(ct, &p, &n);
        if (ct->fast_pattern) {
            pl->fp = ct;
            break;
        }
        if (n > best) {
            best = n;
            pl->fp = ct;
        }
    }
    return 0;
}

