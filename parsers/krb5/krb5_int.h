/* krb5_int.h — what the Kerberos 5 parser's files share: a decoded message (one transaction,
 * as Suricata makes one per message), the flow's state, and its own numbering of events,
 * anomalies, counters, buffers and fields (rows of its descriptor, krb5.c). Internal to
 * parsers/krb5. */
#ifndef OSPREY_KRB5_INT_H
#define OSPREY_KRB5_INT_H

#include "ber.h"
#include "parsers_int.h"

extern const struct osprey_proto_def krb5_proto;

/* rows of krb5_proto.events / .anomalies / .counters; buffer and field keys */
enum { KRB5_EV_REQUEST, KRB5_EV_RESPONSE };
enum { KRB5_AE_MALFORMED, KRB5_AE_WEAK };
enum { KRB5_C_TX, KRB5_C_MALFORMED, KRB5_C_SKIPPED, KRB5_C_SHED };
enum { KB_CNAME, KB_SNAME, KB_REALM, KB_TX };
enum { KF_MSG_TYPE, KF_ERR_CODE, KF_TICKET_ETYPE, KF_TICKET_WEAK, KF_ETYPE, KF_WEAK };

/* message types (RFC 4120 §5.10): the application tag of each message */
enum { KRB5_AS_REQ = 10, KRB5_AS_REP = 11, KRB5_TGS_REQ = 12, KRB5_TGS_REP = 13,
       KRB5_AP_REQ = 14, KRB5_AP_REP = 15, KRB5_ERROR = 30 };

#define KRB5_RECORD_MAX 100000u  /* bytes of one message kept (Suricata's defrag limit);
                                    longer TCP records are skipped, counted */
#define KRB5_NAME_PARTS 8        /* components of one PrincipalName kept (more: counted) */

/* A PrincipalName's name-string components: spans into the message's copy. */
struct krb5_name {
    bool set;
    uint32_t n;
    struct span part[KRB5_NAME_PARTS];
};

/* One message: a transaction of its own. Spans point into body (the message's copy). */
struct krb5_msg {
    uint8_t *body;
    uint32_t len;
    uint8_t type;                /* KRB5_AS_REQ … KRB5_ERROR */
    uint8_t failed;              /* a KRB-ERROR: the request type it answers (0: unknown) */
    uint8_t dir;
    uint64_t id;
    struct krb5_name cname, sname;
    struct span realm;
    bool has_etype, has_ticket_etype, has_error;
    int32_t etype, ticket_etype, error_code;
    uint32_t shed;               /* name components past KRB5_NAME_PARTS */
};

struct krb5_dir {
    struct pbuf buf;             /* a TCP record (and its 4-byte mark) cut by the segment */
    uint64_t skip;               /* bytes of an over-long record still to skip */
};

struct krb5_state {
    struct krb5_dir dir[2];
    struct krb5_msg cur;         /* the latest message: rules and EVE read it */
    bool has_cur;
    uint8_t req_type;            /* the last request seen (what a KRB-ERROR answers) */
    uint64_t next_id;
};

/* msg.c: decode one message (its BER bytes d[0..n), copied into m). false: not a Kerberos
 * message this parser reads (malformed). */
bool krb5_decode(struct krb5_msg *m, const uint8_t *d, uint32_t n);
void krb5_msg_free(struct krb5_msg *m);
/* names.c */
const char *krb5_msg_type_name(uint8_t type);          /* "KRB_AS_REQ" …; NULL: unknown */
const char *krb5_etype_name(int32_t etype);            /* "rc4-hmac" …; NULL: unknown */
extern const struct proto_value krb5_etype_values[]; /* {NULL}-terminated */
const char *krb5_error_name(int32_t code);             /* "KDC_ERR_PREAUTH_REQUIRED" … */
bool krb5_weak(int32_t etype);
/* stream.c */
void krb5_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void krb5_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n);
void krb5_free(void *state);
void krb5_trim(void *state);   /* the connection closed: partial messages dropped */
uint32_t krb5_tx_id(const struct pflow *pf);
/* probe.c */
enum probe_verdict krb5_probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict krb5_probe_tcp(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool krb5_eve(struct pflow *pf, struct osprey_jw *w);

#endif
