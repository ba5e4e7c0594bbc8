/* runtime.h — the detection runtime's state, part of detect_int.h (included there, at this
 * place): the stream sides and their window, a flow's detection state, the pending matches
 * and the worker, with the small inline tests the filters and handlers share (runtime.c,
 * filters.c, payload_scan.c, pending.c). Internal to rules/compile. */
#ifndef OSPREY_DET_RUNTIME_H
#define OSPREY_DET_RUNTIME_H

/* ---- runtime (runtime.c) ---- */
#define DET_STREAM_MAX (256u * 1024u) /* bytes of each stream side inspected */
/* Stream rules see a window of the side's stream: the bytes a CONN_NEW_DATA delivered and
 * DET_WINDOW bytes before them (positions still count from the side's first byte). A match
 * whose parts lie more than this far apart before the new data is not found. */
#define DET_WINDOW (32u * 1024u)

/* A fast pattern found in a side's stream and the stream offset just past its last
 * occurrence: the multi-event filter raises it again only while that occurrence lies wholly
 * in the window (a rule's fast-pattern content cannot match in a window without it). */
struct det_seen {
    uint32_t id;
    uint64_t end;
};

struct det_side {
    uint8_t *buf;               /* the window: stream bytes [base, base + len), inside mem */
    uint8_t *mem;               /* the allocation (cap bytes) the window slides up in */
    uint32_t len, cap;
    uint64_t base;              /* stream offset of buf[0] */
    uint64_t scanned;           /* stream offset the multi-event filter has seen up to */
    bool full;                  /* past DET_STREAM_MAX: no more inspection */
    bool released;              /* the connection closed: its stream state is gone */
    hs_stream_t *hs[DET_MPM_STREAM_DBS]; /* streaming mode: this side's Hyperscan streams, one
                                           per database of its port group (opened lazily) */
    uint8_t nhs;
    struct det_mpm_group grp;   /* streaming mode: the side's group (its ports never change) */
    bool hs_open;               /* streaming mode: the side's streams were opened */
    bool hs_dead;               /* streaming mode: the stream failed; this side is not scanned */
    uint64_t fed;               /* streaming mode: bytes fed to the side's streams (their offsets) */
    uint32_t run_len;           /* streaming mode: the fed bytes end in run_len bytes run_byte */
    uint8_t run_byte;
    struct det_seen *seen;      /* fast patterns found in this stream, in order found */
    uint32_t nseen, cap_seen;
    uint32_t seen_hint;         /* index of the last pattern remembered (matches repeat) */
    uint32_t *fired;            /* rules that alerted on this side (stream rules alert once) */
    uint32_t nfired, cap_fired;
};

/* The flow side's stream state, made on first use (runtime.c); NULL when out of memory. */
struct det_side *det_side_of(struct det_flow *df, int side);

/* Record an occurrence of pattern id ending at stream offset end (filters.c). */
void det_side_remember(struct det_side *s, uint32_t id, uint64_t end);
/* Streaming mode: feed the side's new stream bytes to its Hyperscan stream (mpm.c); the
 * patterns found are remembered in s->seen. */
void det_mpm_feed(const struct det_mpm *m, struct det_side *s, hs_scratch_t *scratch,
                  struct osprey_detect_prefilter *pf, const struct mon_flow *f, int side,
                  const uint8_t *p, size_t n);
/* A pattern found in a side's bytes at stream offset `to` (Hyperscan's match callback, mpm.c):
 * remembered in s->seen where the side's ports want it, else counted in pf. */
struct det_stream_scan {
    const struct det_mpm *m;
    struct det_side *s;
    struct osprey_detect_prefilter *pf;
};
int det_on_stream_match(unsigned int id, unsigned long long from, unsigned long long to,
                        unsigned int flags, void *arg);
/* Streaming mode: the side's stream bytes p[0..n) start at stream offset at; while they reach
 * into the first head_reach bytes, find the head patterns (mpm_heads.c) there (mpm.c). */
void det_mpm_feed_heads(const struct det_mpm *m, struct det_side *s, hs_scratch_t *scratch,
                        struct osprey_detect_prefilter *pf, const uint8_t *p, size_t n,
                        uint64_t at);
/* Streaming mode: after the side's streams took p[0..n), find the runs of one byte in it
 * (carried on from the bytes before) and remember the run patterns they hold (mpm_runs.c). */
void det_mpm_feed_runs(const struct det_mpm *m, struct det_side *s, const uint8_t *p, size_t n);
/* Close the side's Hyperscan stream, if any (mpm.c). */
void det_mpm_close(struct det_side *s, hs_scratch_t *scratch);

