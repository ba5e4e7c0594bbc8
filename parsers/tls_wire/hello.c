/* hello.c — ClientHello and ServerHello: SNI, versions, random, ALPN, and the fingerprints.
 * What Suricata raises on a hello (its lengths, the server_name extension) is noted in
 * tls_wire.hello_anom for the TLS flow to raise (QUIC reads hellos here too).
 *
 * JA3 (Salesforce): "Version,Ciphers,Extensions,Groups,PointFormats", decimal values joined
 * by '-', GREASE values (RFC 8701: 0x?a?a with equal bytes) left out; ja3.hash is its MD5.
 * JA3S: "Version,Cipher,Extensions" of the ServerHello, and its MD5.
 * JA4 (FoxIO, client): a_b_c where
 *   a = 't' + version ("13", "12", … from the highest supported_versions entry, else the
 *       hello's version) + 'd' (SNI present) or 'i' + two-digit cipher count + two-digit
 *       extension count (GREASE excluded, capped at 99) + first and last character of the
 *       first ALPN value ("00" without ALPN);
 *   b = first 12 hex digits of SHA-256 over the ciphers as 4-digit hex, sorted, ','-joined;
 *   c = the same over the extensions sorted without SNI (0) and ALPN (16), then '_' and the
 *       signature algorithms in their order (no '_' part when there are none).
 * An empty list hashes to "000000000000". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tls_wire.h"

#define MAXV 512

static bool grease(uint16_t v)
{
    return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff);
}

const char *tls_wire_version_name(uint16_t v)
{
    switch (v) {
    case 0x0300: return "SSLv3";
    case 0x0301: return "TLSv1"; /* Suricata's spelling (the others have a space) */
    case 0x0302: return "TLS 1.1";
    case 0x0303: return "TLS 1.2";
    case 0x0304: return "TLS 1.3";
    default: return "UNDETERMINED";
    }
}

struct text {
    char *p;
    size_t len, cap;
};

static void tx_add(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *p = realloc(t->p, cap);
        if (!p)
            return;
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n + 1);
    t->len += n;
}

/* sep (when not 0), then v in decimal or in 4 hex digits, into out (8 bytes): the JA3 and
 * JA4 lists have 50-100 numbers a hello, which snprintf formatted at about 0.7 % of the
 * packet thread */
static const char *num16(char out[8], char sep, uint16_t v, bool hex)
{
    char *p = out;
    if (sep)
        *p++ = sep;
    if (hex) {
        static const char X[] = "0123456789abcdef";
        for (int s = 12; s >= 0; s -= 4)
            *p++ = X[(v >> s) & 15];
    } else {
        char d[5];
        int k = 0;
        do
            d[k++] = (char)('0' + v % 10);
        while ((v /= 10));
        while (k)
            *p++ = d[--k];
    }
    *p = 0;
    return out;
}

static void list_dec(struct text *t, const uint16_t *v, size_t n)
{
    char num[8];
    for (size_t i = 0; i < n; i++)
        tx_add(t, num16(num, i ? '-' : 0, v[i], false));
}

static int cmp16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static void hash12(const uint16_t *v, size_t n, bool sort, const uint16_t *tail, size_t nt,
                   char out[13])
{
    if (!n) {
        memcpy(out, "000000000000", 13);
        return;
    }
    uint16_t tmp[MAXV];
    memcpy(tmp, v, n * sizeof *v);
    if (sort)
        qsort(tmp, n, sizeof *tmp, cmp16);
    struct text t = {0};
    char h[8];
    for (size_t i = 0; i < n; i++)
        tx_add(&t, num16(h, i ? ',' : 0, tmp[i], true));
    for (size_t i = 0; i < nt; i++)
        tx_add(&t, num16(h, i ? ',' : '_', tail[i], true));
    char full[65];
    if (!t.p || tls_wire_sha256_hex(t.p, t.len, full) != 0)
        memcpy(full, "000000000000", 13);
    memcpy(out, full, 12);
    out[12] = 0;
    free(t.p);
}

static const char *ja4_version(uint16_t v)
{
    switch (v) {
    case 0x0304: return "13";
    case 0x0303: return "12";
    case 0x0302: return "11";
    case 0x0301: return "10";
    case 0x0300: return "s3";
    case 0x0002: return "s2";
    default: return "00";
    }
}

