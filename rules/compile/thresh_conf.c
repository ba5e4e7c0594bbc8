/* thresh_conf.c — threshold.config applied to the compiled rules, Suricata's way:
 *   threshold / event_filter gen_id G, sig_id S, … replace the rule's own threshold;
 *   suppress gen_id G, sig_id S [, track by_src|by_dst|by_either, ip LIST] stops its alerts
 *   (for those addresses only, with ip); sig_id 0 means every rule of the gid, and gen_id 0
 *   with sig_id 0 every rule;
 *   rate_filter gen_id G, sig_id S, track T, count C, seconds S, new_action A, timeout T
 *   changes the rule's action for T seconds once it matched more than C times in S seconds
 *   (threshold.c). */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"
#include "osprey_cidr.h"
#include "ruleset.h"

static bool applies(const struct thr_entry *e, const struct osprey_rule *r)
{
    if (e->gid == 0 && e->sid == 0)
        return true;
    return e->gid == r->gid && (e->sid == 0 || e->sid == r->sid);
}

/* One address or CIDR of an ip list. */
static bool parse_net(const char *s, size_t n, struct det_suppress *out)
{
    struct osprey_cidr c;
    if (osprey_cidr_parse(s, n, 0, &c) != 0)
        return false;
    out->ipver = c.ipver;
    out->prefix = c.prefix;
    memcpy(out->net, c.addr, sizeof out->net);
    return true;
}

static int add_suppress(struct det_rule *dr, const struct thr_entry *e, FILE *diag)
{
    const char *p = e->ip;
    while (*p) {
        while (*p == '[' || *p == ']' || *p == ',' || *p == ' ')
            p++;
        size_t n = strcspn(p, ",] ");
        if (n == 0)
            break;
        struct det_suppress s = {e->track, 0, 0, {0}};
        if (!parse_net(p, n, &s)) {
            if (diag)
                fprintf(diag, "%s:%u: suppress: ip '%.*s' not applied (addresses and CIDRs "
                              "only)\n", e->file, e->line, (int)n, p);
        } else {
            struct det_suppress *v = realloc(dr->sup, (dr->nsup + 1) * sizeof *v);
            if (!v)
                return -1;
            dr->sup = v;
            dr->sup[dr->nsup++] = s;
        }
        p += n;
    }
    return 0;
}

static int add_rate(struct osprey_detect *d, const struct thr_entry *e, FILE *diag)
{
    static const struct {
        const char *w;
        enum osprey_rule_action a;
    } A[] = {{"alert", OSPREY_ACTION_ALERT}, {"drop", OSPREY_ACTION_DROP},
             {"pass", OSPREY_ACTION_PASS},   {"log", OSPREY_ACTION_LOG},
             {"sdrop", OSPREY_ACTION_SDROP}, {"reject", OSPREY_ACTION_REJECT}};
    size_t k = 0;
    while (k < sizeof A / sizeof A[0] && strcmp(A[k].w, e->new_action ? e->new_action : ""))
        k++;
    if (k == sizeof A / sizeof A[0]) {
        if (diag)
            fprintf(diag, "%s:%u: rate_filter: new_action '%s' not applied\n", e->file, e->line,
                    e->new_action ? e->new_action : "");
        return 0;
    }
    struct det_rate *r = calloc(1, sizeof *r);
    if (!r || det_own(d, r) < 0)
        return -1;
    *r = (struct det_rate){e->track, e->count, e->seconds, e->timeout, A[k].a};
    for (uint32_t i = 0; i < d->nrules; i++)
        if (applies(e, d->rules[i].rule)) {
            d->rules[i].rate = r;
            d->has_thresholds = true; /* the state lives in the threshold table */
            d->hold_alerts |= r->new_action == OSPREY_ACTION_PASS; /* held.c */
        }
    return 0;
}

int det_threshold_config(struct osprey_detect *d, FILE *diag)
{
    const struct osprey_ruleset *rs = d->rs;
    for (uint32_t t = 0; t < rs->nthr; t++) {
        const struct thr_entry *e = &rs->thr[t];
        if (e->kind == TC_RATE_FILTER) {
            if (add_rate(d, e, diag) < 0)
                return -1;
            continue;
        }
        struct opt_threshold *th = NULL;
        if (e->kind == TC_THRESHOLD || e->kind == TC_EVENT_FILTER) {
            th = calloc(1, sizeof *th);
            if (!th)
                return -1;
            *th = (struct opt_threshold){e->type, e->track, e->count, e->seconds, 0};
            if (det_own(d, th) < 0)
                return -1;
        }
        for (uint32_t i = 0; i < d->nrules; i++) {
            struct det_rule *dr = &d->rules[i];
            if (!applies(e, dr->rule))
                continue;
            if (th) {
                dr->thr[0] = th;
                d->has_thresholds = true;
            } else if (e->track == 0xff) {
                dr->suppressed = true;
            } else if (add_suppress(dr, e, diag) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static bool in_net(const struct det_suppress *s, const struct mon_addr *a, uint8_t ipver)
{
    if (s->ipver != ipver)
        return false;
    uint8_t full = s->prefix / 8, rest = s->prefix % 8;
    if (memcmp(s->net, a->b, full))
        return false;
    if (!rest)
        return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (s->net[full] & mask) == (a->b[full] & mask);
}

bool det_suppressed(const struct det_rule *dr, const struct mon_packet *p)
{
    if (dr->suppressed)
        return true;
    for (uint32_t i = 0; i < dr->nsup; i++) {
        const struct det_suppress *s = &dr->sup[i];
        if ((s->track != 1 && in_net(s, &p->src, p->ipver)) ||
            (s->track != 0 && in_net(s, &p->dst, p->ipver)))
            return true;
    }
    return false;
}
