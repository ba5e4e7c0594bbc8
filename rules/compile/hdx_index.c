/* hdx_index.c — which headers of a header dispatcher (the rules without a fast pattern) a flow
 * direction matches, without trying them all.
 *
 * The dispatcher works this out once per flow direction (filters.c), but with ET Open that
 * was 1,281 headers per flow direction, most of them reputation rules (`alert ip [a list of
 * 100 hosts] any -> $HOME_NET any`) whose address lists each cost a search. Headers that
 * differ only in their ports share one address check (a bucket); buckets whose source (or
 * destination) set holds only hosts and small networks are filed in an address index under
 * each of its ranges, so a flow direction looks at the buckets naming its addresses and at the
 * few broad ones ($HOME_NET, any …) always. The result is exact: a candidate bucket's
 * protocol and addresses are checked once, then each of its headers' ports; the headers are
 * kept in the dispatcher's order. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

static bool ipset_eq(const struct osprey_ip_set *a, const struct osprey_ip_set *b)
{
    return a == b || (a->n == b->n && (!a->n || !memcmp(a->r, b->r, a->n * sizeof *a->r)));
}

static bool same_bucket(const struct det_header *a, const struct det_header *b)
{
    return a->kind == b->kind && a->base == b->base && a->proto == b->proto &&
           a->both == b->both && a->any_packet == b->any_packet && ipset_eq(a->src, b->src) &&
           ipset_eq(a->dst, b->dst);
}

static int ipcmp(struct osprey_ip a, struct osprey_ip b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    return a.lo < b.lo ? -1 : a.lo > b.lo;
}

static int cmp_ip(const void *a, const void *b)
{
    return ipcmp(*(const struct osprey_ip *)a, *(const struct osprey_ip *)b);
}

static struct osprey_ip ip_next(struct osprey_ip a)
{
    if (++a.lo == 0)
        a.hi++;
    return a;
}

static bool ip_is_max(struct osprey_ip a)
{
    return a.hi == UINT64_MAX && a.lo == UINT64_MAX;
}

/* Hosts and networks narrower than /16 (IPv4) or /48 (IPv6) only: worth indexing. */
static bool narrow(const struct osprey_ip_set *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        struct osprey_ip lo = s->r[i].lo, hi = s->r[i].hi;
        bool v4 = lo.hi == 0 && (lo.lo >> 32) == 0xffff;
        if (v4 ? hi.hi != lo.hi || hi.lo - lo.lo >= 0xffff
               : hi.hi - lo.hi >= 0x10000 || (hi.hi != lo.hi && hi.hi - lo.hi > 1))
            return false;
    }
    return s->n > 0;
}

/* The piece holding ip: the last cut ≤ ip. */
static int64_t piece_of(const struct det_addr_index *ix, struct osprey_ip ip)
{
    uint32_t lo = 0, hi = ix->ncut;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (ipcmp(ix->cut[mid], ip) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int64_t)lo - 1;
}

struct entry {           /* bucket b is filed under range [lo, hi] */
    struct osprey_ip lo, hi;
    uint32_t b;
};

static int build_index(struct det_addr_index *ix, const struct entry *e, uint32_t n)
{
    if (n == 0)
        return 0;
    if (!(ix->cut = malloc(2 * n * sizeof *ix->cut)))
        return -1;
    uint32_t nc = 0;
    for (uint32_t i = 0; i < n; i++) {
        ix->cut[nc++] = e[i].lo;
        if (!ip_is_max(e[i].hi))
            ix->cut[nc++] = ip_next(e[i].hi);
    }
    if (nc > 1)
        qsort(ix->cut, nc, sizeof *ix->cut, cmp_ip);
    uint32_t u = 0;
    for (uint32_t i = 0; i < nc; i++)
        if (!u || ipcmp(ix->cut[u - 1], ix->cut[i]))
            ix->cut[u++] = ix->cut[i];
    ix->ncut = u;
    /* count, then fill, each range's pieces */
    if (!(ix->start = calloc(u + 1, sizeof *ix->start)))
        return -1;
    uint64_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t *fill = NULL;
        if (pass == 1) {
            for (uint32_t i = 0, at = 0; i <= u; i++) {
                uint32_t c = ix->start[i];
                ix->start[i] = at;
                at += c;
            }
            if (!(ix->bk = malloc((total ? total : 1) * sizeof *ix->bk)) ||
                !(fill = calloc(u, sizeof *fill)))
                return -1;
        }
        for (uint32_t i = 0; i < n; i++) {
            int64_t first = piece_of(ix, e[i].lo), last = piece_of(ix, e[i].hi);
            for (int64_t k = first; k <= last; k++) {
                if (pass == 0) {
                    ix->start[k]++;
                    total++;
                } else {
                    ix->bk[ix->start[k] + fill[k]++] = e[i].b;
                }
            }
        }
        free(fill);
    }
    return 0;
}

