/* opt_pcre.c — pcre:[!]"/regex/flags"[, flow:NAME|pkt:NAME…]
 *
 * The quotes may be left out (pcre:/regex/flags;). The delimiters are '/' or, Perl style, 'm' followed by any punctuation; the flags after the
 * last delimiter are PCRE's (i s m x A E G), Snort/Suricata's (R relative, B raw bytes, O no
 * match limits) and the HTTP buffer letters (U I P Q H D M C K S Y V W Z) of the classic
 * grammar. The parser compiles the regex once with PCRE2 (no JIT) so a malformed pattern is
 * rejected with PCRE2's message and offset; the detection compile step below compiles it
 * again and keeps it, and its first search JIT-compiles it.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static const struct {
    char flag;
    uint32_t pcre2;
    int buffer; /* -1: not a buffer flag */
} FLAGS[] = {
    {'i', PCRE2_CASELESS, -1},
    {'s', PCRE2_DOTALL, -1},
    {'m', PCRE2_MULTILINE, -1},
    {'x', PCRE2_EXTENDED, -1},
    {'A', PCRE2_ANCHORED, -1},
    {'E', PCRE2_DOLLAR_ENDONLY, -1},
    {'G', PCRE2_UNGREEDY, -1},
    {'R', 0, -1},
    {'B', 0, -1},
    {'O', 0, -1},
    {'U', 0, BUF_HTTP_URI},
    {'I', 0, BUF_HTTP_URI_RAW},
    {'P', 0, BUF_HTTP_REQUEST_BODY},
    {'Q', 0, BUF_HTTP_RESPONSE_BODY},
    {'H', 0, BUF_HTTP_HEADER},
    {'D', 0, BUF_HTTP_HEADER_RAW},
    {'M', 0, BUF_HTTP_METHOD},
    {'C', 0, BUF_HTTP_COOKIE},
    {'K', 0, BUF_HTTP_COOKIE_RAW},
    {'S', 0, BUF_HTTP_STAT_CODE},
    {'Y', 0, BUF_HTTP_STAT_MSG},
    {'V', 0, BUF_HTTP_USER_AGENT},
    {'W', 0, BUF_HTTP_HOST},
    {'Z', 0, BUF_HTTP_HOST_RAW},
};

static int parse_flags(struct rule_ctx *c, struct opt_pcre *pc, const char *f, size_t n)
{
    if (n >= sizeof pc->flags)
        return opt_error(c, f, "too many modifiers");
    memcpy(pc->flags, f, n);
    pc->flags[n] = '\0';
    pc->buffer_flag = -1;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < sizeof FLAGS / sizeof FLAGS[0] && FLAGS[k].flag != f[i])
            k++;
        if (k == sizeof FLAGS / sizeof FLAGS[0])
            return opt_error(c, f + i, "unknown modifier '%c'", f[i]);
        if (memchr(f, f[i], i))
            return opt_error(c, f + i, "modifier '%c' given twice", f[i]);
        pc->pcre2_options |= FLAGS[k].pcre2;
        if (f[i] == 'R')
            pc->relative = true;
        if (FLAGS[k].buffer >= 0) {
            if (pc->buffer_flag >= 0)
                return opt_error(c, f + i, "two HTTP buffer modifiers");
            /* Suricata accepts a flag that names the sticky buffer in force (http.uri; …/U);
             * for HTTP responses file.data is the response body (Q). */
            bool same = c->buffer == FLAGS[k].buffer ||
                        (c->buffer == BUF_FILE_DATA && FLAGS[k].buffer == BUF_HTTP_RESPONSE_BODY);
            if (c->buffer != BUF_PKT && !same)
                return opt_error(c, f + i, "HTTP buffer modifier '%c' used in sticky buffer %s",
                                 f[i], osprey_rules_buffer_name(c->buffer));
            pc->buffer_flag = FLAGS[k].buffer;
        }
    }
    return 0;
}

/* Suricata's capture list after the string: flow:NAME, pkt:NAME, alert:NAME. */
static int parse_capture(struct rule_ctx *c, struct opt_pcre *pc, const char *s, const char *end)
{
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, s, (size_t)(end - s), ',');
    while (list_next(&it, &item, &n)) {
        const char *colon = memchr(item, ':', n);
        if (colon == NULL ||
            !(slice_eq(item, (size_t)(colon - item), "flow") ||
              slice_eq(item, (size_t)(colon - item), "pkt") ||
              slice_eq(item, (size_t)(colon - item), "alert")) ||
            !is_name(colon + 1, (size_t)(item + n - colon - 1), NULL))
            return opt_error(c, item, "expected a capture 'flow:NAME', 'pkt:NAME' or "
                                      "'alert:NAME', got '%.*s'",
                             (int)n, item);
    }
    pc->capture = opt_strdup(c, s, (size_t)(end - s));
    return pc->capture ? 0 : -1;
}

