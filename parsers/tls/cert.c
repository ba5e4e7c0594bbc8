/* cert.c — the server's first certificate (TLS <= 1.2 sends it in clear): a minimal DER
 * reader walks tbsCertificate to the serial number, issuer and subject. Names print as
 * Suricata shows them: "C=US, ST=California, O=Example, CN=example.com", attributes in
 * certificate order, known types by short name, others as a dotted OID. */
#include <stdio.h>
#include <string.h>

#include "tls_int.h"

struct der {
    const uint8_t *p;
    size_t n;
};

/* One TLV at the front of *in: its tag and contents; *in moves past it. false if bad. */
static bool tlv(struct der *in, uint8_t *tag, struct der *val)
{
    if (in->n < 2)
        return false;
    *tag = in->p[0];
    size_t len = in->p[1], hl = 2;
    if (len & 0x80) {
        unsigned k = len & 0x7f;
        if (k == 0 || k > 4 || in->n < 2 + k)
            return false;
        len = 0;
        for (unsigned i = 0; i < k; i++)
            len = len << 8 | in->p[2 + i];
        hl += k;
    }
    if (len > in->n - hl)
        return false;
    val->p = in->p + hl;
    val->n = len;
    in->p += hl + len;
    in->n -= hl + len;
    return true;
}

static const struct {
    const char *oid, *name;
} names[] = {
    {"2.5.4.3", "CN"},  {"2.5.4.6", "C"},   {"2.5.4.7", "L"},          {"2.5.4.8", "ST"},
    {"2.5.4.10", "O"},  {"2.5.4.11", "OU"}, {"2.5.4.5", "serialNumber"}, {"2.5.4.4", "SN"},
    {"2.5.4.42", "GN"}, {"2.5.4.9", "streetAddress"}, {"2.5.4.12", "title"},
    {"2.5.4.17", "postalCode"},
    {"1.2.840.113549.1.9.1", "Email"}, {"0.9.2342.19200300.100.1.25", "DC"},
    {"0.9.2342.19200300.100.1.1", "UID"},
    /* the EV certificate attributes, named as Suricata 7 prints them */
    {"2.5.4.15", "businessCategory"}, {"1.3.6.1.4.1.311.60.2.1.1", "msJurisdictionLocality"},
    {"1.3.6.1.4.1.311.60.2.1.2", "msJurisdictionStateOrProvince"},
    {"1.3.6.1.4.1.311.60.2.1.3", "msJurisdictionCountry"},
};

static void oid_text(const struct der *o, char *out, size_t cap)
{
    size_t k = 0;
    uint64_t v = 0;
    out[0] = 0;
    for (size_t i = 0; i < o->n && k + 24 < cap; i++) {
        v = v << 7 | (o->p[i] & 0x7f);
        if (o->p[i] & 0x80)
            continue;
        if (k == 0) {
            unsigned first = v < 80 ? (unsigned)(v / 40) : 2;
            k += (size_t)snprintf(out + k, cap - k, "%u.%llu", first,
                                  (unsigned long long)(v - first * 40));
        } else {
            k += (size_t)snprintf(out + k, cap - k, ".%llu", (unsigned long long)v);
        }
        v = 0;
    }
}

/* Name ::= SEQUENCE OF SET OF SEQUENCE { type OID, value ANY } into buffer b. */
static bool name_text(struct tls_state *t, enum osprey_buf b, struct der name)
{
    char out[1024];
    size_t k = 0;
    uint8_t tag;
    struct der set, atv, oid, val;
    while (name.n) {
        if (!tlv(&name, &tag, &set) || tag != 0x31)
            return false;
        while (set.n) {
            if (!tlv(&set, &tag, &atv) || tag != 0x30)
                return false;
            if (!tlv(&atv, &tag, &oid) || tag != 0x06 || !tlv(&atv, &tag, &val))
                return false;
            char dotted[128];
            oid_text(&oid, dotted, sizeof dotted);
            const char *label = dotted;
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                if (!strcmp(names[i].oid, dotted))
                    label = names[i].name;
            int w = snprintf(out + k, sizeof out - k, "%s%s=%.*s", k ? ", " : "", label,
                             (int)val.n, (const char *)val.p);
            if (w < 0 || (size_t)w >= sizeof out - k) {
                k = sizeof out - 1;
                break;
            }
            k += (size_t)w;
        }
    }
    tls_put(t, b, out, k);
    return true;
}

int tls_certificate(struct tls_state *t, const uint8_t *d, size_t n)
{
    if (n < 6)
        return -1;
    size_t first = (size_t)d[3] << 16 | (size_t)d[4] << 8 | d[5];
    if (first > n - 6)
        return -1;
    char fp[60];
    if (tls_sha1_colon_hex(d + 6, first, fp) == 0)
        tls_put(t, OB_TLS_CERT_FINGERPRINT, fp, 59);
    struct der in = {d + 6, first}, cert, tbs, v;
    uint8_t tag;
    if (!tlv(&in, &tag, &cert) || tag != 0x30 || !tlv(&cert, &tag, &tbs) || tag != 0x30)
        return -1;
    if (!tlv(&tbs, &tag, &v))
        return -1;
    if (tag == 0xa0 && !tlv(&tbs, &tag, &v)) /* [0] version, then the serial */
        return -1;
    if (tag != 0x02)
        return -1;
    char serial[256];
    size_t k = 0;
    for (size_t i = 0; i < v.n && k + 4 < sizeof serial; i++)
        k += (size_t)snprintf(serial + k, sizeof serial - k, i ? ":%02X" : "%02X", v.p[i]);
    tls_put(t, OB_TLS_CERT_SERIAL, serial, k);
    struct der alg, issuer, validity, subject;
    if (!tlv(&tbs, &tag, &alg) || !tlv(&tbs, &tag, &issuer) || tag != 0x30 ||
        !tlv(&tbs, &tag, &validity) || !tlv(&tbs, &tag, &subject) || tag != 0x30)
        return -1;
    if (!name_text(t, OB_TLS_CERT_ISSUER, issuer) || !name_text(t, OB_TLS_CERT_SUBJECT, subject))
        return -1;
    return 0;
}
