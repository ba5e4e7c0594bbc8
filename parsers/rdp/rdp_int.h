/* rdp_int.h — what the RDP parser's files share: its state (TPKT framing of each side, the
 * X.224 connection request / confirm and, on standard RDP security, the MCS Connect Initial's
 * client data) and its own numbering of events and counters (rows of its descriptor, rdp.c).
 * Internal to parsers/rdp. */
#ifndef OSPREY_RDP_INT_H
#define OSPREY_RDP_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def rdp_proto;

/* events, one per message Suricata makes a transaction of */
enum { RDP_EV_INITIAL_REQUEST, RDP_EV_INITIAL_RESPONSE, RDP_EV_CONNECT_REQUEST,
       RDP_EV_CONNECT_RESPONSE, RDP_EV_TLS_HANDSHAKE };
enum { RDP_C_TXS, RDP_C_MALFORMED, RDP_C_SHED };
enum { RDPB_COOKIE };

#define RDP_PDU_MAX 16384     /* a TPKT's bytes held until it is whole (its length is 16 bits) */
#define RDP_COOKIE_MAX 256    /* cookie bytes kept */
#define RDP_CHANNELS_MAX 31   /* static virtual channels (MS-RDPBCGR 2.2.1.3.4: 31 at most) */

/* the client core data (MS-RDPBCGR 2.2.1.3.2), what the EVE record shows of it */
struct rdp_client {
    bool set;
    uint32_t version, keyboard_layout, build, keyboard_type, function_keys;
    uint16_t width, height, color_depth, product_id;
    bool has_product_id;
    char name[64];           /* clientName, UTF-16LE read as its ASCII (NUL-ended) */
    char id[96];             /* clientDigProductId, when sent */
    uint16_t early_caps;     /* earlyCapabilityFlags, when sent */
    bool has_caps;
};

struct rdp_state {
    struct pbuf in[2];       /* each side's TPKT being read */
    uint32_t ntx;            /* transactions so far (the tx id is ntx - 1) */
    uint8_t cur;             /* the event of the transaction in force */
    struct pbuf cookie;      /* the client's "Cookie: mstshash=…" value */
    bool tls;                /* the server picked TLS / CredSSP: the rest is TLS */
    struct rdp_client client;
    char channels[RDP_CHANNELS_MAX][9];
    uint32_t nchannels;
    uint32_t shed;           /* channels past RDP_CHANNELS_MAX (counted with the transaction) */
};

/* tpkt.c */
void rdp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void rdp_free(void *state);
/* mcs.c: the client data blocks of an MCS Connect Initial's bytes (after its X.224 DT
 * header); false when they are not found */
bool rdp_connect_initial(struct rdp_state *st, const uint8_t *d, size_t n);
/* probe.c */
enum probe_verdict rdp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict rdp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool rdp_eve(struct pflow *pf, struct osprey_jw *w);

#endif
