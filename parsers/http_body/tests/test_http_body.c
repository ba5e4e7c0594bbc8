/* test_http_body.c — the shared HTTP body library alone: the Content-Encoding layers (gzip
 * member oddities, deflate raw or zlib, stacking, a coding that is not one, the work cap) and
 * the body limits. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "http_body.h"
#include "unit.h"

static const char TEXT[] = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

/* windowBits: 31 gzip, 15 zlib, -15 raw deflate. */
static size_t pack(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int wbits)
{
    z_stream z = {0};
    if (deflateInit2(&z, 9, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    size_t k = cap - z.avail_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? k : 0;
}

static const struct http_body_decoder_cfg CFG = {false, 1 << 20, 64 << 20};

/* Decode d through the codings, fed step bytes at a time; true when the body is want. */
static bool decodes_to(const uint8_t *codings, int nc, const uint8_t *d, size_t n, size_t step,
                       const char *want, size_t wn)
{
    struct http_body_decoder *dc = http_body_decoder_new(codings, nc, &CFG);
    struct pbuf out = {0};
    for (size_t i = 0; i < n; i += step)
        http_body_decoder_feed(dc, d + i, n - i < step ? n - i : step, &out, 1 << 20);
    bool ok = out.len == wn && !memcmp(out.p, want, wn);
    if (!ok)
        fprintf(stderr, "decoded %u bytes: %.*s\n", out.len, (int)out.len, out.p);
    pbuf_free(&out);
    http_body_decoder_free(dc);
    return ok;
}

static void test_gzip_members(void)
{
    uint8_t gz[256], odd[300];
    size_t n = pack((const uint8_t *)TEXT, strlen(TEXT), gz, sizeof gz, 31);
    CHECK(n > 18);
    const uint8_t g[] = {HC_GZIP};
    for (size_t step = 1; step <= n; step += 7)
        CHECK(decodes_to(g, 1, gz, n, step, TEXT, strlen(TEXT)));
    /* FEXTRA + FNAME + FCOMMENT + FHCRC + a reserved bit, all skipped */
    memcpy(odd, gz, 10);
    odd[3] = 0x02 | 0x04 | 0x08 | 0x10 | 0x20;
    size_t k = 10;
    memcpy(odd + k, "\x03\x00xyzname\0comment\0\x12\x34", 20);
    k += 20;
    memcpy(odd + k, gz + 10, n - 10);
    k += n - 10;
    CHECK(decodes_to(g, 1, odd, k, 1, TEXT, strlen(TEXT)));
    CHECK(decodes_to(g, 1, odd, k, k, TEXT, strlen(TEXT)));
    /* a broken trailer (CRC-32 and ISIZE) is never checked */
    memcpy(odd, gz, n);
    memset(odd + n - 8, 0xff, 8);
    CHECK(decodes_to(g, 1, odd, n, n, TEXT, strlen(TEXT)));
    /* deflate data named gzip: retried as raw deflate */
    size_t r = pack((const uint8_t *)TEXT, strlen(TEXT), odd, sizeof odd, -15);
    CHECK(decodes_to(g, 1, odd, r, r, TEXT, strlen(TEXT)));
}

static void test_deflate_and_layers(void)
{
    uint8_t raw[256], zl[256], inner[256], outer[300];
    const uint8_t d1[] = {HC_DEFLATE};
    size_t r = pack((const uint8_t *)TEXT, strlen(TEXT), raw, sizeof raw, -15);
    size_t z = pack((const uint8_t *)TEXT, strlen(TEXT), zl, sizeof zl, 15);
    CHECK(decodes_to(d1, 1, raw, r, r, TEXT, strlen(TEXT)));
    CHECK(decodes_to(d1, 1, zl, z, 2, TEXT, strlen(TEXT))); /* zlib-wrapped "deflate" */
    /* gzip applied first, then deflate: "Content-Encoding: gzip, deflate" */
    size_t i = pack((const uint8_t *)TEXT, strlen(TEXT), inner, sizeof inner, 31);
    size_t o = pack(inner, i, outer, sizeof outer, -15);
    const uint8_t two[] = {HC_GZIP, HC_DEFLATE};
    CHECK(decodes_to(two, 2, outer, o, 5, TEXT, strlen(TEXT)));
    /* only the deflate layer is real: the gzip one gives up and passes its input on */
    const uint8_t extra[] = {HC_DEFLATE, HC_GZIP};
    struct http_body_decoder *dc = http_body_decoder_new(extra, 2, &CFG);
    struct pbuf out = {0};
    http_body_decoder_feed(dc, raw, r, &out, 1 << 20);
    CHECK(out.len == strlen(TEXT) && !memcmp(out.p, TEXT, out.len));
    pbuf_free(&out);
    http_body_decoder_free(dc);
    /* not compressed at all: counted, the bytes as sent */
    dc = http_body_decoder_new(d1, 1, &CFG);
    http_body_decoder_feed(dc, (const uint8_t *)"plain text", 10, &out, 1 << 20);
    CHECK(out.len == 10 && !memcmp(out.p, "plain text", 10));
    CHECK(http_body_decoder_errors(dc) == 1);
    pbuf_free(&out);
    http_body_decoder_free(dc);
}

/* The body bytes inspected and kept, per direction (0: unlimited). */
static void test_limits(void)
{
    struct http_body_cfg c = {.request_body_limit = 100, .response_body_limit = 200,
                              .body_file_limit = 150};
    CHECK(http_body_inspect_limit(&c, 0) == 100 && http_body_inspect_limit(&c, 1) == 200);
    CHECK(http_body_keep_limit(&c, 0) == 150 && http_body_keep_limit(&c, 1) == 200);
    c.body_file_limit = 0;
    CHECK(http_body_keep_limit(&c, 0) == 0);
}

static void test_bomb_is_capped(void)
{
    size_t big = 4 << 20;
    uint8_t *zeros = calloc(1, big), *gz = malloc(64 << 10), *gz2 = malloc(64 << 10);
    size_t n = pack(zeros, big, gz, 64 << 10, 31);
    size_t n2 = pack(gz, n, gz2, 64 << 10, 31);
    CHECK(n && n2);
    /* a bomb in a bomb: the body stops at its limit, and all layers together at the cap */
    struct http_body_decoder_cfg cfg = {false, 1 << 20, 1 << 20};
    const uint8_t g2[] = {HC_GZIP, HC_GZIP};
    struct http_body_decoder *dc = http_body_decoder_new(g2, 2, &cfg);
    struct pbuf out = {0};
    CHECK(http_body_decoder_feed(dc, gz2, n2, &out, 8 << 20));
    CHECK(out.len <= (1 << 20));
    pbuf_free(&out);
    http_body_decoder_free(dc);
    free(zeros);
    free(gz);
    free(gz2);
}

int main(void)
{
    test_gzip_members();
    test_deflate_and_layers();
    test_bomb_is_capped();
    test_limits();
    return unit_report("test_http_body");
}
