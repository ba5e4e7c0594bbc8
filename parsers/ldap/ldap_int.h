/* ldap_int.h — what the LDAP parser's files share: a decoded LDAPMessage, the transactions
 * (a request and its responses, by message id), the flow's state, and its own numbering of
 * events, anomalies, counters, buffers and fields (rows of its descriptor, ldap.c). Internal
 * to parsers/ldap. */
#ifndef OSPREY_LDAP_INT_H
#define OSPREY_LDAP_INT_H

#include "ber.h"
#include "framing.h"
#include "parsers_int.h"

extern const struct osprey_proto_def ldap_proto;

/* rows of ldap_proto.events / .anomalies / .counters; buffer and field keys */
enum { LDAP_EV_REQUEST, LDAP_EV_RESPONSE };
enum { LDAP_AE_TOO_MANY_TX, LDAP_AE_INVALID, LDAP_AE_REQUEST_NOT_FOUND,
       LDAP_AE_TOO_MANY_RESPONSES };
enum { LDAP_C_TX, LDAP_C_MESSAGES, LDAP_C_MALFORMED, LDAP_C_SKIPPED, LDAP_C_TX_SHED,
       LDAP_C_SHED };
enum { LB_REQ_DN, LB_REQ_ATTR, LB_RESP_DN, LB_RESP_MSG, LB_RESP_ATTR };
enum { LF_REQ_OP, LF_RESP_OP, LF_RESP_COUNT, LF_RESP_RESULT };

/* protocolOp: the application tag of each operation (RFC 4511 §4.2 …) */
enum { LOP_BIND_REQ = 0, LOP_BIND_RESP = 1, LOP_UNBIND_REQ = 2, LOP_SEARCH_REQ = 3,
       LOP_SEARCH_ENTRY = 4, LOP_SEARCH_DONE = 5, LOP_MODIFY_REQ = 6, LOP_MODIFY_RESP = 7,
       LOP_ADD_REQ = 8, LOP_ADD_RESP = 9, LOP_DEL_REQ = 10, LOP_DEL_RESP = 11,
       LOP_MODDN_REQ = 12, LOP_MODDN_RESP = 13, LOP_COMPARE_REQ = 14, LOP_COMPARE_RESP = 15,
       LOP_ABANDON_REQ = 16, LOP_SEARCH_REF = 19, LOP_EXT_REQ = 23, LOP_EXT_RESP = 24,
       LOP_INTERMEDIATE = 25 };

#define LDAP_MSG_MAX (1u << 20)      /* bytes of one message read; longer: skipped, counted */
#define LDAP_ATTRS_MAX 64            /* attribute types (and values) of one message kept */
#define LDAP_RESP_MAX 64             /* responses of one transaction kept (more: counted) */
#define LDAP_OPEN_BYTES_MAX (16u << 20) /* bytes the waiting transactions keep: past it the
                                           oldest is finished early (counted) */

/* an attribute of an entry / add request: its type, its values (vals[first..first+n)) */
struct ldap_attr {
    struct span type;
    uint16_t first, n;
};

/* One LDAPMessage. Spans point into body (its copy). */
struct ldap_msg {
    uint8_t *body;
    uint32_t len;
    int64_t id;
    uint8_t op;                    /* LOP_* */
    struct span dn;                /* a request's DN (bind name, search base, entry …);
                                      an entry's objectName; a result's matchedDN */
    bool has_result;
    int64_t result;                /* LDAPResult.resultCode */
    struct span message;           /* LDAPResult.diagnosticMessage */
    struct ldap_attr attrs[LDAP_ATTRS_MAX];  /* attribute types (search request: its list) */
    uint32_t nattrs;
    struct span vals[LDAP_ATTRS_MAX];
    uint32_t nvals;
    uint32_t shed;                 /* attributes / values past the limits */
    /* for the record */
    int64_t version, scope, deref, size_limit, time_limit, abandon_id;
    bool types_only, delete_old_rdn, sasl;
    struct span mech, name, value, new_rdn, new_superior;
};

struct ldap_tx {
    struct ldap_tx *next;
    bool has_req;
    struct ldap_msg req;
    struct ldap_msg *resp;          /* responses kept (LDAP_RESP_MAX at most) */
    uint32_t nresp, nkept;          /* responses seen, kept */
    uint64_t id, bytes;
};

/* its settings (the registry's slot: pflow_cfg) */
struct ldap_cfg {
    uint32_t max_tx;                /* app-layer.protocols.ldap.max-tx (256) */
};


struct ldap_state {
    struct pframe dir[2];           /* each direction's messages (core/framing.h) */
    struct ldap_tx *open, *open_tail; /* waiting for (more) responses, oldest first */
    uint32_t nopen;
    uint64_t open_bytes;
    struct ldap_tx *cur;            /* the transaction rules and EVE read now */
    struct ldap_tx *last;           /* the latest finished one (read until the next) */
    uint64_t next_id;
};

/* message.c: decode one LDAPMessage d[0..n) (copied into m); false: malformed. */
bool ldap_decode(struct ldap_msg *m, const uint8_t *d, uint32_t n);
void ldap_msg_free(struct ldap_msg *m);
bool ldap_is_request(uint8_t op);
/* names.c */
const char *ldap_op_name(uint8_t op);            /* "search_request" …; NULL: unknown */
const char *ldap_result_name(int64_t code);      /* "size_limit_exceeded" …; NULL */
extern const struct proto_value ldap_op_values[], ldap_result_values[];
/* stream.c */
void ldap_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void ldap_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n);
void ldap_gap(struct pflow *pf, struct mon_flow *f, int dir);
void ldap_end(struct pflow *pf, struct mon_flow *f);
void ldap_free(void *state);
void ldap_trim(void *state);   /* the connection closed: partial messages dropped */
uint32_t ldap_tx_id(const struct pflow *pf);
/* probe.c */
enum probe_verdict ldap_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict ldap_probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool ldap_eve(struct pflow *pf, struct osprey_jw *w);

#endif
