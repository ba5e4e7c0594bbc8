/* test_reasm.c — per-side reassembly: order, holes and gaps, retransmissions, overlap
 * policies (exact bytes), outrun, depth, no buffer, memcap, socket options. */
#include <stdio.h>

#include "tcp_internal.h" /* struct mon_reasm, to check its metadata stays bounded */
#include "test_tcp_util.h"

#define CI 1000u /* client ISN: its byte at offset o has sequence CI + 1 + o */
#define SI 5000u

static void est(struct tconn *c, const struct mon_tcp_cfg *cfg)
{
    tc_init(c, cfg);
    tc_handshake(c, CI, SI);
}

/* the client sends s at stream offset off; returns the receiver's bits */
static uint32_t cdata(struct tconn *c, uint64_t off, const char *s)
{
    struct ph r = tc_pkt(c, CLI, F_A | F_P, CI + 1u + (uint32_t)off, SI + 1, s, (uint32_t)strlen(s));
    return r.rcv;
}

static struct ph cdata_ph(struct tconn *c, uint64_t off, const char *s)
{
    return tc_pkt(c, CLI, F_A | F_P, CI + 1u + (uint32_t)off, SI + 1, s, (uint32_t)strlen(s));
}

/* the server acknowledges client bytes up to offset off */
static void sack(struct tconn *c, uint64_t off)
{
    tc_pkt(c, SVR, F_A, SI + 1, CI + 1u + (uint32_t)off, NULL, 0);
}

static size_t frags(struct tconn *c, int side, struct mon_frag *fr, size_t max)
{
    size_t len = max * sizeof *fr;
    int rc = tcp_getsockopt(&c->t, &c->f, side, MON_SO_FRAGS, fr, &len);
    CHECK(rc == MON_OK);
    return len / sizeof *fr;
}

static void test_order_and_holes(void)
{
    struct tconn c;
    est(&c, NULL);
    CHECK(c.f.tcp.side[SVR].rbuf == NULL); /* no data yet: no buffer */
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, (char[4]){0}, 4), MON_ENOBUF);
    CHECK_EQ_U(cdata(&c, 0, "AAAA"), EV_DATA);
    CHECK(c.f.tcp.side[CLI].rbuf == NULL); /* the client received nothing */
    CHECK_EQ_U(cdata(&c, 8, "CCCC"), 0);   /* out of order: no new in-order bytes */
    CHECK_EQ_U(cdata(&c, 16, "EEEE"), 0);
    struct mon_frag fr[8];
    CHECK_EQ_U(frags(&c, SVR, fr, 8), 3);
    CHECK(fr[0].off == 0 && fr[0].len == 4);
    CHECK(fr[1].off == 8 && fr[1].len == 4);
    CHECK(fr[2].off == 16 && fr[2].len == 4);
    char b[64];
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 10, 8), 4); /* an out-of-order run */
    CHECK(memcmp(b, "CCCC", 4) == 0);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 10, 5), MON_ERANGE); /* a hole */
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 2, 1), 2);
    CHECK(memcmp(b, "AA", 2) == 0);
    CHECK_EQ_U(cdata(&c, 4, "BBBB"), EV_DATA); /* fills the first hole */
    CHECK_EQ_U(frags(&c, SVR, fr, 8), 2);
    CHECK(fr[0].off == 0 && fr[0].len == 12);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 12);
    CHECK(strcmp(b, "AAAABBBBCCCC") == 0);
    CHECK_EQ_U(cdata(&c, 12, "DDDD"), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 8);
    CHECK(strcmp(b, "DDDDEEEE") == 0);
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi, &len) == MON_OK);
    CHECK_EQ_U(bi.init_seq, CI);
    CHECK_EQ_U(bi.head_off, 0);
    CHECK_EQ_U(bi.read_off, 20);
    CHECK_EQ_U(bi.tail_off, 20);
    CHECK_EQ_U(bi.size, 65536);
    CHECK_EQ_U(bi.held, 20);
    /* already-read bytes stay readable by offset */
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 3, 3), 3);
    CHECK(memcmp(b, "ABB", 3) == 0);
    CHECK_EQ_U(c.t.stats.gaps, 0);
    /* buffers start small and grow on demand: 20 bytes cost the first ring, not 64 KiB */
    CHECK(c.t.stats.reasm_memuse > REASM_INITIAL);
    CHECK(c.t.stats.reasm_memuse < REASM_INITIAL + 1024);
    tc_free(&c);
    CHECK_EQ_U(c.t.stats.reasm_memuse, 0);
}

