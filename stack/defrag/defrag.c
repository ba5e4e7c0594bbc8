/* defrag.c — lifecycle of a defragmenter, its memory accounting, fragment blocks and the
 * per-packet output buffers. */
#include <stdlib.h>
#include <string.h>

#include "defrag_internal.h"

/* Capacities (bytes of header + data) of the pooled block classes: a tiny fragment, a
 * fragment of a 576-byte path, and one of a 1500-byte Ethernet MTU with IPv6 options. */
static const uint32_t block_class_cap[DF_BLOCK_CLASSES] = {256, 640, 2048};

void mon_defrag_cfg_defaults(struct mon_defrag_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->policy.dflt = MON_POLICY_BSD; /* Suricata's default */
    cfg->memcap = (size_t)32 << 20;
    cfg->timeout_s = 60;
    cfg->max_frags = 8192; /* a 64 KiB+ datagram of small fragments fits (Suricata has no such
                              per-datagram limit) */
    cfg->max_trackers = 65536;
}

struct mon_defrag *mon_defrag_create(const struct mon_defrag_cfg *cfg)
{
    struct mon_defrag *df = calloc(1, sizeof *df);
    if (!df)
        return NULL;
    df->cfg = *cfg;
    if (df->cfg.max_frags == 0)
        df->cfg.max_frags = 1;
    if (df->cfg.max_frags > 65535)
        df->cfg.max_frags = 65535; /* 8-byte fragments cannot be more numerous than this */
    if (df->cfg.max_trackers == 0)
        df->cfg.max_trackers = 1;
    if (cfg->policy.n && cfg->policy.entries) {
        df->policy_entries = malloc(cfg->policy.n * sizeof *df->policy_entries);
        if (!df->policy_entries)
            goto fail;
        memcpy(df->policy_entries, cfg->policy.entries,
               cfg->policy.n * sizeof *df->policy_entries);
    }
    df->cfg.policy.entries = df->policy_entries;
    if (!df->policy_entries)
        df->cfg.policy.n = 0;

    /* Piece lists never exceed 2 * fragments - 1 entries (see defrag_internal.h); the
     * scratch list gets one spare for the fragment being inserted. */
    df->scratch_cap = 2 * df->cfg.max_frags + 2;
    df->scratch = malloc(df->scratch_cap * sizeof *df->scratch);
    df->refs_cap = df->cfg.max_frags + 1;
    df->refs = malloc(df->refs_cap * sizeof *df->refs);
    if (!df->scratch || !df->refs || !df_table_init(df))
        goto fail;
    return df;
fail:
    mon_defrag_destroy(df);
    return NULL;
}

void mon_defrag_destroy(struct mon_defrag *df)
{
    if (!df)
        return;
    df_table_fini(df); /* drops live trackers into the spare lists, then frees those */
    for (int c = 0; c < DF_BLOCK_CLASSES; c++) {
        while (df->spare_blocks[c]) {
            struct df_frag *f = df->spare_blocks[c];
            df->spare_blocks[c] = f->next_free;
            free(f);
        }
    }
    for (int i = 0; i < DF_OUTPUTS; i++)
        free(df->out[i].buf);
    free(df->scratch);
    free(df->refs);
    free(df->policy_entries);
    free(df);
}

void mon_defrag_begin_packet(struct mon_defrag *df)
{
    df->nout = 0;
}

const struct mon_defrag_stats *mon_defrag_stats(const struct mon_defrag *df)
{
    return &df->stats;
}

void mon_defrag_expire(struct mon_defrag *df, uint64_t now_us, struct mon_decode_stats *st)
{
    df_expire_some(df, now_us, 0, st);
}

void df_mem_add(struct mon_defrag *df, struct df_tracker *t, size_t n)
{
    t->mem += n;
    df->stats.memuse += n;
    if (df->stats.memuse > df->stats.memuse_peak)
        df->stats.memuse_peak = df->stats.memuse;
}

void df_mem_sub(struct mon_defrag *df, struct df_tracker *t, size_t n)
{
    t->mem -= n;
    df->stats.memuse -= n;
}

/* New datagrams may fill only three quarters of the memcap; the last quarter is kept for
 * the datagrams already in progress. Without it, a burst of first fragments fills the memcap
 * and the datagrams holding the memory can never complete and free it (until they time out). */
bool df_mem_fits(const struct mon_defrag *df, size_t n, bool new_datagram)
{
    size_t cap = df->cfg.memcap;
    if (new_datagram)
        cap -= cap / 4;
    return df->stats.memuse + n <= cap;
}

/* Output buffers live until the next mon_defrag_begin_packet(); each slot keeps its
 * allocation, so after warm-up no packet allocates. */
uint8_t *df_out_acquire(struct mon_defrag *df, uint32_t len)
{
    if (df->nout == DF_OUTPUTS)
        return NULL;
    struct df_out *o = &df->out[df->nout];
    if (o->cap < len) {
        uint32_t cap = len < 2048 ? 2048 : len;
        uint8_t *b = realloc(o->buf, cap);
        if (!b)
            return NULL;
        o->buf = b;
        o->cap = cap;
    }
    df->nout++;
    return o->buf;
}

struct df_frag *df_block_get(struct mon_defrag *df, uint32_t need)
{
    int cls = 0;
    while (cls < DF_BLOCK_CLASSES && block_class_cap[cls] < need)
        cls++;
    struct df_frag *f;
    if (cls < DF_BLOCK_CLASSES && df->spare_blocks[cls]) {
        f = df->spare_blocks[cls];
        df->spare_blocks[cls] = f->next_free;
        df->nspare_blocks[cls]--;
        return f;
    }
    uint32_t cap = cls < DF_BLOCK_CLASSES ? block_class_cap[cls] : need;
    f = malloc(sizeof *f + cap);
    if (!f)
        return NULL;
    f->cap = cap;
    f->cls = (uint8_t)cls;
    return f;
}

void df_block_put(struct mon_defrag *df, struct df_frag *f)
{
    int cls = f->cls;
    if (cls < DF_BLOCK_CLASSES && df->nspare_blocks[cls] < DF_BLOCK_SPARE_MAX) {
        f->next_free = df->spare_blocks[cls];
        df->spare_blocks[cls] = f;
        df->nspare_blocks[cls]++;
        return;
    }
    free(f);
}

/* What a stored fragment costs against the memcap: the whole block, not just its data,
 * so that floods of tiny fragments are capped by the memory they really take. */
size_t df_block_cost(uint32_t need)
{
    for (int cls = 0; cls < DF_BLOCK_CLASSES; cls++)
        if (block_class_cap[cls] >= need)
            return sizeof(struct df_frag) + block_class_cap[cls];
    return sizeof(struct df_frag) + need;
}

size_t df_block_charge(const struct df_frag *f)
{
    return sizeof *f + f->cap;
}
