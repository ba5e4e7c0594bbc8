/* ntp_int.h — what the NTP parser's files share: a decoded message (one transaction per
 * datagram, as Suricata makes one), the flow's state, and its own numbering of events,
 * anomalies, counters, buffers and fields (rows of its descriptor, ntp.c). Internal to
 * parsers/ntp. */
#ifndef OSPREY_NTP_INT_H
#define OSPREY_NTP_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def ntp_proto;

enum { NTP_EV_REQUEST, NTP_EV_RESPONSE };
enum { NTP_AE_MALFORMED };
enum { NTP_C_TX, NTP_C_MALFORMED };
enum { NF_VERSION, NF_STRATUM, NF_MODE };

#define NTP_HDR_LEN 48   /* RFC 5905 §7.3: the header up to the transmit timestamp */
#define NTP_CTL_LEN 12   /* a mode 6 / 7 (control, private) message's header */
enum { NTP_MODE_CONTROL = 6, NTP_MODE_PRIVATE = 7 };

struct ntp_msg {
    uint8_t version, mode, stratum;
    bool has_stratum;             /* modes 1-5: the header carries stratum and reference id */
    uint8_t refid[4];
    uint64_t id;
};

struct ntp_state {
    struct ntp_msg cur;           /* the latest message: rules and EVE read it */
    bool has_cur;
    uint64_t next_id;
};

/* ntp.c: decode one datagram; false when it is no NTP message this parser reads. */
bool ntp_decode(struct ntp_msg *m, const uint8_t *d, size_t n);
/* probe.c */
enum probe_verdict ntp_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool ntp_eve(struct pflow *pf, struct osprey_jw *w);

#endif
