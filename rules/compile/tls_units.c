/* tls_units.c — see tls_units.h. Which test an option is comes with its argument (struct
 * opt_tls: the keyword's row in rules/options/opt_tls.c says it); no keyword is named here.
 * Semantics follow Suricata's TLS keywords:
 *   ssl_state     the latest handshake message is one of the listed states (a negated
 *                 state: it is not), states joined by '|' are alternatives;
 *   ssl_version   the version of the side inspected (the client's in a to_server rule, the
 *                 server's in a to_client one, either without direction) is in the list, or
 *                 with '!' is not;
 *   tls.version   the same, one version ("1.2" or 0xNNNN);
 *   tls.cert_chain_len   a comparison on the number of certificates the server sent;
 *   tls_cert_notbefore / notafter   a comparison of the first certificate's date (dates as
 *                 seconds since 1970, UTC; '<' and '>' include the date itself);
 *   tls_cert_expired / valid   notAfter is before / not before the packet's time;
 *   tls.fingerprint, tls.subject, tls.issuerdn   the first certificate's SHA-1 fingerprint,
 *                 subject or issuer contains the string (case sensitive but for the hex of
 *                 the fingerprint; '!': does not). */
#include "tls_units.h"
#include "intern.h"

#include <string.h>

#include "osprey_parsers.h"
#include "registry.h"

static const char *const SSL_VERSIONS[] = {"sslv2", "sslv3", "tls1.0", "tls1.1", "tls1.2",
                                           "tls1.3", NULL};
static const uint16_t SSL_WIRE[] = {0x0002, 0x0300, 0x0301, 0x0302, 0x0303, 0x0304};

static const struct opt_tls *arg_of(const struct osprey_rule_option *o)
{
    return o->arg;
}

bool det_tls_two_sided(const struct osprey_rule_option *o)
{
    return arg_of(o)->two_sided;
}

int det_tls_side(const struct osprey_rule_option *o)
{
    return arg_of(o)->test >= DT_CHAIN_LEN ? 2 : 0; /* the options on the server's certificate */
}

/* The parsers' TLS field of that name (registry id; the parsers register them all). */
static uint16_t fld(const char *name)
{
    int f = osprey_field_find(name);
    return f < 0 ? UINT16_MAX : (uint16_t)f;
}

/* A handshake state's bit: the value tls.state gives its name, else "unknown"'s. */
static uint32_t state_bit(const char *w)
{
    int64_t v = 0;
    if (!osprey_field_value(fld("tls.state"), w, &v))
        osprey_field_value(fld("tls.state"), "unknown", &v);
    return (uint32_t)v;
}

/* The base of the TLS event of that name. */
static uint16_t tls_base(const char *event)
{
    return det_app_base((uint16_t)osprey_event_find(event));
}

uint16_t det_tls_base(const struct osprey_rule_option *o, int side)
{
    int t = arg_of(o)->test;
    if (t == DT_STATE) {
        /* under the hello it names (the parser runs events for the two hellos) */
        const struct opt_words *w = &arg_of(o)->words;
        for (uint32_t i = 0; i < w->n; i++)
            if (!w->negated[i] && state_bit(w->words[i]) == state_bit("client_hello"))
                return tls_base("tls_client_hello");
        return tls_base("tls_server_hello");
    }
    if (t == DT_SSL_VERSION || t == DT_VERSION)
        return tls_base(side == 1 ? "tls_client_hello" : "tls_server_hello");
    return tls_base("tls_certificate");
}

const char *det_tls_compile(const struct osprey_rule_option *o, int side, struct det_tls *out)
{
    const struct opt_tls *a = arg_of(o);
    memset(out, 0, sizeof *out);
    out->test = a->test;
    out->side = (uint8_t)side;
    out->f_client = fld("tls.client_version");
    out->f_server = fld("tls.server_version");
    out->f_state = fld("tls.last_state");
    out->f_chain = fld("tls.cert_chain_len");
    out->f_before = fld("tls.not_before");
    out->f_after = fld("tls.not_after");
    switch (out->test) {
    case DT_STATE: {
        const struct opt_words *w = &a->words;
        for (uint32_t i = 0; i < w->n; i++)
            *(w->negated[i] ? &out->neg_set : &out->set) |= state_bit(w->words[i]);
        break;
    }
    case DT_SSL_VERSION: {
        const struct opt_words *w = &a->words;
        for (uint32_t i = 0; i < w->n; i++) {
            out->negated |= w->negated[i]; /* a '!' negates the whole list (Suricata 7.0.14) */
            for (uint32_t k = 0; SSL_VERSIONS[k]; k++)
                if (!strcmp(SSL_VERSIONS[k], w->words[i]))
                    out->set |= 1u << k;
        }
        break;
    }
    case DT_VERSION: case DT_CHAIN_LEN: case DT_NOTBEFORE: case DT_NOTAFTER:
        out->cmp = a->cmp;
        break;
    case DT_STRING: {
        out->str = a->str.bytes;
        out->len = a->str.len;
        out->negated = a->str.negated;
        int id = osprey_buffer_find(a->buffer, 1); /* the server's certificate */
        if (id < 0)
            return "a buffer Osprey does not fill yet";
        out->ob = (uint16_t)id;
        out->hex = a->hex; /* the fingerprint: hex, compared in lower case */
        break;
    }
    case DT_EXPIRED: case DT_VALID:
        break;
    default:
        return "not a TLS option";
    }
    return NULL;
}

