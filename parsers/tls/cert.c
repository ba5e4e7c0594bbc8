/* cert.c — the certificates of a Certificate message, the server's or (mutual authentication)
 * the client's (TLS <= 1.2 sends them in clear): each one's DER as an element of tls.certs; for the first one a minimal DER reader walks tbsCertificate to the
 * serial number, issuer, validity, subject and the subjectAltName extension, checking each
 * part's shape as Suricata's reader does (the part that fails names the event raised). Names print as
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
/* Set when a read failed in an element's header: a tag without its length, a length form that
 * is not allowed, length bytes cut short (Suricata's certificate_invalid_length; contents
 * shorter than their length are an invalid certificate). Per thread: workers decode at once. */
static _Thread_local bool der_size_error;

static bool tlv(struct der *in, uint8_t *tag, struct der *val)
{
    if (in->n < 2) {
        der_size_error |= in->n == 1; /* a tag without its length */
        return false;
    }
    *tag = in->p[0];
    size_t len = in->p[1], hl = 2;
    if (len & 0x80) {
        unsigned k = len & 0x7f;
        if (k == 0 || k > 4 || in->n < 2 + k) {
            der_size_error = true;
            return false;
        }
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
static bool name_text(struct tls_wire *t, enum tls_buf b, struct der name)
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
            int w = snprintf(out + k, sizeof out - k, "%s%s=", k ? ", " : "", label);
            /* the value's bytes as sent, a NUL included (as Suricata keeps them) */
            if (w < 0 || (size_t)w + val.n >= sizeof out - k) {
                k = sizeof out - 1;
                break;
            }
            memcpy(out + k + (size_t)w, val.p, val.n);
            k += (size_t)w + val.n;
        }
    }
    tls_wire_put(t, b, out, k);
    return true;
}

/* UTCTime "YYMMDDHHMMSSZ" or GeneralizedTime "YYYYMMDDHHMMSSZ" as seconds since 1970 UTC. */
static bool der_time(uint8_t tag, struct der v, int64_t *out)
{
    size_t yl = tag == 0x17 ? 2 : tag == 0x18 ? 4 : 0;
    if (!yl || v.n < yl + 10)
        return false;
    int f[6] = {0};
    size_t at = 0;
    for (int i = 0; i < 6; i++) {
        size_t w = i == 0 ? yl : 2;
        for (size_t k = 0; k < w; k++, at++) {
            if (v.p[at] < '0' || v.p[at] > '9')
                return false;
            f[i] = f[i] * 10 + (v.p[at] - '0');
        }
    }
    int y = f[0];
    if (yl == 2)
        y += y < 50 ? 2000 : 1900; /* RFC 5280 4.1.2.5.1 */
    int m = f[1], d = f[2];
    if (m < 1 || m > 12 || d < 1 || d > 31)
        return false;
    /* days since 1970-01-01 (civil calendar, proleptic Gregorian) */
    int yy = y - (m <= 2);
    int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
    int64_t yoe = yy - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    int64_t days = era * 146097 + doe - 719468;
    *out = days * 86400 + f[3] * 3600 + f[4] * 60 + f[5];
    return true;
}

/* GeneralNames of a subjectAltName extension into TB_SAN: DNS names, e-mail addresses
 * and URIs as written, IP addresses in their usual text form; other forms are left out. */
static void san_names(struct tls_wire *t, struct der names)
{
    uint8_t tag;
    struct der seq, gn;
    if (!tlv(&names, &tag, &seq) || tag != 0x30)
        return;
    while (seq.n && tlv(&seq, &tag, &gn)) {
        char ip[48];
        if (tag == 0x81 || tag == 0x82 || tag == 0x86) {
            tls_wire_put_el(t, TB_SAN, gn.p, gn.n);
        } else if (tag == 0x87 && gn.n == 4) {
            int k = snprintf(ip, sizeof ip, "%u.%u.%u.%u", gn.p[0], gn.p[1], gn.p[2], gn.p[3]);
            tls_wire_put_el(t, TB_SAN, ip, (size_t)k);
        } else if (tag == 0x87 && gn.n == 16) {
            size_t k = 0;
            for (int i = 0; i < 16; i += 2)
                k += (size_t)snprintf(ip + k, sizeof ip - k, i ? ":%x" : "%x",
                                      (unsigned)(gn.p[i] << 8 | gn.p[i + 1]));
            tls_wire_put_el(t, TB_SAN, ip, k);
        }
    }
}

