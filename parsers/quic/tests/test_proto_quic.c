/* test_proto_quic.c — QUIC's descriptor, bytes in, buffers out: RFC 9001 Appendix A.1's
 * Initial keys; the header forms (IETF long headers, v2's type numbers, short, version
 * negotiation, gQUIC Q046 and the old public header); a gQUIC Q046 CHLO giving quic.version,
 * quic.sni, quic.ua and the CYU fingerprint; an Initial that does not authenticate
 * (quic.failed_decrypt's counter, a transaction of its own); short headers make no
 * transaction; the probe's ports. (Decrypted v1 / v2 Initials with a ClientHello split over
 * packets: tests/parsers/test_parsers_quic.py, built with Python's cryptography.) */
#include <string.h>

#include "proto_harness.h"
#include "quic_int.h"
#include "unit.h"

static void hex(const char *s, uint8_t *out)
{
    for (size_t i = 0; s[2 * i]; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static void keys(void)
{
    static const uint8_t DCID[] = {0x83, 0x94, 0xc8, 0xf0, 0x3e, 0x51, 0x57, 0x08};
    struct quic_keys k[2];
    uint8_t want[16];
    CHECK(quic_initial_keys(1, DCID, sizeof DCID, k));
    hex("1f369613dd76d5467730efcbe3b1a22d", want);
    CHECK(!memcmp(k[0].key, want, 16));
    hex("fa044b2f42a3fd3b46fb255c", want);
    CHECK(!memcmp(k[0].iv, want, 12));
    hex("9f50449e04a0e810283a1e9933adedd2", want);
    CHECK(!memcmp(k[0].hp, want, 16));
    hex("cf3a5331653c364c88f0f379b6067e37", want);
    CHECK(!memcmp(k[1].key, want, 16));
    hex("0ac1493ca1905853b0bba03e", want);
    CHECK(!memcmp(k[1].iv, want, 12));
    hex("c206b8d9b9f0f37644430b490eeaa314", want);
    CHECK(!memcmp(k[1].hp, want, 16));
    CHECK(quic_initial_keys(0x6b3343cf, DCID, sizeof DCID, k)); /* v2: its own salt */
    CHECK(memcmp(k[0].key, (uint8_t[16]){0x1f, 0x36}, 2) != 0);
    CHECK(!quic_initial_keys(0x51303436, DCID, sizeof DCID, k)); /* Q046: in clear */
    CHECK(!quic_initial_keys(1, DCID, 0, k));
}

static void headers(void)
{
    struct quic_hdr h;
    size_t at = 0;
    uint64_t v;
    CHECK(quic_varint((const uint8_t *)"\x7b\xbd", 2, &at, &v) && v == 15293 && at == 2);
    at = 0;
    CHECK(!quic_varint((const uint8_t *)"\x80\x01", 2, &at, &v)); /* 4 bytes announced */
    /* v1 Initial: DCID 2, SCID 1, token 1 byte, length 3 */
    static const uint8_t V1[] = {0xc1, 0, 0, 0, 1, 2, 0xaa, 0xbb, 1, 0xcc, 1, 0x77, 3, 1, 2, 3};
    CHECK(quic_header(V1, sizeof V1, &h) && h.type == QT_INITIAL && h.dcid_len == 2 &&
          h.scid_len == 1 && h.hlen == 13 && h.length == 3 && !h.gquic);
    CHECK(!quic_header(V1, sizeof V1 - 1, &h)); /* its length runs past the datagram */
    uint8_t v2[sizeof V1];
    memcpy(v2, V1, sizeof V1);
    memcpy(v2 + 1, "\x6b\x33\x43\xcf", 4);
    CHECK(quic_header(v2, sizeof v2, &h) && h.type == QT_RETRY); /* v2: 00 is Retry */
    v2[0] = 0xd1;
    CHECK(quic_header(v2, sizeof v2, &h) && h.type == QT_INITIAL);
    CHECK(quic_header((const uint8_t *)"\x41\x01\x02", 3, &h) && h.type == QT_SHORT);
    static const uint8_t VN[] = {0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    CHECK(quic_header(VN, sizeof VN, &h) && h.type == QT_VN && h.version == 0);
    /* gQUIC public header: connection id, version Q043, 1-byte packet number, hash */
    uint8_t pub[1 + 8 + 4 + 1 + 12 + 2] = {0x09};
    memcpy(pub + 9, "Q043", 4);
    CHECK(quic_header(pub, sizeof pub, &h) && h.gquic && h.type == QT_INITIAL &&
          h.hlen == 26 && h.length == 2 && h.version == 0x51303433);
    char t[16];
    quic_version_text(0x51303436, t, sizeof t);
    CHECK(!strcmp(t, "Q046"));
    quic_version_text(1, t, sizeof t);
    CHECK(!strcmp(t, "1"));
    quic_version_text(0x6b3343cf, t, sizeof t);
    CHECK(!strcmp(t, "6b3343cf"));
    CHECK(!strcmp(quic_ext_name(57), "quic_transport_parameters") && !quic_ext_name(2570));
}

/* A Q046 client Initial carrying a CHLO with tags tags[] and their values. */
static size_t q046(uint8_t *p, const char *const *tags, const char *const *vals, size_t nt)
{
    size_t n = 0;
    static const uint8_t HDR[] = {0xc3, 'Q', '0', '4', '6', 0x50, 1, 2, 3, 4, 5, 6, 7, 8,
                                  0, 0, 0, 1};
    memcpy(p, HDR, sizeof HDR);
    n = sizeof HDR;
    memset(p + n, 0x5a, 12); /* message authentication hash */
    n += 12;
    uint8_t msg[1024];
    size_t m = 8 + 8 * nt, end = 0;
    memcpy(msg, "CHLO", 4);
    msg[4] = (uint8_t)nt, msg[5] = 0, msg[6] = msg[7] = 0;
    for (size_t i = 0; i < nt; i++) {
        size_t vl = strlen(vals[i]);
        memcpy(msg + 8 + 8 * i, tags[i], 4);
        end += vl;
        msg[12 + 8 * i] = (uint8_t)end, msg[13 + 8 * i] = (uint8_t)(end >> 8);
        msg[14 + 8 * i] = msg[15 + 8 * i] = 0;
    }
    for (size_t i = 0; i < nt; i++) {
        memcpy(msg + m, vals[i], strlen(vals[i]));
        m += strlen(vals[i]);
    }
    p[n++] = 0xa0; /* STREAM with a data length, 1-byte stream id */
    p[n++] = 1;
    p[n++] = (uint8_t)(m >> 8), p[n++] = (uint8_t)m;
    memcpy(p + n, msg, m);
    n += m;
    memset(p + n, 0, 20); /* PADDING */
    return n + 20;
}

static void gquic(void)
{
    struct ph h;
    ph_init(&h, "quic", 17, 51989, 443);
    static const char *const TAGS[] = {"PAD\0", "SNI\0", "VER\0", "UAID"};
    static const char *const VALS[] = {"----", "www.example.com", "Q046", "Chrome/79"};
    uint8_t p[2048];
    size_t n = q046(p, TAGS, VALS, 4);
    ph_feed(&h, 0, p, n);
    CHECK(h.txs == 1);
    CHECK(ph_buf_is(&h, "quic.version", 0, 0, "Q046"));
    CHECK(ph_buf_is(&h, "quic.sni", 0, 0, "www.example.com"));
    CHECK(ph_buf_is(&h, "quic.ua", 0, 0, "Chrome/79"));
    const char *cyu = "46,PAD-SNI-VER-UAID";
    CHECK(ph_buf_is(&h, "quic.cyu.string", 0, 0, cyu));
    char md5[33];
    CHECK(tls_wire_md5_hex(cyu, strlen(cyu), md5) == 0 && ph_buf_is(&h, "quic.cyu.hash", 0, 0, md5));
    uint32_t len;
    CHECK(!ph_buf(&h, "ja3.hash", 0, 0, &len)); /* no TLS in gQUIC Q046 */
    /* a short-header packet: no transaction, nothing read */
    ph_feed(&h, 0, "\x40\x01\x02\x03\x04", 5);
    CHECK(h.txs == 1 && ph_count(&h, "quic_datagrams") == 2);
    /* a long header whose lengths run past the datagram: quic.error_on_header */
    ph_feed(&h, 1, "\xc3Q046\x50\x01", 7);
    CHECK(h.txs == 2 && ph_count(&h, "quic_malformed") == 1);
    /* more tags than kept: counted, the message still read — its values found after all
     * 70 tag entries, not after the 64 read (the SNI is its own value, not tag bytes) */
    const char *MANY[70] = {[0 ... 69] = "PAD\0"}, *MV[70] = {[0 ... 69] = "x"};
    MANY[1] = "SNI\0", MV[1] = "many.example";
    n = q046(p, MANY, MV, 70);
    ph_feed(&h, 0, p, n);
    CHECK(ph_count(&h, "quic_tags_shed") == 6 && ph_nbuf(&h, "quic.cyu.string", 0) == 1);
    CHECK(ph_buf_is(&h, "quic.sni", 0, 0, "many.example"));
    ph_free(&h);
}

static void failed_decrypt(void)
{
    struct ph h;
    ph_init(&h, "quic", 17, 40000, 443);
    /* a v1 Initial: DCID of 8, no token, 40 bytes of payload that are no AEAD output */
    uint8_t p[64] = {0xc0, 0, 0, 0, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 40};
    memset(p + 17, 0x33, 40);
    ph_feed(&h, 0, p, 57);
    CHECK(h.txs == 1 && ph_count(&h, "quic_failed_decrypt") == 1);
    uint32_t len = 0;
    const uint8_t *v = ph_buf(&h, "quic.version", 0, 0, &len);
    CHECK(v && len == 4 && !memcmp(v, "\x00\x00\x00\x01", 4));
    CHECK(((const struct quic_state *)h.pf.state)->tx.events & 1u << QUIC_AE_FAILED_DECRYPT);
    ph_free(&h);
}

/* A CRYPTO frame (2-byte varints) of data at off into p; its length. */
static size_t crypto_frame(uint8_t *p, uint16_t off, const uint8_t *d, uint16_t n)
{
    p[0] = 0x06;
    p[1] = (uint8_t)(0x40 | off >> 8), p[2] = (uint8_t)off;
    p[3] = (uint8_t)(0x40 | n >> 8), p[4] = (uint8_t)n;
    memcpy(p + 5, d, n);
    return 5 + (size_t)n;
}

/* CRYPTO reassembly straight on cleartext frames (what decryption hands over): a ClientHello
 * in two frames, its second half first; then a frame past QUIC_CRYPTO_MAX. */
static void reassembly(void)
{
    static const uint8_t SNI_EXT[] = {0, 0, 0, 14, 0, 12, 0, 0, 9, 'q', '.', 'e', 'x', 'a',
                                      'm', 'p', 'l', 'e'};
    uint8_t ch[128] = {1, 0, 0, 0, 3, 3};
    size_t n = 6 + 32;
    ch[n++] = 0;                                /* session id */
    ch[n++] = 0, ch[n++] = 2, ch[n++] = 0x13, ch[n++] = 0x01; /* one cipher suite */
    ch[n++] = 1, ch[n++] = 0;                   /* compression */
    ch[n++] = 0, ch[n++] = sizeof SNI_EXT;
    memcpy(ch + n, SNI_EXT, sizeof SNI_EXT);
    n += sizeof SNI_EXT;
    ch[3] = (uint8_t)(n - 4);
    struct ph h;
    ph_init(&h, "quic", 17, 40000, 443);
    struct quic_state *st = calloc(1, sizeof *st);
    h.pf.state = st;
    uint8_t f[256];
    size_t half = n / 2;
    size_t k = crypto_frame(f, (uint16_t)half, ch + half, (uint16_t)(n - half));
    CHECK(quic_frames(&h.pf, st, 0, f, k) && !st->tx.hello && !st->d[0].hello_done);
    f[0] = 0x01; /* PING, then the first half, then PADDING */
    k = 1 + crypto_frame(f + 1, 0, ch, (uint16_t)half);
    f[k++] = 0, f[k++] = 0;
    st->tx.id = 2;
    CHECK(quic_frames(&h.pf, st, 0, f, k) && st->tx.hello && st->d[0].hello_done);
    CHECK(ph_buf_is(&h, "quic.sni", 0, 0, "q.example"));
    uint32_t len = 0;
    const uint8_t *ja4 = ph_buf(&h, "ja4.hash", 0, 0, &len);
    CHECK(ja4 && len > 4 && !memcmp(ja4, "q12d", 4)); /* QUIC's JA4: 'q' */
    CHECK(st->tx.next == 1 && st->tx.ext[0] == 0);
    /* the server's side: a frame past what is kept */
    CHECK(quic_frames(&h.pf, st, 1, (const uint8_t *)"\x06\x80\x00\x40\x00\x02\xaa\xbb", 8));
    CHECK(st->d[1].too_long && st->tx.events & 1u << QUIC_AE_CRYPTO_FRAG_TOO_LONG);
    CHECK(ph_count(&h, "quic_crypto_bytes_shed") == 2);
    /* frames an Initial may not carry: an error */
    CHECK(!quic_frames(&h.pf, st, 1, (const uint8_t *)"\x08\x00", 2));
    ph_free(&h);
}

static void probe(void)
{
    struct mon_flow f = {.proto = 17, .cport = 40000, .sport = 443};
    static const uint8_t V1[] = {0xc1, 0, 0, 0, 1, 2, 0xaa, 0xbb, 1, 0xcc, 1, 0x77, 3, 1, 2, 3};
    CHECK(quic_probe(V1, sizeof V1, &f) == DET_YES);
    f.sport = 80;
    CHECK(quic_probe(V1, sizeof V1, &f) == DET_YES);
    f.sport = 53;
    CHECK(quic_probe(V1, sizeof V1, &f) == DET_NO); /* not its ports */
    f.sport = 443;
    CHECK(quic_probe(V1, 3, &f) == DET_NO);
}

int main(void)
{
    keys();
    headers();
    gquic();
    failed_decrypt();
    reassembly();
    probe();
    return unit_report("test_proto_quic");
}
