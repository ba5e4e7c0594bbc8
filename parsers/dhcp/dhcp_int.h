/* dhcp_int.h — what the DHCP parser's files share: a decoded message (BOOTP header and DHCP
 * options: one transaction per datagram, as Suricata makes one), the flow's state, and its own
 * numbering of events, anomalies, counters and fields (rows of its descriptor, dhcp.c).
 * Internal to parsers/dhcp. */
#ifndef OSPREY_DHCP_INT_H
#define OSPREY_DHCP_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def dhcp_proto;

/* rows of dhcp_proto.events / .anomalies / .counters; field keys */
enum { DHCP_EV_REQUEST, DHCP_EV_REPLY };
enum { DHCP_AE_TRUNCATED_OPTIONS, DHCP_AE_MALFORMED_OPTIONS };
enum { DHCP_C_TX, DHCP_C_MALFORMED, DHCP_C_SHED };
enum { DF_LEASETIME, DF_REBINDING_TIME, DF_RENEWAL_TIME, DF_TYPE };

/* BOOTP (RFC 951, RFC 2131 §2): the fixed header, then the magic cookie and the options */
#define DHCP_HDR_LEN 236
#define DHCP_OPTIONS_AT 240
#define DHCP_COOKIE 0x63825363u
#define DHCP_MSG_MAX 65535        /* a datagram's bytes kept (the copy the spans point into) */
#define DHCP_OPTS_MAX 64          /* options kept per message; the rest counted (dhcp_shed) */

enum { DHCP_BOOTREQUEST = 1, DHCP_BOOTREPLY = 2 };
/* option codes the parser reads (RFC 2132) */
enum {
    DHCP_OPT_SUBNET_MASK = 1, DHCP_OPT_ROUTERS = 3, DHCP_OPT_DNS_SERVERS = 6,
    DHCP_OPT_HOSTNAME = 12, DHCP_OPT_REQUESTED_IP = 50, DHCP_OPT_LEASE_TIME = 51,
    DHCP_OPT_TYPE = 53, DHCP_OPT_PARAMS = 55, DHCP_OPT_RENEWAL_TIME = 58,
    DHCP_OPT_REBINDING_TIME = 59, DHCP_OPT_VENDOR_CLASS = 60, DHCP_OPT_CLIENT_ID = 61,
    DHCP_OPT_END = 255,
};

struct dhcp_opt {
    uint8_t code;
    uint32_t off, len;            /* its data in the message's copy */
};

struct dhcp_msg {
    uint8_t *body;                /* the datagram's copy */
    uint32_t len;
    uint8_t op, hlen;
    uint32_t xid;
    struct dhcp_opt opts[DHCP_OPTS_MAX];
    uint32_t nopts, shed;
    bool truncated;               /* the options ran past the datagram (no END) */
    bool malformed;               /* an option's length ran past the datagram */
    uint64_t id;
};

struct dhcp_state {
    struct dhcp_msg cur;          /* the latest message: rules and EVE read it */
    bool has_cur;
    uint64_t next_id;
};

/* message.c: decode one datagram d[0..n) (copied into m); false when it is no BOOTP message
 * with the DHCP cookie. */
bool dhcp_decode(struct dhcp_msg *m, const uint8_t *d, uint32_t n);
void dhcp_msg_free(struct dhcp_msg *m);
/* The first option code of m, NULL when absent. */
const struct dhcp_opt *dhcp_opt_find(const struct dhcp_msg *m, uint8_t code);
/* A 4-byte option's value (big-endian), false when absent or of another length. */
bool dhcp_opt_u32(const struct dhcp_msg *m, uint8_t code, uint32_t *out);
/* probe.c */
enum probe_verdict dhcp_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool dhcp_eve(struct pflow *pf, struct osprey_jw *w);

#endif
