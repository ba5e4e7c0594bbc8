/* fuzz_http.c — libFuzzer target: the HTTP/1.x parser on any bytes of both directions.
 *
 * The first input byte picks the limits (header and body limits, layer limit, lzma) and how
 * the rest is cut: it is read as records "direction byte, length byte, bytes", fed to
 * http_parse as segments of either side, with an occasional hole (http_gap); the flow then
 * ends (http_end). Each finished transaction has every buffer read back in full, and its files
 * (hashed, their bytes kept within a small memcap; a request's file.data elements). The
 * sanitizers do the checking: no crash, leak, overflow or undefined behaviour on any input.
 * Run it with parsers/http/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "http_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

/* A transaction is done: read each of its buffers to the last byte. */
static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    struct pflow *pf = arg;
    for (int b = 0; b < HB__COUNT; b++) {
        uint32_t len = 0;
        const uint8_t *d = http_buffer(pf, (enum http_buf)b, &len);
        for (uint32_t i = 0; d && i < len; i++)
            sink += d[i];
    }
    sink += (uint32_t)http_status(pf) + http_tx_id(pf) + (uint32_t)http_response_wire_len(pf);
    struct osprey_file_info fi;
    for (uint32_t i = 0; pfile_at(pf, -1, i, &fi); i++)
        sink += (uint32_t)fi.size + fi.name_len + (fi.has_md5 ? fi.md5[0] : 0u);
    uint32_t len = 0;
    for (uint32_t i = 0; http_file_buffer(pf, 0, i, NULL, &len); i++)
        sink += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t opt = data[0];
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    struct http_cfg *hc = parsers_proto_cfg(&p.cfg, (uint16_t)osprey_app_proto_find("http"));
    if (opt & 1) { /* small limits: the cut paths */
        hc->header_limit = 64;
        hc->body.response_body_limit = 100;
        hc->body.request_body_limit = 50;
    }
    hc->decompress_layer_limit = 1 + ((opt >> 1) & 3);
    hc->lzma_enabled = (opt & 8) != 0;
    p.files = OSPREY_FILES_MD5 | OSPREY_FILES_SHA256 | OSPREY_FILES_STORE;
    p.cfg.files_memcap = 1000; /* small: the shedding path too */
    struct reg_base base[OSPREY_APP_PROTO_MAX]; /* where the counters go (registry.c) */
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        base[id] = reg_base_of(id);
    p.base = base;
    /* the events' UDEs (never run: the flow has no forest) */
    p.ev = calloc(osprey_event_count() + 1u, sizeof *p.ev);
    if (!p.ev)
        return 0;
    struct osprey_parsers_worker w;
    memset(&w, 0, sizeof w);
    w.p = &p;
    struct pflow pf;
    memset(&pf, 0, sizeof pf);
    pf.w = &w;
    pf.proto = (uint16_t)osprey_app_proto_find("http");
    w.tx_fn = on_tx;
    w.tx_arg = &pf;
    struct mon_flow f; /* no event forest: app events are not run, transactions are */
    memset(&f, 0, sizeof f);
    bool records = (opt & 16) != 0;
    size_t i = 1;
    if (!records) { /* a request line, then everything else as the server's answer */
        static const char req[] = "GET / HTTP/1.1\r\nHost: h\r\n\r\n";
        http_parse(&pf, &f, 0, (const uint8_t *)req, sizeof req - 1);
        size_t seg = (opt >> 5) ? (size_t)(opt >> 5) * 3 : size;
        for (; i < size && !pf.dead[1]; i += seg)
            http_parse(&pf, &f, 1, data + i, size - i < seg ? size - i : seg);
    }
    while (records && i + 2 <= size) {
        int dir = data[i] & 1;
        bool gap = (data[i] & 0x7e) == 0x7e;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (gap)
            http_gap(&pf, &f, dir);
        else if (!pf.dead[dir])
            http_parse(&pf, &f, dir, data + i, n);
        i += n;
    }
    http_end(&pf, &f);
    http_free(pf.state);
    pfile_free_all(&pf);
    free(p.ev);
    pbuf_free(&pf.in[0]);
    pbuf_free(&pf.in[1]);
    pbuf_free(&pf.upgrade_rest); /* a 101's first bytes of the new protocol (pflow_free's) */
    return 0;
}
