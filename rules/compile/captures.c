/* captures.c — pcre captures into variables, as Suricata's: a named group `(?P<flow_x>…)`,
 * `(?P<pkt_x>…)`, `(?P<alert_x>…)`, or the list after the regex (`, flow:x, pkt:y, alert:z`,
 * groups 1, 2, 3 … in order). A match records its groups (per packet, per pcre item); when
 * the rule commits they become the flow's variables (kept until the flow ends, logged with
 * every later alert of the flow), the packet's (logged with the packet's alerts) or the
 * alert's own context. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

/* A set of named values (a flow's or a packet's variables): names and values owned. */
struct det_vars {
    uint32_t n, cap;
    struct det_var {
        char *name;
        uint8_t *val;
        uint32_t len;
    } *v;
};

/* What one pcre item captured in its last successful match of this packet. */
struct det_caprec {
    const struct det_pitem *pi;
    uint8_t *val[DET_MAX_CAPS];
    uint32_t len[DET_MAX_CAPS];
    bool set[DET_MAX_CAPS];
};

struct det_caps {
    struct det_caprec *rec;
    uint32_t nrec, cap_rec;
    struct det_vars pkt;   /* the packet's variables */
    void **snaps;          /* the alerts' variable arrays of this packet */
    uint32_t nsnaps, cap_snaps;
};

static bool spec_add(struct det_capspec *s, uint32_t group, const char *scope, size_t sl,
                     const char *name, size_t nl, struct osprey_detect *d)
{
    static const char *const SC[] = {[OSPREY_VAR_FLOW] = "flow", [OSPREY_VAR_PKT] = "pkt",
                                     [OSPREY_VAR_ALERT] = "alert"};
    int k = -1;
    for (int i = 0; i < 3; i++)
        if (strlen(SC[i]) == sl && !memcmp(SC[i], scope, sl))
            k = i;
    if (k < 0 || !nl || s->n == DET_MAX_CAPS || group > 255)
        return true; /* not a variable group (or beyond the spec's room): not captured */
    char *nm = malloc(nl + 1);
    if (!nm || det_own(d, nm) < 0) {
        free(nm);
        return false;
    }
    memcpy(nm, name, nl);
    nm[nl] = 0;
    s->c[s->n].group = (uint8_t)group;
    s->c[s->n].scope = (uint8_t)k;
    s->c[s->n].name = nm;
    s->n++;
    return true;
}

int det_capspec_build(struct osprey_detect *d, struct det_pitem *pi)
{
    const struct opt_pcre *pc = pi->arg;
    struct det_capspec s = {0};
    /* the named groups: flow_NAME, pkt_NAME, alert_NAME */
    uint32_t count = 0, esize = 0;
    PCRE2_SPTR table = NULL;
    const pcre2_code *code = pcre_code_pcre2(pi->code);
    if (pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count) == 0 && count &&
        pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &esize) == 0 &&
        pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table) == 0) {
        for (uint32_t i = 0; i < count; i++) {
            const uint8_t *e = table + (size_t)i * esize;
            uint32_t group = (uint32_t)e[0] << 8 | e[1];
            const char *nm = (const char *)e + 2, *us = strchr(nm, '_');
            if (us && !spec_add(&s, group, nm, (size_t)(us - nm), us + 1, strlen(us + 1), d))
                return -1;
        }
    }
    /* the list after the regex: groups 1, 2 … in order */
    uint32_t group = 1;
    for (const char *p = pc->capture; p && *p; group++) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *e = p;
        while (*e && *e != ',')
            e++;
        const char *colon = memchr(p, ':', (size_t)(e - p));
        const char *ne = e;
        while (ne > p && (ne[-1] == ' ' || ne[-1] == '\t'))
            ne--;
        if (colon && !spec_add(&s, group, p, (size_t)(colon - p), colon + 1,
                               (size_t)(ne - colon - 1), d))
            return -1;
        p = e;
    }
    if (!s.n)
        return 0;
    struct det_capspec *c = malloc(sizeof *c);
    if (!c || det_own(d, c) < 0) {
        free(c);
        return -1;
    }
    *c = s;
    pi->cap = c;
    d->has_caps = true;
    return 0;
}

static struct det_caps *caps_get(struct det_caps **caps)
{
    if (!*caps)
        *caps = calloc(1, sizeof **caps);
    return *caps;
}