static int push_entry(struct entry **e, uint32_t *n, uint32_t *cap, const struct osprey_ip_set *s,
                      uint32_t b)
{
    for (uint32_t i = 0; i < s->n; i++) {
        if (*n == *cap) {
            uint32_t c = *cap ? *cap * 2 : 256;
            struct entry *v = realloc(*e, c * sizeof *v);
            if (!v)
                return -1;
            *e = v;
            *cap = c;
        }
        (*e)[(*n)++] = (struct entry){s->r[i].lo, s->r[i].hi, b};
    }
    return 0;
}

/* Index of set s among x->aset, added if new; -1 past HDX_MEMO_MAX. */
static int aset_index(struct det_hdx *x, const struct osprey_ip_set *s)
{
    for (uint32_t i = 0; i < x->naset; i++)
        if (ipset_eq(x->aset[i], s))
            return (int)i;
    if (x->naset == HDX_MEMO_MAX)
        return -1;
    x->aset[x->naset] = s;
    return (int)x->naset++;
}

/* The distinct address sets of the always buckets (det_hdx.aset): without them (more than
 * HDX_MEMO_MAX) each bucket searches its own. */
static int memo_sets(struct det_hdx *x)
{
    if (!x->nalways)
        return 0;
    x->aset = malloc(HDX_MEMO_MAX * sizeof *x->aset);
    x->aset_of = malloc(x->nalways * sizeof *x->aset_of);
    if (!x->aset || !x->aset_of)
        return -1;
    for (uint32_t i = 0; i < x->nalways; i++) {
        const struct det_header *h = x->bk[x->always[i]].key;
        int s = aset_index(x, h->src), d = s < 0 ? -1 : aset_index(x, h->dst);
        if (d < 0) {
            free(x->aset_of);
            x->aset_of = NULL; /* too many: no memo */
            return 0;
        }
        x->aset_of[i][0] = (uint16_t)s;
        x->aset_of[i][1] = (uint16_t)d;
    }
    return 0;
}

int det_hdx_index(struct det_hdx *x)
{
    for (uint32_t i = 0; i < x->n; i++) {
        uint32_t b = 0;
        while (b < x->nbk && !same_bucket(x->bk[b].key, x->hdr[i]))
            b++;
        if (b == x->nbk) {
            struct det_hdx_bucket *v = realloc(x->bk, (x->nbk + 1) * sizeof *v);
            if (!v)
                return -1;
            x->bk = v;
            x->bk[x->nbk++] = (struct det_hdx_bucket){x->hdr[i], NULL, 0, 0};
        }
        struct det_hdx_bucket *k = &x->bk[b];
        if (k->n == k->cap) {
            uint32_t cap = k->cap ? k->cap * 2 : 4;
            uint32_t *v = realloc(k->idx, cap * sizeof *v);
            if (!v)
                return -1;
            k->idx = v;
            k->cap = cap;
        }
        k->idx[k->n++] = i;
    }
    /* file the narrow buckets of the dispatcher's own kind (one address computation
     * serves them all) by the set they are narrow on; a `<>` bucket also the other way */
    struct entry *e[2] = {NULL, NULL};
    uint32_t ne[2] = {0, 0}, cap[2] = {0, 0};
    int rc = -1;
    if (!(x->always = malloc((x->nbk ? x->nbk : 1) * sizeof *x->always)))
        goto out;
    for (uint32_t b = 0; b < x->nbk; b++) {
        const struct det_header *h = x->bk[b].key;
        bool own = h->kind == x->bk[0].key->kind && h->base == x->bk[0].key->base;
        int on = !own ? -1 : narrow(h->src) ? 0 : narrow(h->dst) ? 1 : -1;
        if (on < 0) {
            x->always[x->nalways++] = b;
            continue;
        }
        const struct osprey_ip_set *s = on == 0 ? h->src : h->dst;
        if (push_entry(&e[on], &ne[on], &cap[on], s, b) < 0 ||
            (h->both && push_entry(&e[!on], &ne[!on], &cap[!on], s, b) < 0))
            goto out;
    }
    rc = build_index(&x->by[0], e[0], ne[0]) < 0 || build_index(&x->by[1], e[1], ne[1]) < 0 ||
                 memo_sets(x) < 0
             ? -1
             : 0;
out:
    free(e[0]);
    free(e[1]);
    return rc;
}

