/* test_http_decode.c — the response head's parts alone: where a response head ends under
 * libhtp's line rules, its headers and values (the Content-Encoding layers are
 * ../../http_body/tests'). */
#include <stdlib.h>
#include <string.h>

#include "http_int.h"
#include "unit.h"

/* The end of a response head in s (0: more bytes needed). */
static uint32_t head_end_of(const char *s)
{
    uint32_t n = (uint32_t)strlen(s), le;
    int r = http_resp_line((const uint8_t *)s, n, 0, &le);
    if (r < 0)
        return 0;
    uint32_t pos = (uint32_t)r;
    return http_resp_headers((const uint8_t *)s, n, &pos, NULL) == RH_DONE ? pos : 0;
}

static void test_response_heads(void)
{
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody"), 25);
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\rA: b\rC: d\r\n\nbody"), 28);   /* CR alone */
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\n\rA: b\n\rC: d\r\n\r\nbody"), 31); /* LF CR */
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\nA: 68\n \nbody"), 25);   /* folded, then ends */
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\nA: b\r\n"), 0);          /* not yet */
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\nA: b\r\n\r"), 0);        /* "\r\n" may follow */
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\n\r\n"), 19);
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\nA: x\ry\r\n\r\nbody"), 27); /* CR mid-line */
    CHECK_EQ_U(head_end_of("HTTP/1.1 200 OK\r\nA: x\ny\rz\r\n\r\nbody"), 29);
    /* headers and their values */
    const char *h = "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n Transfer-Encoding: chunked\r\n"
                    "Content-Encoding\r\n :\r\n gzip\r\nK\x0b:v\r\nno colon\r\n\r\n";
    uint32_t n = (uint32_t)strlen(h), le;
    int r = http_resp_line((const uint8_t *)h, n, 0, &le);
    CHECK(r == 17 && le == 15);
    struct pbuf copy = {0};
    struct rh_header hs[8];
    struct rh_out o = {&copy, hs, 0, 8};
    uint32_t pos = (uint32_t)r;
    CHECK(http_resp_headers((const uint8_t *)h, n, &pos, &o) == RH_DONE && pos == n);
    CHECK(o.nh == 5);
    const char *names[] = {"X", "Transfer-Encoding", "Content-Encoding", "K", ""};
    const char *vals[] = {"a b", "chunked", "gzip", "v", "no colon"};
    for (int i = 0; i < o.nh && i < 5; i++) {
        CHECK(hs[i].ne - hs[i].ns == strlen(names[i]) &&
              !memcmp(h + hs[i].ns, names[i], strlen(names[i])));
        CHECK(hs[i].vlen == strlen(vals[i]) && !memcmp(copy.p + hs[i].val, vals[i], hs[i].vlen));
    }
    CHECK(hs[4].no_colon && !hs[0].no_colon);
    pbuf_free(&copy);
    CHECK(http_resp_line_is_http((const uint8_t *)" \0http/1.0", 10));
    CHECK(!http_resp_line_is_http((const uint8_t *)"SIP/2.0 200", 11));
}

int main(void)
{
    test_response_heads();
    return unit_report("test_http_decode");
}