static void test_gap_acked(void)
{
    struct tconn c;
    /* the reader keeps up: the hole is simply jumped */
    est(&c, NULL);
    char b[32];
    CHECK_EQ_U(cdata(&c, 0, "aa"), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 2);
    CHECK_EQ_U(cdata(&c, 4, "cc"), 0);
    sack(&c, 6); /* the server got bytes 2..3 that we never saw */
    CHECK_EQ_U(cdata(&c, 6, "dd"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP);
    CHECK_EQ_U(tc_err(&c, SVR), 0); /* fetched once */
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "ccdd") == 0);
    CHECK_EQ_U(c.t.stats.gaps, 1);
    /* the hole is still no data: not listed, not readable by offset, not compared */
    struct mon_frag fr0[4];
    CHECK_EQ_U(frags(&c, SVR, fr0, 4), 2);
    CHECK(fr0[0].off == 0 && fr0[0].len == 2 && fr0[1].off == 4 && fr0[1].len == 4);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 4, 2), MON_ERANGE);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 4, 0), 2);
    struct ph r0 = cdata_ph(&c, 1, "aXc");
    CHECK(r0.rx);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 0); /* 'a' and 'c' match; 'X' fell in the hole */
    struct mon_buf_info bi0;
    size_t bl = sizeof bi0;
    tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi0, &bl);
    CHECK_EQ_U(bi0.held, 6);
    tc_free(&c);

    /* a reader behind the hole: it reads up to it, then after it */
    est(&c, NULL);
    cdata(&c, 0, "aa");
    cdata(&c, 4, "cc");
    sack(&c, 6);
    CHECK_EQ_U(cdata(&c, 6, "dd"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 2);
    CHECK(memcmp(b, "aa", 2) == 0);
    struct mon_frag fr[4];
    CHECK_EQ_U(frags(&c, SVR, fr, 4), 2);
    CHECK(fr[0].off == 0 && fr[0].len == 2 && fr[1].off == 4 && fr[1].len == 4);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 4, 2), MON_ERANGE);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 4);
    CHECK(memcmp(b, "ccdd", 4) == 0);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 0);
    /* the bytes of the gap, arriving late, are only a retransmission */
    struct ph r = cdata_ph(&c, 2, "bb");
    CHECK(r.rx && r.rcv == 0);
    tc_free(&c);

    /* capture loss with nothing held: the acknowledged data never comes */
    est(&c, NULL);
    cdata(&c, 0, "12");
    sack(&c, 10);
    CHECK_EQ_U(cdata(&c, 10, "xy"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "12xy") == 0);
    tc_free(&c);
}

static void test_many_gaps(void)
{
    /* more holes than remembered, with a reader that does not read: the oldest leaves the
     * buffer with the bytes before it (an outrun) */
    struct tconn c;
    est(&c, NULL);
    for (int i = 0; i < 10; i++) {
        char d[3] = {(char)('a' + i), (char)('a' + i), 0};
        uint64_t off = (uint64_t)i * 4;
        sack(&c, off + 2 + 2); /* acknowledged past the hole after it */
        uint32_t ev = cdata(&c, off, d);
        CHECK(ev & EV_DATA);
    }
    CHECK_EQ_U(c.t.stats.gaps, 10);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP | MON_ERR_OUTRUN);
    char b[64];
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), MON_EOVERWRITTEN);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 16);
    CHECK(strcmp(b, "ccddeeffgghhiijj") == 0);
    tc_free(&c);
}

static void test_gap_before_any_buffer(void)
{
    /* the first bytes were lost by the capture and acknowledged: a gap, then the stream */
    struct tconn c;
    est(&c, NULL);
    sack(&c, 5);
    CHECK_EQ_U(cdata(&c, 5, "world"), EV_ERR | EV_DATA);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP);
    char b[16];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 5);
    struct mon_frag fr[2];
    CHECK_EQ_U(frags(&c, SVR, fr, 2), 1);
    CHECK(fr[0].off == 5 && fr[0].len == 5);
    tc_free(&c);
}

static void test_gap_at_close(void)
{
    struct tconn c;
    char b[16];
    /* a RST with a hole held: "cc" becomes readable before CONN_END */
    est(&c, NULL);
    cdata(&c, 0, "aa");
    cdata(&c, 4, "cc"); /* bytes 2..3 never came */
    struct ph r = tc_pkt(&c, CLI, F_R | F_A, CI + 7, SI + 1, NULL, 0);
    CHECK_EQ_U(r.snd, EV_SC);
    CHECK_EQ_U(r.rcv, EV_SC | EV_END | EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "aacc") == 0);
    tc_free(&c);

    /* a normal close where the server acknowledged bytes we missed */
    est(&c, NULL);
    cdata(&c, 0, "aa");
    cdata(&c, 4, "cc");
    tc_pkt(&c, CLI, F_F | F_A, CI + 7, SI + 1, NULL, 0);
    tc_pkt(&c, SVR, F_A, SI + 1, CI + 8, NULL, 0);
    tc_pkt(&c, SVR, F_F | F_A, SI + 1, CI + 8, NULL, 0);
    CHECK_EQ_U(tc_state(&c, SVR), MON_TCP_LAST_ACK);
    CHECK_EQ_U(tc_state(&c, CLI), MON_TCP_TIME_WAIT);
    r = tc_pkt(&c, CLI, F_A, CI + 8, SI + 2, NULL, 0);
    CHECK_EQ_U(r.rcv, EV_SC | EV_END | EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "aacc") == 0);
    tc_free(&c);
}

static void test_gap_max_frags(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.max_frags = 2;
    struct tconn c;
    est(&c, &cfg);
    CHECK_EQ_U(cdata(&c, 2, "b"), 0);
    CHECK_EQ_U(cdata(&c, 4, "d"), 0);
    /* a third run: the oldest hole is given up */
    CHECK_EQ_U(cdata(&c, 6, "f"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP);
    char b[16];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 1);
    CHECK(strcmp(b, "b") == 0);
    CHECK_EQ_U(cdata(&c, 3, "c"), EV_DATA); /* the next hole still fills */
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 2);
    CHECK(strcmp(b, "cd") == 0);
    tc_free(&c);
}

