/* test_http_units.c — HTTP's inner parts alone: URI normalization, the chunked decoder fed
 * one byte at a time (and its lenient reading of size lines), detection verdicts on prefixes,
 * multipart/form-data parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_int.h"
#include "unit.h"

static int norm_is(const char *raw, const char *want)
{
    uint8_t out[256];
    uint32_t n = http_uri_normalize((const uint8_t *)raw, (uint32_t)strlen(raw), out, sizeof out);
    int ok = n == strlen(want) && !memcmp(out, want, n);
    if (!ok)
        fprintf(stderr, "normalize(%s) = %.*s, want %s\n", raw, (int)n, out, want);
    return ok;
}

static void test_uri(void)
{
    CHECK(http_hexval('7') == 7 && http_hexval('b') == 11 && http_hexval('F') == 15);
    CHECK(http_hexval('g') == -1 && http_hexval('%') == -1);
    CHECK(norm_is("/", "/"));
    CHECK(norm_is("/a/b/c", "/a/b/c"));
    CHECK(norm_is("/a/./b", "/a/b"));
    CHECK(norm_is("/a/../b", "/b"));
    CHECK(norm_is("/../../x", "/x"));
    CHECK(norm_is("/a//b///c", "/a/b/c"));
    CHECK(norm_is("/%2E%2e/etc/%70asswd", "/etc/passwd"));
    CHECK(norm_is("/a/b/..", "/a/"));
    CHECK(norm_is("/a/.", "/a/"));
    CHECK(norm_is("/p?q=/../%41", "/p?q=/../A")); /* dot segments only in the path */
    CHECK(norm_is("/%", "/%"));
    CHECK(norm_is("/%4", "/%4"));
    CHECK(norm_is("HTTP://h:1/x/../y", "/y"));
    uint32_t hl;
    const uint8_t *h = http_uri_host((const uint8_t *)"http://Ex.com:8/p", 17, &hl);
    CHECK(h && hl == 8 && !memcmp(h, "Ex.com:8", 8));
    CHECK(http_uri_host((const uint8_t *)"/p", 2, &hl) == NULL);
    /* the output never exceeds its capacity */
    uint8_t small[4];
    CHECK(http_uri_normalize((const uint8_t *)"/abcdefgh", 9, small, sizeof small) <= 4);
}

struct acc {
    char buf[256];
    size_t n;
};

static void sink(void *arg, const uint8_t *d, size_t n)
{
    struct acc *a = arg;
    if (a->n + n < sizeof a->buf) {
        memcpy(a->buf + a->n, d, n);
        a->n += n;
    }
}

