/* test_proto_http2.c — HTTP/2's descriptor, bytes in, buffers out: a prior-knowledge
 * exchange (preface, SETTINGS, HEADERS encoded with libnghttp2's deflater, a gzip'd DATA
 * body), the http.* buffers as Suricata forms them on HTTP/2, one element per header, the
 * frame facts of the http2.* keywords (stream 0's frames each a transaction), CONTINUATION
 * with padding and priority, the streams memcap, split input, the probes. */
#include <nghttp2/nghttp2.h>
#include <zlib.h>

#include "http2_int.h"
#include "proto_harness.h"
#include "unit.h"

struct out {
    uint8_t b[8192];
    size_t n;
};

static void frame(struct out *o, uint8_t type, uint8_t flags, uint32_t sid, const void *p,
                  size_t n)
{
    uint8_t h[9] = {(uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n, type, flags,
                    (uint8_t)(sid >> 24), (uint8_t)(sid >> 16), (uint8_t)(sid >> 8),
                    (uint8_t)sid};
    memcpy(o->b + o->n, h, 9);
    memcpy(o->b + o->n + 9, p, n);
    o->n += 9 + n;
}

#define NV(n, v) {(uint8_t *)(n), (uint8_t *)(v), sizeof(n) - 1, sizeof(v) - 1, 0}

/* a header block of the given fields through deflater d */
static size_t block(nghttp2_hd_deflater *d, const nghttp2_nv *nv, size_t k, uint8_t *buf)
{
    ssize_t n = nghttp2_hd_deflate_hd(d, buf, 2048, nv, k);
    CHECK(n > 0);
    return n > 0 ? (size_t)n : 0;
}

static size_t gzip(const char *s, uint8_t *out, size_t cap)
{
    z_stream z = {0};
    deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (Bytef *)s;
    z.avail_in = (uInt)strlen(s);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    size_t n = z.total_out;
    deflateEnd(&z);
    return n;
}

static void feed(struct ph *h, int dir, const struct out *o)
{
    ph_feed(h, dir, o->b, o->n);
}

static void test_exchange(void)
{
    struct ph h;
    ph_init(&h, "http2", 6, 40000, 80);
    nghttp2_hd_deflater *dc, *ds;
    nghttp2_hd_deflate_new(&dc, 4096);
    nghttp2_hd_deflate_new(&ds, 4096);
    struct out c = {.n = 0};
    memcpy(c.b, H2_PREFACE, H2_PREFACE_LEN);
    c.n = H2_PREFACE_LEN;
    const uint8_t set[] = {0, 1, 0, 0, 0x10, 0, 0, 4, 0, 0, 0xff, 0xff}; /* table 4096, window */
    frame(&c, H2_SETTINGS, 0, 0, set, sizeof set);
    const nghttp2_nv req[] = {NV(":method", "GET"), NV(":path", "/a/b?c=1"),
                              NV(":authority", "User@Example.COM:8080"), NV(":scheme", "http"),
                              NV("user-agent", "ua/1"), NV("cookie", "a=1"),
                              NV("cookie", "b=2")};
    uint8_t blk[2048];
    size_t bn = block(dc, req, 7, blk);
    frame(&c, H2_HEADERS, H2F_END_HEADERS | H2F_END_STREAM, 1, blk, bn);
    /* split anywhere: one byte at a time */
    for (size_t i = 0; i < c.n; i++)
        ph_feed(&h, 0, c.b + i, 1);
    CHECK(!h.pf.dead[0]);
    CHECK_EQ_U(h.txs, 1); /* the SETTINGS frame: stream 0's own transaction */
    struct http2_state *st = h.pf.state;
    CHECK(st && st->nst == 1);
    st->cur = st->st[0]; /* the request's event would have it current */
    CHECK(ph_buf_is(&h, "http.method", 0, 0, "GET"));
    CHECK(ph_buf_is(&h, "http.uri", 0, 0, "/a/b?c=1"));
    CHECK(ph_buf_is(&h, "http.host", 0, 0, "example.com")); /* no userinfo, port, case */
    CHECK(ph_buf_is(&h, "http.host.raw", 0, 0, "User@Example.COM:8080"));
    CHECK(ph_buf_is(&h, "http.user_agent", 0, 0, "ua/1"));
    CHECK(ph_buf_is(&h, "http.cookie", 0, 0, "a=1; b=2"));
    CHECK(ph_buf_is(&h, "http.request_header", 0, 0, ":method: GET"));
    CHECK(ph_buf_is(&h, "http.request_header", 0, 2, ":authority: User@Example.COM:8080"));
    CHECK_EQ_U(ph_nbuf(&h, "http.request_header", 0), 7);
    CHECK(ph_buf_is(&h, "http2.header_name", 0, 4, "user-agent"));
    CHECK(ph_buf_is(&h, "http.header_names", 0, 0,
                    "\r\n:method\r\n:path\r\n:authority\r\n:scheme\r\nuser-agent\r\ncookie\r\n"
                    "cookie\r\n\r\n"));
    uint32_t n;
    const uint8_t *hd = ph_buf(&h, "http.header", 0, 0, &n);
    CHECK(hd && n > 12 && !memcmp(hd, ":method: GET\r\n:path: /a/b?c=1\r\n", 30));
    /* the server: SETTINGS, the response head (gzip), DATA, a WINDOW_UPDATE on stream 0 */
    struct out s = {.n = 0};
    const uint8_t sset[] = {0, 3, 0, 0, 0, 100};
    frame(&s, H2_SETTINGS, 0, 0, sset, sizeof sset);
    const nghttp2_nv resp[] = {NV(":status", "200"), NV("content-encoding", "gzip"),
                               NV("content-type", "text/html; charset=utf-8")};
    bn = block(ds, resp, 3, blk);
    frame(&s, H2_HEADERS, H2F_END_HEADERS, 1, blk, bn);
    uint8_t gz[256];
    size_t gn = gzip("hello, http/2 world", gz, sizeof gz);
    frame(&s, H2_DATA, 0, 1, gz, 5);
    frame(&s, H2_DATA, H2F_END_STREAM, 1, gz + 5, gn - 5);
    feed(&h, 1, &s);
    CHECK_EQ_U(h.txs, 3); /* the server's SETTINGS, then stream 1 over */
    CHECK(st->nst == 0 && st->last && st->last->id == 1);
    CHECK(ph_buf_is(&h, "http.stat_code", 1, 0, "200"));
    CHECK(ph_buf_is(&h, "http.response_body", 1, 0, "hello, http/2 world")); /* gunzipped */
    CHECK(ph_buf_is(&h, "http.uri", 0, 0, "/a/b?c=1")); /* still readable once reported */
    CHECK(ph_buf_is(&h, "http.response_header", 1, 1, "content-encoding: gzip"));
    CHECK_EQ_U(ph_count(&h, "http2_streams"), 1);
    CHECK_EQ_U(ph_count(&h, "http2_frames"), 6);
    /* a WINDOW_UPDATE and a GOAWAY of stream 0: each its own transaction, with its fact */
    struct out w = {.n = 0};
    const uint8_t inc[] = {0, 0, 0x87, 0x4a};
    frame(&w, H2_WINDOW_UPDATE, 0, 0, inc, 4);
    feed(&h, 0, &w);
    int64_t v;
    st->cur_dir = 0;
    CHECK(ph_field(&h, "http2.window", 0, &v) && v == 34634);
    CHECK(ph_field(&h, "http2.frametype", 0, &v) && v == H2_WINDOW_UPDATE);
    CHECK(!ph_field(&h, "http2.window", 1, &v));
    w.n = 0;
    const uint8_t ga[] = {0, 0, 0, 1, 0, 0, 0, 2};
    frame(&w, H2_GOAWAY, 0, 0, ga, 8);
    feed(&h, 0, &w);
    CHECK(ph_field(&h, "http2.errorcode", 0, &v) && v == 2);
    CHECK_EQ_U(h.txs, 5);
    nghttp2_hd_deflate_del(dc);
    nghttp2_hd_deflate_del(ds);
    ph_free(&h);
}

static void test_continuation_and_facts(void)
{
    struct ph h;
    ph_init(&h, "http2", 6, 40000, 80);
    nghttp2_hd_deflater *dc;
    nghttp2_hd_deflate_new(&dc, 4096);
    struct out c = {.n = 0};
    memcpy(c.b, H2_PREFACE, H2_PREFACE_LEN);
    c.n = H2_PREFACE_LEN;
    const nghttp2_nv req[] = {NV(":method", "POST"), NV(":path", "/up"),
                              NV(":authority", "a.example"), NV("host", "b.example")};
    uint8_t blk[2048], p[2100];
    size_t bn = block(dc, req, 4, blk);
    /* HEADERS padded (3 bytes) with a priority (weight 255), its block cut in two: the rest
     * in a CONTINUATION */
    size_t k = 0;
    p[k++] = 3;                                      /* pad length */
    memcpy(p + k, "\x00\x00\x00\x00\xff", 5), k += 5; /* dependency, weight */
    memcpy(p + k, blk, 4), k += 4;
    memset(p + k, 0, 3), k += 3;                     /* padding */
    frame(&c, H2_HEADERS, H2F_PADDED | H2F_PRIORITY, 3, p, k);
    frame(&c, H2_CONTINUATION, H2F_END_HEADERS, 3, blk + 4, bn - 4);
    frame(&c, H2_DATA, H2F_END_STREAM, 3, "body!", 5);
    feed(&h, 0, &c);
    struct http2_state *st = h.pf.state;
    CHECK(st && st->nst == 1);
    st->cur = st->st[0];
    st->cur_dir = 0;
    CHECK(ph_buf_is(&h, "http.method", 0, 0, "POST"));
    CHECK(ph_buf_is(&h, "http.host", 0, 0, "a.example")); /* :authority wins */
    CHECK(ph_buf_is(&h, "http.request_body", 0, 0, "body!"));
    int64_t v;
    CHECK(ph_field(&h, "http2.priority", 0, &v) && v == 255);
    CHECK(ph_field(&h, "http2.frametype", 0, &v) && v == H2_HEADERS);
    CHECK(ph_field(&h, "http2.frametype", 1, &v) && v == H2_DATA);
    CHECK_EQ_U(h.txs, 0); /* the server has not answered */
    ph_end(&h);
    CHECK_EQ_U(h.txs, 1); /* reported at the flow's end */
    nghttp2_hd_deflate_del(dc);
    ph_free(&h);
}

static void test_limits(void)
{
    struct ph h;
    ph_init(&h, "http2", 6, 40000, 80);
    ((struct http2_cfg *)ph_cfg(&h))->max_streams = 2;
    struct out c = {.n = 0};
    memcpy(c.b, H2_PREFACE, H2_PREFACE_LEN);
    c.n = H2_PREFACE_LEN;
    const uint8_t get[] = {0x82, 0x84, 0x86}; /* :method GET, :path /, :scheme http */
    for (uint32_t sid = 1; sid <= 7; sid += 2)
        frame(&c, H2_HEADERS, H2F_END_HEADERS, sid, get, sizeof get);
    /* a PING of the wrong length, DATA on stream 0: anomalies, the reading goes on */
    frame(&c, H2_PING, 0, 0, "1234", 4);
    frame(&c, H2_DATA, 0, 0, "x", 1);
    feed(&h, 0, &c);
    struct http2_state *st = h.pf.state;
    CHECK_EQ_U(st->nst, 2);
    CHECK_EQ_U(ph_count(&h, "http2_streams_shed"), 2);
    CHECK_EQ_U(ph_count(&h, "http2_frames"), 6);
    CHECK(!h.pf.dead[0]);
    ph_free(&h);

    /* a wrong preface: the client's side is given up */
    ph_init(&h, "http2", 6, 40000, 80);
    ph_feed(&h, 0, "PRI * HTTP/1.1\r\n", 16);
    CHECK(h.pf.dead[0]);
    ph_free(&h);
}

/* bodies of many open streams: the flow's memcap holds, what it sheds is counted */
static void test_memcap(void)
{
    struct ph h;
    ph_init(&h, "http2", 6, 40000, 80);
    ph_feed(&h, 0, H2_PREFACE, H2_PREFACE_LEN);
    static uint8_t chunk[9 + 16384];
    memset(chunk + 9, 'x', 16384);
    const uint8_t get[] = {0x83, 0x84, 0x86}; /* POST / http */
    for (uint32_t sid = 1; sid < 2 * 40; sid += 2) {
        struct out c = {.n = 0};
        frame(&c, H2_HEADERS, H2F_END_HEADERS, sid, get, sizeof get);
        feed(&h, 0, &c);
        uint8_t hdr[9] = {0, 0x40, 0, H2_DATA, 0, (uint8_t)(sid >> 24), (uint8_t)(sid >> 16),
                          (uint8_t)(sid >> 8), (uint8_t)sid};
        memcpy(chunk, hdr, 9);
        for (int k = 0; k < 64; k++) /* 1 MiB each, never ended */
            ph_feed(&h, 0, chunk, sizeof chunk);
    }
    struct http2_state *st = h.pf.state;
    CHECK_EQ_U(st->nst, 40);
    CHECK(st->mem <= H2_FLOW_MEMCAP);
    CHECK(ph_count(&h, "http2_memcap_shed") >= (40ull << 20) - H2_FLOW_MEMCAP);
    ph_free(&h);
}

static void test_probes(void)
{
    CHECK(h2_probe_client((const uint8_t *)H2_PREFACE, H2_PREFACE_LEN, NULL) == DET_YES);
    CHECK(h2_probe_client((const uint8_t *)"PRI * HT", 8, NULL) == DET_NEED_MORE);
    CHECK(h2_probe_client((const uint8_t *)"GET / HTTP/1.1\r\n", 16, NULL) == DET_NO);
    const uint8_t set[] = {0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 100};
    CHECK(h2_probe_server(set, sizeof set, NULL) == DET_YES);
    CHECK(h2_probe_server(set, 5, NULL) == DET_NEED_MORE);
    const uint8_t ack[] = {0, 0, 0, 4, 1, 0, 0, 0, 0};
    CHECK(h2_probe_server(ack, sizeof ack, NULL) == DET_NO);
    CHECK(h2_probe_server((const uint8_t *)"HTTP/1.1 200", 12, NULL) == DET_NO);
}

int main(void)
{
    test_exchange();
    test_continuation_and_facts();
    test_limits();
    test_memcap();
    test_probes();
    return unit_report("test_proto_http2");
}
