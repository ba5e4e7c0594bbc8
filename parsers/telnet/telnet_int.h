/* telnet_int.h — what the Telnet parser's files share: its state (each direction's reader of
 * data lines and IAC commands, RFC 854 / 855) and its own numbering of events, buffers and
 * counters (rows of its descriptor, telnet.c). Internal to parsers/telnet. */
#ifndef OSPREY_TELNET_INT_H
#define OSPREY_TELNET_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def telnet_proto;

/* events: each direction's data frame, control frame, then either as a pdu */
enum {
    TN_EV_DATA_TO_SERVER, TN_EV_CTL_TO_SERVER, TN_EV_PDU_TO_SERVER,
    TN_EV_DATA_TO_CLIENT, TN_EV_CTL_TO_CLIENT, TN_EV_PDU_TO_CLIENT,
};
enum { TN_C_DATA, TN_C_CTL, TN_C_SHED };
enum { TNB_DATA, TNB_CTL, TNB_PDU };

#define TN_IAC 0xff
#define TN_SE 0xf0
#define TN_SB 0xfa
#define TN_WILL 0xfb
#define TN_DONT 0xfe
#define TN_FRAME_MAX 4096 /* bytes of one data line or subnegotiation kept (the rest shed) */

enum tn_at { TN_DATA, TN_GOT_IAC, TN_OPTION, TN_SUB, TN_SUB_IAC };

struct tn_side {
    enum tn_at at;
    struct pbuf data;        /* the data line being read (IAC IAC as one 0xff) */
    struct pbuf ctl;         /* the command being read, as sent */
    struct pbuf frame;       /* the last frame, data or control: what the buffers show */
    bool frame_is_ctl;
};

struct telnet_state {
    struct tn_side side[2];  /* by direction: 0 the client's, 1 the server's */
};

/* stream.c */
void telnet_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void telnet_gap(struct pflow *pf, struct mon_flow *f, int dir);
void telnet_end(struct pflow *pf, struct mon_flow *f);
void telnet_free(void *state);
/* probe.c */
enum probe_verdict telnet_probe(const uint8_t *d, size_t n, const struct mon_flow *f);

#endif