static void test_chunked(void)
{
    const char *s = "4;name=v\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-T: 1\r\n\r\nNEXT";
    struct http_chunked c = {0};
    struct acc a = {{0}, 0};
    bool done = false, bad = false;
    size_t i = 0, used = 0;
    for (; i < strlen(s) && !done; i++) /* one byte at a time */
        used += http_chunked_feed(&c, (const uint8_t *)s + i, 1, sink, &a, &done, &bad);
    CHECK(done && !bad);
    CHECK(a.n == 23 && !memcmp(a.buf, "Wikipedia in\r\n\r\nchunks.", 23));
    CHECK_EQ_U(used, strlen(s) - 4); /* "NEXT" belongs to the next message */
    /* the body as sent, for EVE's length: up to the end of "0\r\n", trailer not counted */
    CHECK_EQ_U(c.framed, strlen(s) - strlen("X-T: 1\r\n\r\nNEXT"));
    /* all at once gives the same */
    struct http_chunked c2 = {0};
    struct acc b = {{0}, 0};
    size_t k = http_chunked_feed(&c2, (const uint8_t *)s, strlen(s), sink, &b, &done, &bad);
    CHECK(done && k == strlen(s) - 4 && b.n == 23 && c2.framed == c.framed);
    /* sizes that are none: from that line on the rest is plain body (libhtp's fallback) */
    struct http_chunked c3 = {0};
    struct acc p3 = {{0}, 0};
    http_chunked_feed(&c3, (const uint8_t *)"zz\r\nmore", 8, sink, &p3, &done, &bad);
    CHECK(!bad && !done && c3.plain && p3.n == 8 && !memcmp(p3.buf, "zz\r\nmore", 8));
    struct http_chunked c5 = {0};
    struct acc p5 = {{0}, 0};
    http_chunked_feed(&c5, (const uint8_t *)"fffffffffffffffffff\r\n", 21, sink, &p5, &done, &bad);
    CHECK(!bad && c5.plain && p5.n == 21); /* more than 64 bits of size */
    /* blank lines before a size are skipped, junk after it ignored, a size over 2^31-1
     * ignored (the next line is read as the size) */
    const char *odd = "\r\n \t4x\r\nWiki\r\n80000000\r\n\x0b" "5;e\npedia\r\n0\r\n\r\n";
    struct http_chunked c4 = {0};
    struct acc p4 = {{0}, 0};
    for (size_t j = 0; j < strlen(odd); j++)
        http_chunked_feed(&c4, (const uint8_t *)odd + j, 1, sink, &p4, &done, &bad);
    CHECK(done && !bad && !c4.plain && p4.n == 9 && !memcmp(p4.buf, "Wikipedia", 9));
    /* a first line whose first byte past the blanks is no hex digit is decided at once */
    struct http_chunked c6 = {0};
    struct acc p6 = {{0}, 0};
    http_chunked_feed(&c6, (const uint8_t *)" X5O", 4, sink, &p6, &done, &bad);
    CHECK(c6.plain && p6.n == 4);
}

static void test_detect(void)
{
    CHECK(detect_http_request((const uint8_t *)"GE", 2) == DET_NEED_MORE);
    CHECK(detect_http_request((const uint8_t *)"GET ", 4) == DET_YES);
    CHECK(detect_http_request((const uint8_t *)"\r\nPOST /", 8) == DET_YES);
    CHECK(detect_http_request((const uint8_t *)"GETX", 4) == DET_NO);
    CHECK(detect_http_request((const uint8_t *)"SSH-2.0", 7) == DET_NO);
    CHECK(detect_http_response((const uint8_t *)"HTTP/", 5) == DET_NEED_MORE);
    CHECK(detect_http_response((const uint8_t *)"HTTP/1.0 200", 12) == DET_YES);
    CHECK(detect_http_response((const uint8_t *)"220 smtp", 8) == DET_NO);
}

/* A multipart/form-data body into its parts: the boundary from Content-Type (quoted or not),
 * each part's headers and data without the CRLF before the next delimiter, a part the body
 * ends inside incomplete, none for another Content-Type. */
static void test_multipart(void)
{
    static const char HEAD[] = "POST /u HTTP/1.1\r\nContent-Type: multipart/form-data; "
                               "boundary=\"ab\"\r\n\r\n";
    static const char BODY[] = "preamble\r\n--ab\r\nContent-Disposition: form-data; name=\"x\"; "
                               "filename=\"f.txt\"\r\n\r\nline1\r\n--abnot\r\n\r\n--ab\r\n"
                               "Content-Disposition: form-data; name=\"y\"\r\n\r\nv\r\n--ab--\r\n";
    struct http_msg m = {0};
    struct http_head_info info;
    CHECK(http_head_parse(&m, true, (const uint8_t *)HEAD, sizeof HEAD - 1, sizeof HEAD - 1,
                          &info) == 0);
    m.present = true;
    pbuf_add(&m.body, BODY, sizeof BODY - 1, 0);
    struct http_part p[4];
    CHECK(http_multipart(&m, p, 4) == 2);
    CHECK(p[0].data_len == 16 && !memcmp(m.body.p + p[0].data_off, "line1\r\n--abnot\r\n", 16));
    CHECK(p[0].complete && p[1].complete && p[1].data_len == 1);
    CHECK(memmem(m.body.p + p[0].hdr_off, p[0].hdr_len, "filename=\"f.txt\"", 16) != NULL);
    /* cut inside the second part: it is incomplete */
    m.body.len = (uint32_t)(strstr(BODY, "\r\nv\r\n") - BODY) + 3;
    CHECK(http_multipart(&m, p, 4) == 2 && !p[1].complete && p[1].data_len == 1);
    CHECK(http_multipart(&m, p, 1) == 1); /* at most max */
    pbuf_free(&m.body);
    pbuf_free(&m.copy);
    static const char PLAIN[] = "POST /u HTTP/1.1\r\nContent-Type: text/plain\r\n\r\n";
    struct http_msg q = {0};
    CHECK(http_head_parse(&q, true, (const uint8_t *)PLAIN, sizeof PLAIN - 1, sizeof PLAIN - 1,
                          &info) == 0);
    q.present = true;
    pbuf_add(&q.body, "--ab\r\n", 6, 0);
    CHECK(http_multipart(&q, p, 4) == -1);
    pbuf_free(&q.body);
    pbuf_free(&q.copy);
}

