/* msg.c — one Kerberos 5 message (RFC 4120 §5) read with the shared BER reader: the
 * application tag says which; requests (KDC-REQ) give their body's cname, realm and sname,
 * replies (KDC-REP) their cname, crealm, the ticket's sname and the two encryption types
 * (the reply's enc-part and the ticket's), a KRB-ERROR its error code, crealm, cname and
 * sname. AP-REQ / AP-REP only move the "last request" a KRB-ERROR answers. */
#include <stdlib.h>
#include <string.h>

#include "krb5_int.h"

static struct span span_of(const struct krb5_msg *m, const struct ber_tlv *t)
{
    return (struct span){(uint32_t)(t->v - m->body), t->len, true};
}

/* field [tag] of the SEQUENCE seq's contents, its inner value in out */
static bool field(const struct ber_tlv *seq, uint32_t tag, struct ber_tlv *out)
{
    struct ber_cur c = ber_in(seq);
    struct ber_tlv t;
    while (ber_next(&c, &t))
        if (ber_is(&t, BER_CONTEXT, tag))
            return ber_explicit(&t, out);
    return false;
}

static bool int_field(const struct ber_tlv *seq, uint32_t tag, int32_t *v)
{
    struct ber_tlv t;
    int64_t x;
    if (!field(seq, tag, &t) || !ber_is(&t, BER_UNIVERSAL, BER_INTEGER) || !ber_int(&t, &x) ||
        x < INT32_MIN || x > INT32_MAX)
        return false;
    *v = (int32_t)x;
    return true;
}

/* a KerberosString / Realm: any primitive string */
static bool string_field(struct krb5_msg *m, const struct ber_tlv *seq, uint32_t tag,
                         struct span *out)
{
    struct ber_tlv t;
    if (!field(seq, tag, &t) || t.constructed)
        return false;
    *out = span_of(m, &t);
    return true;
}

/* PrincipalName ::= SEQUENCE { name-type [0] Int32, name-string [1] SEQUENCE OF
 * KerberosString } */
static bool name_field(struct krb5_msg *m, const struct ber_tlv *seq, uint32_t tag,
                       struct krb5_name *out)
{
    struct ber_tlv pn, strs, s;
    if (!field(seq, tag, &pn) || !ber_is(&pn, BER_UNIVERSAL, BER_SEQUENCE))
        return false;
    if (!field(&pn, 1, &strs) || !ber_is(&strs, BER_UNIVERSAL, BER_SEQUENCE))
        return false;
    out->set = true;
    out->n = 0;
    struct ber_cur c = ber_in(&strs);
    while (ber_next(&c, &s)) {
        if (s.constructed)
            continue;
        if (out->n < KRB5_NAME_PARTS)
            out->part[out->n++] = span_of(m, &s);
        else
            m->shed++;
    }
    return true;
}

/* EncryptedData ::= SEQUENCE { etype [0] Int32, kvno [1] UInt32 OPTIONAL, cipher [2] } */
static bool etype_field(const struct ber_tlv *seq, uint32_t tag, int32_t *etype)
{
    struct ber_tlv ed;
    return field(seq, tag, &ed) && ber_is(&ed, BER_UNIVERSAL, BER_SEQUENCE) &&
           int_field(&ed, 0, etype);
}

static bool kdc_req(struct krb5_msg *m, const struct ber_tlv *seq)
{
    struct ber_tlv body;
    if (!field(seq, 4, &body) || !ber_is(&body, BER_UNIVERSAL, BER_SEQUENCE))
        return false;
    name_field(m, &body, 1, &m->cname);
    if (!string_field(m, &body, 2, &m->realm))
        return false;
    name_field(m, &body, 3, &m->sname);
    return true;
}

static bool kdc_rep(struct krb5_msg *m, const struct ber_tlv *seq)
{
    struct ber_tlv tkt, tseq;
    if (!string_field(m, seq, 3, &m->realm) || !name_field(m, seq, 4, &m->cname) ||
        !field(seq, 5, &tkt) || !ber_is(&tkt, BER_APPLICATION, 1) || !ber_explicit(&tkt, &tseq) ||
        !ber_is(&tseq, BER_UNIVERSAL, BER_SEQUENCE) || !name_field(m, &tseq, 2, &m->sname))
        return false;
    m->has_ticket_etype = etype_field(&tseq, 3, &m->ticket_etype);
    m->has_etype = etype_field(seq, 6, &m->etype);
    return m->has_ticket_etype && m->has_etype;
}

static bool krb_error(struct krb5_msg *m, const struct ber_tlv *seq)
{
    if (!int_field(seq, 6, &m->error_code))
        return false;
    m->has_error = true;
    string_field(m, seq, 7, &m->realm);  /* crealm, as Suricata logs it */
    name_field(m, seq, 8, &m->cname);
    return name_field(m, seq, 10, &m->sname);
}

bool krb5_decode(struct krb5_msg *m, const uint8_t *d, uint32_t n)
{
    memset(m, 0, sizeof *m);
    struct ber_tlv app, seq;
    if (ber_read(d, n, &app) != BER_OK || app.cls != BER_APPLICATION || !app.constructed ||
        app.tag > 30 || !ber_explicit(&app, &seq) || !ber_is(&seq, BER_UNIVERSAL, BER_SEQUENCE))
        return false;
    uint32_t len = app.hdr + app.len;
    if (!(m->body = malloc(len ? len : 1)))
        return false;
    memcpy(m->body, d, len);
    m->len = len;
    m->type = (uint8_t)app.tag;
    /* re-read from the copy so spans point into it */
    ber_read(m->body, len, &app);
    ber_explicit(&app, &seq);
    switch (m->type) {
    case KRB5_AS_REQ: case KRB5_TGS_REQ: return kdc_req(m, &seq);
    case KRB5_AS_REP: case KRB5_TGS_REP: return kdc_rep(m, &seq);
    case KRB5_ERROR: return krb_error(m, &seq);
    case KRB5_AP_REQ: case KRB5_AP_REP: return true;
    default: return true; /* another application message (KRB-SAFE …): not a transaction */
    }
}

void krb5_msg_free(struct krb5_msg *m)
{
    free(m->body);
    m->body = NULL;
    m->len = 0;
}
