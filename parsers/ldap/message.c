/* message.c — one LDAPMessage (RFC 4511 §4.1.1) read with the shared BER reader: its
 * message id, its protocolOp, and of each operation what rules and the record read — the
 * DN it names, an LDAPResult's code, matched DN and diagnostic message, the attribute types
 * (a search request's list, an entry's or add request's attributes with their values, a
 * modify request's changed types, a compare request's description). Filters and controls
 * are not read. */
#include <stdlib.h>
#include <string.h>

#include "ldap_int.h"

static struct span span_of(const struct ldap_msg *m, const struct ber_tlv *t)
{
    return (struct span){(uint32_t)(t->v - m->body), t->len, true};
}

static bool str(struct ber_cur *c, struct ber_tlv *t)
{
    return ber_next(c, t) && !t->constructed;
}

static bool num(struct ber_cur *c, int64_t *v)
{
    struct ber_tlv t;
    return ber_next(c, &t) && ber_int(&t, v);
}

static void add_attr(struct ldap_msg *m, const struct ber_tlv *type)
{
    if (m->nattrs >= LDAP_ATTRS_MAX) {
        m->shed++;
        return;
    }
    m->attrs[m->nattrs++] = (struct ldap_attr){span_of(m, type), (uint16_t)m->nvals, 0};
}

/* PartialAttribute ::= SEQUENCE { type, vals SET OF value } */
static bool attribute(struct ldap_msg *m, const struct ber_tlv *seq)
{
    struct ber_cur c = ber_in(seq);
    struct ber_tlv type, vals, v;
    if (!str(&c, &type))
        return false;
    add_attr(m, &type);
    if (!ber_next(&c, &vals) || !vals.constructed)
        return true; /* (a modify's change may carry no values) */
    struct ber_cur vc = ber_in(&vals);
    while (ber_next(&vc, &v)) {
        uint32_t at = (uint32_t)(type.v - m->body); /* the attribute kept was this one */
        if (m->nvals >= LDAP_ATTRS_MAX || m->attrs[m->nattrs - 1].type.off != at) {
            m->shed++;
            continue;
        }
        m->vals[m->nvals++] = span_of(m, &v);
        m->attrs[m->nattrs - 1].n++;
    }
    return true;
}

/* SEQUENCE OF PartialAttribute */
static bool attribute_list(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv list, a;
    if (!ber_next(c, &list) || !list.constructed)
        return false;
    struct ber_cur lc = ber_in(&list);
    while (ber_next(&lc, &a))
        if (!a.constructed || !attribute(m, &a))
            return false;
    return true;
}

/* LDAPResult ::= resultCode ENUMERATED, matchedDN, diagnosticMessage, referral [3] OPT */
static bool result(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv t;
    if (!num(c, &m->result) || !str(c, &t))
        return false;
    m->dn = span_of(m, &t);
    if (!str(c, &t))
        return false;
    m->message = span_of(m, &t);
    m->has_result = true;
    return true;
}

static bool bind_request(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv t;
    if (!num(c, &m->version) || !str(c, &t))
        return false;
    m->dn = span_of(m, &t);
    if (ber_next(c, &t) && ber_is(&t, BER_CONTEXT, 3) && t.constructed) { /* SASL */
        struct ber_cur sc = ber_in(&t);
        struct ber_tlv mech;
        m->sasl = true;
        if (str(&sc, &mech))
            m->mech = span_of(m, &mech);
    }
    return true;
}

static bool search_request(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv t, filter, attrs, a;
    int64_t types_only;
    if (!str(c, &t))
        return false;
    m->dn = span_of(m, &t);
    if (!num(c, &m->scope) || !num(c, &m->deref) || !num(c, &m->size_limit) ||
        !num(c, &m->time_limit) || !num(c, &types_only) || !ber_next(c, &filter) ||
        !ber_next(c, &attrs) || !attrs.constructed)
        return false;
    m->types_only = types_only != 0;
    struct ber_cur ac = ber_in(&attrs);
    while (ber_next(&ac, &a))
        add_attr(m, &a);
    return true;
}

static bool modify_request(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv t, changes, ch, mod, op;
    if (!str(c, &t) || !ber_next(c, &changes) || !changes.constructed)
        return false;
    m->dn = span_of(m, &t);
    struct ber_cur cc = ber_in(&changes);
    while (ber_next(&cc, &ch)) {
        struct ber_cur one = ber_in(&ch);
        if (!ber_next(&one, &op) || !ber_next(&one, &mod) || !mod.constructed ||
            !attribute(m, &mod))
            return false;
    }
    return true;
}

