/* mpm_group.c — protocol classes and port filters of the packet and stream fast-pattern
 * matchers (detect_int.h).
 *
 * Without them every TCP payload was scanned with the fast patterns of every packet rule, UDP
 * and ICMP ones included, and a pattern found raised all its rules whatever their ports: ET
 * Open's one-byte patterns of rules bound to one port ("e" of a Cerber check-in on UDP 6892)
 * then matched nearly every packet, and each hit cost the header check of every rule sharing
 * the pattern before it failed on the ports. Suricata splits its rules into signature group
 * heads by protocol and port for that reason. Here:
 *   - each protocol class (TCP, UDP, other) and direction (to the server, to the client) has
 *     its own database, of the patterns of the rules of that class and direction (an `ip`
 *     rule's in every class; a stream is TCP; a rule without `flow:to_server`/`to_client` in
 *     both directions): a download is not scanned for the check-in patterns of `to_server`
 *     rules;
 *   - a rule restricting its destination ports wants its pattern on those ports (destination
 *     role), one restricting only its source ports on those (source role), a `<>` rule both
 *     ways; a rule whose ports are any, or that compares none, wants it everywhere in its
 *     class ("generic"). A pattern found is raised only where some rule wants it: the check is
 *     a few comparisons, against a header check per rule sharing the pattern;
 *   - a weak pattern (short, or one byte repeated) that only port-bound rules want is not in
 *     the class database but in a second one, scanned only on the ports such rules name (a
 *     bitmap per role), so most buffers never look for it.
 * Pattern ids stay the matcher's: each database raises the same child events. Two databases
 * per group at most, so startup compiles a handful more, not one per port. */
#include <stdlib.h>
#include <string.h>

#include "detect_int.h"

static uint8_t class_of(uint8_t proto)
{
    return proto == 6 ? DMC_TCP : proto == 17 ? DMC_UDP : DMC_OTHER;
}

static bool ports_any(const struct osprey_port_set *s)
{
    return !s || (s->n == 1 && s->r[0].lo == 0 && s->r[0].hi == 65535);
}

/* A pattern that occurs in much of any traffic: short, or one byte repeated (|00 00 00 00 00|).
 * Only these are worth a port-specific database: a longer one seldom matches where its
 * rules' ports do not, so it stays in the class's database at the cost of a rare header check,
 * and the port databases stay few and small (Hyperscan compiles each on startup). */
static bool weak(const struct det_mpm *m, uint32_t id)
{
    return m->len[id] <= 4 || det_mpm_one_byte(m, id);
}

static int push_place(struct det_mpm *m, struct det_mpm_place pl)
{
    if (m->nplace == m->cap_place) {
        uint32_t cap = m->cap_place ? m->cap_place * 2 : 256;
        struct det_mpm_place *n = realloc(m->place, cap * sizeof *n);
        if (!n)
            return -1;
        m->place = n;
        m->cap_place = cap;
    }
    m->place[m->nplace++] = pl;
    return 0;
}

