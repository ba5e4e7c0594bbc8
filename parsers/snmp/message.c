/* message.c — one SNMP message read with the shared BER reader: v1 / v2c (RFC 1157, 3416:
 * version, community, PDU) and v3 (RFC 3412 §6: header data, the USM security parameters
 * of RFC 3414 §2.4 for the user name, then a plaintext scoped PDU or an encrypted one). Of a
 * PDU: its type, its variable bindings' names, a v1 trap's enterprise, agent address and
 * generic type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snmp_int.h"

static struct span span_of(const struct snmp_msg *m, const struct ber_tlv *t)
{
    return (struct span){(uint32_t)(t->v - m->body), t->len, true};
}

static void varbinds(struct snmp_msg *m, const struct ber_tlv *list)
{
    struct ber_cur c = ber_in(list);
    struct ber_tlv vb, name;
    while (ber_next(&c, &vb)) {
        struct ber_cur vc = ber_in(&vb);
        if (!vb.constructed || !ber_expect(&vc, BER_UNIVERSAL, BER_OID, &name))
            continue;
        if (m->nvars < SNMP_VARS_MAX)
            m->vars[m->nvars++] = span_of(m, &name);
        else
            m->shed++;
    }
}

static bool pdu(struct snmp_msg *m, const struct ber_tlv *p)
{
    if (p->cls != BER_CONTEXT || !p->constructed || p->tag > SNMP_REPORT)
        return false;
    m->has_pdu = true;
    m->pdu_type = (uint8_t)p->tag;
    struct ber_cur c = ber_in(p);
    struct ber_tlv t;
    if (m->pdu_type == SNMP_TRAP_V1) {
        /* enterprise OID, agent-addr [APPLICATION 0] IpAddress, generic-trap, specific-trap,
         * time-stamp, variable-bindings */
        if (!ber_expect(&c, BER_UNIVERSAL, BER_OID, &t))
            return false;
        m->trap_oid = span_of(m, &t);
        if (!ber_next(&c, &t))
            return false;
        if (ber_is(&t, BER_APPLICATION, 0) && t.len == 4)
            m->trap_addr = span_of(m, &t);
        if (!ber_next(&c, &t) || !ber_int(&t, &m->trap_type) || !ber_next(&c, &t) ||
            !ber_next(&c, &t))
            return false;
    } else { /* request-id, error-status, error-index (bulk: non-repeaters, max-reps) */
        for (int i = 0; i < 3; i++)
            if (!ber_next(&c, &t) || t.constructed)
                return false;
    }
    if (ber_next(&c, &t) && t.constructed)
        varbinds(m, &t);
    return true;
}

/* v3: msgGlobalData, msgSecurityParameters (an OCTET STRING holding USM's SEQUENCE), then
 * ScopedPduData: a ScopedPDU SEQUENCE or an encrypted OCTET STRING */
static bool v3(struct snmp_msg *m, struct ber_cur *c)
{
    struct ber_tlv hdr, sec, usm, t, data;
    if (!ber_expect(c, BER_UNIVERSAL, BER_SEQUENCE, &hdr) ||
        !ber_expect(c, BER_UNIVERSAL, BER_OCTET_STRING, &sec))
        return false;
    struct ber_cur hc = ber_in(&hdr); /* msgID, msgMaxSize, msgFlags, msgSecurityModel */
    if (!ber_next(&hc, &t) || !ber_next(&hc, &t) || !ber_next(&hc, &t) || !ber_next(&hc, &t) ||
        !ber_int(&t, &m->security_model))
        return false;
    struct ber_cur sc = {sec.v, sec.len};
    if (ber_expect(&sc, BER_UNIVERSAL, BER_SEQUENCE, &usm)) {
        struct ber_cur uc = ber_in(&usm);
        /* engine id, boots, time, user name */
        if (ber_next(&uc, &t) && ber_next(&uc, &t) && ber_next(&uc, &t) &&
            ber_expect(&uc, BER_UNIVERSAL, BER_OCTET_STRING, &t))
            m->usm = span_of(m, &t);
    }
    if (!ber_next(c, &data))
        return false;
    if (ber_is(&data, BER_UNIVERSAL, BER_OCTET_STRING)) {
        m->encrypted = true;
        return true;
    }
    if (!ber_is(&data, BER_UNIVERSAL, BER_SEQUENCE))
        return false;
    struct ber_cur dc = ber_in(&data);
    struct ber_tlv p;
    /* contextEngineID, contextName, data */
    return ber_next(&dc, &t) && ber_next(&dc, &t) && ber_next(&dc, &p) && pdu(m, &p);
}

bool snmp_decode(struct snmp_msg *m, const uint8_t *d, uint32_t n)
{
    memset(m, 0, sizeof *m);
    struct ber_tlv seq, ver, t;
    int64_t v;
    if (ber_read(d, n, &seq) != BER_OK || !ber_is(&seq, BER_UNIVERSAL, BER_SEQUENCE) ||
        !seq.constructed)
        return false;
    uint32_t len = seq.hdr + seq.len;
    if (!(m->body = malloc(len ? len : 1)))
        return false;
    memcpy(m->body, d, len);
    m->len = len;
    ber_read(m->body, len, &seq);
    struct ber_cur c = ber_in(&seq);
    if (!ber_expect(&c, BER_UNIVERSAL, BER_INTEGER, &ver) || !ber_int(&ver, &v))
        return false;
    if (v == 3) {
        m->version = 3;
        return v3(m, &c);
    }
    if (v != 0 && v != 1)
        return false;
    m->version = (uint8_t)(v + 1);
    if (!ber_expect(&c, BER_UNIVERSAL, BER_OCTET_STRING, &t))
        return false;
    m->community = span_of(m, &t);
    return ber_next(&c, &t) && pdu(m, &t);
}

void snmp_msg_free(struct snmp_msg *m)
{
    free(m->body);
    m->body = NULL;
}

size_t snmp_oid_str(const uint8_t *p, uint32_t n, char *out, size_t cap)
{
    size_t o = 0;
    uint64_t v = 0;
    bool first = true;
    if (!n || cap < 2)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (v > (UINT64_MAX >> 7))
            return 0;
        v = v << 7 | (p[i] & 0x7f);
        if (p[i] & 0x80) {
            if (i + 1 == n)
                return 0; /* cut in the middle of a sub-identifier */
            continue;
        }
        int k;
        if (first) { /* the first two arcs share one sub-identifier */
            unsigned a = v < 40 ? 0 : v < 80 ? 1 : 2;
            k = snprintf(out + o, cap - o, "%u.%llu", a, (unsigned long long)(v - 40ull * a));
            first = false;
        } else {
            k = snprintf(out + o, cap - o, ".%llu", (unsigned long long)v);
        }
        if (k < 0 || (size_t)k >= cap - o)
            return 0;
        o += (size_t)k;
        v = 0;
    }
    return o;
}

const char *snmp_pdu_name(uint8_t type)
{
    static const char *const N[] = {"get_request", "get_next_request", "response",
                                    "set_request", "trap_v1", "get_bulk_request",
                                    "inform_request", "trap_v2", "report"};
    return type < sizeof N / sizeof N[0] ? N[type] : NULL;
}
