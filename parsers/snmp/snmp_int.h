/* snmp_int.h — what the SNMP parser's files share: a decoded message (one transaction, as
 * Suricata makes one per message), the flow's state, and its own numbering of events,
 * anomalies, counters, buffers and fields (rows of its descriptor, snmp.c). Internal to
 * parsers/snmp. */
#ifndef OSPREY_SNMP_INT_H
#define OSPREY_SNMP_INT_H

#include "ber.h"
#include "parsers_int.h"

extern const struct osprey_proto_def snmp_proto;

/* rows of snmp_proto.events / .anomalies / .counters; buffer and field keys */
enum { SNMP_EV_REQUEST, SNMP_EV_RESPONSE };
enum { SNMP_AE_MALFORMED, SNMP_AE_VERSION_MISMATCH, SNMP_AE_UNKNOWN_SECURITY_MODEL };
enum { SNMP_C_TX, SNMP_C_MALFORMED, SNMP_C_SHED };
enum { SB_COMMUNITY, SB_USM };
enum { SF_VERSION, SF_PDU_TYPE };

/* PDU types: the context tag of the PDU (RFC 3416 §3, RFC 1157 §4.1.6 for trap v1) */
enum { SNMP_GET = 0, SNMP_GET_NEXT, SNMP_RESPONSE, SNMP_SET, SNMP_TRAP_V1, SNMP_GET_BULK,
       SNMP_INFORM, SNMP_TRAP_V2, SNMP_REPORT };

#define SNMP_VARS_MAX 64          /* variable bindings' names kept for the record */

struct snmp_msg {
    uint8_t *body;                /* the datagram's copy: spans point into it */
    uint32_t len;
    uint8_t version;              /* 1 (v1), 2 (v2c), 3, as Suricata numbers them */
    bool encrypted;               /* v3 with a privacy-encrypted scoped PDU */
    int64_t security_model;       /* v3's msgSecurityModel (3: USM) */
    bool has_pdu;
    uint8_t pdu_type;
    struct span community, usm;   /* v1/v2c's community; v3's USM user name */
    struct span vars[SNMP_VARS_MAX]; /* OIDs (contents octets) of the variable bindings */
    uint32_t nvars, shed;
    /* trap v1 */
    struct span trap_oid, trap_addr;
    int64_t trap_type;
    uint8_t dir;
    uint64_t id;
};

struct snmp_state {
    struct snmp_msg cur;          /* the latest message: rules and EVE read it */
    bool has_cur;
    uint8_t version;              /* the flow's first message's */
    uint64_t next_id;
};

/* message.c: decode one datagram d[0..n) (copied into m); false when it is no SNMP
 * message this parser reads. */
bool snmp_decode(struct snmp_msg *m, const uint8_t *d, uint32_t n);
void snmp_msg_free(struct snmp_msg *m);
/* OID contents as dotted decimal into out (cap bytes); its length, 0 when malformed. */
size_t snmp_oid_str(const uint8_t *p, uint32_t n, char *out, size_t cap);
const char *snmp_pdu_name(uint8_t type);
/* snmp.c (datagrams) */
void snmp_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n);
/* probe.c */
enum probe_verdict snmp_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool snmp_eve(struct pflow *pf, struct osprey_jw *w);

#endif
