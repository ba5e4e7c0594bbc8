/* eve.c — LDAP's EVE object, as Suricata 8 writes it: ldap{request{operation, message_id,
 * <operation>{…}}, responses[{operation, message_id, <operation>{…}}]} — the request's DN,
 * search parameters and attributes, an entry's attributes and values, a result's code
 * (its name), matched DN and message. */
#include "ldap_int.h"
#include "osprey_json_writer.h"

static void sp(struct osprey_jw *w, const char *key, const struct ldap_msg *m,
               const struct span *s)
{
    if (s->set)
        osprey_jw_strn(w, key, m->body + s->off, s->len);
}

/* attributes [{type|name, values[]}] */
static void attributes(struct osprey_jw *w, const struct ldap_msg *m, const char *type_key)
{
    if (!m->nattrs)
        return;
    osprey_jw_array(w, "attributes");
    for (uint32_t i = 0; i < m->nattrs; i++) {
        const struct ldap_attr *a = &m->attrs[i];
        osprey_jw_open(w, NULL);
        sp(w, type_key, m, &a->type);
        if (a->n) {
            osprey_jw_array(w, "values");
            for (uint16_t k = 0; k < a->n; k++)
                sp(w, NULL, m, &m->vals[a->first + k]);
            osprey_jw_array_end(w);
        }
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

static void request_body(struct osprey_jw *w, const struct ldap_msg *m)
{
    const char *op = ldap_op_name(m->op);
    osprey_jw_open(w, op);
    switch (m->op) {
    case LOP_BIND_REQ:
        osprey_jw_int(w, "version", m->version);
        sp(w, "name", m, &m->dn);
        if (m->sasl) {
            osprey_jw_open(w, "sasl");
            sp(w, "mechanism", m, &m->mech);
            osprey_jw_close(w);
        }
        break;
    case LOP_SEARCH_REQ:
        sp(w, "base_object", m, &m->dn);
        osprey_jw_int(w, "scope", m->scope);
        osprey_jw_int(w, "deref_alias", m->deref);
        osprey_jw_int(w, "size_limit", m->size_limit);
        osprey_jw_int(w, "time_limit", m->time_limit);
        osprey_jw_bool(w, "types_only", m->types_only);
        if (m->nattrs) {
            osprey_jw_array(w, "attributes");
            for (uint32_t i = 0; i < m->nattrs; i++)
                sp(w, NULL, m, &m->attrs[i].type);
            osprey_jw_array_end(w);
        }
        break;
    case LOP_MODIFY_REQ: sp(w, "object", m, &m->dn); break;
    case LOP_ADD_REQ:
        sp(w, "entry", m, &m->dn);
        attributes(w, m, "name");
        break;
    case LOP_DEL_REQ: sp(w, "dn", m, &m->dn); break;
    case LOP_MODDN_REQ:
        sp(w, "entry", m, &m->dn);
        sp(w, "new_rdn", m, &m->new_rdn);
        osprey_jw_bool(w, "delete_old_rdn", m->delete_old_rdn);
        sp(w, "new_superior", m, &m->new_superior);
        break;
    case LOP_COMPARE_REQ:
        sp(w, "entry", m, &m->dn);
        if (m->nattrs) {
            osprey_jw_open(w, "attribute_value_assertion");
            sp(w, "description", m, &m->attrs[0].type);
            sp(w, "value", m, &m->value);
            osprey_jw_close(w);
        }
        break;
    case LOP_ABANDON_REQ: osprey_jw_int(w, "message_id", m->abandon_id); break;
    case LOP_EXT_REQ:
        sp(w, "name", m, &m->name);
        sp(w, "value", m, &m->value);
        break;
    default: break;
    }
    osprey_jw_close(w);
}

static void response_body(struct osprey_jw *w, const struct ldap_msg *m)
{
    if (m->op == LOP_SEARCH_REF)
        return;
    osprey_jw_open(w, ldap_op_name(m->op));
    if (m->op == LOP_SEARCH_ENTRY) {
        sp(w, "base_object", m, &m->dn);
        attributes(w, m, "type");
    } else if (m->has_result) {
        const char *rc = ldap_result_name(m->result);
        if (rc)
            osprey_jw_str(w, "result_code", rc);
        else
            osprey_jw_str(w, "result_code", "unknown");
        sp(w, "matched_dn", m, &m->dn);
        sp(w, "message", m, &m->message);
        if (m->op == LOP_EXT_RESP) {
            sp(w, "name", m, &m->name);
            sp(w, "value", m, &m->value);
        }
    } else if (m->op == LOP_INTERMEDIATE) {
        sp(w, "name", m, &m->name);
        sp(w, "value", m, &m->value);
    }
    osprey_jw_close(w);
}

bool ldap_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct ldap_state *st = pf->state;
    const struct ldap_tx *tx = st ? st->cur : NULL;
    if (!tx || (!tx->has_req && !tx->nkept))
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "ldap");
    if (tx->has_req) {
        const struct ldap_msg *m = &tx->req;
        osprey_jw_open(w, "request");
        osprey_jw_str(w, "operation", ldap_op_name(m->op));
        osprey_jw_int(w, "message_id", m->id);
        if (m->op != LOP_UNBIND_REQ)
            request_body(w, m);
        osprey_jw_close(w);
    }
    if (tx->nkept) {
        osprey_jw_array(w, "responses");
        for (uint32_t i = 0; i < tx->nkept; i++) {
            const struct ldap_msg *m = &tx->resp[i];
            osprey_jw_open(w, NULL);
            osprey_jw_str(w, "operation", ldap_op_name(m->op));
            osprey_jw_int(w, "message_id", m->id);
            response_body(w, m);
            osprey_jw_close(w);
        }
        osprey_jw_array_end(w);
    }
    osprey_jw_close(w);
    return true;
}