struct det_hcache {             /* headers (det_hdx indexes) this flow direction matches */
    uint32_t *ids;
    uint32_t n;
    bool done;
};

struct det_flow {
    struct osprey_detect_worker *w;
    struct det_hcache (*hc)[2]; /* [hdx slot][0 = to server, 1 = to client]: only the bases
                                   the ruleset uses, allocated at the first header dispatch */
    struct det_vars *vars;      /* flow variables pcre captures set (captures.c) */
    bool pass;                  /* a pass rule matched: no more alerts on this flow */
    bool td_pass;               /* firewall mode: a pass rule matched — no more threat-
                                   detection alerts, the firewall rules still run */
    bool dropped;               /* a drop/reject/sdrop rule matched: its packets are dropped */
    bool closed;                /* its connection closed: a side not made by then never is */
    uint8_t payload_off;        /* enum osprey_payload: encrypted from here on, no payload
                                   inspection (det_payload_off) */
    uint64_t payload_cut[2];    /* OSPREY_PAYLOAD_UNREASSEMBLED: each side's stream end then
                                   (bytes before it are still inspected), by receiving side */
    uint64_t dropped_on;        /* the packet (decoder count) a rule dropped it on; 0: other */
    struct det_side *side[2];   /* indexed by receiving side (MON_SIDE_SVR = to server);
                                   made at its first stream byte (det_side_of): a flow that
                                   carries none (a SYN flood, most UDP) costs no window state */
    int64_t *ints;              /* flowint values (allocated on first use), and which are set */
    uint8_t *intset;
    struct det_tag_state tag;   /* tag:session */
    uint32_t charged;           /* bytes of this record charged to flow.memcap (mon_ctx_charge) */
    struct det_fw_flow fw;      /* the firewall's state of the flow (firewall.c) */
    uint64_t bits[];            /* flowbits, (nbit_names + 63) / 64 words */
};

/* A chain that reached its leaf during the current phase of the current packet; committed
 * in Suricata's order once every chain of the phase has been walked (runtime.c). */
struct det_pending {
    const struct det_rule *dr;
    struct mon_flow *f;
    int side;
    uint32_t seq;               /* order of arrival: ties keep it */
    bool deferred;              /* stopped at its flowbits gate: units run at commit */
    bool retried;               /* a packet rule's match tried again (runtime.c: retry) */
};
/* Append to a growing array of matches (pending.c); false: out of memory (the match is
 * lost). */
bool det_pending_push(struct det_pending **arr, uint32_t *n, uint32_t *cap,
                      struct det_pending pm);

/* An alert held to the end of its packet (held.c). */
struct det_held {
    struct osprey_alert a;
};

/* The barrier handler's argument: its worker and base (runtime.c on_commit). */
struct det_commit_arg {
    struct osprey_detect_worker *w;
    uint16_t base;
};

