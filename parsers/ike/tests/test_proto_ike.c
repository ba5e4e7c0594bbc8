/* test_proto_ike.c — IKE's descriptor, bytes in, buffers out: an IKEv2 IKE_SA_INIT with weak
 * proposals (Suricata's events, each once) and its response (role, chosen attributes), an
 * IKEv1 main mode exchange (SA attributes, the server's chosen transform, vendor ids, key
 * exchange and nonce, the flow's record), an encrypted IKEv1 message, UDP 4500 with the
 * non-ESP marker and ESP beside it, malformed chains, the probe. */
#include <stdlib.h>

#include "ike_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

struct msg {
    uint8_t b[2048];
    size_t n;
    size_t next_at; /* where the last payload's next-payload byte is (16: the header's) */
};

static void be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8, p[1] = v & 0xff;
}

static void be32(uint8_t *p, uint32_t v)
{
    be16(p, v >> 16), be16(p + 2, v & 0xffff);
}

static struct msg header(uint8_t ver, uint8_t exch, uint8_t flags, bool resp)
{
    struct msg m;
    memset(&m, 0, sizeof m);
    memcpy(m.b, "\x61\xd3\x69\x3c\xe1\x2a\xf5\x28", 8);
    if (resp)
        memcpy(m.b + 8, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    m.b[17] = ver, m.b[18] = exch, m.b[19] = flags;
    m.n = IKE_HDR_LEN;
    m.next_at = 16;
    return m;
}

static void payload(struct msg *m, uint8_t type, const void *d, size_t n)
{
    m->b[m->next_at] = type;
    m->next_at = m->n;
    be16(m->b + m->n + 2, (uint16_t)(4 + n));
    memcpy(m->b + m->n + 4, d, n);
    m->n += 4 + n;
}

static void done(struct msg *m)
{
    be32(m->b + 24, (uint32_t)m->n);
}

/* an IKEv2 proposal of IKE (protocol 1) with transforms {type, id} */
static size_t v2_proposal(uint8_t *out, const uint8_t (*t)[2], size_t nt)
{
    size_t n = 8;
    for (size_t i = 0; i < nt; i++) {
        uint8_t *x = out + n;
        memset(x, 0, 8);
        x[0] = i + 1 < nt ? 3 : 0;
        be16(x + 2, 8);
        x[4] = t[i][0];
        be16(x + 6, t[i][1]);
        n += 8;
    }
    memset(out, 0, 8);
    be16(out + 2, (uint16_t)n);
    out[4] = 1, out[5] = 1, out[7] = (uint8_t)nt;
    return n;
}

static char *eve(struct ph *h)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(ike_eve(&h->pf, &w));
    char *s = osprey_jw_finish(&w);
    if (s && *s)
        s[strlen(s) - 1] = 0;
    return s;
}

static uint32_t events_of(struct ph *h)
{
    return ((const struct ike_state *)h->pf.state)->cur.events;
}