static void test_rexmit(void)
{
    struct tconn c;
    est(&c, NULL);
    cdata(&c, 0, "0123456789");
    cdata(&c, 20, "KLMNO"); /* held out of order */
    struct ph r;
    r = cdata_ph(&c, 0, "0123456789"); /* full, same */
    CHECK(r.rx && r.rcv == 0);
    CHECK_EQ_U(c.t.stats.rexmit, 1);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 0);
    r = cdata_ph(&c, 2, "2x4"); /* full (inside), different */
    CHECK(r.rx);
    CHECK_EQ_U(c.t.stats.rexmit, 2);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 1);
    r = cdata_ph(&c, 8, "89ab"); /* partial: old then new, same */
    CHECK(r.rx && r.rcv == EV_DATA);
    CHECK_EQ_U(c.t.stats.rexmit, 3);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 1);
    r = cdata_ph(&c, 10, "Ab"); /* partial, different ('a' was 'a', now 'A') */
    CHECK(r.rx);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 2);
    r = cdata_ph(&c, 21, "LM"); /* bytes held out of order, same */
    CHECK(r.rx);
    CHECK_EQ_U(c.t.stats.rexmit, 5);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 2);
    r = cdata_ph(&c, 24, "Oz"); /* partly held out of order, different? no: 'O' same */
    CHECK(r.rx);
    CHECK_EQ_U(c.t.stats.rexmit_diff, 2);
    r = cdata_ph(&c, 12, "cd"); /* new bytes: not a retransmission */
    CHECK(!r.rx && r.rcv == EV_DATA);
    /* in-order bytes are final, under every policy */
    char b[32];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 14);
    CHECK(strcmp(b, "0123456789abcd") == 0);
    CHECK_EQ_U(c.t.stats.rexmit, 6);
    tc_free(&c);
}

/* The Sturges/Novak pattern of stack/defrag/README.md moved 8 bytes up, the first 8 bytes
 * (Z) sent last, so every segment before it is out of order and the policy decides. */
struct seg {
    char id;
    unsigned off, len;
};
static const struct seg novak[] = {
    {'A', 0, 24},   {'B', 32, 16},  {'C', 48, 24},  {'D', 80, 8},   {'E', 104, 16},
    {'F', 120, 24}, {'G', 144, 16}, {'H', 160, 16}, {'I', 176, 8},  {'J', 8, 32},
    {'K', 48, 24},  {'L', 72, 24},  {'M', 96, 24},  {'N', 128, 8},  {'O', 152, 8},
    {'P', 160, 8},  {'Q', 176, 16},
};
static const char *const novak_expect[MON_POLICY__COUNT] = {
    [MON_POLICY_FIRST] = "AAAJBBCCCLDLMEEFFFGGHHIQ",
    [MON_POLICY_LAST] = "AJJJJBKKKLLLMMMFNFGOPHQQ",
    [MON_POLICY_BSD] = "AAAJJBCCCLLLMMMFFFGGHHIQ",
    [MON_POLICY_LINUX] = "AAAJJBCCCLLLMMMFFFGGHHQQ",
    [MON_POLICY_WINDOWS] = "AAAJJBCCCLLLMMMFFFGGHHIQ",
    [MON_POLICY_SOLARIS] = "AJJJBBKKKLLLMMMFFFGGHHQQ",
};

static void test_overlap_policies(void)
{
    for (int pol = 0; pol < MON_POLICY__COUNT; pol++) {
        struct tconn c;
        est(&c, NULL);
        int pv = pol;
        CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pv, sizeof pv) == MON_OK);
        char data[256];
        for (size_t i = 0; i < sizeof novak / sizeof novak[0]; i++) {
            memset(data, novak[i].id, novak[i].len);
            data[novak[i].len] = 0;
            CHECK_EQ_U(cdata(&c, 8 + novak[i].off, data), 0);
        }
        CHECK_EQ_U(cdata(&c, 0, "ZZZZZZZZ"), EV_DATA);
        char b[256], want[200];
        size_t n = tc_read(&c, SVR, b, sizeof b);
        CHECK_EQ_U(n, 200);
        memset(want, 'Z', 8);
        for (int k = 0; k < 24; k++)
            memset(want + 8 + 8 * k, novak_expect[pol][k], 8);
        if (n != 200 || memcmp(b, want, 200) != 0) {
            unit_fail++;
            fprintf(stderr, "policy %s: got ", mon_policy_name((enum mon_overlap_policy)pol));
            for (size_t k = 8; k < n; k += 8)
                fputc(b[k], stderr);
            fputc('\n', stderr);
        }
        /* 8 of the 17 segments overlap held bytes, all with different bytes */
        CHECK_EQ_U(c.t.stats.overlaps, 8);
        CHECK_EQ_U(c.t.stats.overlap_diff, 8);
        tc_free(&c);
    }
}

/* Small named cases of each rule: X held [4,12) "xxxxxxxx", then Y, then "_" up to Y or X,
 * whichever starts first (so the filler overlaps nothing). */
