/* ssh_int.h — what the SSH parser's files share: its state, its settings and its own
 * numbering of events, buffers and counters (rows of its descriptor, ssh.c). Internal to
 * parsers/ssh. */
#ifndef OSPREY_SSH_INT_H
#define OSPREY_SSH_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def ssh_proto;

/* rows of ssh_proto.events / .counters; buffer keys */
enum { SSH_EV_CLIENT_BANNER, SSH_EV_SERVER_BANNER, SSH_EV_CLIENT_KEXINIT,
       SSH_EV_SERVER_KEXINIT };
enum { SSH_C_BANNERS, SSH_C_MALFORMED, SSH_C_KEXINITS };
enum { SSH_AE_INVALID_BANNER, SSH_AE_LONG_BANNER, SSH_AE_INVALID_RECORD };
enum ssh_buf { SB_PROTO, SB_SOFTWARE, SB_BANNER, SB_HASSH, SB_HASSH_STRING };
/* rows of ssh_proto.buffers that are HASSH's (pflow_wants: a rule reads one) */
enum { SSH_ROW_HASSH_FIRST = 6, SSH_ROW_HASSH_END = 10 };

#define SSH_LINE_MAX 8192      /* bytes of one line kept while looking for the banner */
#define SSH_PACKET_MAX 35000   /* RFC 4253 §6.1: the longest packet an implementation must take */
#define SSH_PACKETS_MAX 8      /* packets read before NEWKEYS: past them the side is left */
#define SSH_BANNER_LONG 256    /* a banner line this long raises ssh.long_banner (Suricata's) */

/* app-layer.protocols.ssh.* */
struct ssh_cfg {
    bool hassh;              /* compute HASSH always (else only when a rule reads it) */
};

/* One side's identification string (RFC 4253 §4.2): "SSH-protoversion-softwareversion
 * [SP comments]" CR LF. */
struct ssh_side {
    struct pbuf line;        /* the line being read, then the banner (without CR LF) */
    bool done;               /* the banner is in: the rest of the side is binary packets */
    bool newkeys;            /* its NEWKEYS was read: the side is encrypted from here on */
    bool first_line;         /* a line of this side was read (the first one is checked) */
    bool long_banner;        /* ssh.long_banner raised */
    struct span proto, software;
    /* after the banner: binary packets up to NEWKEYS (their headers checked; the KEXINIT's
     * HASSH when wanted) */
    struct pbuf pkt;         /* a packet being read (bounded by SSH_PACKET_MAX) */
    uint32_t packets;        /* packets read */
    bool finished;           /* the transaction needs nothing more of this side */
    bool records_done;       /* no more packets are read of this side */
    bool kexinit;            /* its KEXINIT is in: the HASSH below is set */
    struct pbuf hassh_string;/* kex;encryption;mac;compression of this side's direction */
    char hassh[33];          /* its MD5, hex */
};

struct ssh_state {
    struct ssh_side side[2]; /* by direction: 0 the client's, 1 the server's */
    bool reported;           /* the tx callback ran (once: one transaction per flow) */
    bool hassh;              /* HASSH is computed on this flow (configured, or a rule reads it) */
};

/* banner.c */
void ssh_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void ssh_end(struct pflow *pf, struct mon_flow *f);
/* Split a banner line (without its line end) into its spans; false when it is none. */
bool ssh_banner_split(const uint8_t *l, uint32_t n, struct span *proto, struct span *software);
void ssh_free(void *state);
/* kex.c: binary packets of a side after its banner, up to its KEXINIT (the HASSH) */
void ssh_packets(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
/* The HASSH string of a KEXINIT payload p[0..n) (starting at its message code) for direction
 * dir (0: the client's algorithms to the server) into out; false when it does not decode. */
bool ssh_kexinit_hassh(const uint8_t *p, size_t n, int dir, struct pbuf *out);
/* The report of the flow's one transaction, once both sides are done (or at the end). */
void ssh_report_if_done(struct pflow *pf, struct mon_flow *f, struct ssh_state *st);
/* probe.c */
enum probe_verdict ssh_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c: its EVE object */
bool ssh_eve(struct pflow *pf, struct osprey_jw *w);

#endif
