/* opt_events.c — engine events and protocol checks (Suricata).
 *
 *   app-layer-event:[!]PROTO.EVENT | applayer_*     decode-event:[LAYER.]EVENT
 *   stream-event:EVENT                              app-layer-protocol:[!]NAME[,final|…]
 *   app-layer-state:[<|>]STATE
 *   ipv4-csum, tcpv4-csum, tcpv6-csum, udpv4-csum, udpv6-csum, icmpv4-csum, icmpv6-csum,
 *   igmp-csum: valid|invalid
 */
#include <stdio.h>
#include <string.h>

#include "event_names.h"
#include "opt_eval.h"
#include "opt_pktprop.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

/* Event names: letters, digits, '_', '-' in '.'-separated parts. */
static int event_name(struct rule_ctx *c, const char *s, bool dotted)
{
    size_t n = strlen(s);
    if (n == 0)
        return opt_error(c, s, "missing event name");
    bool dot = false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '.') {
            if (i == 0 || i + 1 == n || s[i + 1] == '.')
                return opt_error(c, s + i, "empty part in event name");
            dot = true;
        } else if (!(is_alpha(ch) || is_digit(ch) || ch == '_' || ch == '-')) {
            return opt_error(c, s + i, "invalid character '%c' in event name", ch);
        }
    }
    if (dotted && !dot)
        return opt_error(c, s, "expected PROTOCOL.EVENT, got '%s'", s);
    return 0;
}

/* A well-formed name Osprey does not raise (event_names.c) is no syntax error: the rule is
 * refused whole as `unsupported option KEYWORD: event 'NAME' is not raised by Osprey`
 * (event_compile_check), like any option form detection cannot run. */
static int typed_event(struct rule_ctx *c, const char *p, int kind, bool negated)
{
    struct opt_event ev = {.kind = (uint8_t)kind, .negated = negated};
    bool raised = event_lookup(kind, p, &ev);
    struct opt_event *out = opt_arg_new(c, sizeof *out);
    if (!out)
        return -1;
    *out = ev;
    if (!(out->name = opt_strdup(c, p, strlen(p))))
        return -1;
    if (!raised) {
        static const char fmt[] = "event '%s' is not raised by Osprey";
        size_t n = sizeof fmt + strlen(p);
        char tmp[n];
        snprintf(tmp, n, fmt, p);
        if (!(out->not_raised = opt_strdup(c, tmp, strlen(tmp))))
            return -1;
    }
    return 0;
}

const char *event_compile_check(const void *arg)
{
    const struct opt_event *ev = arg;
    return ev->not_raised;
}

static int parse_app_layer_event(struct rule_ctx *c, char *val)
{
    const char *p = val;
    if (*p == '!')
        p++;
    /* Generic events (applayer_mismatch_protocol_both_directions) have no dot. */
    if (event_name(c, p, strncmp(p, "applayer_", 9) != 0) < 0)
        return -1;
    return typed_event(c, p, EV_APP, p != val);
}

static int parse_decode_event(struct rule_ctx *c, char *val)
{
    /* Mostly LAYER.EVENT; engine-wide events (too_many_layers) have no layer. */
    if (event_name(c, val, false) < 0)
        return -1;
    return typed_event(c, val, EV_DECODE, false);
}

static int parse_stream_event(struct rule_ctx *c, char *val)
{
    if (event_name(c, val, false) < 0)
        return -1;
    return typed_event(c, val, EV_STREAM, false);
}

/* Suricata 8's app-layer-state: a state name of the header's protocol (its rule hooks), with
 * '<' or '>' before it for a progress before or past the state. */
static int parse_app_layer_state(struct rule_ctx *c, char *val)
{
    char mode = *val == '<' || *val == '>' ? *val : 0;
    const char *p = mode ? val + 1 : val;
    if (event_name(c, p, false) < 0)
        return -1;
    struct opt_app_state *a = opt_arg_new(c, sizeof *a);
    if (!a)
        return -1;
    a->mode = mode;
    return (a->state = opt_strdup(c, p, strlen(p))) ? 0 : -1;
}