/* Extension ::= SEQUENCE { extnID OID, critical BOOLEAN OPTIONAL, extnValue OCTET STRING }:
 * its OID and value, false when it is none */
static bool extension(struct der ext, struct der *oid, struct der *value)
{
    uint8_t tag;
    if (!tlv(&ext, &tag, oid) || tag != 0x06 || !tlv(&ext, &tag, value))
        return false;
    if (tag == 0x01 && !tlv(&ext, &tag, value))
        return false;
    return tag == 0x04 && !ext.n;
}

/* The [3] extensions of tbsCertificate (after the public key and the optional unique ids):
 * the subjectAltName one (2.5.29.17); false when the block is no SEQUENCE OF Extension. */
static bool extensions(struct tls_wire *t, struct der tbs)
{
    static const uint8_t SAN_OID[] = {0x55, 0x1d, 0x11};
    uint8_t tag = 0;
    struct der v, exts, ext, oid, value;
    while (tbs.n && tlv(&tbs, &tag, &v))
        if (tag == 0xa3)
            break;
    if (tag != 0xa3)
        return true; /* none (a v1 certificate) */
    if (!tlv(&v, &tag, &exts) || tag != 0x30)
        return false;
    while (exts.n) {
        if (!tlv(&exts, &tag, &ext) || tag != 0x30 || !extension(ext, &oid, &value))
            return false;
        if (oid.n == 3 && !memcmp(oid.p, SAN_OID, 3))
            san_names(t, value);
    }
    return true;
}

/* Validity ::= SEQUENCE { notBefore Time, notAfter Time }, Time a UTCTime or GeneralizedTime */
static bool validity_shape(struct der validity)
{
    uint8_t tag;
    struct der v;
    for (int i = 0; i < 2; i++)
        if (!tlv(&validity, &tag, &v) || (tag != 0x17 && tag != 0x18))
            return false;
    return !validity.n;
}

/* AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL } */
static bool algorithm_shape(uint8_t tag, struct der alg)
{
    struct der oid;
    uint8_t t;
    return tag == 0x30 && tlv(&alg, &t, &oid) && t == 0x06;
}

unsigned tls_cert_anomaly(int rc)
{
    switch (rc) {
    case TLS_CERT_LENGTH: return TLS_AE_CERTIFICATE_INVALID_LENGTH;
    case TLS_CERT_VERSION: return TLS_AE_CERT_INVALID_VERSION;
    case TLS_CERT_SERIAL: return TLS_AE_CERT_INVALID_SERIAL;
    case TLS_CERT_ALGID: return TLS_AE_CERT_INVALID_ALGID;
    case TLS_CERT_X509NAME: return TLS_AE_CERT_INVALID_X509NAME;
    case TLS_CERT_DATE: return TLS_AE_CERT_INVALID_DATE;
    case TLS_CERT_EXTENSIONS: return TLS_AE_CERT_INVALID_EXTENSIONS;
    case TLS_CERT_DER: return TLS_AE_CERT_INVALID_DER;
    default: return TLS_AE_INVALID_CERTIFICATE;
    }
}

/* [0] EXPLICIT Version ::= INTEGER { v1(0), v2(1), v3(2) } */
static bool version_ok(struct der v)
{
    uint8_t tag;
    struct der n;
    return tlv(&v, &tag, &n) && tag == 0x02 && n.n == 1 && n.p[0] <= 2 && !v.n;
}

/* The first certificate's fields (its DER in first); its validity into info (the server's
 * only: the client's is not what tls_cert_* look at). The parts are checked in the order
 * Suricata's reader reads them; the first that fails names the result (TLS_CERT_*). */
