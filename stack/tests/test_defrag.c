/* test_defrag.c — IPv4/IPv6 reassembly: orders, overlap policies (the Sturges/Novak pattern
 * with Suricata's expected bytes), per-host policy, limits, timeouts, invalid fragments and
 * nested outputs. Fragments are hand-built and fed to mon_defrag_ipv4/ipv6 directly. */
#include <stdlib.h>
#include <string.h>

#include "mon_defrag.h"
#include "unit.h"

/* ---- building fragments ---------------------------------------------------------------- */

struct frag {
    uint8_t b[2048];
    uint32_t len;
    uint32_t unfrag, prev_nh; /* IPv6 */
};

/* Where the fragments go: tests change these to exercise per-host policies. */
static uint8_t dst4[4] = {2, 2, 2, 2};
static uint8_t dst6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
static uint8_t proto4 = 1; /* ICMP, as in Suricata's tests */
static int hbh6;           /* IPv6: put a Hop-by-Hop header before the Fragment header */

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint16_t csum(const uint8_t *h, uint32_t len)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i + 1 < len; i += 2)
        s += get16(h + i);
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return (uint16_t)~s;
}

static void mk4_opts(struct frag *f, uint16_t id, uint32_t off, int mf, const uint8_t *data,
                     uint32_t len, uint32_t optlen)
{
    uint32_t hlen = 20 + optlen;
    memset(f, 0, sizeof *f);
    f->b[0] = (uint8_t)(0x40 | hlen / 4);
    put16(f->b + 2, hlen + len);
    put16(f->b + 4, id);
    put16(f->b + 6, (mf ? 0x2000u : 0) | off / 8);
    f->b[8] = 64;
    f->b[9] = proto4;
    memset(f->b + 12, 1, 4);
    memcpy(f->b + 16, dst4, 4);
    for (uint32_t i = 0; i < optlen; i++)
        f->b[20 + i] = i + 1 == optlen ? 0 : 1; /* NOPs then End of options */
    put16(f->b + 10, csum(f->b, hlen));
    memcpy(f->b + hlen, data, len);
    f->len = hlen + len;
}

static void mk4(struct frag *f, uint16_t id, uint32_t off, int mf, const uint8_t *data,
                uint32_t len)
{
    mk4_opts(f, id, off, mf, data, len, 0);
}

static void mk6(struct frag *f, uint32_t id, uint32_t off, int mf, const uint8_t *data,
                uint32_t len)
{
    memset(f, 0, sizeof *f);
    uint32_t p = 40;
    f->b[0] = 0x60;
    f->b[7] = 64;
    memset(f->b + 8, 0x11, 16);
    memcpy(f->b + 24, dst6, 16);
    if (hbh6) {
        f->b[6] = 0;      /* Hop-by-Hop */
        f->b[40] = 44;    /* ... then the Fragment header */
        f->b[42] = 1;     /* PadN of 4 */
        f->b[43] = 4;
        p = 48;
        f->prev_nh = 40;
    } else {
        f->b[6] = 44;
        f->prev_nh = 6;
    }
    f->unfrag = p;
    f->b[p] = 58; /* ICMPv6 */
    put16(f->b + p + 2, off | (mf ? 1u : 0));
    f->b[p + 4] = (uint8_t)(id >> 24);
    f->b[p + 5] = (uint8_t)(id >> 16);
    f->b[p + 6] = (uint8_t)(id >> 8);
    f->b[p + 7] = (uint8_t)id;
    memcpy(f->b + p + 8, data, len);
    f->len = p + 8 + len;
    put16(f->b + 4, f->len - 40);
}

static void mk(int v, struct frag *f, uint32_t id, uint32_t off, int mf, const uint8_t *data,
               uint32_t len)
{
    if (v == 4)
        mk4(f, (uint16_t)id, off, mf, data, len);
    else
        mk6(f, id, off, mf, data, len);
}

static int feed(struct mon_defrag *df, int v, const struct frag *f, uint64_t ts,
                struct mon_decode_stats *st, const uint8_t **out, uint32_t *out_len)
{
    if (v == 4)
        return mon_defrag_ipv4(df, f->b, f->len, ts, st, out, out_len);
    return mon_defrag_ipv6(df, f->b, f->unfrag, f->prev_nh, f->len, ts, st, out, out_len);
}

/* Build and feed one fragment of repeated ch. */
static int feed_fill(struct mon_defrag *df, int v, uint32_t id, uint32_t off, int mf, char ch,
                     uint32_t len, uint64_t ts, struct mon_decode_stats *st,
                     const uint8_t **out, uint32_t *out_len)
{
    uint8_t data[1600];
    memset(data, ch, len);
    struct frag f;
    mk(v, &f, id, off, mf, data, len);
    return feed(df, v, &f, ts, st, out, out_len);
}

static uint32_t hdr_len(int v, const uint8_t *out)
{
    return v == 4 ? (out[0] & 0x0fu) * 4u : 40u;
}

static struct mon_defrag *mkdf(enum mon_overlap_policy pol)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    cfg.policy.dflt = pol;
    return mon_defrag_create(&cfg);
}

/* The datagram came out well formed: lengths, flags, checksum / next header. */
static void check_header(int v, const uint8_t *out, uint32_t out_len, uint32_t payload_len)
{
    if (v == 4) {
        uint32_t hl = hdr_len(4, out);
        CHECK_EQ_U(out_len, hl + payload_len);
        CHECK_EQ_U(get16(out + 2), hl + payload_len);
        CHECK_EQ_U(get16(out + 6) & 0x3fffu, 0);
        CHECK_EQ_U(csum(out, hl), 0);
    } else {
        CHECK_EQ_U(out_len, 40 + payload_len);
        CHECK_EQ_U(get16(out + 4), payload_len);
        CHECK_EQ_U(out[6], 58);
    }
}

/* ---- tests ----------------------------------------------------------------------------- */

