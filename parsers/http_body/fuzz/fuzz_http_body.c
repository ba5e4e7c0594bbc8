/* fuzz_http_body.c — libFuzzer target: the Content-Encoding decoder alone on any bytes.
 *
 * The first input byte picks the codings (bits 0-1: the first coding, gzip / deflate / zlib /
 * lzma; bit 2: a second layer, gzip; bit 3: lzma enabled) and bits 4-5 the feed size (1, 7,
 * 64 or all at once: a split anywhere must decode the same); bit 6 a small output limit. The
 * rest is the body as sent. The sanitizers do the checking: no read past the input, no leak
 * of a layer's zlib or liblzma stream. Run it with parsers/http_body/fuzz/run.sh. */
#include <stdlib.h>

#include "http_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    static const uint8_t first[] = {HC_GZIP, HC_DEFLATE, HC_ZLIB, HC_LZMA};
    uint8_t codings[2] = {first[opt & 3], HC_GZIP};
    struct http_body_decoder_cfg cfg = {
        .lzma_enabled = (opt & 8) != 0, .lzma_memlimit = 1 << 20, .work_limit = 4 << 20};
    struct http_body_decoder *dc = http_body_decoder_new(codings, (opt & 4) ? 2 : 1, &cfg);
    if (!dc)
        return 0;
    static const size_t steps[] = {1, 7, 64, 0};
    size_t step = steps[opt >> 4 & 3];
    uint32_t max = (opt & 0x40) ? 100 : 1 << 20;
    struct pbuf out = {0};
    data++, size--;
    for (size_t i = 0; i < size;) {
        size_t k = step && size - i > step ? step : size - i;
        if (http_body_decoder_feed(dc, data + i, k, &out, max))
            break;
        i += k;
    }
    (void)http_body_decoder_errors(dc);
    pbuf_free(&out);
    http_body_decoder_free(dc);
    return 0;
}
