/* test_pcre_jit.c — a compiled regex is JIT-compiled by its first search, not before
 * (opt_pcre.c), and searches give the same answers either way, from one thread or several
 * racing for the first search of one regex. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <string.h>

#include "opt_args.h"
#include "opt_eval.h"
#include "unit.h"

static size_t jit_size(const void *code)
{
    size_t n = 0;
    if (pcre2_pattern_info(pcre_code_pcre2(code), PCRE2_INFO_JITSIZE, &n) != 0)
        return 0;
    return n;
}

static bool jit_available(void)
{
    uint32_t on = 0;
    return pcre2_config(PCRE2_CONFIG_JIT, &on) >= 0 && on;
}

static const struct opt_pcre RE = {.regex = "b(c+)d", .len = 6,
                                   .pcre2_options = PCRE2_CASELESS};
static const char SUBJECT[] = "xxaBCCdyy";

static void first_search_compiles(void)
{
    void *code = pcre_compile_code(&RE);
    CHECK(code != NULL);
    CHECK_EQ_U(jit_size(code), 0); /* compiled, not JIT-compiled yet */
    void *md = pcre_match_data_new();
    uint32_t s = 0, e = 0;
    CHECK(pcre_search(code, md, (const uint8_t *)SUBJECT, sizeof SUBJECT - 1, 0, &s, &e));
    CHECK(s == 3 && e == 7);
    if (jit_available())
        CHECK(jit_size(code) > 0);
    size_t ov[4];
    CHECK_EQ_U(pcre_groups(md, ov, 2), 2);
    CHECK(ov[2] == 4 && ov[3] == 6);
    /* from past the match: none; a second search uses what the first compiled */
    CHECK(!pcre_search(code, md, (const uint8_t *)SUBJECT, sizeof SUBJECT - 1, 4, &s, &e));
    CHECK(pcre_search(code, md, (const uint8_t *)SUBJECT, sizeof SUBJECT - 1, 0, &s, &e));
    pcre_match_data_free(md);
    pcre_free_code(code);
    /* a regex never searched is freed without having been JIT-compiled */
    code = pcre_compile_code(&RE);
    CHECK_EQ_U(jit_size(code), 0);
    pcre_free_code(code);
}

struct racer {
    void *code;
    pthread_barrier_t *start;
    int found;
};

static void *race(void *arg)
{
    struct racer *r = arg;
    void *md = pcre_match_data_new();
    pthread_barrier_wait(r->start);
    for (int i = 0; i < 200; i++) {
        uint32_t s = 0, e = 0;
        r->found += pcre_search(r->code, md, (const uint8_t *)SUBJECT, sizeof SUBJECT - 1, 0,
                                &s, &e) && s == 3 && e == 7;
    }
    pcre_match_data_free(md);
    return NULL;
}

static void threads_race_for_the_first_search(void)
{
    enum { T = 4 };
    for (int round = 0; round < 20; round++) {
        void *code = pcre_compile_code(&RE);
        CHECK(code != NULL);
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, T);
        struct racer r[T];
        pthread_t th[T];
        for (int i = 0; i < T; i++) {
            r[i] = (struct racer){code, &start, 0};
            CHECK(pthread_create(&th[i], NULL, race, &r[i]) == 0);
        }
        for (int i = 0; i < T; i++) {
            pthread_join(th[i], NULL);
            CHECK_EQ_U((unsigned)r[i].found, 200);
        }
        if (jit_available())
            CHECK(jit_size(code) > 0);
        pthread_barrier_destroy(&start);
        pcre_free_code(code);
    }
}

int main(void)
{
    first_search_compiles();
    threads_race_for_the_first_search();
    return unit_report("test_pcre_jit");
}