static void test_defaults(void)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    CHECK_EQ_U(cfg.memcap, 32u << 20);
    CHECK_EQ_U(cfg.timeout_s, 60);
    CHECK_EQ_U(cfg.max_frags, 8192);
    CHECK_EQ_U(cfg.max_trackers, 65536);
    CHECK_EQ_U(cfg.policy.dflt, MON_POLICY_BSD);
    CHECK_EQ_U(cfg.policy.n, 0);
}

/* A*8 B*8 C*3, like Suricata's DefragInOrderSimpleTest / DefragReverseSimpleTest. */
static void test_simple(int v, int reverse)
{
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    static const struct { uint32_t off; int mf; char c; uint32_t len; } fr[3] = {
        {0, 1, 'A', 8}, {8, 1, 'B', 8}, {16, 0, 'C', 3}};
    for (int k = 0; k < 3; k++) {
        int i = reverse ? 2 - k : k;
        int r = feed_fill(df, v, 12, fr[i].off, fr[i].mf, fr[i].c, fr[i].len, 1000, &st, &out,
                          &out_len);
        CHECK_EQ_U(r, k == 2 ? 1 : 0);
    }
    check_header(v, out, out_len, 19);
    CHECK(memcmp(out + hdr_len(v, out), "AAAAAAAABBBBBBBBCCC", 19) == 0);
    const struct mon_defrag_stats *s = mon_defrag_stats(df);
    CHECK_EQ_U(s->fragments, 3);
    CHECK_EQ_U(s->reassembled, 1);
    CHECK_EQ_U(s->overlaps, 0);
    CHECK_EQ_U(s->trackers_active, 0);
    CHECK_EQ_U(s->memuse, 0);
    CHECK(s->memuse_peak > 0);
    for (int e = 0; e < MON_DE__COUNT; e++)
        CHECK_EQ_U(st.event[e], 0);
    mon_defrag_destroy(df);
}

/* Deterministic generator for shuffles. */
static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