static void ikev2(void)
{
    struct ph h;
    ph_init(&h, "ike", 17, 500, 500);
    int64_t v;
    /* 3DES, HMAC-SHA1 PRF, HMAC-SHA1-96, MODP-1024: weak all round */
    static const uint8_t WEAK[][2] = {{1, 3}, {2, 2}, {3, 2}, {4, 2}};
    uint8_t sa[256], ke[8] = {0, 2, 0, 0, 1, 2, 3, 4};
    struct msg m = header(0x20, 34, 0x08, false);
    payload(&m, 33, sa, v2_proposal(sa, WEAK, 4));
    payload(&m, 34, ke, sizeof ke);
    payload(&m, 40, "nonce-nonce-nonce", 17);
    payload(&m, 41, "\x00\x00\x40\x04" "0123456789abcdefghij", 24); /* NAT_DETECTION_SOURCE_IP */
    done(&m);
    ph_feed(&h, 0, m.b, m.n);
    CHECK(h.txs == 1);
    uint32_t e = events_of(&h);
    CHECK(e == (1u << IKE_AE_WEAK_CRYPTO_ENC | 1u << IKE_AE_WEAK_CRYPTO_PRF |
                1u << IKE_AE_WEAK_CRYPTO_AUTH | 1u << IKE_AE_WEAK_CRYPTO_DH));
    CHECK(ph_buf_is(&h, "ike.init_spi", 0, 0, "61d3693ce12af528"));
    CHECK(ph_buf_is(&h, "ike.resp_spi", 0, 0, "0000000000000000"));
    CHECK(ph_field(&h, "ike.exchtype", 0, &v) && v == 34);
    CHECK(ph_field(&h, "ike.chosen_sa_attribute.alg_dh", 0, &v) && v == 2);
    CHECK(ph_field(&h, "ike.chosen_sa_attribute.alg_enc", 0, &v) && v == 3);
    CHECK(!ph_field(&h, "ike.chosen_sa_attribute.alg_hash", 0, &v)); /* none in IKEv2 */
    CHECK(!ph_buf(&h, "ike.nonce_payload", 0, 0, &(uint32_t){0})); /* IKEv1's only */
    CHECK(!ph_field(&h, "ike.nonce_payload_length", 0, &v));
    char *s = eve(&h);
    CHECK(s && !strcmp(s, "{\"ike\":{\"version_major\":2,\"version_minor\":0,"
                          "\"init_spi\":\"61d3693ce12af528\",\"resp_spi\":\"0000000000000000\","
                          "\"message_id\":0,\"exchange_type\":34,\"role\":\"initiator\","
                          "\"payload\":[\"SecurityAssociation\",\"KeyExchange\",\"Nonce\","
                          "\"Notify\",\"NoNextPayload\"],\"ikev2\":{\"errors\":0,"
                          "\"notify\":[\"NAT_DETECTION_SOURCE_IP\"]}}}"));
    free(s);
    /* AES-GCM (AEAD: no integrity needed), PRF-SHA256, MODP-2048: nothing weak */
    static const uint8_t GOOD[][2] = {{1, 20}, {2, 5}, {4, 14}};
    m = header(0x20, 34, 0x20, true);
    payload(&m, 33, sa, v2_proposal(sa, GOOD, 3));
    done(&m);
    ph_feed(&h, 1, m.b, m.n);
    CHECK(h.txs == 2 && events_of(&h) == 0);
    s = eve(&h);
    CHECK(s && strstr(s, "\"role\":\"responder\"") && strstr(s, "\"resp_spi\":\"0102030405060708\""));
    free(s);
    /* no DH, no integrity without AEAD */
    static const uint8_t BARE[][2] = {{1, 12}};
    m = header(0x20, 34, 0x08, false);
    payload(&m, 33, sa, v2_proposal(sa, BARE, 1));
    done(&m);
    ph_feed(&h, 0, m.b, m.n);
    CHECK(events_of(&h) == (1u << IKE_AE_WEAK_CRYPTO_NO_DH | 1u << IKE_AE_WEAK_CRYPTO_NO_AUTH));
    /* a chain running past the datagram: malformed, errors counted; SK ends the chain */
    m = header(0x20, 35, 0x08, false);
    payload(&m, 46, "encrypted", 9);
    done(&m);
    ph_feed(&h, 0, m.b, m.n);
    CHECK(events_of(&h) == 0);
    s = eve(&h);
    CHECK(s && strstr(s, "\"payload\":[\"EncryptedAndAuthenticated\"]"));
    free(s);
    m = header(0x20, 34, 0x08, false);
    payload(&m, 40, "nonce", 5);
    be16(m.b + IKE_HDR_LEN + 2, 200);
    done(&m);
    ph_feed(&h, 0, m.b, m.n);
    CHECK(events_of(&h) == 1u << IKE_AE_MALFORMED_DATA);
    CHECK(((const struct ike_state *)h.pf.state)->cur.errors == 1);
    ph_free(&h);
}

