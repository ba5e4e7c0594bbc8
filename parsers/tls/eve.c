/* eve.c — TLS's EVE object (Suricata's keys: tls{subject, issuerdn, serial, fingerprint, sni,
 * version, ja3, ja3s}), alone in a tls record or inside an alert (moved here from outputs/). */
#include "osprey_json_writer.h"
#include "tls_int.h"

/* The buffer b written under key when it has bytes; whether it had. */
static bool span(struct osprey_jw *w, struct pflow *pf, const char *key, enum tls_buf b)
{
    uint32_t n = 0;
    const uint8_t *d = tls_buffer_at(pf, b, 0, &n);
    if (!d || !n)
        return false;
    if (w)
        osprey_jw_strn(w, key, d, n);
    return true;
}

static void hash_pair(struct osprey_jw *w, struct pflow *pf, const char *key, enum tls_buf hash,
                      enum tls_buf str)
{
    if (!span(NULL, pf, "hash", hash))
        return;
    osprey_jw_open(w, key);
    span(w, pf, "hash", hash);
    span(w, pf, "string", str);
    osprey_jw_close(w);
}

bool tls_eve(struct pflow *pf, struct osprey_jw *w)
{
    static const enum tls_buf any[] = {
        TB_CERT_SUBJECT, TB_CERT_ISSUER, TB_CERT_SERIAL, TB_CERT_FINGERPRINT, TB_SNI,
        TB_VERSION, TB_JA3_HASH, TB_JA3_STRING, TB_JA3S_HASH, TB_JA3S_STRING,
    };
    bool some = false;
    for (size_t i = 0; i < sizeof any / sizeof any[0] && !some; i++)
        some = span(NULL, pf, "", any[i]);
    if (!some || !w)
        return some; /* nothing seen yet: no record */
    osprey_jw_open(w, "tls");
    span(w, pf, "subject", TB_CERT_SUBJECT);
    span(w, pf, "issuerdn", TB_CERT_ISSUER);
    span(w, pf, "serial", TB_CERT_SERIAL);
    span(w, pf, "fingerprint", TB_CERT_FINGERPRINT);
    span(w, pf, "sni", TB_SNI);
    span(w, pf, "version", TB_VERSION);
    hash_pair(w, pf, "ja3", TB_JA3_HASH, TB_JA3_STRING);
    hash_pair(w, pf, "ja3s", TB_JA3S_HASH, TB_JA3S_STRING);
    osprey_jw_close(w);
    return true;
}