/* Every order of the fragments of one datagram gives the same datagram. */
static void test_orders(int v)
{
    enum { N = 5, SZ = 16 };
    uint8_t payload[N * SZ - 5];
    for (unsigned i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(i * 7 + 3);
    struct frag fr[N];
    for (int i = 0; i < N; i++) {
        uint32_t len = i == N - 1 ? sizeof payload - (N - 1) * SZ : SZ;
        mk(v, &fr[i], 77, i * SZ, i != N - 1, payload + i * SZ, len);
    }
    /* all 120 permutations, by Heap's algorithm */
    int perm[N], c[N] = {0}, done = 0, good = 0;
    for (int i = 0; i < N; i++)
        perm[i] = i;
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    for (int step = 0;; step++) {
        struct mon_decode_stats st = {0};
        const uint8_t *out = NULL;
        uint32_t out_len = 0;
        mon_defrag_begin_packet(df);
        int ok = 1;
        for (int k = 0; k < N; k++) {
            int r = feed(df, v, &fr[perm[k]], 1000 + k, &st, &out, &out_len);
            ok &= r == (k == N - 1 ? 1 : 0);
        }
        ok &= out_len == hdr_len(v, out) + sizeof payload &&
              memcmp(out + hdr_len(v, out), payload, sizeof payload) == 0;
        good += ok;
        done++;
        /* next permutation */
        int i = 0;
        while (i < N && c[i] >= i) {
            c[i] = 0;
            i++;
        }
        if (i == N)
            break;
        int j = i % 2 ? c[i] : 0;
        int tmp = perm[j];
        perm[j] = perm[i];
        perm[i] = tmp;
        c[i]++;
        (void)step;
    }
    CHECK_EQ_U(done, 120);
    CHECK_EQ_U(good, 120);
    CHECK_EQ_U(mon_defrag_stats(df)->reassembled, 120);
    CHECK_EQ_U(mon_defrag_stats(df)->overlaps, 0);
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
    mon_defrag_destroy(df);

    /* a bigger datagram, random orders, and random duplicates (same bytes) mixed in */
    enum { M = 40, MS = 24 };
    static uint8_t big[M * MS];
    for (unsigned i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(rng() & 0xff);
    df = mkdf(MON_POLICY_LAST);
    int ok_all = 1;
    for (int round = 0; round < 30; round++) {
        int order[M + 8];
        int n = 0;
        for (int i = 0; i < M; i++)
            order[n++] = i;
        for (int d = 0; d < (round % 3) * 4; d++)
            order[n++] = (int)(rng() % (M - 1)); /* duplicates, never the last fragment */
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(rng() % (uint32_t)(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        struct mon_decode_stats st = {0};
        const uint8_t *out = NULL;
        uint32_t out_len = 0;
        int completes = 0;
        mon_defrag_begin_packet(df);
        for (int k = 0; k < n; k++) {
            struct frag f;
            int i = order[k];
            mk(v, &f, 1000 + round, i * MS, i != M - 1, big + i * MS, MS);
            if (feed(df, v, &f, 5000, &st, &out, &out_len) == 1)
                completes++;
        }
        /* a duplicate that arrives after completion starts a new tracker: flush it */
        ok_all &= completes == 1;
        ok_all &= out_len == hdr_len(v, out) + sizeof big &&
                  memcmp(out + hdr_len(v, out), big, sizeof big) == 0;
        ok_all &= st.event[MON_DE_FRAG_OVERLAP_DIFF] == 0;
        mon_defrag_expire(df, 5000 + 61000000ull, NULL);
    }
    CHECK(ok_all);
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
    mon_defrag_destroy(df);
}

/* The Sturges/Novak pattern from Suricata's DefragDoSturgesNovakTest. */
static const struct { uint32_t off; uint32_t len; char c; int mf; } novak[17] = {
    {0, 24, 'A', 1},   {32, 16, 'B', 1},  {48, 24, 'C', 1},  {80, 8, 'D', 1},
    {104, 16, 'E', 1}, {120, 24, 'F', 1}, {144, 16, 'G', 1}, {160, 16, 'H', 1},
    {176, 8, 'I', 1},  {8, 32, 'J', 1},   {48, 24, 'K', 1},  {72, 24, 'L', 1},
    {96, 24, 'M', 1},  {128, 8, 'N', 1},  {152, 8, 'O', 1},  {160, 8, 'P', 1},
    {176, 16, 'Q', 0},
};

/* Expected bytes per 8-byte block (Suricata's DefragSturgesNovak*Test). */
static const char *const novak_expected[MON_POLICY__COUNT] = {
    [MON_POLICY_FIRST] = "AAAJBBCCCLDLMEEFFFGGHHIQ",
    [MON_POLICY_LAST] = "AJJJJBKKKLLLMMMFNFGOPHQQ",
    [MON_POLICY_BSD] = "AAAJJBCCCLLLMMMFFFGGHHIQ",
    [MON_POLICY_LINUX] = "AAAJJBKKKLLLMMMFFFGGPHQQ",
    [MON_POLICY_WINDOWS] = "AAAJBBCCCLLLMEEFFFGGHHIQ",
    [MON_POLICY_SOLARIS] = "AAAJBBCCCLLLMMMFFFGGHHIQ",
};

static void expand(const char *blocks, uint8_t *dst)
{
    for (size_t i = 0; blocks[i]; i++)
        memset(dst + 8 * i, blocks[i], 8);
}

/* Feed the pattern; return the reassembled payload (192 bytes) in got, 1 if complete. */
static int run_novak(struct mon_defrag *df, int v, uint32_t id, struct mon_decode_stats *st,
                     uint8_t *got)
{
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    int ok = 1;
    for (int i = 0; i < 17; i++) {
        uint64_t before = mon_defrag_stats(df)->overlaps;
        int r = feed_fill(df, v, id, novak[i].off, novak[i].mf, novak[i].c, novak[i].len,
                          2000 + i, st, &out, &out_len);
        ok &= r == (i == 16 ? 1 : 0);
        if (i < 9)
            ok &= mon_defrag_stats(df)->overlaps == before; /* originals do not overlap */
        else
            ok &= mon_defrag_stats(df)->overlaps == before + 1; /* every later one does */
    }
    if (!ok || !out)
        return 0;
    check_header(v, out, out_len, 192);
    memcpy(got, out + hdr_len(v, out), 192);
    return 1;
}

static void test_novak(int v)
{
    for (int pol = 0; pol < MON_POLICY__COUNT; pol++) {
        struct mon_defrag *df = mkdf((enum mon_overlap_policy)pol);
        struct mon_decode_stats st = {0};
        uint8_t got[192], want[192];
        expand(novak_expected[pol], want);
        CHECK(run_novak(df, v, 1, &st, got));
        if (memcmp(got, want, 192) != 0) {
            fprintf(stderr, "IPv%d %s: got  ", v, mon_policy_name((enum mon_overlap_policy)pol));
            for (int i = 0; i < 192; i += 8)
                fputc(got[i], stderr);
            fprintf(stderr, "\n           want %s\n", novak_expected[pol]);
        }
        CHECK(memcmp(got, want, 192) == 0);
        /* every overlapping fragment carried different data */
        CHECK_EQ_U(st.event[MON_DE_FRAG_OVERLAP_DIFF], 8);
        CHECK_EQ_U(mon_defrag_stats(df)->overlaps, 8);
        CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
        CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
        mon_defrag_destroy(df);
    }
}

/* Feed (off, mf, content) fragments, expect completion on the last one with payload want. */
struct piece {
    uint32_t off;
    int mf;
    const char *data;
};

static int run_pieces(int v, enum mon_overlap_policy pol, const struct piece *p, int n,
                      const char *want, struct mon_decode_stats *st)
{
    struct mon_defrag *df = mkdf(pol);
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    int r = 0, ok = 1;
    for (int i = 0; i < n; i++) {
        struct frag f;
        mk(v, &f, 6, p[i].off, p[i].mf, (const uint8_t *)p[i].data, (uint32_t)strlen(p[i].data));
        r = feed(df, v, &f, 100, st, &out, &out_len);
        if (i < n - 1)
            ok &= r != 1;
    }
    if (want) {
        ok &= r == 1 && out_len == hdr_len(v, out) + strlen(want) &&
              memcmp(out + hdr_len(v, out), want, strlen(want)) == 0;
    } else {
        ok &= r != 1;
    }
    mon_defrag_destroy(df);
    return ok;
}

/* Suricata's later overlap cases (BSD and Linux), and a fragment past the end. */
static void test_more_overlaps(int v)
{
    struct mon_decode_stats st = {0};
    /* DefragBsdFragmentAfterNoMf */
    static const struct piece after_nomf[] = {{24, 0, "AAAAAAAAAAAAAAAA"},
                                              {8, 1, "BBBBBBBBBBBBBBBB"},
                                              {16, 1, "CCCCCCCCCCCCCCCC"},
                                              {0, 1, "DDDDDDDD"}};
    CHECK(run_pieces(v, MON_POLICY_BSD, after_nomf, 4,
                     "DDDDDDDDBBBBBBBBBBBBBBBBCCCCCCCCAAAAAAAA", &st));
    /* DefragBsdSubsequentOverlapsStartOfOriginal */
    static const struct piece start_of_orig[] = {{8, 0, "EEEEEEEEEEEEEEEEEEEEEEEE"},
                                                 {0, 1, "MMMMMMMMMMMMMMMMMMMMMMMM"}};
    CHECK(run_pieces(v, MON_POLICY_BSD, start_of_orig, 2, "MMMMMMMMMMMMMMMMMMMMMMMMEEEEEEEE",
                     &st));
    /* DefragBsdSubsequentOverlapsStartOfOriginal_2 */
    static const struct piece start2[] = {{16, 1, "AABBCCDDAABBDDCC"},
                                          {8, 1, "AACCBBDDAACCDDBB"},
                                          {0, 1, "ZZZZZZZZ"},
                                          {32, 0, "DDCCBBAA"}};
    CHECK(run_pieces(v, MON_POLICY_BSD, start2, 4,
                     "ZZZZZZZZAACCBBDDAACCDDBBAABBDDCCDDCCBBAA", &st));
    /* DefragBsdMissingFragment: a hole at 32..40, never complete */
    static const struct piece missing[] = {{16, 1, "AABBCCDDAABBDDCC"},
                                           {40, 1, "AACCBBDD"},
                                           {8, 1, "AACCDDBBAADDBBCC"},
                                           {0, 1, "ZZZZZZZZ"},
                                           {48, 0, "DDCCBBAA"}};
    CHECK(run_pieces(v, MON_POLICY_BSD, missing, 5, NULL, &st));
    /* DefragTestJeremyLinux */
    static const struct piece jeremy[] = {
        {0, 1, "AAAAAAAAAAAAAAAAAAAAAAAA"},
        {40, 1, "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"},
        {24, 1, "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"},
        {88, 0, "DDDDDDDDDDDDDD"}};
    CHECK(run_pieces(v, MON_POLICY_LINUX, jeremy, 4,
                     "AAAAAAAAAAAAAAAAAAAAAAAACCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"
                     "BBBBBBBBBBBBBBBBDDDDDDDDDDDDDD",
                     &st));
    /* DefragMfIpv4Test: data past the last fragment's end is not part of the datagram */
    memset(&st, 0, sizeof st);
    static const struct piece mf[] = {{16, 1, "CCCCCCCC"}, {0, 1, "AAAAAAAA"}, {8, 0, "BBBBBBBB"}};
    CHECK(run_pieces(v, MON_POLICY_BSD, mf, 3, "AAAAAAAABBBBBBBB", &st));
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 1);
    /* ... and a fragment that straddles a known end is cut there */
    memset(&st, 0, sizeof st);
    static const struct piece straddle[] = {{8, 0, "BBBBBBBB"}, {0, 1, "AAAAAAAAAAAAAAAAAAAAAAAA"}};
    CHECK(run_pieces(v, MON_POLICY_LAST, straddle, 2, "AAAAAAAAAAAAAAAA", &st));
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_OVERLAP_DIFF], 1);
}

/* Overlaps with the same bytes are counted as overlaps, not as different data; different
 * data is counted once per fragment however many fragments it overlaps. */
static void test_overlap_counting(int v)
{
    struct mon_defrag *df = mkdf(MON_POLICY_FIRST);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    uint8_t data[64];
    for (int i = 0; i < 64; i++)
        data[i] = (uint8_t)i;
    struct frag f;
    mk(v, &f, 9, 0, 1, data, 16);
    CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), 0);
    mk(v, &f, 9, 8, 1, data + 8, 16); /* same bytes over 8..16 */
    CHECK_EQ_U(feed(df, v, &f, 2, &st, &out, &out_len), 0);
    CHECK_EQ_U(mon_defrag_stats(df)->overlaps, 1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_OVERLAP_DIFF], 0);
    uint8_t evil[24];
    memset(evil, 0xee, sizeof evil);
    mk(v, &f, 9, 0, 1, evil, 24); /* different bytes over two held fragments */
    CHECK_EQ_U(feed(df, v, &f, 3, &st, &out, &out_len), 0);
    CHECK_EQ_U(mon_defrag_stats(df)->overlaps, 2);
    CHECK_EQ_U(st.event[MON_DE_FRAG_OVERLAP_DIFF], 1);
    mk(v, &f, 9, 24, 0, data + 24, 40);
    CHECK_EQ_U(feed(df, v, &f, 4, &st, &out, &out_len), 1);
    CHECK(memcmp(out + hdr_len(v, out), data, 64) == 0); /* first wins: the evil bytes lost */
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
    mon_defrag_destroy(df);
}