/* an IKEv1 SA payload: DOI 1, situation, one proposal with transforms of attributes */
static size_t v1_sa(uint8_t *out, int ntransforms)
{
    size_t n = 8;
    memset(out, 0, 8);
    out[3] = 1; /* DOI IPsec */
    out[7] = 1; /* situation identity only */
    uint8_t *p = out + n;
    size_t pn = 8;
    memset(p, 0, 8);
    p[4] = 1, p[5] = 1, p[7] = (uint8_t)ntransforms;
    for (int t = 0; t < ntransforms; t++) {
        uint8_t *x = p + pn;
        memset(x, 0, 8);
        x[0] = t + 1 < ntransforms ? 3 : 0;
        x[4] = (uint8_t)(t + 1), x[5] = 1;
        size_t xn = 8;
        /* basic: alg_enc 7 (AES-CBC), alg_hash 2 + t, alg_dh 14; variable: life duration 4 bytes */
        static const uint8_t A[] = {0x80, 0x01, 0x00, 0x07, 0x80, 0x02, 0x00, 0x02,
                                    0x80, 0x04, 0x00, 0x0e, 0x00, 0x0c, 0x00, 0x04,
                                    0x00, 0x01, 0x51, 0x80};
        memcpy(x + xn, A, sizeof A);
        x[xn + 7] = (uint8_t)(2 + t);
        xn += sizeof A;
        be16(x + 2, (uint16_t)xn);
        pn += xn;
    }
    be16(p + 2, (uint16_t)pn);
    return n + pn;
}

static void ikev1(void)
{
    struct ph h;
    ph_init(&h, "ike", 17, 500, 500);
    int64_t v;
    uint8_t sa[512];
    struct msg m = header(0x10, 2, 0, false);
    payload(&m, 1, sa, v1_sa(sa, 2));
    payload(&m, 13, "\xaf\xca\xd7\x13\x68\xa1\xf1\xc9\x6b\x86\x96\xfc\x77\x57\x01\x00", 16);
    done(&m);
    ph_feed(&h, 0, m.b, m.n);
    CHECK(h.txs == 1 && events_of(&h) == 0);
    CHECK(ph_nbuf(&h, "ike.vendor", 0) == 1);
    CHECK(ph_buf_is(&h, "ike.vendor", 0, 0, "afcad71368a1f1c96b8696fc77570100"));
    {   /* the detection engine hands the getter a room it reuses (not emptied): a hex buffer
         * is built from the room's start, not after what the last element left there */
        uint16_t proto;
        int b = osprey_buffer_find_in("ike.vendor", 0, h.pf.proto);
        const struct proto_buffer *r = b >= 0 ? reg_buffer((uint16_t)b, &proto) : NULL;
        struct osprey_scratch room = {0};
        uint32_t n = 0;
        CHECK(r && scratch_put(&room, "stale bytes", 11));
        const uint8_t *d = r ? r->get(&h.pf, r->key, 0, &room, &n) : NULL;
        CHECK(d && n == 32 && !memcmp(d, "afcad71368a1f1c96b8696fc77570100", 32));
        osprey_scratch_free(&room);
    }
    CHECK(ph_field(&h, "ike.exchtype", 0, &v) && v == 2);
    CHECK(ph_field(&h, "ike.chosen_sa_attribute.alg_enc", 0, &v) && v == 7);
    CHECK(ph_field(&h, "ike.chosen_sa_attribute.sa_life_duration", 0, &v) && v == 86400);
    char *s = eve(&h);
    CHECK(s && strstr(s, "\"ikev1\":{\"doi\":1,\"encrypted_payloads\":false,\"client\":{"
                         "\"proposals\":[{\"key\":\"alg_enc\",\"value\":\"EncAesCbc\","
                         "\"raw\":7},"));
    CHECK(s && strstr(s, "\"vendor_ids\":[\"afcad71368a1f1c96b8696fc77570100\"]"));
    CHECK(s && strstr(s, "\"payload\":[\"SecurityAssociation\",\"VendorID\"]"));
    free(s);
    /* the server chooses two transforms: the first is the chosen one, and an event */
    m = header(0x10, 2, 0, true);
    payload(&m, 1, sa, v1_sa(sa, 2));
    done(&m);
    ph_feed(&h, 1, m.b, m.n);
    CHECK(events_of(&h) == 1u << IKE_AE_MULTIPLE_SERVER_PROPOSAL);
    CHECK(ph_field(&h, "ike.chosen_sa_attribute.alg_hash", 0, &v) && v == 2);
    /* key exchange and nonce, each side */
    uint8_t ke[128];
    memset(ke, 0xab, sizeof ke);
    m = header(0x10, 2, 0, false);
    payload(&m, 4, ke, sizeof ke);
    payload(&m, 10, "0123456789abcdef", 16);
    done(&m);
    ph_feed(&h, 0, m.b, m.n);
    uint32_t n;
    CHECK(ph_buf(&h, "ike.key_exchange_payload", 0, 0, &n) && n == 128);
    CHECK(ph_buf_is(&h, "ike.nonce_payload", 0, 0, "0123456789abcdef"));
    CHECK(ph_field(&h, "ike.key_exchange_payload_length", 0, &v) && v == 128);
    CHECK(ph_field(&h, "ike.nonce_payload_length", 0, &v) && v == 16);
    s = eve(&h);
    CHECK(s && strstr(s, "\"attributes\":[{\"key\":\"alg_enc\",\"value\":\"EncAesCbc\",\"raw\":7},"
                         "{\"key\":\"alg_hash\",\"value\":\"HashSha\",\"raw\":2},"
                         "{\"key\":\"alg_dh\",\"value\":\"GroupModp2048Bit\",\"raw\":14},"
                         "{\"key\":\"sa_life_duration\",\"value\":\"Unknown\",\"raw\":86400}]"));
    CHECK(s && strstr(s, "\"key_exchange_payload_length\":128,\"nonce_payload\":"
                         "\"30313233343536373839616263646566\",\"nonce_payload_length\":16}"));
    CHECK(s && !strstr(s, "\"server\":")); /* nothing of the server's yet */
    free(s);
    /* encrypted: the header only */
    m = header(0x10, 2, 1, true);
    payload(&m, 8, "hash", 4);
    done(&m);
    ph_feed(&h, 1, m.b, m.n);
    s = eve(&h);
    CHECK(s && strstr(s, "\"ikev1\":{\"doi\":1,\"encrypted_payloads\":true}"));
    free(s);
    CHECK(h.txs == 4 && ph_count(&h, "ike_tx") == 4);
    ph_free(&h);
}