static int compile_check(struct rule_ctx *c, const struct opt_pcre *pc, const char *pos)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pc->regex, pc->len, pc->pcre2_options, &err,
                                     &off, NULL);
    if (code) {
        pcre2_code_free(code);
        return 0;
    }
    PCRE2_UCHAR msg[160];
    if (pcre2_get_error_message(err, msg, sizeof msg) < 0)
        strcpy((char *)msg, "invalid regular expression");
    return opt_error(c, pos + off, "%s at offset %zu of the regex", (const char *)msg,
                     (size_t)off);
}

static int parse_pcre(struct rule_ctx *c, char *val)
{
    const char *end = val + strlen(val), *p = val;
    struct opt_pcre *pc = opt_arg_new(c, sizeof *pc);
    if (pc == NULL)
        return -1;
    if (*p == '!') {
        pc->negated = true;
        p = skip_ws(p + 1, end);
    }
    const char *q = end, *in, *in_end;
    if (*p == '/' && memchr(p, '"', (size_t)(end - p)) == NULL) {
        /* Suricata also reads an unquoted pcre:/regex/flags; (no capture list then) */
        in = p;
        in_end = q = end;
    } else {
        if (*p != '"')
            return opt_error(c, p, "the regex must be in double quotes: \"/regex/flags\"");
        /* The string ends at the last quote: Snort 2 and Suricata leave quotes inside a regex
         * unescaped ("/href=["']/"), so the first unescaped quote is not the end. */
        while (q > p + 1 && q[-1] != '"')
            q--;
        if (q <= p + 1)
            return opt_error(c, p, "missing closing quote");
        q--;
        in = p + 1;
        in_end = q;
    }
    char delim = '/';
    if (in < in_end && *in == 'm' && in + 1 < in_end && !is_alpha(in[1]) && !is_digit(in[1]) &&
        !is_space(in[1]) && in[1] != '\\') {
        delim = in[1];
        in += 2;
    } else if (in < in_end && *in == '/') {
        in++;
    } else {
        return opt_error(c, in, "expected \"/regex/flags\" (or m<delimiter>...)");
    }
    char close = delim == '{' ? '}' : delim == '(' ? ')' : delim == '[' ? ']' :
                 delim == '<' ? '>' : delim;
    const char *last = in_end;
    while (last > in && last[-1] != close)
        last--;
    if (last == in)
        return opt_error(c, in_end, "missing closing '%c' after the regex", close);
    const char *body_end = last - 1;
    /* Suricata also writes the capture list inside the quotes: "/re/flags, flow:name" */
    const char *flags_end = memchr(last, ',', (size_t)(in_end - last));
    if (flags_end == NULL)
        flags_end = in_end;
    if (parse_flags(c, pc, last, (size_t)(rtrim(last, flags_end) - last)) < 0)
        return -1;
    if (flags_end < in_end && parse_capture(c, pc, flags_end + 1, in_end) < 0)
        return -1;
    pc->regex = opt_strdup(c, in, (size_t)(body_end - in));
    if (pc->regex == NULL)
        return -1;
    pc->len = (uint32_t)(body_end - in);
    if (pc->buffer_flag >= 0)
        c->opt->buffer = (uint16_t)pc->buffer_flag;
    const char *after = q < end ? skip_ws(q + 1, end) : end;
    if (after < end) {
        if (*after != ',')
            return opt_error(c, after, "unexpected text after the regex");
        if (parse_capture(c, pc, after + 1, end) < 0)
            return -1;
    }
    return compile_check(c, pc, in);
}

static const struct opt_def DEFS[] = {
    {"pcre", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_pcre, true, pcre_compile_check},
};
OPT_TABLE(opt_table_pcre, DEFS);

/* --- compile and evaluate ------------------------------------------------------------- */

const char *pcre_compile_check(const void *arg)
{
    const struct opt_pcre *pc = arg;
    if (pc->buffer_flag >= 0 && !buffer_inspectable((unsigned)pc->buffer_flag))
        return "an HTTP buffer flag for a buffer Osprey does not fill yet";
    return NULL;
}

uint32_t pcre_groups(void *md, size_t *ov, uint32_t max)
{
    uint32_t n = pcre2_get_ovector_count(md);
    if (n > max)
        n = max;
    const PCRE2_SIZE *o = pcre2_get_ovector_pointer(md);
    for (uint32_t i = 0; i < 2 * n; i++)
        ov[i] = o[i];
    return n;
}