/* Does version v of a side pass the option? (0: that side sent no hello) */
static bool version_ok(const struct det_tls *t, uint16_t v)
{
    if (!v)
        return false;
    if (t->test == DT_VERSION)
        return cmp_match(&t->cmp, v);
    for (uint32_t k = 0; k < sizeof SSL_WIRE / sizeof SSL_WIRE[0]; k++)
        if (SSL_WIRE[k] == v)
            return ((t->set >> k) & 1) != t->negated;
    return false; /* a version none of the names means */
}

static uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static bool contains(const uint8_t *h, uint32_t hn, const uint8_t *n, uint32_t nn, bool nocase)
{
    for (uint32_t i = 0; i + nn <= hn; i++) {
        uint32_t k = 0;
        while (k < nn && (nocase ? lower(h[i + k]) == lower(n[k]) : h[i + k] == n[k]))
            k++;
        if (k == nn)
            return true;
    }
    return false;
}

bool det_tls_match(const struct det_tls *t, struct mon_ctx *ctx, struct mon_flow *f)
{
    int64_t v = 0, c = 0, sv = 0;
    /* a TLS flow with its handshake state: every field but the validity reads */
    if (!osprey_parsers_field_at(ctx, f, t->f_state, 0, &v))
        return false;
    switch (t->test) {
    case DT_STATE:
        /* a listed state is the current one, or a negated one is not */
        return ((uint32_t)v & t->set) || (t->neg_set & ~(uint32_t)v);
    case DT_SSL_VERSION: case DT_VERSION:
        osprey_parsers_field_at(ctx, f, t->f_client, 0, &c);
        osprey_parsers_field_at(ctx, f, t->f_server, 0, &sv);
        if (t->side == 1)
            return version_ok(t, (uint16_t)c);
        if (t->side == 2)
            return version_ok(t, (uint16_t)sv);
        return version_ok(t, (uint16_t)c) || version_ok(t, (uint16_t)sv);
    case DT_CHAIN_LEN:
        return osprey_parsers_field_at(ctx, f, t->f_chain, 0, &v) && v &&
               cmp_match(&t->cmp, v);
    case DT_NOTBEFORE: case DT_NOTAFTER:
        return osprey_parsers_field_at(ctx, f, t->test == DT_NOTBEFORE ? t->f_before
                                                                      : t->f_after, 0, &v) &&
               cmp_match(&t->cmp, v);
    case DT_EXPIRED: case DT_VALID: {
        const struct mon_packet *p = mon_getlastpkt(ctx);
        if (!osprey_parsers_field_at(ctx, f, t->f_after, 0, &v) || !p)
            return false;
        bool expired = (int64_t)(p->ts_us / 1000000) > v;
        return t->test == DT_EXPIRED ? expired : !expired;
    }
    case DT_STRING: {
        uint32_t n = 0;
        const uint8_t *b = osprey_parsers_buffer(ctx, f, t->ob, &n);
        /* the fingerprint is hex: Suricata compares it in lower case whatever the rule says */
        return b && contains(b, n, t->str, t->len, t->hex) != t->negated;
    }
    }
    return false;
}

/* ---- the unit (struct det_unit_ops) ---- */

static bool tls_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                     int side)
{
    (void)side;
    return f && det_tls_match(u->tls, ctx, f);
}

static void tls_key(struct buf *k, const struct det_unit *u)
{
    /* its fields, then the string it looks for */
    const struct det_tls *t = u->tls;
    uint8_t b[4] = {t->test, t->side, t->negated, t->ob};
    buf_put(k, b, sizeof b);
    buf_put(k, &t->set, sizeof t->set);
    buf_put(k, &t->neg_set, sizeof t->neg_set);
    buf_put(k, &t->cmp.op, sizeof t->cmp.op);
    buf_put(k, &t->cmp.lo, sizeof t->cmp.lo);
    buf_put(k, &t->cmp.hi, sizeof t->cmp.hi);
    buf_put(k, &t->len, sizeof t->len);
    if (t->len)
        buf_put(k, t->str, t->len);
}

const struct det_unit_ops det_unit_tls = {.name = "tls", .eval = tls_eval, .key = tls_key};