static void nat_t_and_probe(void)
{
    struct ph h;
    ph_init(&h, "ike", 17, 4500, 4500);
    struct msg m = header(0x20, 37, 0x08, false);
    payload(&m, 46, "x", 1);
    done(&m);
    uint8_t d[2048] = {0};
    memcpy(d + 4, m.b, m.n); /* the non-ESP marker */
    ph_feed(&h, 0, d, m.n + 4);
    CHECK(h.txs == 1);
    ph_feed(&h, 0, "\x11\x22\x33\x44" "espespespespespespesp", 25); /* ESP: not ours */
    ph_feed(&h, 0, "\xff", 1);                                     /* a NAT keepalive */
    CHECK(h.txs == 1 && ph_count(&h, "ike_malformed") == 0);
    struct mon_flow f = {.proto = 17, .cport = 4500, .sport = 4500};
    CHECK(ike_probe(d, m.n + 4, &f) == DET_YES);
    CHECK(ike_probe(m.b, m.n, &f) == DET_NO); /* no marker on 4500: ESP */
    f.cport = f.sport = 500;
    CHECK(ike_probe(m.b, m.n, &f) == DET_YES);
    m.b[18] = 99;
    CHECK(ike_probe(m.b, m.n, &f) == DET_NO); /* no exchange type of IKEv2 */
    m.b[18] = 34, m.b[17] = 0x30;
    CHECK(ike_probe(m.b, m.n, &f) == DET_NO); /* version 3 */
    f.cport = f.sport = 501;
    m.b[17] = 0x20;
    CHECK(ike_probe(m.b, m.n, &f) == DET_NO); /* not its ports */
    ph_free(&h);
    CHECK(!strcmp(ike_attr_name(4), "alg_dh") && ike_attr_find("sa_key_length") == 14);
    CHECK(ike_attr_find("nope") < 0 && !strcmp(ike_attr_name(99), "unknown"));
}

int main(void)
{
    ikev2();
    ikev1();
    nat_t_and_probe();
    return unit_report("test_proto_ike");
}
