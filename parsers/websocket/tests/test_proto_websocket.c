/* test_proto_websocket.c — WebSocket's descriptor, bytes in, buffers out: frame headers split
 * anywhere (7-, 16- and 64-bit lengths), masking, a fragmented message with a control frame
 * between its fragments, permessage-deflate with the window carried over messages, the
 * fields opcode / mask / flags, max-payload-size (shed, events), an inflate bomb bounded, the
 * EVE object. */
#include <zlib.h>

#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"
#include "websocket_int.h"

/* a frame: first byte b0, payload p[0..n), masked with key when key is not NULL */
static size_t frame(uint8_t *out, uint8_t b0, const uint8_t *key, const void *p, size_t n)
{
    size_t k = 0;
    out[k++] = b0;
    uint8_t m = key ? 0x80 : 0;
    if (n < 126) {
        out[k++] = (uint8_t)(m | n);
    } else if (n < 65536) {
        out[k++] = m | 126;
        out[k++] = (uint8_t)(n >> 8);
        out[k++] = (uint8_t)n;
    } else {
        out[k++] = m | 127;
        for (int i = 7; i >= 0; i--)
            out[k++] = (uint8_t)((uint64_t)n >> (8 * i));
    }
    if (key)
        for (int i = 0; i < 4; i++)
            out[k++] = key[i];
    for (size_t i = 0; i < n; i++)
        out[k + i] = ((const uint8_t *)p)[i] ^ (key ? key[i & 3] : 0);
    return k + n;
}

static int64_t field(struct ph *h, const char *name)
{
    int64_t v = -1;
    return ph_field(h, name, 0, &v) ? v : -1;
}

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(websocket_eve(&h->pf, &w));
    return osprey_jw_finish(&w);
}

static void test_frames_and_fragments(void)
{
    static const uint8_t key[4] = {0x12, 0x34, 0x56, 0x78};
    struct ph h;
    ph_init(&h, "websocket", 6, 40000, 80);
    uint8_t b[512];
    /* a masked text frame, fed one byte at a time */
    size_t n = frame(b, 0x81, key, "hello", 5);
    for (size_t i = 0; i < n; i++)
        ph_feed(&h, 0, b + i, 1);
    CHECK(ph_buf_is(&h, "websocket.payload", 0, 0, "hello"));
    CHECK_EQ_U(h.txs, 1);
    CHECK(field(&h, "websocket.opcode") == 1 && field(&h, "websocket.mask") == 0x12345678 &&
          field(&h, "websocket.flags") == 0x80);
    char *j = eve(&h);
    CHECK(j && strstr(j, "\"websocket\":{\"fin\":true,\"mask\":305419896,\"opcode\":\"text\","
                         "\"payload_base64\":\"aGVsbG8=\",\"payload_printable\":\"hello\"}"));
    free(j);
    /* a fragmented message with a ping between its parts: the last frame has it all */
    n = frame(b, 0x01, key, "MALWARE_", 8);
    n += frame(b + n, 0x89, key, "pi", 2);
    ph_feed(&h, 0, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 0, 0, "pi")); /* the ping is in force */
    CHECK(field(&h, "websocket.opcode") == 9);
    n = frame(b, 0x80, key, "DOWNLOAD", 8);
    ph_feed(&h, 0, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 0, 0, "MALWARE_DOWNLOAD"));
    CHECK(field(&h, "websocket.opcode") == 0);
    CHECK_EQ_U(h.txs, 4);
    /* the server's unmasked pong: no mask field, flags fin */
    n = frame(b, 0x8a, NULL, "", 0);
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 1, 0, ""));
    CHECK(field(&h, "websocket.mask") == -1 && field(&h, "websocket.opcode") == 10);
    j = eve(&h);
    CHECK(j && strstr(j, "\"opcode\":\"pong\"") && !strstr(j, "\"mask\""));
    free(j);
    /* a 16-bit length */
    static uint8_t big[300], bb[400];
    memset(big, 'x', sizeof big);
    n = frame(bb, 0x82, NULL, big, sizeof big);
    ph_feed(&h, 1, bb, 3); /* split inside the extended length */
    ph_feed(&h, 1, bb + 3, n - 3);
    uint32_t len;
    CHECK(ph_buf(&h, "websocket.payload", 1, 0, &len) && len == 300);
    CHECK_EQ_U(ph_count(&h, "websocket_frames"), 6);
    ph_free(&h);
}

