/* detect_int.h — the compiled detection state shared by compile.c, the filters and the
 * runtime. Private to rules/compile/. */
#ifndef RULES_DETECT_INT_H
#define RULES_DETECT_INT_H

#include <hs/hs.h>
#include <stdbool.h>
#include <stdint.h>

#include "opt_args.h"
#include "opt_eval.h"
#include "osprey_detect.h"

/* Buffer kinds, each with its own Hyperscan database and multi-event filter. */
enum det_kind { DK_PKT, DK_STREAM, DK__COUNT };

/* The multi-event filter of one buffer kind: one Hyperscan database over the fast patterns
 * of every rule inspecting that buffer; pattern id i raises child event ev[i]. */
struct det_mpm {
    uint8_t kind;
    uint32_t n, cap;
    const uint8_t **pat;   /* pattern bytes (the AST's) */
    uint32_t *len;
    bool *nocase;
    mon_event_t *ev;       /* child events, allocated under `self` */
    uint32_t maxlen;
    mon_event_t self;      /* the filter's own UDE (under the base event) */
    bool defined;
    bool streaming;        /* DK_STREAM only: db is HS_MODE_STREAM, fed per flow side */
    hs_database_t *db;
};

/* The header dispatcher of one base event: rules without a fast pattern hang below it, one
 * child event per distinct header. Which headers a flow direction matches never changes, so
 * the filter works it out once per flow direction and then only re-raises (per-flow cache). */
struct det_hdx {
    uint8_t kind;
    uint32_t n, cap;
    const struct det_header **hdr;
    mon_event_t *ev;
    mon_event_t self;
    bool defined;
};

/* Header filter argument (interned: identical headers share one). */
struct det_header {
    uint8_t kind;
    uint8_t proto;        /* 0 = any IP, 6, 17, 1 (ICMP and ICMPv6) */
    bool both;            /* <> */
    bool ports;           /* compare ports (TCP/UDP rules) */
    const struct osprey_ip_set *src, *dst;
    const struct osprey_port_set *sp, *dp;
};

enum det_unit_type { DU_PAYLOAD, DU_FLOW, DU_DSIZE, DU_FLOWBITS, DU_HDR, DU_TCPFLAGS,
                     DU_IPPROTO, DU_SAMEIP, DU_FRAGBITS, DU_IPOPTS };

/* One payload option of a run (payload.c evaluates runs). */
enum det_pitem_type { PI_CONTENT, PI_PCRE, PI_ISDATAAT, PI_BYTE_TEST, PI_BYTE_JUMP,
                      PI_BYTE_EXTRACT, PI_BYTE_MATH };
struct det_pitem {
    uint8_t type;
    bool relative;    /* to the previous payload match: the run backtracks into it */
    const void *arg;  /* struct opt_content / opt_pcre / opt_isdataat / opt_byte */
    void *code;       /* PI_PCRE: the compiled regex (owned by the detect object) */
    /* byte variables, numbered per rule, stored as number + 1 (0: none): the ones the
     * option's fields name (see *_var_names in opt_eval.h), and the one it defines */
    uint8_t var[BYTE_VAR_FIELDS];
    uint8_t def;
};

/* One option unit: a match option, or a run of payload options that depend on each other
 * (an absolute one and the relative ones after it). Interned. */
struct det_unit {
    uint8_t type, kind;
    uint32_t n;                               /* DU_PAYLOAD: items */
    const struct det_pitem *items;
    const struct opt_flow *flow;
    const struct opt_cmp *cmp;
    const struct opt_bits *bits;              /* DU_FLOWBITS: isset / isnotset */
    const uint32_t *bit_ids;
    int field;                                /* DU_HDR: HF_* (with cmp) */
    struct tcpflags tf;                       /* DU_TCPFLAGS, DU_FRAGBITS */
    uint16_t ipopt;                           /* DU_IPOPTS: option type or IPOPT_ANY */
    struct ipproto ipp;                       /* DU_IPPROTO */
};

/* Does the run match buf[0..len)? md: the worker's pcre2 match data. */
bool det_payload_match(const struct det_unit *u, const uint8_t *buf, uint32_t len, void *md);

/* A flowbits action (set, unset, toggle) run when the rule matches. */
struct det_bits_action {
    const struct opt_bits *b;
    const uint32_t *ids;
};

struct det_rule {
    const struct osprey_rule *rule;
    const struct opt_threshold *thr[2];   /* threshold, detection_filter (NULL = none) */
    struct det_bits_action *bits;
    uint32_t nbits;
    bool noalert;                         /* flowbits:noalert: matches, never alerts */
    bool suppressed;                      /* threshold.config: suppress without ip */
    struct det_suppress *sup;             /* threshold.config: suppress by_src/dst ip */
    uint32_t nsup;
    const char *category;
    int severity;
    uint32_t nmeta;
    struct osprey_detect_meta *meta;
    uint8_t kind;
    uint32_t idx;
    mon_event_t leaf;
    uint32_t chain_len;
};