static const char *app_state_check(const void *arg)
{
    const struct opt_app_state *a = arg;
    return a->mode ? "app-layer-state with '<' or '>' (a transaction's progress before or past "
                     "a state)"
                   : NULL;
}

static int parse_app_layer_protocol(struct rule_ctx *c, char *val)
{
    static const char *const MODES[] = {"final", "original", "either", "to_server", "to_client",
                                        "direction", NULL};
    const char *p = val;
    if (*p == '!')
        p = skip_ws(p + 1, p + 1 + strlen(p + 1));
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(rtrim(p, comma) - p) : strlen(p);
    if (!is_name(p, n, NULL))
        return opt_error(c, p, "invalid protocol name '%.*s'", (int)n, p);
    if (comma) {
        const char *m = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
        if (parse_choice(c, m, strlen(m), MODES, "mode") < 0)
            return -1;
    }
    return 0;
}

/* valid|invalid: a packet property (opt_pktprop.h PP_CSUM; rules/compile/pkt_units.c reads
 * the decoder's verdict) on IP version ipver and protocol proto (0: the IPv4 header). */
static int parse_csum(struct rule_ctx *c, char *val, uint8_t ipver, uint8_t proto)
{
    static const char *const V[] = {"valid", "invalid", NULL};
    int k = parse_choice(c, val, strlen(val), V, "checksum state");
    if (k < 0)
        return -1;
    struct opt_pktprop *pp = opt_arg_new(c, sizeof *pp);
    if (!pp)
        return -1;
    *pp = (struct opt_pktprop){.kind = PP_CSUM, .dir = ipver, .layer = (int8_t)proto,
                               .cmp = {.op = CMP_EQ, .lo = k}};
    return 0;
}

#define CSUM_PARSER(fn, ipver, proto)                                                         \
    static int fn(struct rule_ctx *c, char *val)                                              \
    {                                                                                         \
        return parse_csum(c, val, ipver, proto);                                              \
    }
CSUM_PARSER(parse_ipv4_csum, 4, 0)
CSUM_PARSER(parse_tcpv4_csum, 4, 6)
CSUM_PARSER(parse_tcpv6_csum, 6, 6)
CSUM_PARSER(parse_udpv4_csum, 4, 17)
CSUM_PARSER(parse_udpv6_csum, 6, 17)
CSUM_PARSER(parse_icmpv4_csum, 4, 1)
CSUM_PARSER(parse_icmpv6_csum, 6, 58)
CSUM_PARSER(parse_igmp_csum, 4, 2)

#define CSUM(name, fn, impl) {name, OPT_MATCH, D_SURI, ARG_REQUIRED, 0, fn, impl, NULL}

static const struct opt_def DEFS[] = {
    {"app-layer-event", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_app_layer_event, true,
     event_compile_check},
    {"decode-event", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_decode_event, true,
     event_compile_check},
    {"stream-event", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_stream_event, true,
     event_compile_check},
    {"app-layer-protocol", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_app_layer_protocol, true,
     NULL},
    {"app-layer-state", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_app_layer_state, true,
     app_state_check},
    CSUM("ipv4-csum", parse_ipv4_csum, true),
    CSUM("tcpv4-csum", parse_tcpv4_csum, true),
    CSUM("tcpv6-csum", parse_tcpv6_csum, true),
    CSUM("udpv4-csum", parse_udpv4_csum, true),
    CSUM("udpv6-csum", parse_udpv6_csum, true),
    CSUM("icmpv4-csum", parse_icmpv4_csum, true),
    CSUM("icmpv6-csum", parse_icmpv6_csum, true),
    /* libmon does not check IGMP checksums: unsupported */
    CSUM("igmp-csum", parse_igmp_csum, false),
};
OPT_TABLE(opt_table_events, DEFS);