void det_hdx_index_free(struct det_hdx *x)
{
    for (uint32_t b = 0; b < x->nbk; b++)
        free(x->bk[b].idx);
    free(x->bk);
    for (int i = 0; i < 2; i++) {
        free(x->by[i].cut);
        free(x->by[i].start);
        free(x->by[i].bk);
    }
    free(x->always);
    free(x->aset);
    free(x->aset_of);
    x->aset = NULL;
    x->aset_of = NULL;
    x->naset = 0;
    x->bk = NULL;
    x->always = NULL;
    x->nbk = x->nalways = 0;
    memset(x->by, 0, sizeof x->by);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Append header i to the cache: its array doubles at each power of two (no capacity kept). */
static int cache_push(struct det_hcache *c, uint32_t i)
{
    if (c->n < 4 ? c->n == 0 : !(c->n & (c->n - 1))) {
        uint32_t *ids = realloc(c->ids, (c->n < 4 ? 4 : 2 * (size_t)c->n) * sizeof *ids);
        if (!ids)
            return -1;
        c->ids = ids;
    }
    c->ids[c->n++] = i;
    return 0;
}

/* The flow direction's protocol, addresses and ports, as every header of the dispatcher
 * sees them (one kind and base: det_header_addrs), worked out once per call. */
struct hdx_at {
    uint8_t proto;
    struct osprey_ip ip[2];
    uint16_t sp, dp;
};

/* The headers of bucket k whose ports match the ways w (its addresses matched) to the cache. */
static int push_ports(const struct det_hdx *x, const struct det_hdx_bucket *k,
                      const struct det_ways *w, struct det_hcache *c)
{
    for (uint32_t j = 0; j < k->n; j++)
        if (det_header_ports(x->hdr[k->idx[j]], w) && cache_push(c, k->idx[j]) < 0)
            return -1;
    return 0;
}

static int add_bucket(const struct det_hdx *x, uint32_t b, const struct hdx_at *at,
                      struct det_hcache *c)
{
    const struct det_hdx_bucket *k = &x->bk[b];
    struct det_ways w;
    /* the bucket's headers share protocol and addresses: checked once, then ports each */
    if (!k->n || !det_header_ways_at(x->hdr[k->idx[0]], at->proto, at->ip, at->sp, at->dp, &w))
        return 0;
    return push_ports(x, k, &w, c);
}

/* Which always sets the call's two addresses are in, as far as searched (bit i of known[r]:
 * set i searched for address r, 0 source and 1 destination; of in[r]: found there). */
struct hdx_memo {
    uint64_t known[2], in[2];
};

/* Is address r of the call in set i? Searched once a call, or once while the worker's
 * memo of the address lasts. */
static bool memo_in(const struct det_hdx *x, struct hdx_memo *m, const struct hdx_at *at,
                    uint16_t i, int r)
{
    uint64_t b = 1ull << i;
    if (!(m->known[r] & b)) {
        m->known[r] |= b;
        if (det_in_ipset(x->aset[i], at->ip[r]))
            m->in[r] |= b;
    }
    return m->in[r] & b;
}

/* add_bucket for always bucket number i, its address sets through the memo */
static int add_always(const struct det_hdx *x, uint32_t i, const struct hdx_at *at,
                      struct hdx_memo *m, struct det_hcache *c)
{
    const struct det_hdx_bucket *k = &x->bk[x->always[i]];
    if (!k->n)
        return 0;
    const struct det_header *h = x->hdr[k->idx[0]];
    if (h->proto && h->proto != at->proto)
        return 0;
    uint16_t s = x->aset_of[i][0], d = x->aset_of[i][1];
    struct det_ways w = {.sp = at->sp, .dp = at->dp};
    w.fwd = memo_in(x, m, at, s, 0) && memo_in(x, m, at, d, 1);
    w.rev = h->both && memo_in(x, m, at, s, 1) && memo_in(x, m, at, d, 0);
    return w.fwd || w.rev ? push_ports(x, k, &w, c) : 0;
}

/* The worker's memo entry of (x, ip). */
static struct det_hdx_ipmemo *ipmemo_slot(struct det_hdx_ipmemo *im, const struct det_hdx *x,
                                          struct osprey_ip ip)
{
    uint64_t h = (ip.lo ^ (ip.hi * 31) ^ (uint64_t)(uintptr_t)x) * 0x9e3779b97f4a7c15ull;
    return &im[h >> 56 & (HDX_IPMEMO_N - 1)];
}

int det_hdx_headers(const struct det_hdx *x, const struct mon_packet *p,
                    const struct mon_flow *f, int side, struct det_hcache *c,
                    struct det_hdx_ipmemo *im)
{
    if (!x->bk || !p->ipver) { /* no index (or no addresses): every header */
        for (uint32_t i = 0; i < x->n; i++) {
            if (det_header_match(x->hdr[i], p, f, side) && cache_push(c, i) < 0)
                return -1;
        }
        return 0;
    }
    struct hdx_at at = {.proto = p->proto == 58 ? 1 : p->proto};
    det_header_addrs(x->bk[0].key, p, f, side, &at.ip[0], &at.sp, &at.ip[1], &at.dp);
    struct hdx_memo memo = {{0, 0}, {0, 0}};
    struct det_hdx_ipmemo *e[2] = {NULL, NULL};
    for (int r = 0; im && x->aset_of && r < 2; r++) {
        e[r] = ipmemo_slot(im, x, at.ip[r]);
        if (e[r]->x == x && e[r]->ip.hi == at.ip[r].hi && e[r]->ip.lo == at.ip[r].lo) {
            memo.known[r] = e[r]->known;
            memo.in[r] = e[r]->in;
        }
    }
    for (uint32_t i = 0; i < x->nalways; i++)
        if ((x->aset_of ? add_always(x, i, &at, &memo, c) : add_bucket(x, x->always[i], &at, c)) <
            0)
            return -1;
    for (int r = 0; r < 2; r++) /* (both in one slot: the destination's stays) */
        if (e[r])
            *e[r] = (struct det_hdx_ipmemo){x, at.ip[r], memo.known[r], memo.in[r]};
    for (int r = 0; r < 2; r++) {
        const struct det_addr_index *ix = &x->by[r];
        if (!ix->ncut)
            continue;
        int64_t k = piece_of(ix, at.ip[r]);
        if (k < 0 || (uint32_t)k >= ix->ncut)
            continue;
        for (uint32_t j = ix->start[k]; j < ix->start[k + 1]; j++)
            if (add_bucket(x, ix->bk[j], &at, c) < 0)
                return -1;
    }
    /* the dispatcher's order; a `<>` bucket found both ways once */
    if (c->n > 1)
        qsort(c->ids, c->n, sizeof *c->ids, cmp_u32);
    uint32_t u = 0;
    for (uint32_t i = 0; i < c->n; i++)
        if (!u || c->ids[u - 1] != c->ids[i])
            c->ids[u++] = c->ids[i];
    c->n = u;
    return 0;
}