static int first_certificate(struct tls_wire *t, struct der first, struct tls_info *info)
{
    char fp[60];
    if (tls_wire_sha1_colon_hex(first.p, first.n, fp) == 0)
        tls_wire_put(t, TB_CERT_FINGERPRINT, fp, 59);
    struct der in = first, cert, tbs, v;
    uint8_t tag;
    if (!tlv(&in, &tag, &cert))
        return TLS_CERT_INVALID;
    if (tag != 0x30)
        return TLS_CERT_DER;
    if (!tlv(&cert, &tag, &tbs))
        return TLS_CERT_INVALID;
    if (tag != 0x30)
        return TLS_CERT_DER;
    if (!tlv(&tbs, &tag, &v))
        return TLS_CERT_INVALID;
    if (tag == 0xa0) { /* [0] version, then the serial */
        if (!version_ok(v))
            return TLS_CERT_VERSION;
        if (!tlv(&tbs, &tag, &v))
            return TLS_CERT_INVALID;
    }
    if (tag != 0x02)
        return TLS_CERT_SERIAL;
    char serial[256];
    size_t k = 0;
    for (size_t i = 0; i < v.n && k + 4 < sizeof serial; i++)
        k += (size_t)snprintf(serial + k, sizeof serial - k, i ? ":%02X" : "%02X", v.p[i]);
    tls_wire_put(t, TB_CERT_SERIAL, serial, k);
    struct der alg, issuer, validity, subject, nb, na;
    if (!tlv(&tbs, &tag, &alg))
        return TLS_CERT_INVALID;
    if (!algorithm_shape(tag, alg))
        return TLS_CERT_ALGID;
    if (!tlv(&tbs, &tag, &issuer))
        return TLS_CERT_INVALID;
    if (tag != 0x30 || !name_text(t, TB_CERT_ISSUER, issuer))
        return TLS_CERT_X509NAME;
    if (!tlv(&tbs, &tag, &validity))
        return TLS_CERT_INVALID;
    if (tag != 0x30 || !validity_shape(validity))
        return TLS_CERT_DATE;
    if (!tlv(&tbs, &tag, &subject))
        return TLS_CERT_INVALID;
    if (tag != 0x30 || !name_text(t, TB_CERT_SUBJECT, subject))
        return TLS_CERT_X509NAME;
    uint8_t tb, ta;
    info->has_validity = tlv(&validity, &tb, &nb) && tlv(&validity, &ta, &na) &&
                         der_time(tb, nb, &info->not_before) &&
                         der_time(ta, na, &info->not_after);
    if (!extensions(t, tbs))
        return TLS_CERT_EXTENSIONS;
    return 0;
}

int tls_certificate(struct tls_wire *t, const uint8_t *d, size_t n, bool client)
{
    if (client && n == 3 && !d[0] && !d[1] && !d[2])
        return 1; /* a client without a certificate to offer */
    if (n < 6)
        return -1;
    size_t total = rd_be24(d);
    if (total > n - 3)
        total = n - 3;
    struct tls_info scratch = {0}, *info = client ? &scratch : &t->info;
    tls_wire_clear_el(t, TB_CERTS);
    tls_wire_clear_el(t, TB_SAN);
    info->cert_chain_len = 0;
    info->has_validity = false;
    struct der first = {NULL, 0};
    bool overrun = false;
    for (size_t at = 3; at + 3 <= 3 + total;) {
        size_t len = rd_be24(d + at);
        if (len > 3 + total - at - 3) {
            overrun = true;
            break;
        }
        if (!first.p)
            first = (struct der){d + at + 3, len};
        tls_wire_put_el(t, TB_CERTS, d + at + 3, len);
        info->cert_chain_len++;
        at += 3 + len;
    }
    der_size_error = false;
    int rc = first.p ? first_certificate(t, first, info) : TLS_CERT_INVALID;
    return overrun || (rc < 0 && der_size_error) ? TLS_CERT_LENGTH : rc;
}