static bool moddn_request(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv t;
    if (!str(c, &t))
        return false;
    m->dn = span_of(m, &t);
    if (!str(c, &t))
        return false;
    m->new_rdn = span_of(m, &t);
    if (!ber_next(c, &t))
        return false;
    m->delete_old_rdn = t.len && t.v[0];
    if (ber_next(c, &t) && ber_is(&t, BER_CONTEXT, 0))
        m->new_superior = span_of(m, &t);
    return true;
}

static bool compare_request(struct ldap_msg *m, struct ber_cur *c)
{
    struct ber_tlv t, ava, desc, val;
    if (!str(c, &t) || !ber_next(c, &ava) || !ava.constructed)
        return false;
    m->dn = span_of(m, &t);
    struct ber_cur ac = ber_in(&ava);
    if (!str(&ac, &desc) || !str(&ac, &val))
        return false;
    add_attr(m, &desc);
    m->value = span_of(m, &val);
    return true;
}

/* ExtendedRequest [0] name [1] value; IntermediateResponse the same; ExtendedResponse
 * [10] name [11] value after its LDAPResult */
static void name_value(struct ldap_msg *m, struct ber_cur *c, uint32_t name, uint32_t value)
{
    struct ber_tlv t;
    while (ber_next(c, &t)) {
        if (ber_is(&t, BER_CONTEXT, name))
            m->name = span_of(m, &t);
        else if (ber_is(&t, BER_CONTEXT, value))
            m->value = span_of(m, &t);
    }
}

static bool operation(struct ldap_msg *m, const struct ber_tlv *op)
{
    struct ber_cur c = ber_in(op);
    struct ber_tlv t;
    switch (m->op) {
    case LOP_BIND_REQ: return op->constructed && bind_request(m, &c);
    case LOP_UNBIND_REQ: return true;
    case LOP_SEARCH_REQ: return op->constructed && search_request(m, &c);
    case LOP_SEARCH_ENTRY:
        if (!op->constructed || !str(&c, &t))
            return false;
        m->dn = span_of(m, &t);
        return attribute_list(m, &c);
    case LOP_MODIFY_REQ: return op->constructed && modify_request(m, &c);
    case LOP_ADD_REQ:
        if (!op->constructed || !str(&c, &t))
            return false;
        m->dn = span_of(m, &t);
        return attribute_list(m, &c);
    case LOP_DEL_REQ: /* LDAPDN, primitive */
        if (op->constructed)
            return false;
        m->dn = span_of(m, op);
        return true;
    case LOP_MODDN_REQ: return op->constructed && moddn_request(m, &c);
    case LOP_COMPARE_REQ: return op->constructed && compare_request(m, &c);
    case LOP_ABANDON_REQ: return !op->constructed && ber_int(op, &m->abandon_id);
    case LOP_SEARCH_REF: return op->constructed;
    case LOP_EXT_REQ: case LOP_INTERMEDIATE:
        if (!op->constructed)
            return false;
        name_value(m, &c, 0, 1);
        return true;
    case LOP_EXT_RESP:
        if (!op->constructed || !result(m, &c))
            return false;
        name_value(m, &c, 10, 11);
        return true;
    case LOP_BIND_RESP: case LOP_SEARCH_DONE: case LOP_MODIFY_RESP: case LOP_ADD_RESP:
    case LOP_DEL_RESP: case LOP_MODDN_RESP: case LOP_COMPARE_RESP:
        return op->constructed && result(m, &c);
    default: return false;
    }
}

bool ldap_decode(struct ldap_msg *m, const uint8_t *d, uint32_t n)
{
    memset(m, 0, sizeof *m);
    struct ber_tlv seq, id, op;
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
    if (!ber_expect(&c, BER_UNIVERSAL, BER_INTEGER, &id) || !ber_int(&id, &m->id) ||
        !ber_next(&c, &op) || op.cls != BER_APPLICATION || op.tag > 25)
        return false;
    m->op = (uint8_t)op.tag;
    return operation(m, &op);
}

void ldap_msg_free(struct ldap_msg *m)
{
    free(m->body);
    m->body = NULL;
}

bool ldap_is_request(uint8_t op)
{
    switch (op) {
    case LOP_BIND_REQ: case LOP_UNBIND_REQ: case LOP_SEARCH_REQ: case LOP_MODIFY_REQ:
    case LOP_ADD_REQ: case LOP_DEL_REQ: case LOP_MODDN_REQ: case LOP_COMPARE_REQ:
    case LOP_ABANDON_REQ: case LOP_EXT_REQ:
        return true;
    default:
        return false;
    }
}