/* A compiled regex, JIT-compiled on its first search rather than at startup: the JIT was
 * 15 % of the startup with ET Open's 6,900 distinct regexes, most of which a given network
 * never reaches (and each JIT-compiled one holds its machine code). Every search runs the
 * JIT-compiled code, as before: a thread that finds it not compiled yet compiles it under
 * the lock, the others wait for it (no search runs while it is being compiled). */
struct pcre_code {
    pcre2_code *code;
    _Atomic bool jitted;
};

static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;

static const pcre2_code *jitted(struct pcre_code *h)
{
    if (!atomic_load_explicit(&h->jitted, memory_order_acquire)) {
        pthread_mutex_lock(&jit_lock);
        if (!atomic_load_explicit(&h->jitted, memory_order_relaxed)) {
            (void)pcre2_jit_compile(h->code, PCRE2_JIT_COMPLETE); /* no JIT: interpreted */
            atomic_store_explicit(&h->jitted, true, memory_order_release);
        }
        pthread_mutex_unlock(&jit_lock);
    }
    return h->code;
}

void *pcre_compile_code(const struct opt_pcre *pc)
{
    int err;
    PCRE2_SIZE off;
    struct pcre_code *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    h->code = pcre2_compile((PCRE2_SPTR)pc->regex, pc->len, pc->pcre2_options, &err, &off, NULL);
    if (!h->code) {
        free(h);
        return NULL;
    }
    atomic_init(&h->jitted, false);
    return h;
}

void pcre_free_code(void *code)
{
    struct pcre_code *h = code;
    if (h)
        pcre2_code_free(h->code);
    free(h);
}

const void *pcre_code_pcre2(const void *code)
{
    return ((const struct pcre_code *)code)->code;
}

/* The limits (set once before any search) and each thread's match context: it carries the
 * limits and the thread's JIT stack — 32 KiB growing to 512 KiB as Suricata's, where PCRE2's
 * default of 32 KiB made a deep match (a repeated group over a few thousand bytes) fail as no
 * match. A JIT stack serves one thread at a time, hence one context per thread, freed when the
 * thread ends. */
static uint32_t g_match_limit, g_depth_limit;
static _Atomic uint64_t limit_hits;
static pthread_key_t tl_key;
static pthread_once_t tl_once = PTHREAD_ONCE_INIT;

struct pcre_thread {
    pcre2_match_context *mc;
    pcre2_jit_stack *js;
};

static void thread_free(void *p)
{
    struct pcre_thread *t = p;
    pcre2_jit_stack_free(t->js);
    pcre2_match_context_free(t->mc);
    free(t);
}

static void key_make(void)
{
    (void)pthread_key_create(&tl_key, thread_free);
}

static pcre2_match_context *thread_ctx(void)
{
    pthread_once(&tl_once, key_make);
    struct pcre_thread *t = pthread_getspecific(tl_key);
    if (t)
        return t->mc;
    if (!(t = calloc(1, sizeof *t)) || !(t->mc = pcre2_match_context_create(NULL))) {
        free(t);
        return NULL; /* out of memory: PCRE2's defaults for this search */
    }
    if (g_match_limit)
        pcre2_set_match_limit(t->mc, g_match_limit);
    if (g_depth_limit)
        pcre2_set_depth_limit(t->mc, g_depth_limit);
    if ((t->js = pcre2_jit_stack_create(32 * 1024, 512 * 1024, NULL)))
        pcre2_jit_stack_assign(t->mc, NULL, t->js);
    if (pthread_setspecific(tl_key, t) != 0) {
        thread_free(t);
        return NULL;
    }
    return t->mc;
}

void pcre_set_limits(uint32_t match_limit, uint32_t depth_limit)
{
    g_match_limit = match_limit;
    g_depth_limit = depth_limit;
}

uint64_t pcre_limit_hits(void)
{
    return limit_hits;
}

void *pcre_match_data_new(void)
{
    return pcre2_match_data_create(64, NULL);
}

void pcre_match_data_free(void *md)
{
    pcre2_match_data_free(md);
}

bool pcre_search(const void *code, void *md, const uint8_t *buf, uint32_t len, uint32_t from,
                 uint32_t *mstart, uint32_t *mend)
{
    if (from > len)
        return false;
    /* rc 0: matched, but the ovector was too small for every group; [0] and [1] are set */
    /* (the handle is the detect object's, written only to publish the JIT-compiled code) */
    int rc = pcre2_match(jitted((struct pcre_code *)(uintptr_t)code), (PCRE2_SPTR)buf, len, from,
                         0, md, thread_ctx());
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT)
        limit_hits++;
    if (rc < 0)
        return false;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    *mstart = (uint32_t)ov[0];
    *mend = (uint32_t)ov[1];
    return true;
}
