/* opt_pktprop.c — packet and flow property keywords of Suricata 7/8: tcp.mss, tcp.wscale,
 * icmpv6.mtu, vlan.id, vlan.layers, flow.pkts, flow.bytes, flow.age (grammar in
 * opt_pktprop.h). */
#include "opt_pktprop.h"

#include <string.h>

#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* Suricata's unsigned comparison: parse_cmp's forms, where A-B (like A<>B) excludes both
 * ends and must hold a value; !A-B and !A<>B are the values outside. A<=>B is not Suricata's. */
static int uint_cmp(struct rule_ctx *c, const char *s, size_t n, int64_t max,
                    struct opt_cmp *out)
{
    for (size_t i = 0; i + 2 < n; i++)
        if (!memcmp(s + i, "<=>", 3))
            return opt_error(c, s + i, "'<=>' is not a Suricata range (A-B or A<>B)");
    const char *p = skip_ws(s, s + n);
    bool outside = p < s + n && *p == '!' && (memchr(p, '-', (size_t)(s + n - p)) ||
                                              memchr(p, '>', (size_t)(s + n - p)));
    if (outside)
        p++;
    if (parse_cmp(c, p, (size_t)(s + n - p), 0, max, CMP_DASH, out) < 0)
        return -1;
    if (out->op == CMP_RANGE_INCL) {
        if (out->hi - out->lo < 2)
            return opt_error(c, s, "range %.*s holds no value (both ends are excluded)",
                             (int)n, s);
        out->op = CMP_RANGE;
    }
    if (outside) {
        if (out->op != CMP_RANGE)
            return opt_error(c, s, "'!' before a range only");
        out->op = CMP_OUTSIDE;
    }
    return 0;
}

static struct opt_pktprop *new_prop(struct rule_ctx *c, uint8_t kind)
{
    struct opt_pktprop *pp = opt_arg_new(c, sizeof *pp);
    if (pp) {
        pp->kind = kind;
        pp->layer = PP_LAYER_ANY;
    }
    return pp;
}

static int plain(struct rule_ctx *c, char *val, uint8_t kind, int64_t max)
{
    struct opt_pktprop *pp = new_prop(c, kind);
    return pp ? uint_cmp(c, val, strlen(val), max, &pp->cmp) : -1;
}

static int parse_tcp_mss(struct rule_ctx *c, char *val)
{
    return plain(c, val, PP_TCP_MSS, 65535);
}

static int parse_tcp_wscale(struct rule_ctx *c, char *val)
{
    return plain(c, val, PP_TCP_WSCALE, 255);
}

static int parse_icmpv6_mtu(struct rule_ctx *c, char *val)
{
    return plain(c, val, PP_ICMPV6_MTU, UINT32_MAX);
}

static int parse_vlan_layers(struct rule_ctx *c, char *val)
{
    return plain(c, val, PP_VLAN_LAYERS, 255);
}

static int parse_flow_age(struct rule_ctx *c, char *val)
{
    return plain(c, val, PP_FLOW_AGE, UINT32_MAX);
}

/* vlan.id:CMP[,LAYER] */
static int parse_vlan_id(struct rule_ctx *c, char *val)
{
    struct opt_pktprop *pp = new_prop(c, PP_VLAN_ID);
    if (!pp)
        return -1;
    const char *f[2];
    size_t fl[2];
    int k = list_split(val, strlen(val), ',', f, fl, 2);
    if (k < 1 || k > 2)
        return opt_error(c, val, "expected 'COMPARISON[,LAYER|all|any]'");
    if (uint_cmp(c, f[0], fl[0], 4095, &pp->cmp) < 0)
        return -1;
    if (k == 2) {
        if (slice_eq(f[1], fl[1], "all")) {
            pp->layer = PP_LAYER_ALL;
        } else if (slice_eq(f[1], fl[1], "any")) {
            pp->layer = PP_LAYER_ANY;
        } else {
            bool neg = fl[1] && f[1][0] == '-';
            int64_t v;
            if (parse_num(c, f[1] + neg, fl[1] - neg, neg ? 1 : 0, neg ? 3 : 2, false, &v,
                          "layer") < 0)
                return -1;
            pp->layer = (int8_t)(neg ? -v : v);
        }
    }
    return 0;
}