/* Per-host policy: the destination picks the policy by longest prefix. */
static void test_host_policy(void)
{
    struct mon_host_policy hosts[4];
    memset(hosts, 0, sizeof hosts);
    hosts[0] = (struct mon_host_policy){.ipver = 4, .prefix = 8, .policy = MON_POLICY_WINDOWS,
                                        .net.b = {10}};
    hosts[1] = (struct mon_host_policy){.ipver = 4, .prefix = 16, .policy = MON_POLICY_LINUX,
                                        .net.b = {10, 1}};
    hosts[2] = (struct mon_host_policy){.ipver = 6, .prefix = 32, .policy = MON_POLICY_LAST,
                                        .net.b = {0x20, 0x01, 0x0d, 0xb8}};
    hosts[3] = (struct mon_host_policy){.ipver = 4, .prefix = 32, .policy = MON_POLICY_SOLARIS,
                                        .net.b = {10, 1, 2, 4}};
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    cfg.policy.entries = hosts;
    cfg.policy.n = 4;
    struct mon_defrag *df = mon_defrag_create(&cfg);
    memset(hosts, 0xff, sizeof hosts); /* the defragmenter keeps its own copy */

    static const struct {
        uint8_t dst[4];
        enum mon_overlap_policy want;
    } cases[] = {
        {{10, 1, 2, 3}, MON_POLICY_LINUX},     {{10, 2, 0, 1}, MON_POLICY_WINDOWS},
        {{192, 168, 0, 1}, MON_POLICY_BSD},    {{10, 1, 2, 4}, MON_POLICY_SOLARIS},
        {{11, 0, 0, 1}, MON_POLICY_BSD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mon_decode_stats st = {0};
        uint8_t got[192], want[192];
        memcpy(dst4, cases[i].dst, 4);
        expand(novak_expected[cases[i].want], want);
        CHECK(run_novak(df, 4, (uint32_t)(100 + i), &st, got));
        CHECK(memcmp(got, want, 192) == 0);
    }
    memcpy(dst4, (uint8_t[4]){2, 2, 2, 2}, 4);

    /* IPv6: 2001:db8::/32 is "last"; another prefix falls back to the default */
    struct mon_decode_stats st = {0};
    uint8_t got[192], want[192];
    expand(novak_expected[MON_POLICY_LAST], want);
    CHECK(run_novak(df, 6, 200, &st, got));
    CHECK(memcmp(got, want, 192) == 0);
    dst6[1] = 0x02; /* 2002:db8::2 */
    expand(novak_expected[MON_POLICY_BSD], want);
    CHECK(run_novak(df, 6, 201, &st, got));
    CHECK(memcmp(got, want, 192) == 0);
    dst6[1] = 0x01;
    mon_defrag_destroy(df);
}

static void test_timeout(int v)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    cfg.timeout_s = 10;
    struct mon_defrag *df = mon_defrag_create(&cfg);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    const uint64_t s = 1000000;

    /* explicit expiry: not before the timeout, then yes */
    CHECK_EQ_U(feed_fill(df, v, 1, 0, 1, 'A', 8, 100 * s, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 2, 0, 1, 'A', 8, 105 * s, &st, &out, &out_len), 0);
    mon_defrag_expire(df, 110 * s, &st);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 2);
    mon_defrag_expire(df, 110 * s + 1, &st);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_TIMEOUT], 1);
    mon_defrag_expire(df, 200 * s, &st);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
    CHECK_EQ_U(mon_defrag_stats(df)->timeouts, 2);
    CHECK_EQ_U(st.event[MON_DE_FRAG_TIMEOUT], 2);
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);

    /* lazy: a stale tracker never completes with fresh fragments, even unexpired */
    memset(&st, 0, sizeof st);
    CHECK_EQ_U(feed_fill(df, v, 3, 0, 1, 'A', 8, 300 * s, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 3, 8, 0, 'B', 8, 311 * s, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_TIMEOUT], 1);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 1);
    /* the fresh fragment started a tracker of its own, which the first fragment completes */
    CHECK_EQ_U(feed_fill(df, v, 3, 0, 1, 'C', 8, 312 * s, &st, &out, &out_len), 1);
    CHECK(memcmp(out + hdr_len(v, out), "CCCCCCCCBBBBBBBB", 16) == 0);

    /* the timeout runs from the first fragment: trickling fragments do not extend it */
    memset(&st, 0, sizeof st);
    CHECK_EQ_U(feed_fill(df, v, 4, 0, 1, 'A', 8, 400 * s, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 4, 8, 1, 'A', 8, 406 * s, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 4, 16, 0, 'A', 8, 411 * s, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_TIMEOUT], 1);
    mon_defrag_destroy(df); /* frees the live tracker: ASan checks */
}