static void rec_clear(struct det_caprec *r)
{
    for (int k = 0; k < DET_MAX_CAPS; k++) {
        free(r->val[k]);
        r->val[k] = NULL;
        r->set[k] = false;
    }
}

void det_caps_record(struct det_caps **capsp, const struct det_pitem *pi, const uint8_t *subj,
                     const size_t *ov, uint32_t nov)
{
    struct det_caps *caps = caps_get(capsp);
    if (!caps)
        return; /* out of memory: the variables are not set */
    struct det_caprec *r = NULL;
    for (uint32_t i = 0; i < caps->nrec && !r; i++)
        if (caps->rec[i].pi == pi)
            r = &caps->rec[i];
    if (!r) {
        if (caps->nrec == caps->cap_rec) {
            uint32_t cap = caps->cap_rec ? 2 * caps->cap_rec : 8;
            struct det_caprec *n = realloc(caps->rec, cap * sizeof *n);
            if (!n)
                return;
            caps->rec = n;
            caps->cap_rec = cap;
        }
        r = &caps->rec[caps->nrec++];
        memset(r, 0, sizeof *r);
        r->pi = pi;
    }
    rec_clear(r);
    for (uint32_t k = 0; k < pi->cap->n; k++) {
        uint32_t g = pi->cap->c[k].group;
        if (g >= nov || ov[2 * g] == PCRE2_UNSET || ov[2 * g + 1] < ov[2 * g])
            continue; /* the group took no part in the match */
        uint32_t len = (uint32_t)(ov[2 * g + 1] - ov[2 * g]);
        if (!(r->val[k] = malloc(len ? len : 1)))
            continue;
        memcpy(r->val[k], subj + ov[2 * g], len);
        r->len[k] = len;
        r->set[k] = true;
    }
}

/* Set name to val in vs (a new value replaces the old). false: out of memory. */
static bool vars_set(struct det_vars *vs, const char *name, const uint8_t *val, uint32_t len)
{
    struct det_var *v = NULL;
    for (uint32_t i = 0; i < vs->n && !v; i++)
        if (!strcmp(vs->v[i].name, name))
            v = &vs->v[i];
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return false;
    memcpy(copy, val, len);
    if (!v) {
        if (vs->n == vs->cap) {
            uint32_t cap = vs->cap ? 2 * vs->cap : 4;
            struct det_var *n = realloc(vs->v, cap * sizeof *n);
            if (!n) {
                free(copy);
                return false;
            }
            vs->v = n;
            vs->cap = cap;
        }
        char *nm = strdup(name);
        if (!nm) {
            free(copy);
            return false;
        }
        v = &vs->v[vs->n++];
        *v = (struct det_var){nm, NULL, 0};
    }
    free(v->val);
    v->val = copy;
    v->len = len;
    return true;
}

const uint8_t *det_flowvar_get(struct det_flow *df, const char *name, uint32_t *len)
{
    *len = 0;
    for (uint32_t i = 0; df->vars && i < df->vars->n; i++)
        if (!strcmp(df->vars->v[i].name, name)) {
            *len = df->vars->v[i].len;
            return df->vars->v[i].val;
        }
    return NULL;
}

bool det_flowvar_set(struct det_flow *df, const char *name, const uint8_t *v, uint32_t len)
{
    if (!df->vars && !(df->vars = calloc(1, sizeof *df->vars)))
        return false;
    return vars_set(df->vars, name, v, len);
}

void det_vars_free(struct det_vars *v)
{
    if (!v)
        return;
    for (uint32_t i = 0; i < v->n; i++) {
        free(v->v[i].name);
        free(v->v[i].val);
    }
    free(v->v);
    free(v);
}

/* The snapshot of an alert's variables: one block (the array, then the names and values),
 * freed at the packet's end. */
struct snap_in {
    uint8_t scope;
    const char *name;
    const uint8_t *val;
    uint32_t len;
};

