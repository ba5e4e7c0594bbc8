/* sip_int.h — what the SIP parser's files share: one message's parsed spans, the SDP body's,
 * the flow's state and its own numbering of events, buffers, anomalies and counters (rows of
 * its descriptor, sip.c). Internal to parsers/sip. */
#ifndef OSPREY_SIP_INT_H
#define OSPREY_SIP_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def sip_proto;

/* rows of sip_proto.events / .counters / .anomalies */
enum { SIP_EV_REQUEST, SIP_EV_RESPONSE };
enum { SIP_C_MESSAGES, SIP_C_MALFORMED, SIP_C_HEADERS_SHED, SIP_C_SDP_SHED, SIP_C_TOO_LARGE };
enum { SIP_AE_INCOMPLETE_DATA, SIP_AE_INVALID_DATA };

#define SIP_MSG_MAX (256u * 1024u) /* bytes of one message kept (head and body) */
#define SIP_HEADERS_MAX 64         /* header lines kept per message; more are counted, shed */
#define SIP_SDP_MAX 32             /* lines of each SDP list kept (attributes, media …) */

/* The headers rules read by name (sip.from …); compact forms map onto them (RFC 3261 §7.3.3). */
enum sip_hdr { SH_OTHER, SH_FROM, SH_TO, SH_VIA, SH_USER_AGENT, SH_CONTENT_TYPE,
               SH_CONTENT_LENGTH };

struct sip_header {
    struct span name, value;  /* value without the whitespace around it */
    enum sip_hdr kind;
};

struct sdp_media {
    struct span media, info, conn, key;
    struct span bw[SIP_SDP_MAX], attr[SIP_SDP_MAX];
    uint32_t nbw, nattr;
};

struct sdp_time {
    struct span time, repeat;
};

/* An SDP body (RFC 4566): each line's value, as a span of the message. */
struct sdp {
    bool present;
    struct span version, origin, session_name, session_info, uri, email, phone, conn, timezone,
        key;
    struct span bw[SIP_SDP_MAX], attr[SIP_SDP_MAX];
    uint32_t nbw, nattr;
    struct sdp_time times[SIP_SDP_MAX];
    uint32_t ntimes;
    struct sdp_media media[SIP_SDP_MAX];
    uint32_t nmedia;
};

/* One SIP message: its bytes and where each part lies in them. */
struct sip_msg {
    struct pbuf raw;          /* the whole message (bounded by SIP_MSG_MAX) */
    bool response;
    struct span line;         /* the start line without CRLF */
    struct span line_crlf;    /* … with it (the request.line / response.line frames) */
    struct span method, uri, version, code, reason;
    struct span headers;      /* the header lines with their CRLFs, without the empty line */
    struct span body;
    bool body_cut;            /* the body was longer than what is kept */
    struct sip_header hdr[SIP_HEADERS_MAX];
    uint32_t nhdr;
    struct sdp sdp;
};

/* A TCP direction's framing: bytes gathered until a message (head + Content-Length) is in. */
struct sip_side {
    struct pbuf in;
    uint64_t skip;            /* body bytes past SIP_MSG_MAX still to skip */
    size_t scan;              /* where the look for in's head end goes on (sip_head_end) */
};

struct sip_state {
    struct sip_msg msg;       /* the message in force (its event runs, then its record) */
    struct sip_side side[2];
    uint32_t txs;
};

/* message.c: parse d[0..n) as one message into m (copied): OK, INCOMPLETE (its head has no
 * end: no empty line) or INVALID (a start line or header line of another shape). shed counts
 * the header lines past SIP_HEADERS_MAX. */
enum sip_parse { SIP_OK, SIP_INCOMPLETE, SIP_INVALID };
enum sip_parse sip_msg_parse(struct sip_msg *m, const uint8_t *d, size_t n, uint32_t *shed);
/* Where the head of a message ends (just past the empty line) in d[0..n); 0: not yet. The
 * look starts at *from (a line start; 0 for a new message) and leaves there where it stopped:
 * bytes arriving a few at a time are looked at once, not the whole head again each time. */
size_t sip_head_end(const uint8_t *d, size_t n, size_t *from);
/* The Content-Length of a head d[0..n) (its first such header, compact "l" too); -1: none or
 * not a number. */
int64_t sip_head_content_length(const uint8_t *d, size_t n);
void sip_msg_free(struct sip_msg *m);
/* sdp.c: parse the body span of m as SDP into m->sdp; returns lines shed past the limits. */
uint32_t sip_sdp_parse(struct sip_msg *m);
/* Empty s: its scalars and counts (the list entries are written whole as they are added). */
void sip_sdp_reset(struct sdp *s);
/* stream.c: the descriptor's entry points */
void sip_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void sip_parse_tcp(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void sip_free(void *state);
uint32_t sip_tx_id(const struct pflow *pf);
/* probe.c */
enum probe_verdict sip_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool sip_eve(struct pflow *pf, struct osprey_jw *w);

/* The bytes of span s of m (NULL when unset). */
static inline const uint8_t *sip_span(const struct sip_msg *m, const struct span *s,
                                      uint32_t *len)
{
    if (!s->set)
        return NULL;
    *len = s->len;
    return m->raw.p ? m->raw.p + s->off : (const uint8_t *)"";
}

#endif