static void one_overlap(int pol, unsigned yo, unsigned yl, const char *want)
{
    struct tconn c;
    est(&c, NULL);
    int pv = pol;
    tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pv, sizeof pv);
    cdata(&c, 4, "xxxxxxxx");
    char y[32];
    memset(y, 'y', yl);
    y[yl] = 0;
    cdata(&c, yo, y);
    cdata(&c, 0, yo < 4 ? (yo == 2 ? "__" : "") : "____");
    char b[64];
    tc_read(&c, SVR, b, sizeof b);
    if (strcmp(b, want) != 0) {
        unit_fail++;
        fprintf(stderr, "policy %s, y at %u+%u: got %s want %s\n",
                mon_policy_name((enum mon_overlap_policy)pol), yo, yl, b, want);
    } else {
        unit_pass++;
    }
    tc_free(&c);
}

static void test_overlap_cases(void)
{
    /* same start, same end */
    one_overlap(MON_POLICY_BSD, 4, 8, "____xxxxxxxx");
    one_overlap(MON_POLICY_LINUX, 4, 8, "____xxxxxxxx");
    one_overlap(MON_POLICY_SOLARIS, 4, 8, "____yyyyyyyy");
    one_overlap(MON_POLICY_LAST, 4, 8, "____yyyyyyyy");
    /* same start, longer */
    one_overlap(MON_POLICY_BSD, 4, 10, "____xxxxxxxxyy");
    one_overlap(MON_POLICY_LINUX, 4, 10, "____yyyyyyyyyy");
    one_overlap(MON_POLICY_WINDOWS, 4, 10, "____xxxxxxxxyy");
    one_overlap(MON_POLICY_SOLARIS, 4, 10, "____yyyyyyyyyy");
    one_overlap(MON_POLICY_FIRST, 4, 10, "____xxxxxxxxyy");
    /* starts before, ends inside */
    one_overlap(MON_POLICY_BSD, 2, 6, "__yyyyyyxxxx");
    one_overlap(MON_POLICY_SOLARIS, 2, 6, "__yyxxxxxxxx");
    one_overlap(MON_POLICY_FIRST, 2, 6, "__yyxxxxxxxx");
    /* starts before, covers it */
    one_overlap(MON_POLICY_WINDOWS, 2, 12, "__yyyyyyyyyyyy");
    one_overlap(MON_POLICY_SOLARIS, 2, 10, "__yyyyyyyyyy");
    one_overlap(MON_POLICY_FIRST, 2, 12, "__yyxxxxxxxxyy");
    /* inside */
    one_overlap(MON_POLICY_LAST, 6, 2, "____xxyyxxxx");
    one_overlap(MON_POLICY_BSD, 6, 2, "____xxxxxxxx");
    /* starts inside, ends after */
    one_overlap(MON_POLICY_BSD, 8, 8, "____xxxxxxxxyyyy");
    one_overlap(MON_POLICY_SOLARIS, 8, 8, "____xxxxyyyyyyyy");
    one_overlap(MON_POLICY_LINUX, 8, 8, "____xxxxxxxxyyyy");
    /* starts inside, ends with it */
    one_overlap(MON_POLICY_SOLARIS, 8, 4, "____xxxxxxxx");
}

/* A brute-force model: each byte remembers the segment that owns it. */
static bool model_beats(int pol, unsigned yo, unsigned ye, unsigned xo, unsigned xe)
{
    switch (pol) {
    case MON_POLICY_FIRST: return false;
    case MON_POLICY_LAST: return true;
    case MON_POLICY_BSD:
    case MON_POLICY_WINDOWS: return yo < xo;
    case MON_POLICY_LINUX: return yo < xo || (yo == xo && ye > xe);
    default: return ye > xe || (ye == xe && yo <= xo);
    }
}