/* The framing headers' names: case and NUL bytes ignored (libhtp's), nothing else; a
 * name shorter or longer than the real one by a letter is another header. */
static void test_framing_names(void)
{
    static const char R1[] = "HTTP/1.1 200 OK\r\nCONTENT-length: 7\r\n"
                             "Transfer-Encodin: chunked\r\n\r\n";
    static const char R2[] = "HTTP/1.1 200 OK\r\nContent-\0Length: 9\r\n"
                             "Transfer-Encoding\0: chunked\r\n\r\n";
    static const char R3[] = "HTTP/1.1 200 OK\r\nContent-Lengths: 9\r\nContent-Lengt: 8\r\n"
                             "Content-\0Lengthx: 7\r\nX-Content-Encoding: gzip\r\n\r\n";
    struct http_head_info info;
    struct http_msg m = {0};
    CHECK(http_head_parse(&m, false, (const uint8_t *)R1, sizeof R1 - 1, sizeof R1 - 1,
                          &info) == 0);
    CHECK(info.has_cl && info.has_length && info.length == 7 && !info.has_te && !info.chunked);
    pbuf_free(&m.copy);
    m = (struct http_msg){0};
    CHECK(http_head_parse(&m, false, (const uint8_t *)R2, sizeof R2 - 1, sizeof R2 - 1,
                          &info) == 0);
    CHECK(info.has_cl && info.length == 9 && info.has_te && info.chunked);
    pbuf_free(&m.copy);
    m = (struct http_msg){0};
    CHECK(http_head_parse(&m, false, (const uint8_t *)R3, sizeof R3 - 1, sizeof R3 - 1,
                          &info) == 0);
    CHECK(!info.has_cl && !info.has_length && !info.has_te && info.ncodings == 0);
    pbuf_free(&m.copy);
}

/* A header name byte that is not an RFC 9110 tchar marks the name invalid; every byte
 * value inside a name (not those that end a line or the name). */
static void test_name_bytes(void)
{
    const char *tchar = "!#$%&'*+-.^_`|~";
    for (int c = 1; c < 256; c++) {
        if (c == ':' || c == '\r' || c == '\n')
            continue;
        char head[64];
        int n = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nX%cY: v\r\n\r\n", c);
        struct http_msg m = {0};
        struct http_head_info info;
        CHECK(http_head_parse(&m, false, (const uint8_t *)head, (uint32_t)n, (uint32_t)n,
                              &info) == 0);
        bool want = !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || strchr(tchar, c));
        if (info.name_invalid != want)
            fprintf(stderr, "byte %d: name_invalid %d\n", c, info.name_invalid);
        CHECK(info.name_invalid == want);
        pbuf_free(&m.copy);
    }
}

int main(void)
{
    test_name_bytes();
    test_framing_names();
    test_uri();
    test_multipart();
    test_chunked();
    test_detect();
    return unit_report("test_http_units");
}
