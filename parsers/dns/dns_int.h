/* dns_int.h — what the DNS parser's files share: its state, names, its own numbering of
 * events, anomalies and counters (rows of its descriptor, dns.c). Internal to parsers/dns. */
#ifndef OSPREY_DNS_INT_H
#define OSPREY_DNS_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def dns_proto;

/* A message's header, first question and records, as the parser keeps them (names and rdata
 * as text; in the state only their lengths, offsets in struct dns_state; dns_info fills the
 * pointers). */
#define OSPREY_DNS_MAX_ANSWERS 16
struct osprey_dns_rr {
    const uint8_t *name;     /* dotted, decompressed */
    uint32_t name_len;
    uint16_t type, rclass;
    uint32_t ttl;
    const uint8_t *rdata;    /* as text: A/AAAA addresses, CNAME/NS/PTR/MX names, one TXT
                                string (one rr per string); other types: none (len 0) */
    uint32_t rdata_len;
    bool txt_cont;           /* a TXT record's second or later string (mDNS's EVE groups them) */
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


/* rows of dns_proto.events / .anomalies / .counters */
enum { DNS_EV_QUERY, DNS_EV_RESPONSE };
enum { DNS_AE_MALFORMED_DATA, DNS_AE_Z_FLAG_SET, DNS_AE_NOT_REQUEST, DNS_AE_NOT_RESPONSE,
       DNS_AE_INVALID_AUTHORITIES, DNS_AE_INVALID_ADDITIONALS, DNS_AE_NAME_TOO_LONG,
       DNS_AE_INVALID_OPCODE,
       DNS_AE_INFINITE_LOOP, DNS_AE_TOO_MANY_LABELS, DNS_AE_COUNT };
enum { DNS_C_MESSAGES, DNS_C_MALFORMED };

/* Names as Suricata reads them: a dotted name is kept up to DNS_NAME_MAX bytes, a longer one
 * is cut there (and the message raises dns.name_too_long); a name of more than
 * DNS_NAME_STEPS labels and pointers, or a pointer to itself, is kept as far as read when a
 * pointer was followed before (dns.too_many_labels, dns.infinite_loop), else malformed. */
#define DNS_NAME_MAX 1025
#define DNS_NAME_STEPS 255
enum { DNS_NAME_TRUNCATED = 1, DNS_NAME_LOOP = 2, DNS_NAME_LABELS = 4 };
/* Read the (possibly compressed) name at off in msg[0..n): dotted into out (cap bytes, no
 * NUL; cut at cap), *next = the offset just past the name where it starts. 0 (DNS_NAME_*
 * bits of what was wrong ORed into *flags, when flags is not NULL), or -1 when malformed
 * (out of bounds, a bad label type, a loop or too many labels before any pointer). */
int dns_name_read(const uint8_t *msg, size_t n, size_t off, uint8_t *out, uint32_t cap,
                  uint32_t *outlen, size_t *next, unsigned *flags);

struct dns_state {
    uint8_t query[DNS_NAME_MAX];
    unsigned name_flags;     /* DNS_NAME_* of every name of this message, ORed */
    bool query_cut;          /* the first question's name was cut (EVE's rrname_truncated) */
    uint32_t qlen;
    bool has_query;
    bool has_msg;            /* the last message's header decoded (mDNS: a message without
                                questions is a transaction too) */
    uint32_t txid;     /* messages seen on the flow, from 0: as Suricata 7, each query and
                          each response is a transaction of its own */
    uint32_t nmsg;
    struct osprey_dns_info info; /* names and rdata: lengths only, offsets below */
    struct pbuf text;  /* kept records' names and rdata; the offsets below point into it */
    struct rr_off { uint32_t name, rdata, mname, rname; } off[2][OSPREY_DNS_MAX_ANSWERS];
    uint32_t qoff[OSPREY_DNS_MAX_ANSWERS]; /* the kept questions' names in text */
    uint32_t aroff[OSPREY_DNS_MAX_ANSWERS]; /* the kept additional records' names */
    struct pbuf pdu;   /* the message as sent (frame:dns.pdu) */
};

/* the sections whose records are kept (additionals: their names only) */
enum { SEC_ANSWER, SEC_AUTHORITY, SEC_NONE, SEC_ADDITIONAL };

/* message.c */
/* One message decoded into s, without a flow (the generic call: DNS over HTTP/2's messages,
 * parsers/http2): its question, records and copy, whatever state s held before. */
enum dns_decoded { DNS_D_OK, DNS_D_MALFORMED, DNS_D_BAD_AUTHORITIES, DNS_D_BAD_ADDITIONALS };
enum dns_decoded dns_decode(struct dns_state *s, const uint8_t *d, size_t n);
/* One whole DNS message (UDP datagram, or a TCP message without its length). */
void dns_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
/* The same for a protocol built on this decoder (mDNS, parsers/mdns): its own descriptor's
 * rows raised, and its reading of a message. DNS_ROW_NONE: a row it does not have. */
#define DNS_ROW_NONE (~0u)
struct dns_rows {
    unsigned ev_query, ev_response;  /* DNS: by the QR bit; by_dir: by the direction */
    unsigned ae[DNS_AE_COUNT];       /* indexed by DNS_AE_* */
    unsigned c_messages, c_malformed;
    bool by_dir;                     /* the event is the direction's (mDNS: queries and
                                        responses go either way) */
    bool any_message;                /* a message without a question is a transaction */
};
void dns_message_as(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n,
                    const struct dns_rows *rows);
/* eve.c: a record type's name as Suricata writes it (NULL: none, written as its number) */
const char *dns_rrtype_name(uint16_t t);
void dns_tcp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
uint32_t dns_tx_id(const struct pflow *pf);
bool dns_info(struct pflow *pf, struct osprey_dns_info *out);
void dns_free(void *state);

/* probe.c */
enum probe_verdict detect_dns(const uint8_t *d, size_t n, bool tcp);
/* Stricter, for UDP off port 53: one question, a standard query or response. */
enum probe_verdict detect_dns_strict(const uint8_t *d, size_t n);

/* lists.c: the multi-buffers over the message's records (dns.queries.rrname …), element i */
enum dns_list { DL_QUERIES, DL_ANSWERS, DL_AUTHORITIES, DL_ADDITIONALS, DL_RESPONSE,
                DL_ANSWER_NAMES, DL_ANSWER_RDATA /* records: every kept answer, empty too */ };
const uint8_t *dns_list_at(const struct dns_state *s, enum dns_list l, uint32_t i,
                           uint32_t *len);

/* eve.c: its EVE object */
bool dns_eve(struct pflow *pf, struct osprey_jw *w);

#endif