static void test_overlap_model(void)
{
    srand(42);
    for (int iter = 0; iter < 600; iter++) {
        int pol = iter % MON_POLICY__COUNT;
        struct tconn c;
        est(&c, NULL);
        tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pol, sizeof pol);
        enum { SPAN = 120 };
        int owner[SPAN];
        unsigned oo[64], oe[64];
        for (int i = 0; i < SPAN; i++)
            owner[i] = -1;
        int nseg = 2 + rand() % 30;
        for (int s = 0; s < nseg; s++) {
            unsigned o = 4 + (unsigned)(rand() % (SPAN - 20)), l = 1 + (unsigned)(rand() % 16);
            oo[s] = o, oe[s] = o + l;
            char d[32];
            for (unsigned k = 0; k < l; k++)
                d[k] = (char)('A' + s % 26 + (k % 2) * 0); /* one letter per segment */
            d[l] = 0;
            for (unsigned k = o; k < o + l; k++)
                if (owner[k] < 0 || model_beats(pol, o, o + l, oo[owner[k]], oe[owner[k]]))
                    owner[k] = s;
            cdata(&c, o, d);
        }
        cdata(&c, 0, "____");
        /* what is in order after the fill: 0..3 and then owners up to the first hole */
        char want[SPAN + 1];
        unsigned n = 4;
        memcpy(want, "____", 4);
        while (n < SPAN && owner[n] >= 0) {
            want[n] = (char)('A' + owner[n] % 26);
            n++;
        }
        want[n] = 0;
        char b[SPAN + 8];
        size_t got = tc_read(&c, SVR, b, sizeof b);
        if (got != n || memcmp(b, want, n) != 0) {
            unit_fail++;
            fprintf(stderr, "model (%s, iter %d): got %.*s\n                  want %s\n",
                    mon_policy_name((enum mon_overlap_policy)pol), iter, (int)got, b, want);
        } else {
            unit_pass++;
        }
        /* and the out-of-order runs are where the model says */
        struct mon_frag fr[64];
        size_t nf = frags(&c, SVR, fr, 64);
        CHECK(nf >= 1 && fr[0].off == 0 && fr[0].len == n);
        size_t k = 1;
        for (unsigned i = n; i < SPAN;) {
            if (owner[i] < 0) {
                i++;
                continue;
            }
            unsigned e = i;
            while (e < SPAN && owner[e] >= 0)
                e++;
            CHECK(k < nf && fr[k].off == i && fr[k].len == e - i);
            char pb[SPAN];
            CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, pb, SPAN, i), e - i);
            for (unsigned j = i; j < e; j++)
                if (pb[j - i] != (char)('A' + owner[j] % 26)) {
                    unit_fail++;
                    fprintf(stderr, "model (%s, iter %d): ooo byte %u\n",
                            mon_policy_name((enum mon_overlap_policy)pol), iter, j);
                    break;
                }
            k++;
            i = e;
        }
        CHECK_EQ_U(k, nf);
        tc_free(&c);
    }
}

static void test_outrun(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.buf_size = 16;
    struct tconn c;
    est(&c, &cfg);
    CHECK_EQ_U(cdata(&c, 0, "0123456789"), EV_DATA);
    /* nobody read: 4 unread bytes must go */
    CHECK_EQ_U(cdata(&c, 10, "abcdefghij"), EV_DATA | EV_ERR);
    CHECK_EQ_U(c.t.stats.outruns, 1);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_OUTRUN);
    char b[64];
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), MON_EOVERWRITTEN);
    /* then from the oldest byte still held */
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 16);
    CHECK(memcmp(b, "456789abcdefghij", 16) == 0);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 0);
    /* all read: forgetting read bytes is no outrun */
    CHECK_EQ_U(cdata(&c, 20, "KLMNOPQRST"), EV_DATA);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), 10);
    CHECK_EQ_U(c.t.stats.outruns, 1);
    /* a segment longer than the buffer: its first bytes pass unread */
    CHECK_EQ_U(cdata(&c, 30, "0123456789ABCDEFGHIJ"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), MON_EOVERWRITTEN);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 16);
    CHECK(strcmp(b, "456789ABCDEFGHIJ") == 0);
    /* out-of-order data too far ahead to keep with the hole: the hole goes */
    CHECK_EQ_U(cdata(&c, 52, "xy"), 0);
    CHECK_EQ_U(cdata(&c, 70, "zz"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP | MON_ERR_OUTRUN);
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi, &len);
    CHECK_EQ_U(bi.tail_off, 72); /* past the skipped hole, "zz" is in order */
    CHECK_EQ_U(bi.held, 2);
    /* "xy" had to go unread to make room: an overwrite; then the reader jumps the hole */
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, sizeof b), MON_EOVERWRITTEN);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 2);
    CHECK(strcmp(b, "zz") == 0);
    tc_free(&c);
}

static void test_depth(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.depth = 10;
    struct tconn c;
    est(&c, &cfg);
    CHECK_EQ_U(cdata(&c, 0, "012345"), EV_DATA);
    CHECK_EQ_U(cdata(&c, 6, "6789ab"), EV_DATA | EV_DEPTH);
    CHECK_EQ_U(cdata(&c, 12, "cdef"), 0); /* not reassembled any more */
    CHECK_EQ_U(c.t.stats.depth_reached, 1);
    CHECK(c.f.tcp.side[SVR].flags & MON_TCPF_DEPTH);
    char b[32];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 10);
    CHECK(strcmp(b, "0123456789") == 0);
    /* state tracking goes on */
    struct ph r = tc_pkt(&c, CLI, F_F | F_A, CI + 17, SI + 1, NULL, 0);
    CHECK_EQ_U(r.rcv, EV_SC);
    CHECK_EQ_U(tc_state(&c, SVR), MON_TCP_CLOSE_WAIT);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_off, 16);
    /* retransmissions are still recognised past the depth */
    r = cdata_ph(&c, 12, "cd");
    CHECK(r.rx);
    uint32_t d = 0;
    size_t len = sizeof d;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_DEPTH, &d, &len) == MON_OK && d == 10);
    tc_free(&c);

    /* depth set on the side (MON_SO_DEPTH), and the other side unlimited */
    est(&c, NULL);
    d = 3;
    CHECK(tcp_setsockopt(&c.t, &c.f, CLI, MON_SO_DEPTH, &d, sizeof d) == MON_OK);
    r = tc_pkt(&c, SVR, F_A, SI + 1, CI + 1, "abcdef", 6);
    CHECK_EQ_U(r.rcv, EV_DATA | EV_DEPTH);
    CHECK_EQ_U(tc_read(&c, CLI, b, sizeof b), 3);
    CHECK_EQ_U(cdata(&c, 0, "abcdef"), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 6);
    tc_free(&c);
}

