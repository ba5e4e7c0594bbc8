/* ssh_int.h — what the SSH parser's files share: its state and its own numbering of events,
 * buffers and counters (rows of its descriptor, ssh.c). Internal to parsers/ssh. */
#ifndef OSPREY_SSH_INT_H
#define OSPREY_SSH_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def ssh_proto;

/* rows of ssh_proto.events / .counters; buffer keys */
enum { SSH_EV_CLIENT_BANNER, SSH_EV_SERVER_BANNER };
enum { SSH_C_BANNERS, SSH_C_MALFORMED };
enum ssh_buf { SB_PROTO, SB_SOFTWARE, SB_BANNER };

#define SSH_LINE_MAX 8192  /* bytes of one line kept while looking for the banner */

/* One side's identification string (RFC 4253 §4.2): "SSH-protoversion-softwareversion
 * [SP comments]" CR LF. */
struct ssh_side {
    struct pbuf line;        /* the line being read, then the banner (without CR LF) */
    bool done;               /* the banner is in: the rest of the side is binary packets */
    struct span proto, software;
};

struct ssh_state {
    struct ssh_side side[2]; /* by direction: 0 the client's, 1 the server's */
    bool reported;           /* the tx callback ran (once: one transaction per flow) */
};

/* banner.c */
void ssh_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void ssh_end(struct pflow *pf, struct mon_flow *f);
/* Split a banner line (without its line end) into its spans; false when it is none. */
bool ssh_banner_split(const uint8_t *l, uint32_t n, struct span *proto, struct span *software);
void ssh_free(void *state);
/* probe.c */
enum probe_verdict ssh_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c: its EVE object */
bool ssh_eve(struct pflow *pf, struct osprey_jw *w);

#endif
