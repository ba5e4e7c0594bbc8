/* test_decoders.c — the base64 decoder (compile/base64.c) and the transforms with arguments
 * (compile/xform_args.c: from_base64, xor, pcrexform, zlib_deflate, gunzip). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <string.h>
#include <zlib.h>

#include "../compile/base64.h"
#include "../compile/entropy.h"
#include "../compile/xform_args.h"
#include "opt_args.h"
#include "opt_eval.h"
#include "unit.h"

static uint8_t out[4096];

static int dec(const char *s, enum b64_mode m)
{
    return (int)b64_decode((const uint8_t *)s, (uint32_t)strlen(s), out, m);
}

static void test_base64(void)
{
    CHECK(dec("dGhpc2lzYXRlc3QK", B64_RFC4648) == 12 && !memcmp(out, "thisisatest\n", 12));
    CHECK(dec("Zm9vYmFy", B64_STRICT) == 6 && !memcmp(out, "foobar", 6));
    /* padding ends the data; a short last group gives its whole bytes */
    CHECK(dec("Zm9vYg==", B64_RFC4648) == 4 && !memcmp(out, "foob", 4));
    CHECK(dec("Zm9vYg", B64_RFC4648) == 4 && !memcmp(out, "foob", 4));
    CHECK(dec("Zm9vYmE", B64_RFC4648) == 5 && !memcmp(out, "fooba", 5));
    CHECK(dec("Z", B64_RFC4648) == 0);
    /* characters outside the alphabet: RFC 4648 stops, RFC 2045 skips, strict refuses */
    CHECK(dec("Zm 9v Ym Fy", B64_RFC2045) == 6 && !memcmp(out, "foobar", 6));
    CHECK(dec("Zm 9v Ym Fy", B64_RFC4648) == 1 && out[0] == 'f');
    CHECK(dec("Zm 9v Ym Fy", B64_STRICT) == 0);
    CHECK(dec("Zm9vYg==", B64_STRICT) == 4);
    CHECK(dec("Zm9vYg==x", B64_STRICT) == 0);
    CHECK(dec("Zm9v\r\nYmFy", B64_RFC2045) == 6 && !memcmp(out, "foobar", 6));
}

static uint32_t step(const char *name, const void *arg, const char *in, uint32_t n)
{
    struct det_xstep s;
    CHECK(xstep_prepare(&s, name, arg) == 0);
    CHECK(xstep_out_max(&s, n) <= sizeof out);
    pcre2_match_data *md = pcre2_match_data_create(8, NULL);
    uint32_t o = xstep_apply(&s, (const uint8_t *)in, n, out, md);
    pcre2_match_data_free(md);
    xstep_free(&s);
    return o;
}

static void test_steps(void)
{
    const char *uri = "/?arg=dGhpc2lzYXRlc3QK";
    struct opt_base64 b = {.offset = 6};
    CHECK(step("from_base64", &b, uri, 22) == 12 && !memcmp(out, "thisisatest\n", 12));
    b = (struct opt_base64){.offset = 6, .bytes = 4};
    CHECK(step("from_base64", &b, uri, 22) == 3 && !memcmp(out, "thi", 3));
    /* nothing decoded (offset past the end): the buffer stays as it was */
    b = (struct opt_base64){.offset = 40};
    CHECK(step("from_base64", &b, uri, 22) == 22 && !memcmp(out, uri, 22));

    struct opt_str key = {(const uint8_t *)"0d0ac8ff", 8, false};
    CHECK(step("xor", &key, "\x0d\x0a\xc8\xff\x61", 5) == 5 &&
          !memcmp(out, "\x00\x00\x00\x00\x6c", 5));

    struct opt_str re = {(const uint8_t *)"GET\\s+(\\S+)", 11, false};
    CHECK(step("pcrexform", &re, "GET /a.jpg HTTP/1.1", 19) == 6 && !memcmp(out, "/a.jpg", 6));
    CHECK(step("pcrexform", &re, "POST / HTTP/1.1", 15) == 15); /* no match: unchanged */

    /* zlib and gzip inflate, bounded by max-size */
    const char *text = "This is compressed then base64-encoded\n";
    uint8_t z[256];
    uLongf zn = sizeof z;
    CHECK(compress(z, &zn, (const Bytef *)text, (uLong)strlen(text)) == Z_OK);
    struct opt_inflate lim = {1024};
    CHECK(step("zlib_deflate", &lim, (const char *)z, (uint32_t)zn) == strlen(text) &&
          !memcmp(out, text, strlen(text)));
    lim.max_size = 8;
    CHECK(step("zlib_deflate", &lim, (const char *)z, (uint32_t)zn) == 8 &&
          !memcmp(out, "This is ", 8));
    CHECK(step("gunzip", &lim, (const char *)z, (uint32_t)zn) == 0); /* not gzip */
    CHECK(step("zlib_deflate", &lim, "garbage", 7) == 0);
}

static void test_strip_pseudo_headers(void)
{
    const char *h = ":method: GET\r\n:path: /\r\nhost: a\r\n:x\r\nuser-agent: b\r\n:tail";
    uint32_t n = xform_apply("strip_pseudo_headers", (const uint8_t *)h, (uint32_t)strlen(h), out);
    CHECK(n == 24 && !memcmp(out, "host: a\r\nuser-agent: b\r\n", 24));
    CHECK(xform_apply("strip_pseudo_headers", (const uint8_t *)"a: b", 4, out) == 4);
}

static void test_entropy(void)
{
    CHECK(shannon_entropy((const uint8_t *)"aaaa", 4) == 0);
    CHECK(shannon_entropy((const uint8_t *)"AABB", 4) == 1);
    CHECK(shannon_entropy((const uint8_t *)"", 0) == 0);
    uint8_t all[256];
    for (int i = 0; i < 256; i++)
        all[i] = (uint8_t)i;
    CHECK(shannon_entropy(all, 256) == 8);
    /* "AABBCCDD": 2 bits; from offset 4, "CCDD": 1 bit; 2 bytes "CC": 0 */
    const uint8_t *t = (const uint8_t *)"AABBCCDD";
    struct opt_entropy e = {.op = CMP_EQ, .lo = 2};
    CHECK(entropy_match(&e, t, 8));
    e = (struct opt_entropy){.op = CMP_EQ, .lo = 1, .offset = 4};
    CHECK(entropy_match(&e, t, 8));
    e = (struct opt_entropy){.op = CMP_LE, .lo = 0, .offset = 4, .bytes = 2};
    CHECK(entropy_match(&e, t, 8));
    e = (struct opt_entropy){.op = CMP_GT, .lo = 0, .offset = 9};
    CHECK(!entropy_match(&e, t, 8)); /* offset past the end */
    /* ranges exclude their ends; '!' inverts */
    e = (struct opt_entropy){.op = CMP_RANGE, .lo = 1, .hi = 3};
    CHECK(entropy_match(&e, t, 8));
    e.lo = 2;
    CHECK(!entropy_match(&e, t, 8));
    e.negated = true;
    CHECK(entropy_match(&e, t, 8));
}

int main(void)
{
    test_entropy();
    test_strip_pseudo_headers();
    test_base64();
    test_steps();
    return unit_report("test_decoders");
}