static void test_no_buffer(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.buf_size = 0;
    struct tconn c;
    est(&c, &cfg);
    CHECK_EQ_U(cdata(&c, 0, "abc"), 0); /* no reassembly: no data events */
    CHECK(c.f.tcp.side[SVR].rbuf == NULL);
    char b[8];
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, 8), MON_ENOBUF);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 8, 0), MON_ENOBUF);
    struct ph r = cdata_ph(&c, 0, "abc");
    CHECK(r.rx); /* still known as received */
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_off, 3);
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi, &len) == MON_OK);
    CHECK(bi.size == 0 && bi.held == 0 && bi.tail_off == 3);
    struct mon_frag fr[2];
    CHECK_EQ_U(frags(&c, SVR, fr, 2), 0);
    tc_pkt(&c, CLI, F_F | F_A, CI + 4, SI + 1, NULL, 0);
    CHECK_EQ_U(tc_state(&c, SVR), MON_TCP_CLOSE_WAIT);
    CHECK_EQ_U(c.t.stats.reasm_memuse, 0);
    /* turned on later: the stream starts where it stands */
    tc_free(&c);
    est(&c, &cfg);
    cdata(&c, 0, "abc");
    uint32_t sz = 64;
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, sizeof sz) == MON_OK);
    CHECK_EQ_U(cdata(&c, 3, "def"), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 3);
    CHECK(strcmp(b, "def") == 0);
    tc_free(&c);
}

static void test_ring_grows_on_demand(void)
{
    struct tconn c;
    est(&c, NULL);
    static char big[20001];
    memset(big, 'g', 20000);
    big[20000] = 0;
    uint64_t before = c.t.stats.reasm_memuse;
    CHECK_EQ_U(cdata(&c, 0, "head"), EV_DATA);
    CHECK(c.t.stats.reasm_memuse - before < REASM_INITIAL + 1024);
    /* 20 KB unread: the ring doubles to 32 KiB instead of overwriting anything */
    CHECK_EQ_U(cdata(&c, 4, big), EV_DATA);
    CHECK_EQ_U(c.f.tcp.side[SVR].rbuf->size, 32768);
    CHECK_EQ_U(c.t.stats.outruns, 0);
    char b[8];
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, 5), 5);
    CHECK(memcmp(b, "headg", 5) == 0);
    tc_free(&c);
    CHECK_EQ_U(c.t.stats.reasm_memuse, 0);
}

static void test_memcap(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    /* one side's first ring fits, a second does not */
    cfg.memcap = sizeof(struct mon_reasm) + REASM_INITIAL + REASM_INITIAL / 2;
    struct tconn c;
    est(&c, &cfg);
    CHECK_EQ_U(cdata(&c, 0, "abc"), EV_DATA);
    /* a second flow in the same context */
    struct mon_flow first = c.f;
    memset(&c.f, 0, sizeof c.f);
    c.f.proto = 6, c.f.ipver = 4;
    c.started = c.live = false;
    tc_handshake(&c, CI, SI);
    CHECK_EQ_U(cdata(&c, 0, "xyz"), EV_ERR);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_MEMCAP);
    CHECK_EQ_U(cdata(&c, 3, "uvw"), 0); /* reported once */
    CHECK_EQ_U(c.t.stats.memcap_hits, 1);
    char b[8];
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, 8), MON_ENOBUF);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_off, 6); /* still tracked */
    /* once memory is back, the buffer comes: after a gap */
    tcp_conn_free(&c.t, &first);
    CHECK_EQ_U(cdata(&c, 6, "rst"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 3);
    CHECK(strcmp(b, "rst") == 0);
    tc_free(&c);
    CHECK_EQ_U(c.t.stats.reasm_memuse, 0);
}

/* At the memcap, a new stream's buffer is taken from the held out-of-order data of the least
 * recently active other stream (reasm_reclaim.c); what that stream loses becomes a gap once its
 * receiver acknowledges past it. */