int det_mpm_place(struct det_mpm *m, uint32_t id, const struct det_header *h, uint8_t dirs)
{
    if (!m->grouped)
        return 0;
    if (id >= m->n)
        return -1;
    /* a stream is TCP whatever the rule says (ip rules with payload options inspect it) */
    uint8_t pcls = m->kind == DK_STREAM ? 1u << DMC_TCP
                   : h->proto == 0      ? (1u << DMC__N) - 1
                                        : 1u << class_of(h->proto);
    if (!(dirs & DET_DIR_BOTH))
        dirs = DET_DIR_BOTH;
    uint8_t classes = 0; /* the groups: classes × directions */
    for (uint8_t c = 0; c < DMC__N; c++)
        if (pcls & (1u << c)) {
            if (dirs & DET_DIR_TS)
                classes |= (uint8_t)(1u << det_mgroup(c, true));
            if (dirs & DET_DIR_TC)
                classes |= (uint8_t)(1u << det_mgroup(c, false));
        }
    const struct osprey_port_set *ps = NULL;
    uint8_t role = DMR_DPORT;
    if (h->ports && !ports_any(h->dp))
        ps = h->dp;
    else if (h->ports && !ports_any(h->sp)) {
        ps = h->sp;
        role = DMR_SPORT;
    }
    if (!ps) {
        m->gen[id] |= classes;
        return 0;
    }
    for (uint8_t c = 0; c < DMG__N; c++) {
        if (!(classes & (1u << c)))
            continue;
        for (uint32_t i = 0; i < ps->n; i++) {
            struct det_mpm_place pl = {id, c, role, ps->r[i].lo, ps->r[i].hi};
            if (push_place(m, pl) < 0)
                return -1;
            if (h->both) {
                pl.role = role == DMR_DPORT ? DMR_SPORT : DMR_DPORT;
                if (push_place(m, pl) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

static int cmp_place(const void *a, const void *b)
{
    const struct det_mpm_place *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Ports a weak pattern's rules may name at most, in one group, for it to have the weak
 * database: beyond them (`!80`, `1024:`, `![139,445]` …) it would be wanted on nearly every
 * flow, and the weak database scanned with it there would bring every narrow weak pattern
 * along (ET Open 2019: a `|03|` of RDP rules hit 994 k times a run, nearly all on other ports).
 * Such a pattern stays in the class's database: det_mpm_wanted still drops its hits where no
 * rule of it takes the ports. */
#define DET_WEAK_PORTS_MAX 1024

/* Is pattern id in the weak database of group c (only rules bound to a few ports want it)? */
static bool in_wdb(const struct det_mpm *m, uint32_t id, uint8_t c)
{
    if ((m->gen[id] & (1u << c)) || !weak(m, id))
        return false;
    uint32_t ports = 0;
    bool placed = false;
    for (uint32_t k = m->place_at[id]; k < m->place_at[id + 1]; k++)
        if (m->place[k].cls == c) {
            placed = true;
            ports += (uint32_t)(m->place[k].hi - m->place[k].lo) + 1;
        }
    return placed && ports <= DET_WEAK_PORTS_MAX;
}

/* Is pattern id wanted in group c at all? */
static bool in_class(const struct det_mpm *m, uint32_t id, uint8_t c)
{
    if (m->gen[id] & (1u << c))
        return true;
    for (uint32_t k = m->place_at[id]; k < m->place_at[id + 1]; k++)
        if (m->place[k].cls == c)
            return true;
    return false;
}

int det_mpm_compile_groups(struct det_mpm *m, FILE *diag)
{
    if (!m->gen)
        return 0; /* nothing placed */
    if (m->nplace > 1)
        qsort(m->place, m->nplace, sizeof *m->place, cmp_place);
    uint32_t *ids = malloc(m->n * sizeof *ids), *wids = malloc(m->n * sizeof *wids);
    if (!ids || !wids || !(m->place_at = calloc(m->n + 1, sizeof *m->place_at))) {
        free(ids);
        free(wids);
        return -1;
    }
    for (uint32_t k = 0, id = 0; id <= m->n; id++) {
        while (k < m->nplace && m->place[k].id < id)
            k++;
        m->place_at[id] = k;
    }
    int rc = 0;
    for (uint8_t c = 0; c < DMG__N && rc == 0 && m->arrival; c++) {
        uint32_t n = 0; /* the arrival database: every pattern of the group a pkt_required
                           packet twin uses, weak ones too (det_mpm_wanted checks ports) */
        for (uint32_t i = 0; i < m->n; i++)
            if (m->arrival[i] && in_class(m, i, c))
                ids[n++] = i;
        rc = det_mpm_compile_block(m, ids, n, &m->adb[c], diag);
    }
    for (uint8_t c = 0; c < DMG__N && rc == 0; c++) {
        uint32_t n = 0, nw = 0;
        for (uint32_t i = 0; i < m->n; i++) {
            if (in_wdb(m, i, c))
                wids[nw++] = i;
            else if (in_class(m, i, c))
                ids[n++] = i;
        }
        if ((rc = det_mpm_compile_db(m, ids, n, &m->gdb[c], diag)) < 0 ||
            (rc = det_mpm_compile_db(m, wids, nw, &m->wdb[c], diag)) < 0 || !nw)
            continue;
        if (n) { /* both, for the ports where both are scanned */
            memcpy(ids + n, wids, nw * sizeof *ids); /* (disjoint: n + nw <= m->n) */
            if ((rc = det_mpm_compile_db(m, ids, n + nw, &m->cdb[c], diag)) < 0)
                continue;
        }
        for (uint8_t r = 0; r < 2 && rc == 0; r++)
            if (!(m->wports[c][r] = calloc(65536 / 64, sizeof(uint64_t))))
                rc = -1;
        for (uint32_t w = 0; w < nw && rc == 0; w++)
            for (uint32_t k = m->place_at[wids[w]]; k < m->place_at[wids[w] + 1]; k++) {
                const struct det_mpm_place *p = &m->place[k];
                if (p->cls != c)
                    continue;
                for (uint32_t port = p->lo; port <= p->hi; port++)
                    m->wports[c][p->role][port / 64] |= 1ull << (port % 64);
            }
    }
    for (uint8_t c = 0; c < DMG__N && rc == 0 && m->nheads; c++) {
        uint32_t n = 0; /* the head database: the group's head patterns (mpm_heads.c) */
        for (uint32_t i = 0; i < m->n; i++)
            if (m->is_head[i] && in_class(m, i, c))
                ids[n++] = i;
        rc = det_mpm_compile_block(m, ids, n, &m->hdb[c], diag);
    }
    for (uint8_t c = 0; c < DMG__N && rc == 0 && m->kind == DK_STREAM && m->streaming; c++) {
        uint32_t n = 0; /* the orphan database: all of the group's patterns, weak ones too */
        for (uint32_t i = 0; i < m->n; i++)
            if (in_class(m, i, c))
                ids[n++] = i;
        rc = det_mpm_compile_block(m, ids, n, &m->odb[c], diag);
    }
    free(ids);
    free(wids);
    for (uint8_t c = 0; c < DMG__N; c++)
        m->ready |= m->gdb[c] || m->wdb[c] || m->hdb[c] || m->nruns;
    return rc;
}

/* A view of pk's patterns followed by st's (id pk->n + i is st's i), for compiling the
 * merged databases with the one compiler (mpm.c: bounds, flags and the cache key read the
 * view's arrays). Arrays are the view's own; pattern bytes are borrowed. */
static int merged_view(struct det_mpm *v, const struct det_mpm *pk, const struct det_mpm *st)
{
    *v = (struct det_mpm){.kind = DK_PKT, .cache = pk->cache, .n = pk->n + st->n};
    v->pat = calloc(v->n, sizeof *v->pat);
    v->len = calloc(v->n, sizeof *v->len);
    v->nocase = calloc(v->n, sizeof *v->nocase);
    v->maxend = calloc(v->n, sizeof *v->maxend);
    if (!v->pat || !v->len || !v->nocase || !v->maxend)
        return -1;
    for (uint32_t k = 0; k < 2; k++) {
        const struct det_mpm *m = k ? st : pk;
        uint32_t at = k ? pk->n : 0;
        memcpy(v->pat + at, m->pat, m->n * sizeof *v->pat);
        memcpy(v->len + at, m->len, m->n * sizeof *v->len);
        memcpy(v->nocase + at, m->nocase, m->n * sizeof *v->nocase);
        memcpy(v->maxend + at, m->maxend, m->n * sizeof *v->maxend);
    }
    return 0;
}

int det_mpm_compile_merged(struct det_mpm *pk, const struct det_mpm *st, FILE *diag)
{
    if (!pk->grouped || !pk->ready || !st->arrival || !st->n)
        return 0;
    struct det_mpm v;
    uint32_t *ids = calloc((size_t)pk->n + st->n, sizeof *ids);
    int rc = merged_view(&v, pk, st);
    if (!ids)
        rc = -1;
    for (int ts = 0; ts < 2 && rc == 0; ts++) {
        uint8_t c = det_mgroup(DMC_TCP, ts == 0);
        if (!st->adb[c])
            continue; /* no arrival pattern in this group: nothing to merge */
        uint32_t n = 0;
        for (uint32_t i = 0; i < st->n; i++)
            if (st->arrival[i] && in_class(st, i, c))
                ids[n++] = pk->n + i;
        for (uint32_t i = 0; i < pk->n; i++)
            if (in_class(pk, i, c) && !in_wdb(pk, i, c))
                ids[n++] = i;
        if ((rc = det_mpm_compile_block(&v, ids, n, &pk->mgdb[c], diag)) < 0 || !pk->wdb[c])
            continue;
        for (uint32_t i = 0; i < pk->n; i++) /* the class + weak one */
            if (in_wdb(pk, i, c))
                ids[n++] = i;
        rc = det_mpm_compile_block(&v, ids, n, &pk->mcdb[c], diag);
    }
    pk->arr_base = pk->n;
    free(v.pat);
    free(v.len);
    free(v.nocase);
    free(v.maxend);
    free(ids);
    return rc;
}

static bool port_in(const uint64_t *bits, uint16_t port)
{
    return bits && (bits[port / 64] >> (port % 64) & 1);
}

void det_mpm_select(const struct det_mpm *m, uint8_t proto, bool to_server, uint16_t sp,
                    uint16_t dp, struct det_mpm_group *g)
{
    g->n = 0;
    g->weak = false;
    g->sp = sp;
    g->dp = dp;
    if (!m->grouped) {
        g->cls = DMG__N;
        if (m->db)
            g->db[g->n++] = m->db;
        return;
    }
    uint8_t c = det_mgroup(m->kind == DK_STREAM ? DMC_TCP : class_of(proto), to_server);
    g->cls = c;
    bool weak_too = m->wdb[c] && (port_in(m->wports[c][DMR_DPORT], dp) ||
                                  port_in(m->wports[c][DMR_SPORT], sp));
    g->weak = weak_too;
    if (weak_too && m->cdb[c]) {
        g->db[g->n++] = m->cdb[c];
        return;
    }
    if (m->gdb[c])
        g->db[g->n++] = m->gdb[c];
    if (weak_too)
        g->db[g->n++] = m->wdb[c];
}

bool det_mpm_wanted(const struct det_mpm *m, const struct det_mpm_group *g, uint32_t id)
{
    if (g->cls == DMG__N || (m->gen[id] & (1u << g->cls)))
        return true;
    for (uint32_t k = m->place_at[id]; k < m->place_at[id + 1]; k++) {
        const struct det_mpm_place *p = &m->place[k];
        uint16_t port = p->role == DMR_DPORT ? g->dp : g->sp;
        if (p->cls == g->cls && port >= p->lo && port <= p->hi)
            return true;
    }
    return false;
}

void det_side_ports(const struct mon_flow *f, int side, uint16_t *sp, uint16_t *dp)
{
    bool ts = det_to_server(side, DB_STREAM);
    *sp = ts ? f->cport : f->sport;
    *dp = ts ? f->sport : f->cport;
}
