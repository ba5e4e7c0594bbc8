/* fuzz_http2.c — libFuzzer target: the HTTP/2 parser on any bytes of both directions.
 *
 * The first input byte picks the limits (a streams memcap of 2 and small HTTP body limits
 * reach the shedding paths; decompression on or off), whether the flow starts as after an
 * h2c upgrade, and whether the client's preface is given first; the rest is read as records
 * "direction byte, length byte, bytes", fed to http2_parse as segments of either side, with
 * everything the descriptor serves read back after each (as an event's rules would, mid-
 * stream) and as each transaction is reported; the flow then ends (http2_end). The sanitizers
 * do the checking: no crash, leak, overflow or undefined behaviour on any input. Run it with
 * parsers/http2/fuzz/run.sh. */
#include "fuzz_harness.h"
#include "http2_int.h"
#include "http_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct ph h;
    fz_init(&h, "http2", 6);
    /* HTTP's settings begin with the body settings HTTP/2 reads */
    struct http_body_cfg *hc = parsers_proto_cfg(&h.p.cfg, (uint16_t)osprey_app_proto_find("http"));
    if (opt & 1) { /* small limits: the shedding paths */
        ((struct http2_cfg *)ph_cfg(&h))->max_streams = 2;
        hc->request_body_limit = 50;
        hc->response_body_limit = 100;
    }
    hc->decompress = (opt & 2) == 0;
    if (opt & 4) /* as after an h2c upgrade */
        http2_upgraded(&h.pf, &h.f);
    if (!(opt & 8)) /* the preface, so that the records are frames from the start */
        ph_feed(&h, 0, H2_PREFACE, H2_PREFACE_LEN);
    fz_records(&h, data, size, 1, 1, true);
    ph_end(&h);
    ph_free(&h);
    return 0;
}
