/* bench-forest-share — mOS Figure 12: flows changing their events mid-flow, with shared
 * invocation forests (stack/event) against a naive private copy per changing flow.
 *
 * usage: bench-forest-share [--flows N] [--events E,E,...] [--naive-budget MB]
 *
 * For each E: E rule-like UDEs under CONN_NEW_DATA (three levels, prefixes shared: leaf i on
 * group i/8 on group i/64), one handler on each leaf; a passive socket's forest holds the E
 * pairs and N flows inherit it. Then every other flow registers one more event (as
 * stringsearch does when it finds its target), and at the end all flows go away.
 *   shared: ev_forest_change + swap + release — the first change builds, the rest find it.
 *   naive:  each changing flow gets its own copy of the pair list and its own tree.
 * When the naive copies would exceed the budget (default 4096 MB) only as many as fit are
 * made and the totals are extrapolated (marked ~). Prints figures only. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event_contract_internal.h"
#include "event_internal.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool filter(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
    return false;
}

static void handler(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
}

static void extra_handler(struct mon_ctx *c, struct mon_flow *f, int s, mon_event_t e, void *a)
{
    (void)c, (void)f, (void)s, (void)e, (void)a;
}

struct result {
    double change_s, end_s;
    uint64_t forests, bytes;
    uint32_t made;  /* naive: copies actually made */
};

/* Shared forests: what libmon does. */
static struct result run_shared(const struct ev_registry *r, const struct ev_pair *pairs,
                                uint32_t e, struct ev_pair extra, uint32_t nflows)
{
    struct result res = {0};
    struct ev_forests *fs = ev_forests_create(r);
    struct ev_forest *sock = NULL;
    ev_forest_from_pairs(fs, pairs, e, &sock);
    struct ev_forest **flow = malloc((size_t)nflows * sizeof *flow);
    for (uint32_t i = 0; i < nflows; i++) {
        ev_forest_retain(sock);
        flow[i] = sock;
    }
    double t0 = now_s();
    for (uint32_t i = 0; i < nflows; i += 2) {
        struct ev_forest *nf;
        if (ev_forest_change(fs, flow[i], &extra, true, &nf) == 0) {
            ev_forest_release(fs, flow[i]);
            flow[i] = nf;
        }
    }
    res.change_s = now_s() - t0;
    struct ev_forest_stats st;
    ev_forests_stats(fs, &st);
    res.forests = st.alive;
    res.bytes = st.bytes + (uint64_t)nflows * sizeof *flow;
    t0 = now_s();
    for (uint32_t i = 0; i < nflows; i++)
        ev_forest_release(fs, flow[i]);
    res.end_s = now_s() - t0;
    ev_forest_release(fs, sock);
    free(flow);
    ev_forests_destroy(fs);
    return res;
}

/* Naive: a changing flow snapshots its forest's pairs, appends one, builds a private tree. */
static struct result run_naive(const struct ev_registry *r, const struct ev_pair *pairs,
                               uint32_t e, struct ev_pair extra, uint32_t nflows,
                               uint64_t budget)
{
    struct result res = {0};
    struct ev_forests *fs = ev_forests_create(r);
    struct ev_forest *sock = NULL;
    ev_forest_from_pairs(fs, pairs, e, &sock);
    uint32_t changers = (nflows + 1) / 2;
    struct ev_forest **own = calloc(changers, sizeof *own);
    struct ev_id xid = ev_pair_id(&extra);
    uint64_t used = 0;
    double t0 = now_s();
    for (uint32_t k = 0; k < changers; k++) {
        const struct ev_forest *from = sock;
        struct ev_fpair *copy = malloc(((size_t)from->npairs + 1) * sizeof *copy);
        memcpy(copy, from->pair, (size_t)from->npairs * sizeof *copy);
        copy[from->npairs] = (struct ev_fpair){extra, xid};
        forest_build(r, copy, from->npairs + 1, ev_id_xor(from->id, xid), &own[k]);
        free(copy);
        used += own[k]->bytes;
        res.made = k + 1;
        if (used + own[k]->bytes > budget)
            break;
    }
    res.change_s = now_s() - t0;
    res.bytes = used + (uint64_t)nflows * sizeof(struct ev_forest *);
    res.forests = res.made + 1;
    t0 = now_s();
    for (uint32_t k = 0; k < res.made; k++)
        free(own[k]);
    res.end_s = now_s() - t0;
    free(own);
    ev_forest_release(fs, sock);
    ev_forests_destroy(fs);
    return res;
}