/* flow.pkts / flow.bytes: DIRECTION,CMP */
static int dir_cmp(struct rule_ctx *c, char *val, uint8_t kind, int64_t max)
{
    static const char *const DIRS[] = {"toserver", "toclient", "either", NULL};
    struct opt_pktprop *pp = new_prop(c, kind);
    if (!pp)
        return -1;
    const char *f[2];
    size_t fl[2];
    if (list_split(val, strlen(val), ',', f, fl, 2) != 2)
        return opt_error(c, val, "expected 'toserver|toclient|either,COMPARISON'");
    int d = parse_choice(c, f[0], fl[0], DIRS, "direction");
    if (d < 0)
        return -1;
    pp->dir = (uint8_t)(d + PP_DIR_TOSERVER);
    return uint_cmp(c, f[1], fl[1], max, &pp->cmp);
}

static int parse_flow_pkts(struct rule_ctx *c, char *val)
{
    return dir_cmp(c, val, PP_FLOW_PKTS, UINT32_MAX);
}

static int parse_flow_bytes(struct rule_ctx *c, char *val)
{
    return dir_cmp(c, val, PP_FLOW_BYTES, INT64_MAX);
}

/* the older spellings name the direction in the keyword */
static int one_dir(struct rule_ctx *c, char *val, uint8_t kind, uint8_t dir, int64_t max)
{
    struct opt_pktprop *pp = new_prop(c, kind);
    if (!pp)
        return -1;
    pp->dir = dir;
    return uint_cmp(c, val, strlen(val), max, &pp->cmp);
}

static int parse_pkts_toserver(struct rule_ctx *c, char *val)
{
    return one_dir(c, val, PP_FLOW_PKTS, PP_DIR_TOSERVER, UINT32_MAX);
}

static int parse_pkts_toclient(struct rule_ctx *c, char *val)
{
    return one_dir(c, val, PP_FLOW_PKTS, PP_DIR_TOCLIENT, UINT32_MAX);
}

static int parse_bytes_toserver(struct rule_ctx *c, char *val)
{
    return one_dir(c, val, PP_FLOW_BYTES, PP_DIR_TOSERVER, INT64_MAX);
}

static int parse_bytes_toclient(struct rule_ctx *c, char *val)
{
    return one_dir(c, val, PP_FLOW_BYTES, PP_DIR_TOCLIENT, INT64_MAX);
}

static const struct opt_def DEFS[] = {
    {"tcp.mss", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_tcp_mss, true, NULL},
    {"tcp.wscale", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_tcp_wscale, true, NULL},
    {"icmpv6.mtu", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_icmpv6_mtu, true, NULL},
    {"vlan.id", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_vlan_id, true, NULL},
    {"vlan.layers", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_vlan_layers, true, NULL},
    {"flow.pkts", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_flow_pkts, true, NULL},
    {"flow.bytes", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_flow_bytes, true, NULL},
    {"flow.age", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_flow_age, true, NULL},
    {"flow.pkts_toserver", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_pkts_toserver, true, NULL},
    {"flow.pkts_toclient", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_pkts_toclient, true, NULL},
    {"flow.bytes_toserver", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_bytes_toserver, true, NULL},
    {"flow.bytes_toclient", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_bytes_toclient, true, NULL},
    /* Suricata: use the rule's non-content keyword (vlan.id, flow.pkts …) as its prefilter; an
     * engine hint that changes no match */
    {"prefilter", OPT_META, D_SURI, ARG_NONE, 0, NULL, true, NULL},
};
OPT_TABLE(opt_table_pktprop, DEFS);

bool pktprop_keyword(const char *keyword)
{
    for (size_t i = 0; i < sizeof DEFS / sizeof DEFS[0]; i++)
        if (DEFS[i].kind == OPT_MATCH && !strcmp(DEFS[i].name, keyword))
            return true;
    return false;
}

/* Suricata: without a layer, any id may match; with "all", every one must; with a layer, the
 * id at that depth (from the outermost, or from the innermost when negative) must exist and
 * match. */
bool pktprop_vlan_match(const struct opt_pktprop *pp, const uint16_t *ids, unsigned n)
{
    if (n == 0)
        return false;
    if (pp->layer == PP_LAYER_ANY || pp->layer == PP_LAYER_ALL) {
        bool all = pp->layer == PP_LAYER_ALL;
        for (unsigned i = 0; i < n; i++)
            if (cmp_match(&pp->cmp, ids[i]) != all)
                return !all;
        return all;
    }
    int at = pp->layer >= 0 ? pp->layer : (int)n + pp->layer;
    return at >= 0 && at < (int)n && cmp_match(&pp->cmp, ids[at]);
}