static void test_memcap(int v)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    cfg.memcap = 16 * 1024;
    struct mon_defrag *df = mon_defrag_create(&cfg);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    int kept = 0;
    for (uint32_t id = 0; id < 200; id++) {
        int r = feed_fill(df, v, id, 0, 1, 'A', 1000, 1000, &st, &out, &out_len);
        CHECK_EQ_U(r, 0);
        CHECK(mon_defrag_stats(df)->memuse <= cfg.memcap);
        kept += st.event[MON_DE_FRAG_MEMCAP] == 0;
    }
    CHECK(kept > 3 && kept < 200);
    CHECK(st.event[MON_DE_FRAG_MEMCAP] > 0);
    CHECK_EQ_U(mon_defrag_stats(df)->memcap_drops, st.event[MON_DE_FRAG_MEMCAP]);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, (uint64_t)kept);
    CHECK(mon_defrag_stats(df)->memuse_peak <= cfg.memcap);

    /* new datagrams are refused, but those in progress still complete: the last quarter
     * of the memcap is theirs */
    uint64_t drops = st.event[MON_DE_FRAG_MEMCAP];
    CHECK_EQ_U(feed_fill(df, v, 999, 0, 1, 'A', 1000, 1000, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], drops + 1);
    CHECK_EQ_U(feed_fill(df, v, 0, 1000, 0, 'B', 8, 1000, &st, &out, &out_len), 1);
    CHECK_EQ_U(out_len, hdr_len(v, out) + 1008);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], drops + 1);
    /* fill up again; then stale trackers make room when one is needed */
    for (uint32_t id = 600; st.event[MON_DE_FRAG_MEMCAP] == drops + 1 && id < 700; id++)
        feed_fill(df, v, id, 0, 1, 'A', 1000, 1000, &st, &out, &out_len);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], drops + 2);
    memset(&st, 0, sizeof st);
    uint64_t later = 1000 + 61 * 1000000ull;
    CHECK_EQ_U(feed_fill(df, v, 500, 0, 1, 'X', 800, later, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 500, 800, 0, 'Y', 8, later, &st, &out, &out_len), 1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], 0);
    CHECK(st.event[MON_DE_FRAG_TIMEOUT] > 0);
    mon_defrag_destroy(df);

    /* the tracker limit */
    mon_defrag_cfg_defaults(&cfg);
    cfg.max_trackers = 2;
    df = mon_defrag_create(&cfg);
    memset(&st, 0, sizeof st);
    CHECK_EQ_U(feed_fill(df, v, 1, 0, 1, 'A', 8, 1000, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 2, 0, 1, 'A', 8, 1000, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 3, 0, 1, 'A', 8, 1000, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], 1);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 2);
    CHECK_EQ_U(feed_fill(df, v, 1, 8, 0, 'B', 8, 1000, &st, &out, &out_len), 1);
    CHECK_EQ_U(feed_fill(df, v, 3, 0, 1, 'A', 8, 1000, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], 1);
    mon_defrag_destroy(df);
}

static void test_max_frags(int v)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    cfg.max_frags = 4;
    struct mon_defrag *df = mon_defrag_create(&cfg);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    /* four fragments, one a duplicate, are fine */
    CHECK_EQ_U(feed_fill(df, v, 1, 0, 1, 'A', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 1, 8, 1, 'B', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 1, 8, 1, 'B', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 1, 16, 0, 'C', 8, 1, &st, &out, &out_len), 1);
    /* the fifth fragment of a datagram drops it */
    for (uint32_t i = 0; i < 4; i++)
        CHECK_EQ_U(feed_fill(df, v, 2, i * 8, 1, 'A', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MAX_FRAGS], 0);
    CHECK_EQ_U(feed_fill(df, v, 2, 32, 0, 'A', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_MAX_FRAGS], 1);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
    mon_defrag_destroy(df);
}