static void bench(uint32_t nflows, uint32_t e, uint64_t budget)
{
    struct ev_registry *r = ev_registry_create();
    uint32_t ngroups = (e + 63) / 64, nsub = (e + 7) / 8;
    mon_event_t *grp = malloc(ngroups * sizeof *grp), *sub = malloc(nsub * sizeof *sub);
    struct ev_pair *pairs = malloc(e * sizeof *pairs);
    char *tags = malloc(e + nsub + ngroups + 1);  /* distinct filter args */
    for (uint32_t g = 0; g < ngroups; g++)
        grp[g] = (mon_event_t)ev_define(r, MON_ON_CONN_NEW_DATA, filter, &tags[g]);
    for (uint32_t s = 0; s < nsub; s++)
        sub[s] = (mon_event_t)ev_define(r, grp[s / 8], filter, &tags[ngroups + s]);
    for (uint32_t i = 0; i < e; i++) {
        mon_event_t leaf = (mon_event_t)ev_define(r, sub[i / 8], filter, &tags[ngroups + nsub + i]);
        pairs[i] = (struct ev_pair){leaf, MON_HK_RCV, handler, NULL};
    }
    mon_event_t more = (mon_event_t)ev_define(r, MON_ON_CONN_NEW_DATA, filter, &tags[e + nsub + ngroups]);
    ev_registry_freeze(r);
    struct ev_pair extra = {more, MON_HK_RCV, extra_handler, NULL};

    struct result s = run_shared(r, pairs, e, extra, nflows);
    struct result n = run_naive(r, pairs, e, extra, nflows, budget);
    uint32_t changers = (nflows + 1) / 2;
    double scale = n.made ? (double)changers / n.made : 0;
    const char *mark = n.made < changers ? "~" : " ";
    double naive_change = n.change_s * scale, naive_mb = (double)n.bytes * scale / 1048576.0;

    struct ev_forests *fs = ev_forests_create(r);
    struct ev_forest *probe = NULL;
    ev_forest_from_pairs(fs, pairs, e, &probe);
    size_t nodes = ev_forest_nodes(probe, MON_HK_RCV);
    ev_forest_release(fs, probe);
    ev_forests_destroy(fs);

    printf("%6u %6zu | %9.1f %9.3f %7llu %9.2f | %s%10.1f %s%9.3f %s%10.1f | %8.0fx %8.0fx\n", e,
           nodes, s.change_s * 1e9 / changers, s.change_s + s.end_s,
           (unsigned long long)s.forests, (double)s.bytes / 1048576.0, mark,
           naive_change * 1e9 / changers, mark, naive_change + n.end_s * scale, mark, naive_mb,
           naive_change / (s.change_s > 0 ? s.change_s : 1e-9),
           naive_mb / ((double)s.bytes / 1048576.0));
    fflush(stdout);
    free(grp);
    free(sub);
    free(pairs);
    free(tags);
    ev_registry_destroy(r);
}

int main(int argc, char **argv)
{
    uint32_t nflows = 100000;
    uint64_t budget = 4096;
    char evs[256] = "10,50,100,1000";
    static const struct option opts[] = {{"flows", required_argument, NULL, 'n'},
                                         {"events", required_argument, NULL, 'e'},
                                         {"naive-budget", required_argument, NULL, 'b'},
                                         {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "n:e:b:", opts, NULL)) != -1) {
        if (c == 'n')
            nflows = (uint32_t)strtoul(optarg, NULL, 10);
        else if (c == 'e')
            snprintf(evs, sizeof evs, "%s", optarg);
        else if (c == 'b')
            budget = strtoull(optarg, NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--flows N] [--events E,E,...] [--naive-budget MB]\n",
                    argv[0]);
            return 2;
        }
    }
    if (nflows < 2)
        nflows = 2;
    printf("bench-forest-share: %u flows, every other one registers one more event mid-flow "
           "(%u changes)\n", nflows, (nflows + 1) / 2);
    printf("  time = the changes + all flows ending; MB = forests + one pointer per flow;"
           " ~ = extrapolated past --naive-budget %llu MB\n", (unsigned long long)budget);
    printf("%6s %6s | %-37s | %-35s | %-19s\n", "", "", "shared forests (libmon)",
           "naive copy per changing flow", "naive / shared");
    printf("%6s %6s | %9s %9s %7s %9s | %11s %10s %11s | %9s %9s\n", "events", "nodes",
           "ns/change", "time s", "forests", "MB", "ns/change", "time s", "MB", "time", "memory");
    for (char *tok = strtok(evs, ","); tok; tok = strtok(NULL, ",")) {
        uint32_t e = (uint32_t)strtoul(tok, NULL, 10);
        if (e)
            bench(nflows, e, budget << 20);
    }
    return 0;
}
