/* json_writer.c — see osprey_json_writer.h; also EVE's timestamp format. */
#include "osprey_json_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void osprey_jw_init(struct osprey_jw *w)
{
    memset(w, 0, sizeof *w);
    w->cap = 1024;
    w->buf = malloc(w->cap);
    w->oom = !w->buf;
    w->depth = -1;
}

/* The slow half of reserve: the buffer doubles. */
__attribute__((noinline)) static bool grow_for(struct osprey_jw *w, size_t n)
{
    size_t cap = w->cap * 2;
    while (cap < w->len + n)
        cap *= 2;
    char *b = realloc(w->buf, cap);
    if (!b) {
        w->oom = true;
        return false;
    }
    w->buf = b;
    w->cap = cap;
    return true;
}

/* Room for n more bytes. Inlined with put/putc1: a record is hundreds of small writes, and
 * the calls were a tenth of writing one. */
static inline bool reserve(struct osprey_jw *w, size_t n)
{
    if (__builtin_expect(!w->oom && w->len + n <= w->cap, 1))
        return true;
    return !w->oom && grow_for(w, n);
}

static inline void put(struct osprey_jw *w, const char *s, size_t n)
{
    if (reserve(w, n)) {
        memcpy(w->buf + w->len, s, n);
        w->len += n;
    }
}

static inline void putc1(struct osprey_jw *w, char c)
{
    if (reserve(w, 1))
        w->buf[w->len++] = c;
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t utf8_len(const uint8_t *s, size_t n)
{
    uint8_t c = s[0];
    size_t k;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        k = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        k = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (k > n)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* overlong forms, surrogates and code points past U+10FFFF are not valid UTF-8 */
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

/* Bytes a JSON string holds as they are: printable ASCII but the quote and the backslash
 * (a table: one load per byte where four tests were, in every key and value written). */
static const uint8_t plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static void string(struct osprey_jw *w, const uint8_t *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    putc1(w, '"');
    size_t i = 0;
    while (i < n) {
        size_t run = i; /* copy plain bytes in one go */
#ifdef __SSE2__
        /* 16 at a time: a byte below 0x20 or from 0x80 up is below 0x20 as a signed byte */
        while (run + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i *)(s + run));
            __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                       _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
            unsigned m = (unsigned)_mm_movemask_epi8(bad);
            if (m) {
                run += (size_t)__builtin_ctz(m);
                break;
            }
            run += 16;
        }
#endif
        while (run < n && plain[s[run]])
            run++;
        put(w, (const char *)s + i, run - i);
        i = run;
        if (i >= n)
            break;
        uint8_t c = s[i];
        size_t k = c >= 0x80 ? utf8_len(s + i, n - i) : 1;
        if (c >= 0x80 && k) {
            put(w, (const char *)s + i, k);
            i += k;
            continue;
        }
        char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        switch (c) {
        case '"': put(w, "\\\"", 2); break;
        case '\\': put(w, "\\\\", 2); break;
        case '\n': put(w, "\\n", 2); break;
        case '\r': put(w, "\\r", 2); break;
        case '\t': put(w, "\\t", 2); break;
        case '\b': put(w, "\\b", 2); break;
        case '\f': put(w, "\\f", 2); break;
        default: put(w, esc, 6); break; /* control characters, bytes that are not UTF-8 */
        }
        i++;
    }
    putc1(w, '"');
}

/* The comma and "key": before a value at the current depth. */
static void key(struct osprey_jw *w, const char *k)
{
    if (w->depth >= 0) {
        if (w->more[w->depth])
            putc1(w, ',');
        w->more[w->depth] = true;
    }
    if (k) {
        /* keys are mostly literals with nothing to escape: one pass finds the end (a NUL is
         * not plain) and whether they need string()'s escaping */
        size_t n = 0;
        while (plain[(uint8_t)k[n]])
            n++;
        if (!k[n] && reserve(w, n + 3)) {
            w->buf[w->len++] = '"';
            memcpy(w->buf + w->len, k, n);
            w->len += n;
            w->buf[w->len++] = '"';
            w->buf[w->len++] = ':';
            return;
        }
        string(w, (const uint8_t *)k, strlen(k));
        putc1(w, ':');
    }
}