static void test_invalid(int v)
{
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    uint8_t zero[8] = {0};
    struct frag f;

    mk(v, &f, 1, 8, 0, zero, 0); /* empty (Suricata's DefragNoDataIpv4Test) */
    CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), -1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 1);
    CHECK_EQ_U(feed_fill(df, v, 1, 0, 1, 'A', 12, 1, &st, &out, &out_len), -1); /* not 8n */
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 2);
    /* past 64 KiB: Suricata's DefragTooLargeIpv4Test, and the IPv6 equivalent */
    CHECK_EQ_U(feed_fill(df, v, 1, 8183 * 8, 0, 'A', v == 4 ? 71 : 200, 1, &st, &out, &out_len),
               -1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_TOO_LARGE], 1);
    /* the largest fragment that fits is fine */
    CHECK_EQ_U(feed_fill(df, v, 1, 65000, 0, 'A', v == 4 ? 515 : 535, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_TOO_LARGE], 1);
    /* conflicting last fragments */
    CHECK_EQ_U(feed_fill(df, v, 5, 16, 0, 'A', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, v, 5, 16, 0, 'A', 16, 1, &st, &out, &out_len), -1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 3);
    /* a fragment wholly past the known end */
    CHECK_EQ_U(feed_fill(df, v, 5, 24, 1, 'A', 8, 1, &st, &out, &out_len), -1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 4);
    /* and the datagram still completes */
    CHECK_EQ_U(feed_fill(df, v, 5, 0, 1, 'B', 16, 1, &st, &out, &out_len), 1);
    CHECK(memcmp(out + hdr_len(v, out), "BBBBBBBBBBBBBBBBAAAAAAAA", 24) == 0);

    /* header problems */
    mk(v, &f, 6, 0, 1, zero, 8);
    f.b[0] = v == 4 ? 0x55 : 0x45; /* wrong version */
    CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), -1);
    CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 5);
    if (v == 6) {
        mk6(&f, 6, 0, 1, zero, 8);
        put16(f.b + 4, 0); /* jumbo payload length */
        CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), -1);
        mk6(&f, 6, 0, 1, zero, 8);
        put16(f.b + 4, 4); /* shorter than the Fragment header */
        CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), -1);
        mk6(&f, 6, 0, 1, zero, 8);
        put16(f.b + 4, 100); /* longer than the packet */
        CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), -1);
        mk6(&f, 6, 0, 1, zero, 8);
        CHECK_EQ_U(mon_defrag_ipv6(df, f.b, f.unfrag, 7, f.len, 1, &st, &out, &out_len), -1);
        CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 9);
    } else {
        mk4(&f, 6, 0, 1, zero, 8);
        put16(f.b + 2, 10); /* total length under the header length */
        CHECK_EQ_U(feed(df, v, &f, 1, &st, &out, &out_len), -1);
        mk4(&f, 6, 0, 1, zero, 8);
        CHECK_EQ_U(mon_defrag_ipv4(df, f.b, f.len - 1, 1, &st, &out, &out_len), -1); /* cut */
        CHECK_EQ_U(st.event[MON_DE_FRAG_INVALID], 7);
    }
    CHECK_EQ_U(st.event[MON_DE_FRAG_OVERLAP_DIFF], 0);
    mon_defrag_destroy(df);
}

/* Fragments of different protocols (IPv4) or addresses never mix. */
static void test_keys(void)
{
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    CHECK_EQ_U(feed_fill(df, 4, 12, 0, 1, 'A', 8, 1, &st, &out, &out_len), 0);
    proto4 = 17;
    CHECK_EQ_U(feed_fill(df, 4, 12, 8, 1, 'B', 8, 1, &st, &out, &out_len), 0);
    proto4 = 1;
    CHECK_EQ_U(feed_fill(df, 4, 12, 16, 0, 'C', 3, 1, &st, &out, &out_len), 0);
    dst4[3] = 3;
    CHECK_EQ_U(feed_fill(df, 4, 12, 8, 1, 'B', 8, 1, &st, &out, &out_len), 0);
    dst4[3] = 2;
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 3);
    /* an IPv6 datagram with the same id is separate too */
    CHECK_EQ_U(feed_fill(df, 6, 12, 8, 1, 'B', 8, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 4);
    CHECK_EQ_U(feed_fill(df, 4, 12, 8, 1, 'B', 8, 1, &st, &out, &out_len), 1);
    CHECK(memcmp(out + 20, "AAAAAAAABBBBBBBBCCC", 19) == 0);
    mon_defrag_destroy(df);
}