static const struct osprey_detect_var *snapshot(struct det_caps *caps, const struct snap_in *in,
                                                uint32_t n)
{
    size_t bytes = n * sizeof(struct osprey_detect_var);
    for (uint32_t i = 0; i < n; i++)
        bytes += strlen(in[i].name) + 1 + in[i].len;
    if (caps->nsnaps == caps->cap_snaps) {
        uint32_t cap = caps->cap_snaps ? 2 * caps->cap_snaps : 8;
        void **s = realloc(caps->snaps, cap * sizeof *s);
        if (!s)
            return NULL;
        caps->snaps = s;
        caps->cap_snaps = cap;
    }
    struct osprey_detect_var *out = malloc(bytes);
    if (!out)
        return NULL;
    caps->snaps[caps->nsnaps++] = out;
    char *p = (char *)(out + n);
    for (uint32_t i = 0; i < n; i++) {
        size_t nl = strlen(in[i].name) + 1;
        memcpy(p, in[i].name, nl);
        out[i].scope = in[i].scope;
        out[i].name = p;
        p += nl;
        memcpy(p, in[i].val, in[i].len);
        out[i].value = (const uint8_t *)p;
        out[i].len = in[i].len;
        p += in[i].len;
    }
    return out;
}

const struct osprey_detect_var *det_caps_apply(struct osprey_detect_worker *w,
                                               const struct det_rule *dr, struct det_flow *df,
                                               uint32_t *n)
{
    *n = 0;
    struct det_caps *caps = caps_get(&w->caps);
    if (!caps)
        return NULL;
    enum { MAX_ALERT = DET_MAX_CAP_UNITS * DET_MAX_CAPS };
    struct snap_in mine[MAX_ALERT];
    uint32_t nmine = 0;
    for (uint32_t u = 0; u < dr->ncapu; u++)
        for (uint32_t i = 0; i < dr->capu[u]->n; i++) {
            const struct det_pitem *pi = &dr->capu[u]->items[i];
            const struct det_caprec *r = NULL;
            for (uint32_t j = 0; pi->cap && j < caps->nrec && !r; j++)
                if (caps->rec[j].pi == pi)
                    r = &caps->rec[j];
            for (uint32_t k = 0; r && k < pi->cap->n; k++) {
                if (!r->set[k])
                    continue;
                const char *name = pi->cap->c[k].name;
                switch (pi->cap->c[k].scope) {
                case OSPREY_VAR_FLOW:
                    if (df && (df->vars || (df->vars = calloc(1, sizeof *df->vars))))
                        vars_set(df->vars, name, r->val[k], r->len[k]);
                    break;
                case OSPREY_VAR_PKT:
                    vars_set(&caps->pkt, name, r->val[k], r->len[k]);
                    break;
                default:
                    if (nmine < MAX_ALERT)
                        mine[nmine++] = (struct snap_in){OSPREY_VAR_ALERT, name, r->val[k],
                                                         r->len[k]};
                }
            }
        }
    uint32_t nflow = df && df->vars ? df->vars->n : 0, total = nflow + caps->pkt.n + nmine;
    if (!total)
        return NULL;
    struct snap_in *in = malloc(total * sizeof *in);
    if (!in)
        return NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < nflow; i++)
        in[k++] = (struct snap_in){OSPREY_VAR_FLOW, df->vars->v[i].name, df->vars->v[i].val,
                                   df->vars->v[i].len};
    for (uint32_t i = 0; i < caps->pkt.n; i++)
        in[k++] = (struct snap_in){OSPREY_VAR_PKT, caps->pkt.v[i].name, caps->pkt.v[i].val,
                                   caps->pkt.v[i].len};
    for (uint32_t i = 0; i < nmine; i++)
        in[k++] = mine[i];
    const struct osprey_detect_var *out = snapshot(caps, in, total);
    free(in);
    if (out)
        *n = total;
    return out;
}

static void caps_reset(struct det_caps *caps)
{
    for (uint32_t i = 0; i < caps->nrec; i++)
        rec_clear(&caps->rec[i]);
    caps->nrec = 0;
    for (uint32_t i = 0; i < caps->pkt.n; i++) {
        free(caps->pkt.v[i].name);
        free(caps->pkt.v[i].val);
    }
    caps->pkt.n = 0;
    for (uint32_t i = 0; i < caps->nsnaps; i++)
        free(caps->snaps[i]);
    caps->nsnaps = 0;
}

void det_caps_packet_end(struct osprey_detect_worker *w)
{
    if (w->caps)
        caps_reset(w->caps);
}

void det_caps_free(struct det_caps *caps)
{
    if (!caps)
        return;
    caps_reset(caps);
    free(caps->rec);
    free(caps->pkt.v);
    free(caps->snaps);
    free(caps);
}