static void test_memcap_reclaim(void)
{
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    /* the first stream's grown ring fits; a second buffer fits only if that ring shrinks */
    cfg.memcap = 2 * sizeof(struct mon_reasm) + 2 * REASM_INITIAL + 512; /* + pieces */
    struct tconn c;
    est(&c, &cfg);
    static char far[101];
    memset(far, 'f', 100);
    CHECK_EQ_U(cdata(&c, 5000, far), 0); /* held above a hole: the ring grows to 8 KiB */
    CHECK_EQ_U(c.f.tcp.side[SVR].rbuf->size, 2 * REASM_INITIAL);
    uint64_t held = c.t.stats.reasm_memuse;
    struct mon_flow first = c.f;
    memset(&c.f, 0, sizeof c.f);
    c.f.proto = 6, c.f.ipver = 4;
    c.started = c.live = false;
    tc_handshake(&c, CI, SI);
    c.t.pkt_events = 0;
    CHECK_EQ_U(cdata(&c, 0, "new"), EV_DATA); /* no memcap error: the buffer came */
    CHECK_EQ_U(c.t.stats.memcap_hits, 0);
    CHECK_EQ_U(c.t.stats.reclaims, 1);
    CHECK(c.t.pkt_events & (1u << MON_TE_REASM_RECLAIM));
    CHECK_EQ_U(c.t.stats.reclaimed_bytes, held - sizeof(struct mon_reasm) - REASM_INITIAL);
    char b[8];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 3);
    CHECK(strcmp(b, "new") == 0);
    /* the reclaimed stream: nothing held any more, a smaller ring; it goes on */
    struct mon_flow second = c.f;
    c.f = first;
    CHECK_EQ_U(c.f.tcp.side[SVR].rbuf->npc, 0);
    CHECK_EQ_U(c.f.tcp.side[SVR].rbuf->size, REASM_INITIAL);
    CHECK_EQ_U(cdata(&c, 0, "abc"), EV_DATA);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 3);
    sack(&c, 5100); /* the host got the bytes we freed: a gap, as for capture loss */
    CHECK_EQ_U(cdata(&c, 5100, "zz"), EV_DATA | EV_ERR);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_GAP);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 2);
    CHECK(strcmp(b, "zz") == 0);
    /* the holder list forgets freed streams */
    tcp_conn_free(&c.t, &c.f);
    c.f = second;
    CHECK_EQ_U(cdata(&c, 50, "later"), 0);
    CHECK(c.t.hold_first == c.f.tcp.side[SVR].rbuf && c.t.hold_last == c.t.hold_first);
    tc_free(&c);
    CHECK(c.t.hold_first == NULL && c.t.hold_last == NULL);
    CHECK_EQ_U(c.t.stats.reasm_memuse, 0);
}

static void test_sockopts(void)
{
    struct tconn c;
    est(&c, NULL);
    cdata(&c, 0, "0123");
    cdata(&c, 10, "ab");
    cdata(&c, 20, "cd");
    int st = -1;
    size_t len = sizeof st;
    CHECK(tcp_getsockopt(&c.t, &c.f, CLI, MON_SO_TCP_STATE, &st, &len) == MON_OK);
    CHECK_EQ_U(st, MON_TCP_ESTABLISHED);
    len = 1;
    CHECK_EQ_U(tcp_getsockopt(&c.t, &c.f, CLI, MON_SO_TCP_STATE, &st, &len), MON_EINVAL);
    /* frags: a buffer too small says how much is needed */
    struct mon_frag fr[3];
    len = sizeof fr[0];
    CHECK_EQ_U(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_FRAGS, fr, &len), MON_ERANGE);
    CHECK_EQ_U(len, 3 * sizeof fr[0]);
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_FRAGS, fr, &len) == MON_OK);
    CHECK_EQ_U(len, 3 * sizeof fr[0]);
    CHECK(fr[0].off == 0 && fr[0].len == 4 && fr[1].off == 10 && fr[2].off == 20);
    len = 0;
    CHECK_EQ_U(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_FRAGS, NULL, &len), MON_ERANGE);
    CHECK_EQ_U(len, 3 * sizeof fr[0]);
    /* policy: the default, then set */
    int pol = -1;
    len = sizeof pol;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pol, &len) == MON_OK);
    CHECK_EQ_U(pol, MON_POLICY_BSD);
    pol = MON_POLICY_LINUX;
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pol, sizeof pol) == MON_OK);
    pol = 99;
    CHECK_EQ_U(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pol, sizeof pol), MON_EINVAL);
    len = sizeof pol;
    tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_POLICY, &pol, &len);
    CHECK_EQ_U(pol, MON_POLICY_LINUX);
    /* buffer size: growing keeps everything, in order and not */
    uint32_t sz = 0;
    len = sizeof sz;
    CHECK(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, &len) == MON_OK && sz == 65536);
    sz = 100000;
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, sizeof sz) == MON_OK);
    CHECK_EQ_U(cdata(&c, 4, "456789"), EV_DATA);
    char b[64];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 12);
    CHECK(strcmp(b, "0123456789ab") == 0);
    /* shrinking keeps what fits */
    sz = 8;
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, sizeof sz) == MON_OK);
    struct mon_buf_info bi;
    len = sizeof bi;
    tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi, &len);
    CHECK_EQ_U(bi.size, 8);
    CHECK_EQ_U(bi.head_off, 4);
    CHECK_EQ_U(bi.tail_off, 12);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 8, 4), 8);
    CHECK(memcmp(b, "456789ab", 8) == 0);
    CHECK_EQ_U(tc_err(&c, SVR), 0); /* all of it had been read */
    /* 0: no more reassembly, the buffer goes */
    sz = 0;
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, sizeof sz) == MON_OK);
    CHECK(c.f.tcp.side[SVR].rbuf == NULL);
    CHECK_EQ_U(cdata(&c, 12, "zz"), 0);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_off, 14);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, 8), MON_ENOBUF);
    /* bad arguments */
    CHECK_EQ_U(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, 2), MON_EINVAL);
    CHECK_EQ_U(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_TCP_STATE, &sz, sizeof sz), MON_EINVAL);
    CHECK_EQ_U(tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_STOP_MONITOR, &sz, &len), MON_EINVAL);
    CHECK_EQ_U(tcp_getsockopt(&c.t, &c.f, 2, MON_SO_BUF_SIZE, &sz, &len), MON_EINVAL);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, 5, b, 8), MON_EINVAL);
    tc_free(&c);

    /* shrinking over unread bytes is an outrun */
    est(&c, NULL);
    cdata(&c, 0, "0123456789");
    sz = 4;
    CHECK(tcp_setsockopt(&c.t, &c.f, SVR, MON_SO_BUF_SIZE, &sz, sizeof sz) == MON_OK);
    CHECK_EQ_U(tc_err(&c, SVR), MON_ERR_OUTRUN);
    CHECK_EQ_U(tcp_peek(&c.t, &c.f, SVR, b, 8), MON_EOVERWRITTEN);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "6789") == 0);
    tc_free(&c);
}

