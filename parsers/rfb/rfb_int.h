/* rfb_int.h — what the RFB (VNC) parser's files share: its state (the handshake of RFC 6143
 * §7.1-7.3, both sides) and its own numbering of events, buffers, fields, anomalies and
 * counters (rows of its descriptor, rfb.c). Internal to parsers/rfb. */
#ifndef OSPREY_RFB_INT_H
#define OSPREY_RFB_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def rfb_proto;

enum { RFB_EV_AUTH, RFB_EV_SERVER_INIT };
enum { RFB_C_HANDSHAKES, RFB_C_MALFORMED, RFB_C_SHED };
enum {
    RFB_AE_MALFORMED_MESSAGE,
    RFB_AE_UNIMPLEMENTED_SECURITY_TYPE,
    RFB_AE_UNKNOWN_SECURITY_RESULT,
    RFB_AE_CONFUSED_STATE,
};
enum { RFBB_NAME, RFBB_AUTH };
enum { RFBF_SECTYPE, RFBF_SECRESULT };

#define RFB_PENDING_MAX 65536 /* bytes of one side held while a message is incomplete */
#define RFB_NAME_MAX 4096     /* desktop name / failure reason bytes kept */
#define RFB_TYPES_MAX 255     /* security types a server may offer (a u8 count) */

/* where each side is in the handshake */
enum rfb_srv {
    RS_VERSION, RS_SECTYPES, RS_WAIT_CHOICE, RS_CHALLENGE, RS_RESULT, RS_REASON,
    RS_SERVER_INIT, RS_DONE
};
enum rfb_cli { RC_VERSION, RC_SECTYPE, RC_RESPONSE, RC_CLIENT_INIT, RC_DONE };

struct rfb_version {
    bool set;
    char major[4], minor[4]; /* the three digits each, as sent */
};

struct rfb_state {
    struct pbuf in[2];       /* each side's bytes not consumed yet (bounded) */
    enum rfb_srv srv;
    enum rfb_cli cli;
    struct rfb_version ver[2];
    uint8_t minor;           /* 3, 7 or 8: the protocol the server's version means */
    uint8_t offered[32];     /* the types the server offered (3.7+), a bit each */
    bool sectype_set;
    uint32_t sectype;        /* chosen (3.7+: by the client; 3.3: by the server) */
    bool challenge_set, response_set;
    uint8_t challenge[16], response[16];
    bool result_set;
    uint32_t result;
    struct pbuf reason;      /* the server's failure reason (bounded) */
    bool shared_set, shared;
    bool init_set;           /* ServerInit read */
    uint16_t width, height;
    uint8_t pixel[16];       /* its pixel format */
    struct pbuf name;        /* its desktop name (bounded) */
    bool auth_raised, reported;
};

/* handshake.c */
void rfb_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void rfb_end(struct pflow *pf, struct mon_flow *f);
void rfb_free(void *state);
/* probe.c */
enum probe_verdict rfb_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool rfb_eve(struct pflow *pf, struct osprey_jw *w);

#endif