static bool alnum(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A reader that never goes past its end. */
struct rd {
    const uint8_t *p;
    size_t n, at;
    bool bad;
};

static const uint8_t *take(struct rd *r, size_t k)
{
    if (r->bad || k > r->n - r->at) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *p = r->p + r->at;
    r->at += k;
    return p;
}

static unsigned u8(struct rd *r)
{
    const uint8_t *p = take(r, 1);
    return p ? p[0] : 0;
}

static unsigned u16(struct rd *r)
{
    const uint8_t *p = take(r, 2);
    return p ? rd_be16(p) : 0;
}

/* The extensions block that ends a hello (absent from old ones: an empty reader). A
 * malformed block marks r bad. */
static struct rd ext_block(struct rd *r)
{
    if (r->at >= r->n)
        return (struct rd){NULL, 0, 0, false};
    unsigned el = u16(r);
    return (struct rd){take(r, el), el, 0, r->bad};
}

/* The next extension of a block: its type and a reader over its body; false at the end of
 * the block or when it is malformed (e->bad). */
static bool next_ext(struct rd *e, uint16_t *type, struct rd *body)
{
    if (e->bad || e->at >= e->n)
        return false;
    *type = (uint16_t)u16(e);
    unsigned len = u16(e);
    const uint8_t *v = take(e, len);
    *body = (struct rd){v, len, 0, false};
    return v != NULL;
}

/* An extension's type for a reader that asks for the hello's list (QUIC's records). */
static void ext_seen(struct tls_wire *t, uint16_t type)
{
    if (t->ext_types && t->next_types < t->ext_max)
        t->ext_types[t->next_types++] = type;
}

/* A list of 16-bit values `bytes` long, GREASE left out, appended to out (at most MAXV). */
static void u16_list(struct rd *x, unsigned bytes, uint16_t *out, size_t *n)
{
    for (unsigned i = 0; i + 1 < bytes && !x->bad; i += 2) {
        uint16_t v = (uint16_t)u16(x);
        if (!grease(v) && *n < MAXV)
            out[(*n)++] = v;
    }
}

/* A JA3 / JA3S string and its MD5 into the two buffers; frees the text. */
static void put_fingerprint(struct tls_wire *t, struct text *j, enum tls_buf str,
                            enum tls_buf hash)
{
    char md5[33];
    if (j->p && tls_wire_md5_hex(j->p, j->len, md5) == 0) {
        tls_wire_put(t, str, j->p, j->len);
        tls_wire_put(t, hash, md5, 32);
    }
    free(j->p);
}

/* A server_name extension's body (RFC 6066 §3: a list of one host_name), checked as Suricata
 * checks it: a name type other than host_name, a name empty, longer than 255 bytes or past
 * the extension, a second server_name extension (the first one's name is kept). */
static void sni_ext(struct tls_wire *t, struct rd *x, bool *sni)
{
    take(x, 2); /* the list's length */
    unsigned nt = u8(x);
    if (x->bad) {
        t->hello_anom |= TLS_HA_INVALID_LENGTH;
        return;
    }
    if (nt != 0) {
        t->hello_anom |= TLS_HA_SNI_TYPE;
        return;
    }
    unsigned nl = u16(x);
    if (x->bad) {
        t->hello_anom |= TLS_HA_INVALID_LENGTH;
        return;
    }
    const uint8_t *name = take(x, nl);
    if (!name || nl == 0 || nl > 255)
        t->hello_anom |= TLS_HA_SNI_LENGTH;
    if (name && *sni)
        t->hello_anom |= TLS_HA_MULTIPLE_SNI;
    if (name && !*sni) {
        *sni = true;
        tls_wire_put(t, TB_SNI, name, nl);
    }
}

int tls_wire_client_hello(struct tls_wire *t, const uint8_t *d, size_t n)
{
    struct rd r = {d, n, 0, false};
    uint16_t version = (uint16_t)u16(&r);
    const uint8_t *random = take(&r, 32);
    take(&r, u8(&r));
    tls_wire_clear_el(t, TB_CLIENT_ALPN);
    uint16_t ciphers[MAXV], exts[MAXV], groups[MAXV], sigs[MAXV];
    uint8_t pf[64];
    size_t nc = 0, ne = 0, ng = 0, ns = 0, npf = 0;
    unsigned cl = u16(&r);
    struct rd cr = {take(&r, cl), cl, 0, false};
    if (cr.p)
        u16_list(&cr, cl, ciphers, &nc);
    take(&r, u8(&r)); /* compression methods */
    if (r.bad || cl % 2) { /* (Suricata reads no further) */
        t->hello_anom |= TLS_HA_INVALID_LENGTH;
        return -1;
    }
    uint16_t best = 0;
    const uint8_t *alpn = NULL;
    size_t alpn_len = 0;
    bool sni = false;
    struct rd e = ext_block(&r), x;
    uint16_t type;
    while (next_ext(&e, &type, &x)) {
        ext_seen(t, type);
        if (!grease(type) && ne < MAXV)
            exts[ne++] = type;
        if (type == 0 && x.n) { /* server_name: the first host_name */
            sni_ext(t, &x, &sni);
        } else if (type == 10) { /* supported_groups */
            u16_list(&x, u16(&x), groups, &ng);
        } else if (type == 11) { /* ec_point_formats */
            unsigned fl = u8(&x);
            for (unsigned i = 0; i < fl && !x.bad && npf < sizeof pf; i++)
                pf[npf++] = (uint8_t)u8(&x);
        } else if (type == 13) { /* signature_algorithms, in their order */
            u16_list(&x, u16(&x), sigs, &ns);
        } else if (type == 16) { /* ALPN: every protocol (JA4 takes the first) */
            take(&x, 2);
            for (bool first = true; x.at < x.n && !x.bad; first = false) {
                size_t pl = u8(&x);
                const uint8_t *proto = take(&x, pl);
                if (!proto)
                    break;
                tls_wire_put_el(t, TB_CLIENT_ALPN, proto, pl);
                if (first)
                    alpn = proto, alpn_len = pl;
            }
        } else if (type == 42) { /* early_data: 0-RTT data may precede the ServerHello */
            t->info.early_data = true;
        } else if (type == 43) { /* supported_versions */
            uint16_t vs[MAXV];
            size_t nv = 0;
            u16_list(&x, u8(&x), vs, &nv);
            for (size_t i = 0; i < nv; i++)
                best = vs[i] > best ? vs[i] : best;
        }
    }
    if (e.bad || r.bad) {
        t->hello_anom |= TLS_HA_INVALID_LENGTH;
        return -1;
    }
    /* JA3 */
    struct text j = {0};
    char num[16];
    snprintf(num, sizeof num, "%u,", version);
    tx_add(&j, num);
    list_dec(&j, ciphers, nc);
    tx_add(&j, ",");
    list_dec(&j, exts, ne);
    tx_add(&j, ",");
    list_dec(&j, groups, ng);
    tx_add(&j, ",");
    uint16_t pf16[64];
    for (size_t i = 0; i < npf; i++)
        pf16[i] = pf[i];
    list_dec(&j, pf16, npf);
    put_fingerprint(t, &j, TB_JA3_STRING, TB_JA3_HASH);
    /* JA4 */
    uint16_t v = best ? best : version;
    char a[16], b[13], c[13];
    char al[3] = "00";
    if (alpn_len) {
        uint8_t f0 = alpn[0], f1 = alpn[alpn_len - 1];
        if (alnum(f0) && alnum(f1)) {
            al[0] = (char)f0, al[1] = (char)f1;
        } else {
            char hx[8];
            snprintf(hx, sizeof hx, "%02x%02x", f0, f1);
            al[0] = hx[0], al[1] = hx[3];
        }
    }
    snprintf(a, sizeof a, "%c%s%c%02u%02u%s", t->quic ? 'q' : 't', ja4_version(v),
             sni ? 'd' : 'i',
             (unsigned)(nc > 99 ? 99 : nc), (unsigned)(ne > 99 ? 99 : ne), al);
    hash12(ciphers, nc, true, NULL, 0, b);
    uint16_t ext_c[MAXV];
    size_t nec = 0;
    for (size_t i = 0; i < ne; i++)
        if (exts[i] != 0 && exts[i] != 16)
            ext_c[nec++] = exts[i];
    hash12(ext_c, nec, true, sigs, ns, c);
    char ja4[48];
    int jl = snprintf(ja4, sizeof ja4, "%s_%s_%s", a, b, c);
    tls_wire_put(t, TB_JA4, ja4, (size_t)jl);
    const char *vn = tls_wire_version_name(v);
    tls_wire_put(t, TB_VERSION, vn, strlen(vn));
    tls_wire_put(t, TB_CLIENT_RANDOM, random, 32);
    t->info.client_version = version;
    return 0;
}

int tls_wire_server_hello(struct tls_wire *t, const uint8_t *d, size_t n)
{
    struct rd r = {d, n, 0, false};
    uint16_t version = (uint16_t)u16(&r);
    const uint8_t *random = take(&r, 32);
    take(&r, u8(&r));
    unsigned cipher = u16(&r);
    tls_wire_clear_el(t, TB_SERVER_ALPN);
    u8(&r);
    if (r.bad) {
        t->hello_anom |= TLS_HA_INVALID_LENGTH;
        return -1;
    }
    uint16_t exts[MAXV], chosen = 0;
    size_t ne = 0;
    struct rd e = ext_block(&r), x;
    uint16_t type;
    while (next_ext(&e, &type, &x)) {
        ext_seen(t, type);
        if (ne < MAXV)
            exts[ne++] = type;
        if (type == 43 && x.n == 2)
            chosen = rd_be16(x.p);
        if (type == 16) { /* ALPN: the protocol chosen */
            take(&x, 2);
            size_t pl = u8(&x);
            const uint8_t *proto = take(&x, pl);
            if (proto)
                tls_wire_put_el(t, TB_SERVER_ALPN, proto, pl);
        }
    }
    if (e.bad || r.bad) {
        t->hello_anom |= TLS_HA_INVALID_LENGTH;
        return -1;
    }
    struct text j = {0};
    char num[24];
    snprintf(num, sizeof num, "%u,%u,", version, cipher);
    tx_add(&j, num);
    list_dec(&j, exts, ne);
    put_fingerprint(t, &j, TB_JA3S_STRING, TB_JA3S_HASH);
    const char *vn = tls_wire_version_name(chosen ? chosen : version);
    tls_wire_put(t, TB_VERSION, vn, strlen(vn));
    tls_wire_put(t, TB_SERVER_RANDOM, random, 32);
    t->info.server_version = chosen ? chosen : version;
    return 0;
}
