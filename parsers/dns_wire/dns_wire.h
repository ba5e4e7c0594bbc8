/* dns_wire.h — the DNS message wire format (RFC 1035) the protocols carrying DNS messages
 * share: DNS (parsers/dns), mDNS (parsers/mdns) and DNS over HTTP/2 (parsers/http2/doh.c).
 * A message decoded into a struct dns_wire (its header, questions, the first records as text,
 * the message as sent), names with compression, the records' name lists element by element,
 * the record types' names, and one message run on a flow under the caller's own rows
 * (events, anomalies, counters). The whole interface of parsers/dns_wire; no protocol's
 * descriptor, no EVE object. */
#ifndef OSPREY_DNS_WIRE_H
#define OSPREY_DNS_WIRE_H

#include "parsers_int.h"

/* Names as Suricata reads them: a dotted name is kept up to DNS_NAME_MAX bytes, a longer one
 * is cut there (and the message raises name_too_long); a name of more than DNS_NAME_STEPS
 * labels and pointers, or a pointer to itself, is kept as far as read when a pointer was
 * followed before (too_many_labels, infinite_loop), else malformed. */
#define DNS_NAME_MAX 1025
#define DNS_NAME_STEPS 255
enum { DNS_NAME_TRUNCATED = 1, DNS_NAME_LOOP = 2, DNS_NAME_LABELS = 4 };
/* name.c: read the (possibly compressed) name at off in msg[0..n): dotted into out (cap bytes,
 * no NUL; cut at cap), *next = the offset just past the name where it starts. 0 (DNS_NAME_*
 * bits of what was wrong ORed into *flags, when flags is not NULL), or -1 when malformed (out
 * of bounds, a bad label type, a loop or too many labels before any pointer). */
int dns_wire_name(const uint8_t *msg, size_t n, size_t off, uint8_t *out, uint32_t cap,
                  uint32_t *outlen, size_t *next, unsigned *flags);

/* A message's header, first question and records, as the decoder keeps them (names and rdata
 * as text; in struct dns_wire only their lengths, offsets beside them; dns_wire_records fills
 * the pointers). */
#define DNS_WIRE_MAX_RRS 16
struct dns_wire_rr {
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
struct dns_wire_info {
    uint16_t id, flags;      /* flags as on the wire: QR, opcode, AA, TC, RD, RA, rcode */
    bool response;
    uint8_t rcode;
    uint16_t qtype, qclass;  /* of the first question */
    uint16_t ancount;        /* as the header says */
    uint32_t nanswers;       /* answers decoded here (at most DNS_WIRE_MAX_RRS) */
    struct dns_wire_rr answers[DNS_WIRE_MAX_RRS];
    uint32_t nauthorities;   /* the authority section, the same way */
    struct dns_wire_rr authorities[DNS_WIRE_MAX_RRS];
    uint32_t nqueries;       /* the questions' names (at most DNS_WIRE_MAX_RRS) */
    struct dns_wire_name { const uint8_t *name; uint32_t name_len; uint16_t type; }
        queries[DNS_WIRE_MAX_RRS];
    uint32_t nadditionals;   /* the additional records' names, the same way */
    struct dns_wire_name additionals[DNS_WIRE_MAX_RRS];
};

/* The last message decoded, and the flow's transactions (a DNS or mDNS flow's state, a DoH
 * stream side's message). */
struct dns_wire {
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
    struct dns_wire_info info; /* names and rdata: lengths only, offsets below */
    struct pbuf text;  /* kept records' names and rdata; the offsets below point into it */
    struct dns_wire_off { uint32_t name, rdata, mname, rname; } off[2][DNS_WIRE_MAX_RRS];
    uint32_t qoff[DNS_WIRE_MAX_RRS]; /* the kept questions' names in text */
    uint32_t aroff[DNS_WIRE_MAX_RRS]; /* the kept additional records' names */
    struct pbuf pdu;   /* the message as sent (frame:dns.pdu) */
};

/* the sections whose records are kept (additionals: their names only) */
enum { DNS_SEC_ANSWER, DNS_SEC_AUTHORITY, DNS_SEC_NONE, DNS_SEC_ADDITIONAL };

/* message.c */
/* One message decoded into s, without a flow (DNS over HTTP/2's messages): its question,
 * records and copy, whatever s held before. */
enum dns_wire_result { DNS_WIRE_OK, DNS_WIRE_MALFORMED, DNS_WIRE_BAD_AUTHORITIES,
                       DNS_WIRE_BAD_ADDITIONALS };
enum dns_wire_result dns_wire_decode(struct dns_wire *s, const uint8_t *d, size_t n);

/* One whole message (a UDP datagram, a TCP message without its length) on a flow whose state
 * (pf->state, made here) is a struct dns_wire: decoded, counted, its problems raised and, when
 * it makes a transaction, its event raised and the transaction done — each with the calling
 * protocol's own rows. DNS_WIRE_ROW_NONE: a row the caller does not have. */
enum { DNS_WIRE_P_MALFORMED_DATA, DNS_WIRE_P_Z_FLAG_SET, DNS_WIRE_P_NOT_REQUEST,
       DNS_WIRE_P_NOT_RESPONSE, DNS_WIRE_P_INVALID_AUTHORITIES, DNS_WIRE_P_INVALID_ADDITIONALS,
       DNS_WIRE_P_NAME_TOO_LONG, DNS_WIRE_P_INVALID_OPCODE, DNS_WIRE_P_INFINITE_LOOP,
       DNS_WIRE_P_TOO_MANY_LABELS, DNS_WIRE_P_COUNT };
#define DNS_WIRE_ROW_NONE (~0u)
struct dns_wire_rows {
    unsigned ev_query, ev_response;  /* DNS: by the QR bit; by_dir: by the direction */
    unsigned ae[DNS_WIRE_P_COUNT];   /* the anomaly row of each DNS_WIRE_P_* */
    unsigned c_messages, c_malformed;
    bool by_dir;                     /* the event is the direction's (mDNS: queries and
                                        responses go either way) */
    bool any_message;                /* a message without a question is a transaction */
};
void dns_wire_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n,
                      const struct dns_wire_rows *rows);
/* The last message's records with their pointers into s (false: no question decoded). */
bool dns_wire_records(const struct dns_wire *s, struct dns_wire_info *out);
/* The flow's transaction id (pf->state a struct dns_wire, or none yet). */
uint32_t dns_wire_tx_id(const struct pflow *pf);
/* Free a struct dns_wire (a descriptor's state_free). NULL is fine. */
void dns_wire_free(void *state);

/* lists.c: the name lists over the message's records (dns.queries.rrname …), element i;
 * NULL past the last (or at an empty name, as Suricata's lists end). */
enum dns_wire_list { DNS_L_QUERIES, DNS_L_ANSWERS, DNS_L_AUTHORITIES, DNS_L_ADDITIONALS,
                     DNS_L_RESPONSE, DNS_L_ANSWER_NAMES,
                     DNS_L_ANSWER_RDATA /* records: every kept answer, empty too */ };
const uint8_t *dns_wire_list_at(const struct dns_wire *s, enum dns_wire_list l, uint32_t i,
                                uint32_t *len);

/* rrtype.c: a record type's name as Suricata writes it (NULL: none, written as its number) */
const char *dns_wire_rrtype_name(uint16_t t);

#endif