/* IPv4 options in the first fragment stay; a non-fragment passes through untouched. */
static void test_ipv4_header(void)
{
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    uint8_t data[24];
    memset(data, 'Z', sizeof data);
    struct frag f1, f2;
    mk4(&f2, 40, 16, 0, data, 8);
    put16(f2.b + 6, get16(f2.b + 6) | 0x4000); /* DF on a fragment: kept on the output */
    mk4_opts(&f1, 40, 0, 1, data, 16, 8);
    f1.b[1] = 0x2e; /* DSCP, to see the first fragment's header is the one used */
    put16(f1.b + 10, 0);
    put16(f1.b + 10, csum(f1.b, 28));
    CHECK_EQ_U(mon_defrag_ipv4(df, f2.b, f2.len, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(mon_defrag_ipv4(df, f1.b, f1.len, 1, &st, &out, &out_len), 1);
    CHECK_EQ_U(out_len, 28 + 24);
    CHECK_EQ_U(out[0], 0x47);
    CHECK_EQ_U(out[1], 0x2e);
    CHECK(memcmp(out + 20, f1.b + 20, 8) == 0);
    CHECK_EQ_U(get16(out + 2), 52);
    CHECK_EQ_U(get16(out + 6), 0); /* the first fragment had no DF */
    CHECK_EQ_U(csum(out, 28), 0);

    mk4(&f1, 41, 0, 0, data, 24);
    CHECK_EQ_U(mon_defrag_ipv4(df, f1.b, f1.len, 1, &st, &out, &out_len), 1);
    CHECK(out == f1.b);
    CHECK_EQ_U(out_len, f1.len);
    CHECK_EQ_U(mon_defrag_stats(df)->fragments, 2);
    CHECK_EQ_U(mon_defrag_stats(df)->reassembled, 1);
    mon_defrag_destroy(df);
}

/* IPv6: an unfragmentable Hop-by-Hop header stays, names the upper layer afterwards, and the
 * payload length covers it; an atomic fragment is passed on without its Fragment header. */
static void test_ipv6_header(void)
{
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    hbh6 = 1;
    CHECK_EQ_U(feed_fill(df, 6, 7, 8, 0, 'B', 5, 1, &st, &out, &out_len), 0);
    CHECK_EQ_U(feed_fill(df, 6, 7, 0, 1, 'A', 8, 1, &st, &out, &out_len), 1);
    CHECK_EQ_U(out_len, 48 + 13);
    CHECK_EQ_U(out[6], 0);       /* still Hop-by-Hop first */
    CHECK_EQ_U(out[40], 58);     /* which now names ICMPv6 */
    CHECK_EQ_U(get16(out + 4), 8 + 13);
    CHECK(memcmp(out + 48, "AAAAAAAABBBBB", 13) == 0);

    uint8_t data[10] = "atomicfrag";
    struct frag f;
    mk6(&f, 8, 0, 0, data, 10);
    CHECK_EQ_U(feed(df, 6, &f, 1, &st, &out, &out_len), 1);
    CHECK_EQ_U(out_len, 48 + 10);
    CHECK_EQ_U(out[40], 58);
    CHECK_EQ_U(get16(out + 4), 18);
    CHECK(memcmp(out + 48, "atomicfrag", 10) == 0);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
    hbh6 = 0;
    mk6(&f, 8, 0, 0, data, 10);
    CHECK_EQ_U(feed(df, 6, &f, 1, &st, &out, &out_len), 1);
    CHECK_EQ_U(out_len, 40 + 10);
    CHECK_EQ_U(out[6], 58);
    CHECK_EQ_U(get16(out + 4), 10);
    mon_defrag_destroy(df);
}

/* Outputs of one packet stay valid together (nested tunnels), up to DF_OUTPUTS (9) per
 * packet; mon_defrag_begin_packet() makes room again. */
static void test_nested_outputs(void)
{
    struct mon_defrag *df = mkdf(MON_POLICY_BSD);
    struct mon_decode_stats st = {0};
    const uint8_t *outs[12];
    uint32_t lens[12];
    int r[12];
    for (int round = 0; round < 3; round++) {
        mon_defrag_begin_packet(df);
        for (int i = 0; i < 12; i++) {
            int v = i % 2 ? 6 : 4;
            const uint8_t *o = NULL;
            uint32_t l = 0;
            feed_fill(df, v, 50 + i, 8, 0, (char)('a' + i), 8, 1, &st, &o, &l);
            r[i] = feed_fill(df, v, 50 + i, 0, 1, (char)('A' + i), 8, 1, &st, &o, &l);
            outs[i] = o;
            lens[i] = l;
        }
        int ok = 1;
        for (int i = 0; i < 9; i++) {
            int v = i % 2 ? 6 : 4;
            ok &= r[i] == 1 && lens[i] == hdr_len(v, outs[i]) + 16 &&
                  outs[i][hdr_len(v, outs[i])] == 'A' + i &&
                  outs[i][hdr_len(v, outs[i]) + 8] == 'a' + i;
        }
        CHECK(ok);
        for (int i = 9; i < 12; i++)
            CHECK_EQ_U(r[i], 0); /* out of output buffers: dropped, counted */
    }
    CHECK_EQ_U(st.event[MON_DE_FRAG_MEMCAP], 9);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
    mon_defrag_destroy(df);
}

/* Many datagrams interleaved: first and last fragments of all, then the middle ones. */
static void test_interleaved(void)
{
    struct mon_defrag *df = mkdf(MON_POLICY_LINUX);
    struct mon_decode_stats st = {0};
    const uint8_t *out = NULL;
    uint32_t out_len = 0;
    int completes = 0, ok = 1;
    for (uint32_t id = 0; id < 3000; id++) {
        int v = id % 3 ? 4 : 6;
        mon_defrag_begin_packet(df);
        completes += feed_fill(df, v, id, 0, 1, 'A', 64, 7, &st, &out, &out_len) == 1;
        completes += feed_fill(df, v, id, 128, 0, 'C', 10, 7, &st, &out, &out_len) == 1;
    }
    CHECK_EQ_U(completes, 0);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 3000);
    for (uint32_t id = 0; id < 3000; id++) {
        int v = id % 3 ? 4 : 6;
        mon_defrag_begin_packet(df);
        if (feed_fill(df, v, id, 64, 1, 'B', 64, 8, &st, &out, &out_len) == 1) {
            completes++;
            const uint8_t *p = out + hdr_len(v, out);
            ok &= out_len == hdr_len(v, out) + 138 && p[0] == 'A' && p[64] == 'B' &&
                  p[137] == 'C';
        }
    }
    CHECK(ok);
    CHECK_EQ_U(completes, 3000);
    CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
    CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
    CHECK_EQ_U(st.event[MON_DE_FRAG_OVERLAP_DIFF], 0);
    mon_defrag_destroy(df);
}

/* Random overlapping fragments against the plainest model of the policies: an owner per
 * byte, fragments applied in arrival order. */
static int ref_beats(int pol, uint32_t yo, uint32_t ye, uint32_t xo, uint32_t xe)
{
    switch (pol) {
    case MON_POLICY_FIRST: return 0;
    case MON_POLICY_LAST: return 1;
    case MON_POLICY_BSD: return yo < xo;
    case MON_POLICY_LINUX: return yo <= xo;
    case MON_POLICY_WINDOWS: return yo < xo && ye > xe;
    default: return yo < xo && ye >= xe; /* solaris */
    }
}

static void test_random_vs_model(int v)
{
    enum { MAXL = 256, MAXF = 64 };
    int ok = 1, diffs_ok = 1, rounds = 0;
    for (int pol = 0; pol < MON_POLICY__COUNT; pol++) {
        struct mon_defrag *df = mkdf((enum mon_overlap_policy)pol);
        for (int iter = 0; iter < 400; iter++) {
            uint32_t L = 16 + 8 * (rng() % (MAXL / 8 - 1)); /* datagram length */
            uint32_t fo[MAXF], fe[MAXF];
            uint8_t fd[MAXF][MAXL];
            int n = 0, k = (int)(rng() % 12);
            for (int i = 0; i < k; i++, n++) {
                fo[n] = 8 * (rng() % ((L - 8) / 8));
                fe[n] = fo[n] + 8 * (1 + rng() % ((L - 8 - fo[n]) / 8));
            }
            for (uint32_t o = 0; o < L - 8; o += 8, n++) { /* fill every block once more */
                fo[n] = o;
                fe[n] = o + 8;
            }
            fo[n] = L - 8; /* the last fragment, fed last */
            fe[n] = L;
            n++;
            for (int i = 0; i < n; i++)
                for (uint32_t b = fo[i]; b < fe[i]; b++)
                    fd[i][b] = (uint8_t)(rng() % 3); /* few values: equal overlaps happen */

            /* the model */
            int owner[MAXL];
            uint8_t want[MAXL];
            uint64_t want_diff = 0, want_ovl = 0;
            for (uint32_t b = 0; b < L; b++)
                owner[b] = -1;
            for (int i = 0; i < n; i++) {
                int ovl = 0, dif = 0;
                for (uint32_t b = fo[i]; b < fe[i]; b++) {
                    int x = owner[b];
                    if (x >= 0) {
                        ovl = 1;
                        dif |= want[b] != fd[i][b];
                    }
                    if (x < 0 || ref_beats(pol, fo[i], fe[i], fo[x], fe[x])) {
                        owner[b] = i;
                        want[b] = fd[i][b];
                    }
                }
                want_ovl += ovl;
                want_diff += dif;
            }

            struct mon_decode_stats st = {0};
            uint64_t ovl0 = mon_defrag_stats(df)->overlaps;
            const uint8_t *out = NULL;
            uint32_t out_len = 0;
            int r = 0;
            mon_defrag_begin_packet(df);
            for (int i = 0; i < n; i++) {
                struct frag f;
                mk(v, &f, (uint32_t)(7000 + iter), fo[i], i != n - 1, fd[i] + fo[i],
                   fe[i] - fo[i]);
                r = feed(df, v, &f, 1, &st, &out, &out_len);
                if (i < n - 1 && r != 0)
                    ok = 0;
            }
            ok &= r == 1 && out_len == hdr_len(v, out) + L &&
                  memcmp(out + hdr_len(v, out), want, L) == 0;
            diffs_ok &= st.event[MON_DE_FRAG_OVERLAP_DIFF] == want_diff &&
                        mon_defrag_stats(df)->overlaps - ovl0 == want_ovl;
            rounds++;
        }
        CHECK_EQ_U(mon_defrag_stats(df)->trackers_active, 0);
        CHECK_EQ_U(mon_defrag_stats(df)->memuse, 0);
        mon_defrag_destroy(df);
    }
    CHECK(ok);
    CHECK(diffs_ok);
    CHECK_EQ_U(rounds, 400 * MON_POLICY__COUNT);
}

/* Garbage in: never a crash, never a read past len (ASan watches), every call accounted. */
static void test_garbage(void)
{
    struct mon_defrag_cfg cfg;
    mon_defrag_cfg_defaults(&cfg);
    cfg.memcap = 64 * 1024;
    cfg.max_trackers = 50;
    struct mon_defrag *df = mon_defrag_create(&cfg);
    struct mon_decode_stats st = {0};
    int results[3] = {0};
    for (int i = 0; i < 30000; i++) {
        uint32_t len = rng() % 120;
        uint8_t *b = malloc(len ? len : 1); /* exact size, so ASan sees any overread */
        for (uint32_t j = 0; j < len; j++)
            b[j] = (uint8_t)rng();
        if (len) {
            b[0] = (uint8_t)((i % 2 ? 0x60 : 0x45) | (rng() % 4 == 0 ? rng() & 0x0f : 0));
            if (len > 8 && i % 2 == 0) {
                put16(b + 2, rng() % 4 ? len : rng() % 200);
                b[6] &= 0x3f; /* small offsets */
            }
            if (len > 48 && i % 2) {
                put16(b + 4, rng() % 4 ? len - 40 : rng() % 200);
                b[6] = 44;
                b[42] &= 0x01;
            }
        }
        const uint8_t *out = NULL;
        uint32_t out_len = 0;
        int r;
        mon_defrag_begin_packet(df);
        if (i % 2 == 0)
            r = mon_defrag_ipv4(df, b, len, (uint64_t)i * 1000, &st, &out, &out_len);
        else
            r = mon_defrag_ipv6(df, b, 40 + (rng() % 3 == 0 ? 8 : 0), rng() % 3 ? 6 : 40, len,
                                (uint64_t)i * 1000, &st, &out, &out_len);
        results[r + 1]++;
        if (r == 1 && out != b) {
            volatile uint8_t sink = 0;
            for (uint32_t j = 0; j < out_len; j++)
                sink ^= out[j];
            (void)sink;
        }
        free(b);
    }
    CHECK(results[0] > 0);
    CHECK(results[1] + results[2] > 0);
    CHECK(mon_defrag_stats(df)->memuse <= cfg.memcap);
    mon_defrag_destroy(df);
}

int main(void)
{
    test_defaults();
    for (int v = 4; v <= 6; v += 2) {
        test_simple(v, 0);
        test_simple(v, 1);
        test_orders(v);
        test_novak(v);
        test_more_overlaps(v);
        test_overlap_counting(v);
        test_timeout(v);
        test_memcap(v);
        test_max_frags(v);
        test_invalid(v);
        test_random_vs_model(v);
    }
    test_host_policy();
    test_keys();
    test_ipv4_header();
    test_ipv6_header();
    test_nested_outputs();
    test_interleaved();
    test_garbage();
    return unit_report("test_defrag");
}