struct osprey_detect_worker {
    struct det_prof_count *prof;     /* profiling: per unit slot (profile.c) */
    uint64_t *prof_matches;          /* profiling: per det_rule, chains completed */
    const struct osprey_detect *d;
    struct mon_ctx *ctx;
    struct mon_sock *sock;
    hs_scratch_t *scratch;      /* one per worker: Hyperscan's rule for threads */
    /* det_stream_fill (runtime.c), reached by the filters through this pointer: the filters
     * are below the runtime, which calls them (no call circle) */
    void (*stream_fill)(struct mon_ctx *ctx, struct mon_flow *f, int side,
                        struct osprey_detect_worker *w);
    void *md;                   /* pcre2_match_data, one per worker */
    osprey_alert_fn cb;
    void *arg;
    uint64_t alerts;
    struct det_thr_table *thr;  /* the detection's threshold table (threshold.c; shared) */
    struct det_xbits *xb;       /* xbits (xstate.c), when a rule uses them */
    struct det_pending *pending; /* matches of the phase being walked, not yet committed */
    struct det_hdx_ipmemo hdx_memo[HDX_IPMEMO_N]; /* det_hdx_headers' address memos */
    const struct osprey_rule *twin_hits[16]; /* twin rules matched on this packet (reset at
                                                its PKT_IN): the other chain stays quiet */
    uint32_t ntwin_hits;
    const struct mon_flow *twin_flow; /* the flow and packet twin_hits are for: a flow's end
                                         runs no PKT_IN, so its pseudo packet starts a new
                                         list here (ack delivery inspects streams there) */
    uint64_t twin_num;
    uint32_t npending, cap_pending;
    struct det_pending *retry;  /* packet-rule matches the packet's flowbits refused at its
                                   commit: tried again at its later commits (runtime.c) */
    uint32_t nretry, cap_retry;
    bool pkt_dropped;           /* verdict of the last packet (reset at its PKT_IN) */
    bool pkt_flow_dropped;      /* ... because its flow was dropped before it */
    bool pkt_rule_drop;         /* ... because a rule of this packet dropped it */
    bool pkt_pass;              /* a pass rule matched this packet (held.c) */
    struct det_flow *drop_df;   /* the flow a rule of this packet dropped, if any */
    struct det_fw_packet fw;    /* the firewall's verdict on this packet (firewall.c) */
    uint64_t fw_counted;        /* the last packet the firewall counters took */
    struct det_pending *fwp;    /* a commit's firewall matches (firewall.c) */
    uint32_t nfw, cap_fwp;
    struct det_commit_arg *commit_args; /* the barriers' handler argument, per base */
    struct det_held *held;      /* the packet's alerts, held to its end (held.c) */
    struct det_caps *caps;      /* this packet's pcre captures and variables (captures.c) */
    uint32_t nheld, cap_held;
    bool orphan_scan;           /* the stream chains run on an ORPHAN packet's payload: only
                                   the packet chains (DET_TWIN_PACKET) may match */
    bool arrival_scan;          /* ... on a connection's packet as it arrives, under ack
                                   delivery: only the pkt_required packet chains may match */
    struct det_side *arrival_side; /* the receiving side's own state meanwhile (its stream
                                   chain's "alerted once" list takes the packet chain's match) */
    struct det_side arrival;    /* the arrival scans' side, reused: its lists keep their
                                   memory (no allocation per packet; runtime.c) */
    /* the packet rules' patterns a merged arrival scan found in this packet's payload
     * (filters.c): the packet matcher raises them instead of scanning it again; valid until
     * the next packet (det_new_packet) */
    uint32_t *pre_ids, npre, cap_pre;
    bool pre_valid;
    bool pkt_tagged;            /* the last packet falls under a tag (set at its PKT_IN) */
    struct det_tags *tags;      /* host tags (tag.c), when a rule tags */
    uint8_t pkt_reject;         /* enum osprey_reject */
    uint8_t pkt_reject_to;      /* enum osprey_reject_to */
    struct osprey_detect_policy policy; /* exceptions and stream.inline (osprey_detect.h) */
    struct osprey_detect_verdicts verdicts;
    struct osprey_detect_mem mem;
    struct osprey_detect_prefilter pf;
    uint8_t *xbuf[2];           /* transformed buffers, per slot (app.c) */
    struct det_lua_states *lua; /* this worker's Lua state of each script (unit_lua.c) */
    struct osprey_detect_lua lua_stats; /* stats.detect.lua.* */
    struct osprey_scratch lua_scratch;  /* derived buffers the Lua modules ask for */
    struct osprey_scratch dscratch[2]; /* derived application buffers, per slot (app.c) */
    struct det_decode_leaf *oleaf; /* events.c: the decoder-event rules' leaf arguments */
    struct det_pkt_leaf *pleaf;    /* runtime.c: the packet rules' leaf arguments */
    uint32_t npleaf;
    uint64_t verdict_of;        /* the packet (decoder count) whose verdict is being built */
    uint32_t xcap[2];
};

/* Nothing more to inspect on this flow: a pass rule or a drop matched. A rule's drop stops
 * it from the next packet on: the phases of the packet that matched it are still inspected,
 * as Suricata inspects all of a packet's rules in one pass. */
/* captures.c: pcre captures into variables. The spec of a compiled pcre item (NULL: it
 * captures nothing; -1 out of memory), the record of a match's groups (ov: pcre2's ovector
 * over subj), the variables of a rule's match for its alert (flow variables set on df; the
 * returned array lives until the packet's end; NULL with *n 0 when none), the per-packet
 * reset, and a flow's variables freed. */
int det_capspec_build(struct osprey_detect *d, struct det_pitem *pi);
void det_caps_record(struct det_caps **caps, const struct det_pitem *pi, const uint8_t *subj,
                     const size_t *ov, uint32_t nov);
const struct osprey_detect_var *det_caps_apply(struct osprey_detect_worker *w,
                                               const struct det_rule *dr, struct det_flow *df,
                                               uint32_t *n);
void det_caps_packet_end(struct osprey_detect_worker *w);
void det_vars_free(struct det_vars *v);
void det_caps_free(struct det_caps *caps);

/* held.c: an alert of the packet being processed (given now, or held to its end), and a
 * pass rule's match on it (cancels the held alerts and the packet's drop). */