static void test_many_pieces(void)
{
    /* a flood of tiny adjacent out-of-order segments: metadata stays bounded, bytes exact */
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.max_frags = 2; /* pieces are merged past 2 * 2 + 16 */
    struct tconn c;
    est(&c, &cfg);
    char want[301];
    for (int i = 300; i >= 2; i--) { /* backwards: none merges with the run by position */
        char d[2] = {(char)('a' + i % 26), 0};
        want[i] = d[0];
        CHECK_EQ_U(cdata(&c, (uint64_t)i, d), 0);
    }
    CHECK(c.f.tcp.side[SVR].rbuf->npc <= 2 * 2 + 16);
    struct mon_frag fr[4];
    CHECK_EQ_U(frags(&c, SVR, fr, 4), 1); /* nothing in order yet: one out-of-order run */
    CHECK(fr[0].off == 2 && fr[0].len == 299);
    want[0] = '<', want[1] = '>';
    CHECK_EQ_U(cdata(&c, 0, "<>"), EV_DATA);
    char b[400];
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 301);
    CHECK(memcmp(b, want, 301) == 0);
    tc_free(&c);
}

static void test_offsets_past_4g(void)
{
    /* the receiver acknowledges ~1 GiB we never saw, five times: offsets pass 2^32 while
     * sequence numbers wrap, and stay exact */
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.depth = 0; /* unlimited */
    struct tconn c;
    tc_init(&c, &cfg);
    c.wscale[CLI] = c.wscale[SVR] = 14;
    tc_handshake(&c, CI, SI);
    uint64_t off = 0;
    char b[16];
    for (int round = 0; round < 5; round++) {
        off += 1000000000ull;
        sack(&c, off);
        CHECK_EQ_U(cdata(&c, off, "0123"), EV_DATA | EV_ERR);
        CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
        CHECK(strcmp(b, "0123") == 0);
        off += 4;
    }
    struct mon_buf_info bi;
    size_t len = sizeof bi;
    tcp_getsockopt(&c.t, &c.f, SVR, MON_SO_BUF_INFO, &bi, &len);
    CHECK_EQ_U(bi.tail_off, 5000000020ull);
    CHECK_EQ_U(c.f.tcp.side[SVR].rcv_off, 5000000020ull);
    CHECK_EQ_U(tcp_ppeek(&c.t, &c.f, SVR, b, 4, 5000000016ull), 4);
    CHECK(memcmp(b, "0123", 4) == 0);
    /* in order past 2^32 bytes, and a retransmission there is recognised */
    struct ph r = cdata_ph(&c, 5000000020ull, "next");
    CHECK_EQ_U(r.rcv, EV_DATA);
    r = cdata_ph(&c, 5000000018ull, "23ne");
    CHECK(r.rx && r.rcv == 0);
    CHECK_EQ_U(tc_read(&c, SVR, b, sizeof b), 4);
    CHECK(strcmp(b, "next") == 0);
    CHECK_EQ_U(c.t.stats.gaps, 5);
    tc_free(&c);
}

static void test_policy_lookup(void)
{
    /* the policy of a stream is the receiving host's */
    struct mon_host_policy hp[1] = {{.ipver = 4, .prefix = 32, .policy = MON_POLICY_SOLARIS}};
    hp[0].net.b[0] = 10, hp[0].net.b[3] = 2; /* the server */
    struct mon_tcp_cfg cfg;
    mon_tcp_cfg_defaults(&cfg);
    cfg.policy.dflt = MON_POLICY_FIRST;
    cfg.policy.n = 1;
    cfg.policy.entries = hp;
    struct tconn c;
    est(&c, &cfg);
    CHECK_EQ_U(c.f.tcp.side[SVR].policy, MON_POLICY_SOLARIS);
    CHECK_EQ_U(c.f.tcp.side[CLI].policy, MON_POLICY_FIRST);
    tc_free(&c);
}

int main(void)
{
    test_ring_grows_on_demand();
    test_order_and_holes();
    test_gap_acked();
    test_many_gaps();
    test_gap_before_any_buffer();
    test_gap_at_close();
    test_gap_max_frags();
    test_rexmit();
    test_overlap_policies();
    test_overlap_cases();
    test_overlap_model();
    test_outrun();
    test_depth();
    test_no_buffer();
    test_memcap();
    test_memcap_reclaim();
    test_sockopts();
    test_many_pieces();
    test_offsets_past_4g();
    test_policy_lookup();
    return unit_report("test_reasm");
}
