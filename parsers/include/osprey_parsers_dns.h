/* osprey_parsers_dns.h — the DNS message as a struct, for the engine's EVE dns records only.
 *
 * Transitional: the one protocol-shaped part left of the parsers' contract. It goes when the
 * DNS EVE writer moves into parsers/dns/ (issue 19's EVE step); rules read DNS through the
 * generic buffers and fields of osprey_parsers.h. */
#ifndef OSPREY_PARSERS_DNS_H
#define OSPREY_PARSERS_DNS_H

#include "osprey_parsers.h"

#define OSPREY_DNS_MAX_ANSWERS 16
struct osprey_dns_rr {
    const uint8_t *name;     /* dotted, decompressed */
    uint32_t name_len;
    uint16_t type, rclass;
    uint32_t ttl;
    const uint8_t *rdata;    /* as text: A/AAAA addresses, CNAME/NS/PTR/MX names, one TXT
                                string (one rr per string); other types: none (len 0) */
    uint32_t rdata_len;
    bool has_soa;            /* an SOA record: its fields below */
    struct {
        const uint8_t *mname, *rname; /* dotted, decompressed */
        uint32_t mname_len, rname_len;
        uint32_t serial, refresh, retry, expire, minimum;
    } soa;
};
struct osprey_dns_info {
    uint16_t id, flags;      /* flags as on the wire: QR, opcode, AA, TC, RD, RA, rcode */
    bool response;
    uint8_t rcode;
    uint16_t qtype, qclass;  /* of the first question */
    uint16_t ancount;        /* as the header says */
    uint32_t nanswers;       /* answers decoded here (at most OSPREY_DNS_MAX_ANSWERS) */
    struct osprey_dns_rr answers[OSPREY_DNS_MAX_ANSWERS];
    uint32_t nauthorities;   /* the authority section, the same way */
    struct osprey_dns_rr authorities[OSPREY_DNS_MAX_ANSWERS];
    uint32_t nqueries;       /* the questions' names (at most OSPREY_DNS_MAX_ANSWERS) */
    struct osprey_dns_name { const uint8_t *name; uint32_t name_len; uint16_t type; }
        queries[OSPREY_DNS_MAX_ANSWERS];
    uint32_t nadditionals;   /* the additional records' names, the same way */
    struct osprey_dns_name additionals[OSPREY_DNS_MAX_ANSWERS];
};
/* true and *out filled inside the DNS events (and the tx callback) of a DNS flow. */
bool osprey_parsers_dns_info(struct mon_ctx *ctx, const struct mon_flow *f,
                             struct osprey_dns_info *out);

#endif