static void test_limits(void)
{
    struct ph h;
    ph_init(&h, "websocket", 6, 40000, 80);
    struct websocket_cfg *c = ph_cfg(&h);
    c->max_payload = 4;
    static uint8_t b[80000], p[70000];
    memset(p, 'a', sizeof p);
    size_t n = frame(b, 0x82, NULL, p, sizeof p); /* a 64-bit length */
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 1, 0, "aaaa"));
    CHECK_EQ_U(ph_count(&h, "websocket_payload_shed"), sizeof p - 4);
    /* a message past the limit in fragments */
    n = frame(b, 0x01, NULL, "abc", 3);
    n += frame(b + n, 0x80, NULL, "def", 3);
    ph_feed(&h, 0, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 0, 0, "abcd"));
    CHECK_EQ_U(h.txs, 3);
    ph_free(&h);
}

/* deflate s as permessage-deflate sends it: raw, sync-flushed, the 4-byte tail cut */
static size_t deflated(z_stream *z, const char *s, uint8_t *out, size_t cap)
{
    z->next_in = (Bytef *)s;
    z->avail_in = (uInt)strlen(s);
    z->next_out = out;
    z->avail_out = (uInt)cap;
    CHECK(deflate(z, Z_SYNC_FLUSH) == Z_OK);
    size_t n = cap - z->avail_out;
    CHECK(n >= 4 && !memcmp(out + n - 4, "\x00\x00\xff\xff", 4));
    return n - 4;
}

static void test_deflate(void)
{
    struct ph h;
    ph_init(&h, "websocket", 6, 40000, 80);
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    uint8_t c[256], b[300];
    size_t cn = deflated(&z, "TOGGLE=5659131662f54334", c, sizeof c);
    size_t n = frame(b, 0xc1, NULL, c, cn); /* FIN, RSV1, text */
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 1, 0, "TOGGLE=5659131662f54334"));
    CHECK(field(&h, "websocket.flags") == 0xc0);
    /* the next message refers back into the window (context takeover), in two fragments */
    cn = deflated(&z, "TOGGLE=5659131662f54334!", c, sizeof c);
    n = frame(b, 0x41, NULL, c, cn / 2);
    n += frame(b + n, 0x80, NULL, c + cn / 2, cn - cn / 2);
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 1, 0, "TOGGLE=5659131662f54334!"));
    deflateEnd(&z);
    /* garbage that does not inflate: kept as sent, counted, the direction inflates no more */
    n = frame(b, 0xc1, NULL, "\xff\xff\xff", 3);
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "websocket.payload", 1, 0, "\xff\xff\xff"));
    CHECK_EQ_U(ph_count(&h, "websocket_inflate_failed"), 1);
    ph_free(&h);

    /* a bomb: 8 MiB of zeros inflate to the limit, the rest dropped */
    ph_init(&h, "websocket", 6, 40000, 80);
    memset(&z, 0, sizeof z);
    CHECK(deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    static uint8_t zeros[1 << 23], out[1 << 16], fb[1 << 16];
    z.next_in = zeros;
    z.avail_in = sizeof zeros;
    z.next_out = out;
    z.avail_out = sizeof out;
    CHECK(deflate(&z, Z_SYNC_FLUSH) == Z_OK);
    size_t on = sizeof out - z.avail_out - 4;
    deflateEnd(&z);
    n = frame(fb, 0xc2, NULL, out, on);
    ph_feed(&h, 0, fb, n);
    uint32_t len;
    CHECK(ph_buf(&h, "websocket.payload", 0, 0, &len) && len == WS_MAX_PAYLOAD_DEFAULT);
    CHECK_EQ_U(ph_count(&h, "websocket_inflate_shed"), 1);
    ph_free(&h);
}

int main(void)
{
    test_frames_and_fragments();
    test_limits();
    test_deflate();
    return unit_report("test_proto_websocket");
}