/* threshold.config `suppress …, track by_src|by_dst|by_either, ip LIST` (one network). */
struct det_suppress {
    uint8_t track;        /* 0 by_src, 1 by_dst, 2 by_either */
    uint8_t ipver, prefix;
    uint8_t net[16];
};
/* Keep p until the detect object is freed (frees p and returns -1 when out of memory). */
int det_own(struct osprey_detect *d, void *p);
/* Apply threshold.config to the compiled rules (thresh_conf.c). */
int det_threshold_config(struct osprey_detect *d, FILE *diag);
bool det_suppressed(const struct det_rule *dr, const struct mon_packet *p);

/* A UDE the compiler defined, for --dump-chains. */
struct det_node {
    mon_event_t ev, parent;
    char *label;
};

struct osprey_detect {
    const struct osprey_ruleset *rs;
    struct det_mpm mpm[DK__COUNT];
    struct det_hdx hdx[DK__COUNT];
    struct det_rule *rules;
    uint32_t nrules;
    struct det_node *nodes;
    uint32_t nnodes, cap_nodes;
    void **owned;               /* interned arguments and labels to free */
    uint32_t nowned, cap_owned;
    const char **bit_names;     /* flowbit names; a name's index is its bit */
    uint32_t nbit_names, cap_bit_names;
    bool has_thresholds;
    void **codes;               /* compiled regexes */
    uint32_t ncodes, cap_codes;
    struct osprey_detect_stats stats;
};

/* Filters (filters.c). */
bool det_mpm_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg);
bool det_hdx_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg);
bool det_header_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                       void *arg);
bool det_unit_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg);

/* Hyperscan (mpm.c). */
int det_mpm_add(struct det_mpm *m, const uint8_t *p, uint32_t len, bool nocase, uint32_t *id);
int det_mpm_compile(struct det_mpm *m, FILE *diag);
void det_mpm_free(struct det_mpm *m);

/* ---- runtime (runtime.c) ---- */
#define DET_STREAM_MAX (256u * 1024u) /* bytes of each stream side inspected */

struct det_side {
    uint8_t *buf;               /* the side's stream from its first byte (up to the cap) */
    uint32_t len, cap, scanned; /* scanned: bytes the multi-event filter has seen */
    bool full;
    hs_stream_t *hs;            /* streaming mode: this side's Hyperscan stream (lazily opened) */
    bool hs_dead;               /* streaming mode: the stream failed; this side is not scanned */
    uint32_t *seen;             /* fast-pattern ids already found in this stream */
    uint32_t nseen, cap_seen;
    uint32_t *fired;            /* rules that alerted on this side (stream rules alert once) */
    uint32_t nfired, cap_fired;
};

/* Add id to the side's fast patterns found so far (once; filters.c). */
void det_side_remember(struct det_side *s, uint32_t id);
/* Streaming mode: feed the side's new stream bytes to its Hyperscan stream (mpm.c); the
 * patterns found are remembered in s->seen. */
void det_mpm_feed(const struct det_mpm *m, struct det_side *s, hs_scratch_t *scratch,
                  const uint8_t *p, size_t n);
/* Close the side's Hyperscan stream, if any (mpm.c). */
void det_mpm_close(struct det_side *s, hs_scratch_t *scratch);

struct det_hcache {             /* headers (det_hdx indexes) this flow direction matches */
    uint32_t *ids;
    uint32_t n;
    bool done;
};

struct det_flow {
    struct osprey_detect_worker *w;
    struct det_hcache hc[DK__COUNT][2]; /* [kind][0 = to server, 1 = to client] */
    bool pass;                  /* a pass rule matched: no more alerts on this flow */
    struct det_side side[2];    /* indexed by receiving side (MON_SIDE_SVR = to server) */
    uint64_t bits[];            /* flowbits, (nbit_names + 63) / 64 words */
};

struct osprey_detect_worker {
    const struct osprey_detect *d;
    struct mon_ctx *ctx;
    struct mon_sock *sock;
    hs_scratch_t *scratch;      /* one per worker: Hyperscan's rule for threads */
    void *md;                   /* pcre2_match_data, one per worker */
    osprey_alert_fn cb;
    void *arg;
    uint64_t alerts;
    struct det_thr_table *thr;  /* threshold/detection_filter state (threshold.c) */
};

/* Threshold state per (rule, option, tracked key): a fixed table per worker. */
struct det_thr_table *det_thr_create(void);
void det_thr_free(struct det_thr_table *t);
/* May this match alert? Consults and updates the rule's thresholds. */
bool det_thr_allow(struct det_thr_table *t, const struct det_rule *dr,
                   const struct mon_packet *p, const struct mon_flow *f);

/* The buffer a filter of `kind` inspects now, NULL when there is none. */
const uint8_t *det_buffer(struct mon_ctx *ctx, struct mon_flow *f, int side, uint8_t kind,
                          uint32_t *len);
static inline bool det_to_server(int side, uint8_t kind)
{
    /* PKT_IN comes with the sender's side, CONN_NEW_DATA with the receiver's */
    return kind == DK_PKT ? side == MON_SIDE_CLI : side == MON_SIDE_SVR;
}

#endif