void det_alert(struct osprey_detect_worker *w, const struct osprey_alert *a);
void det_pass_packet(struct osprey_detect_worker *w);

/* Append side's readable bytes not yet read to its stream window (CONN_NEW_DATA's handler;
 * the filters also call it, through w->stream_fill, under ack delivery, where an application
 * rule's transaction is parsed at the ACK, before the bytes' CONN_NEW_DATA). */
void det_stream_fill(struct mon_ctx *ctx, struct mon_flow *f, int side,
                     struct osprey_detect_worker *w);

static inline bool det_flow_stopped(const struct det_flow *df)
{
    return df->pass || (df->dropped && df->dropped_on != df->w->verdict_of);
}

/* Is the TCP flow's payload beyond content rules now? Its parser found it encrypted (TLS
 * application data, SSH after NEWKEYS: osprey_parsers_payload), and from then on, as
 * Suricata's FLOW_NOPAYLOAD_INSPECTION, its packets' payload is inspected no more (no packet
 * payload, no arrival scan) and its stream takes no new bytes (det_stream_fill: with
 * OSPREY_PAYLOAD_UNREASSEMBLED those it had received are still inspected). Rules on the
 * protocol's own buffers (tls.sni …) and on the headers go on. Remembered once seen. */
static inline bool det_payload_off(struct mon_ctx *ctx, const struct mon_flow *f,
                                   struct det_flow *df)
{
    if (!df->payload_off && f->proto == 6) {
        enum osprey_payload how = osprey_parsers_payload(ctx, f);
        if (how != OSPREY_PAYLOAD_INSPECTED) {
            df->payload_off = (uint8_t)how;
            df->payload_cut[0] = f->tcp.side[0].rcv_off;
            df->payload_cut[1] = f->tcp.side[1].rcv_off;
        }
    }
    return df->payload_off;
}

/* Threshold state per (rule, option, tracked key): a fixed table per worker. */
struct det_thr_table *det_thr_create(void);
void det_thr_free(struct det_thr_table *t);
/* May this match alert? Consults and updates the rule's thresholds. */
bool det_thr_allow(struct det_thr_table *t, const struct det_rule *dr,
                   const struct mon_packet *p, const struct mon_flow *f);

/* The buffer a filter of `kind` inspects now, NULL when there is none; *origin: the
 * position of its first byte (a stream window starts past 0 once the stream outgrew it). */
const uint8_t *det_buffer(struct mon_ctx *ctx, struct mon_flow *f, int side, uint8_t kind,
                          uint32_t *len, uint64_t *origin);
/* Application events carry their direction (requests to the server, responses to the
 * client); PKT_IN comes with the sender's side, CONN_NEW_DATA with the receiver's. */
/* payload_scan.c: a packet's own payload through the stream chains (only their packet twins
 * may match): an orphan's (arrival false), or a connection packet's on arrival under ack
 * delivery (the arrival database); and the PKT_IN step that runs the latter. */
void det_orphan_payload(struct osprey_detect_worker *w, struct mon_ctx *ctx, struct mon_flow *f,
                        int rcv, struct det_flow *df, const struct mon_packet *p, bool arrival);
void det_arrival_twins(struct osprey_detect_worker *w, struct mon_ctx *ctx, struct mon_flow *f,
                       int side, struct det_flow *df, mon_event_t ev);

/* A chain whose match is not taken in the scan running now (the leaf and the flowbits gate
 * ask): on a packet's own payload (orphan_scan) only the packet twins match, and on a
 * connection's packet under ack delivery (arrival_scan) only those Suricata inspects on
 * every packet (pkt_required); under ack delivery the packet twins never match at a stream
 * delivery, which comes with a later packet than the bytes' own (stack/tcp/README.md, "Raw
 * stream inspection under ack delivery"). */
static inline bool det_chain_off(const struct osprey_detect_worker *w, const struct det_rule *dr)
{
    if (w->orphan_scan)
        return dr->twin != DET_TWIN_PACKET || (w->arrival_scan && !dr->pkt_required);
    return dr->twin == DET_TWIN_PACKET && w->policy.ack_delivery;
}

static inline bool det_to_server(int side, uint16_t base)
{
    switch (base) {
    case DB_PKT:
    case DB_DECODE:
        return side == MON_SIDE_CLI;
    case DB_STREAM:
    case DB_PKT_RCV:
    case DB_APP_EVENT: /* run with the receiver's side, as the parsers' events */
    case DB_APP_DETECTED:
        return side == MON_SIDE_SVR;
    default:
        return osprey_event_dir(det_base_event(base)) == 0;
    }
}

#endif