static void push(struct osprey_jw *w, char c)
{
    putc1(w, c);
    if (w->depth + 1 >= OSPREY_JW_MAX_DEPTH) {
        w->oom = true; /* deeper than any record we write: a programming error */
        return;
    }
    w->more[++w->depth] = false;
}

void osprey_jw_open(struct osprey_jw *w, const char *k)
{
    key(w, k);
    push(w, '{');
}

void osprey_jw_close(struct osprey_jw *w)
{
    putc1(w, '}');
    if (w->depth >= 0)
        w->depth--;
}

void osprey_jw_array(struct osprey_jw *w, const char *k)
{
    key(w, k);
    push(w, '[');
}

void osprey_jw_array_end(struct osprey_jw *w)
{
    putc1(w, ']');
    if (w->depth >= 0)
        w->depth--;
}

void osprey_jw_str(struct osprey_jw *w, const char *k, const char *s)
{
    key(w, k);
    string(w, (const uint8_t *)s, strlen(s));
}

void osprey_jw_strn(struct osprey_jw *w, const char *k, const uint8_t *s, size_t n)
{
    key(w, k);
    string(w, s, n);
}

/* Decimal digits of v at the end of buf[24]; returns where they start. By hand: records are
 * mostly numbers, and snprintf's format parsing was a tenth of writing a flow record. */
static char *decimal(char buf[24], int64_t v)
{
    char *p = buf + 24;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return p;
}

void osprey_jw_int(struct osprey_jw *w, const char *k, int64_t v)
{
    char num[24];
    char *p = decimal(num, v);
    key(w, k);
    put(w, p, (size_t)(num + 24 - p));
}

void osprey_jw_double(struct osprey_jw *w, const char *k, double v)
{
    char num[32];
    int n = isfinite(v) ? snprintf(num, sizeof num, "%.6g", v) : snprintf(num, sizeof num, "0");
    key(w, k);
    put(w, num, (size_t)n);
}

void osprey_jw_bool(struct osprey_jw *w, const char *k, bool v)
{
    key(w, k);
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
}

void osprey_jw_members(struct osprey_jw *w, const char *members)
{
    size_t n = members ? strlen(members) : 0;
    if (!n)
        return;
    key(w, NULL);
    put(w, members, n);
}

void osprey_jw_timestamp(uint64_t ts_us, char *buf, size_t len)
{
    /* The date part is formatted once per second per thread, in a few slots: a flow record
     * carries its start, end and log times, seconds apart, and flows evicted under a flood
     * alternate between old and new seconds (one slot reformatted on every call). */
    enum { SLOTS = 4 };
    static _Thread_local time_t last_s[SLOTS] = {-1, -1, -1, -1};
    static _Thread_local char last[SLOTS][24];
    static _Thread_local unsigned next;
    time_t s = (time_t)(ts_us / 1000000u);
    unsigned i = 0;
    while (i < SLOTS && last_s[i] != s)
        i++;
    if (i == SLOTS) {
        i = next++ % SLOTS;
        struct tm tm;
        gmtime_r(&s, &tm);
        strftime(last[i], sizeof last[i], "%Y-%m-%dT%H:%M:%S", &tm);
        last_s[i] = s;
    }
    /* "<date>.<6 digits>+0000" */
    char out[40];
    size_t n = strlen(last[i]);
    memcpy(out, last[i], n);
    out[n++] = '.';
    unsigned us = (unsigned)(ts_us % 1000000u);
    for (int d = 5; d >= 0; d--, us /= 10)
        out[n + (size_t)d] = (char)('0' + us % 10);
    n += 6;
    memcpy(out + n, "+0000", 6);
    n += 5;
    if (len) {
        size_t c = n < len - 1 ? n : len - 1;
        memcpy(buf, out, c);
        buf[c] = 0;
    }
}

void osprey_jw_time(struct osprey_jw *w, const char *k, uint64_t ts_us)
{
    char ts[40];
    osprey_jw_timestamp(ts_us, ts, sizeof ts);
    osprey_jw_str(w, k, ts);
}

char *osprey_jw_finish(struct osprey_jw *w)
{
    while (w->depth >= 0)
        osprey_jw_close(w);
    put(w, "\n", 2); /* the newline and a terminating NUL */
    if (w->oom) {
        free(w->buf);
        return NULL;
    }
    return w->buf;
}
