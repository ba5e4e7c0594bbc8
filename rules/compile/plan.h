/* plan.h — one rule's compile plan: its base (packet or stream), its options grouped into
 * units in rule order, its fast pattern, byte variables, flowbits and thresholds. */
#ifndef OSPREY_DETECT_PLAN_H
#define OSPREY_DETECT_PLAN_H

#include "detect_int.h"

/* One unit of a rule being compiled, with the option indexes it covers (for its label). */
struct unit_plan {
    struct det_unit u;
    uint32_t first_opt, last_opt;
};

struct plan {
    const char *why;               /* not compiled: this */
    const struct osprey_rule_option *why_opt;
    uint8_t kind, proto;
    uint16_t base;
    uint16_t app;                  /* application protocol of the header (0: none) */
    const struct opt_content *fp;  /* fast pattern, NULL = none */
    uint16_t fp_ob;                /* DK_APP: the fast pattern's buffer and transforms */
    const struct det_xform *fp_xf;
    struct unit_plan *units;
    uint32_t nunits;
    struct det_pitem *items;       /* all payload options, in order (units point into it) */
    uint32_t nitems;
    const struct opt_threshold *thr[2];
    struct det_bits_action *bits;  /* flowbits actions */
    uint32_t nbits;
    struct det_bits_action *conds; /* flowbits isset / isnotset */
    uint32_t nconds;
    struct det_bits_action *xbits; /* xbits, in rule order */
    uint32_t nxbits;
    struct det_flowint *ints;      /* flowint, in rule order */
    uint32_t nints;
    bool noalert;
    bool two_sided;                /* no direction, a buffer with a response side: the
                                      rule is compiled again as PV_RESPONSE */
    bool also_packet;              /* a TCP stream rule: compiled again as PV_PACKET */
};

/* Which of a rule's chains a plan is for. A rule has one chain, or two: a TCP payload rule
 * inspects the reassembled stream and each packet's payload (PV_PACKET); an application rule
 * that names no direction inspects its two-sided buffers in the request and the response
 * (PV_RESPONSE). */
enum plan_variant { PV_MAIN, PV_RESPONSE, PV_PACKET };

/* Split a rule into units; decide base and fast pattern. plan->units/items/bits/conds
 * are malloc'd. variant: which of the rule's chains. Returns -1 on allocation failure; a rule
 * that cannot be compiled has pl->why. */
int make_plan(struct osprey_detect *d, const struct osprey_rule *r, enum plan_variant variant,
              struct plan *pl);
/* Release what make_plan allocated (whatever it returned). */
void plan_free(struct plan *pl);

#endif
