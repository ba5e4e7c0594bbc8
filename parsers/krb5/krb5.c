/* krb5.c — Kerberos 5's descriptor: probes (UDP datagrams, TCP record-marked messages, either
 * side), one event per side's message (krb5_request, krb5_response), Suricata's sticky buffers
 * krb5.cname and krb5.sname (lists of the name's components, the server's replies only, as
 * Suricata registers them), its integer fields (krb5_msg_type, krb5_err_code, the encryption
 * types of a reply and its ticket), app-layer events, counters and its EVE object
 * (app-layer.protocols.krb5.enabled is the core's, as for every protocol). Registered in
 * core/registry.c. */
#include <stddef.h>

#include "krb5_int.h"

static const struct proto_probe PROBES[] = {
    {17, 0, krb5_probe_udp}, {6, 0, krb5_probe_tcp}, {6, 1, krb5_probe_tcp}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [KRB5_EV_REQUEST] = {"krb5_request", 0, NULL},
    [KRB5_EV_RESPONSE] = {"krb5_response", 1, NULL},
};

static const struct krb5_msg *cur(struct pflow *pf)
{
    const struct krb5_state *st = pf->state;
    return st && st->has_cur ? &st->cur : NULL;
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    const struct krb5_msg *m = cur(pf);
    if (!m)
        return NULL;
    if (key == KB_TX) /* the message itself: nothing to read, only that it is here */
        return i == 0 ? (const uint8_t *)"" : NULL;
    if (key == KB_REALM) {
        if (!m->realm.set || i)
            return NULL;
        *len = m->realm.len;
        return m->realm.len ? m->body + m->realm.off : (const uint8_t *)"";
    }
    const struct krb5_name *n = key == KB_CNAME ? &m->cname : &m->sname;
    if (!n->set || i >= n->n)
        return NULL;
    *len = n->part[i].len;
    return n->part[i].len ? m->body + n->part[i].off : (const uint8_t *)"";
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "krb5.cname", .dir = 1, .event = "krb5_response", .multi = true, .key = KB_CNAME,
     .get = buffer},
    {.name = "krb5.sname", .dir = 1, .event = "krb5_response", .multi = true, .key = KB_SNAME,
     .get = buffer},
    /* the message itself, each side's: what krb5_msg_type, krb5_err_code and
     * krb5.ticket_encryption run on (no keyword names it), as Suricata inspects a message
     * of either side */
    {.name = "krb5.transaction", .dir = 0, .event = "krb5_request", .key = KB_TX,
     .get = buffer},
    {.name = "krb5.transaction", .dir = 1, .event = "krb5_response", .key = KB_TX,
     .get = buffer},
    /* the realm, for records (trace) */
    {.name = "krb5.realm", .dir = 0, .event = "krb5_request", .record = true, .key = KB_REALM,
     .get = buffer},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct krb5_msg *m = cur(pf);
    if (!m || i)
        return false;
    switch (key) {
    case KF_MSG_TYPE: *out = m->type; return true;
    case KF_ERR_CODE: *out = m->error_code; return m->has_error;
    case KF_TICKET_ETYPE: *out = m->ticket_etype; return m->has_ticket_etype;
    case KF_TICKET_WEAK: *out = krb5_weak(m->ticket_etype); return m->has_ticket_etype;
    case KF_ETYPE: *out = m->etype; return m->has_etype;
    case KF_WEAK: *out = m->has_etype && krb5_weak(m->etype); return true;
    default: return false;
    }
}

static const struct proto_field FIELDS[] = {
    {"krb5_msg_type", KF_MSG_TYPE, field, NULL},
    {"krb5_err_code", KF_ERR_CODE, field, NULL},
    /* a reply's ticket's encryption type and whether it is weak (krb5.ticket_encryption) */
    {"krb5.ticket_encryption", KF_TICKET_ETYPE, field, krb5_etype_values},
    {"krb5.ticket_weak_encryption", KF_TICKET_WEAK, field, NULL},
    {"krb5.encryption", KF_ETYPE, field, krb5_etype_values},
    {"krb5.weak_encryption", KF_WEAK, field, NULL},
};

static const char *const ANOMALIES[] = {
    [KRB5_AE_MALFORMED] = "krb5.malformed_data",  /* a message that does not decode */
    [KRB5_AE_WEAK] = "krb5.weak_encryption",      /* a reply encrypted with a weak type */
};

static const char *const COUNTERS[] = {
    [KRB5_C_TX] = "krb5_tx",
    [KRB5_C_MALFORMED] = "krb5_malformed",
    [KRB5_C_SKIPPED] = "krb5_skipped",   /* TCP records past KRB5_RECORD_MAX, skipped */
    [KRB5_C_SHED] = "krb5_shed",         /* name components past KRB5_NAME_PARTS */
};

const struct osprey_proto_def krb5_proto = {
    .name = "krb5",
    .flow_stat = "flow.krb5",
    .alias = {"kerberos", NULL}, /* Snort 3's service name */
    .l4 = 0,
    .probes = PROBES,
    .parse = krb5_parse,
    .parse_dgram = krb5_parse_dgram,
    .state_free = krb5_free,
    .state_trim = krb5_trim,
    .tx_id = krb5_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = KRB5_C_TX,
    .eve = krb5_eve,
};
