/* detect_int.h — the compiled detection state shared by compile.c, the filters and the
 * runtime. Private to rules/compile/. */
#ifndef RULES_DETECT_INT_H
#define RULES_DETECT_INT_H

#include <hs/hs.h>
#include <stdbool.h>
#include <stdint.h>

#include "opt_args.h"
#include "opt_eval.h"
#include "dataset.h"
#include "firewall.h"
#include "opt_geoip.h"
#include "opt_pktprop.h"
#include "osprey_detect.h"
#include "osprey_parsers.h"
#include "rlua.h"

/* What a rule inspects: packets, the reassembled stream, or application-layer buffers that
 * the parsers (parsers/include/osprey_parsers.h) fill under their events. */
enum det_kind { DK_PKT, DK_STREAM, DK__COUNT, DK_APP = DK__COUNT };

/* A rule's base event: PKT_IN, CONN_NEW_DATA, one of a few other engine events, or one
 * application event (the latest one its buffers need: a rule on http.uri and http.stat_code
 * runs under http_response). The application bases are not enumerated: base DB__FIXED + e
 * is the parsers' event e (osprey_event_find), so a new protocol's events are bases with
 * no change here. Arrays over the bases are sized det_nbases(). */
enum det_base {
    DB_PKT, DB_STREAM, /* = DK_PKT, DK_STREAM */
    DB_DECODE, /* DECODE_EVENT: packets with a decoder anomaly or note, flow or not (events.c) */
    DB_APP_EVENT, /* the parsers' app_anomaly: one application-layer event (events.c) */
    DB_PKT_RCV, /* PKT_IN in the receiver's hook, after its update: stream-event rules */
    DB_APP_DETECTED, /* the parsers' app_detected: the flow's protocol was decided (rules on
                        app-layer-protocol alone, Suricata's protocol-detection-only rules) */
    DB__FIXED
};
static inline uint16_t det_nbases(void)
{
    return (uint16_t)(DB__FIXED + osprey_event_count());
}
/* The i-th base (i < det_nbases()) in definition order: packet, stream, the application
 * events, then the other engine events (the order barriers and --dump-chains follow). */
static inline uint16_t det_base_order(uint16_t i)
{
    static const uint16_t TAIL[] = {DB_DECODE, DB_APP_EVENT, DB_PKT_RCV, DB_APP_DETECTED};
    uint16_t napp = (uint16_t)(det_nbases() - DB__FIXED);
    if (i < 2)
        return i;
    if (i < 2 + napp)
        return (uint16_t)(DB__FIXED + i - 2);
    return TAIL[i - 2 - napp];
}
/* Is base one of the parsers' application events? */
static inline bool det_base_is_app(uint16_t base)
{
    return base >= DB__FIXED;
}
/* The application event of an application base, and back. */
static inline uint16_t det_base_event(uint16_t base)
{
    return (uint16_t)(base - DB__FIXED);
}
static inline uint16_t det_app_base(uint16_t ev)
{
    return (uint16_t)(DB__FIXED + ev);
}
static inline uint8_t det_kind_of(uint16_t base)
{
    switch (base) {
    case DB_PKT:
    case DB_DECODE:
    case DB_PKT_RCV:
        return DK_PKT;
    case DB_STREAM:
        return DK_STREAM;
    default:
        return DK_APP;
    }
}

/* An application buffer as a unit or multi-event filter sees it: the parser's buffer (its
 * registry id, osprey_buffer_find), through a chain of transforms (NULL: none). Interned. */
struct det_xform {
    uint32_t n;
    const uint16_t *kw;   /* transform keyword ids, in rule order */
    const char **val;     /* their arguments as written (NULL: none): the chain's identity */
    struct det_xstep *step; /* prepared steps (xform_args.h); name NULL: an xform_apply one */
};

#include "prefilter.h" /* the fast-pattern matchers, header dispatchers, rule profiling */

/* Header filter argument (interned: identical headers share one). */
struct det_header {
    uint8_t kind;
    uint16_t base;
    uint8_t proto;        /* 0 = any IP, 6, 17, 1 (ICMP and ICMPv6) */
    bool both;            /* <> */
    bool ports;           /* compare ports (TCP/UDP rules) */
    const struct osprey_ip_set *src, *dst;
    const struct osprey_port_set *sp, *dp;
    bool any_packet;      /* pkthdr: a packet without IP (decoding stopped first) matches
                             when the addresses are any */
};

/* What one type of option unit does: one const instance per type, defined beside its
 * evaluation (unit_*.c, tls_units.c, events.c, pkt_units.c). A new unit type is a new
 * instance; nothing switches over types. */
struct det_unit;
struct buf;
struct det_unit_ops {
    const char *name;   /* the unit type, for dumps and tests */
    /* Does the unit hold for what is being inspected now (the filter of its UDE)? */
    bool (*eval)(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f, int side);
    /* The interning key of the unit's own fields: exactly what eval reads of them (the
     * fields every unit has — type, kind, base, ob, xf, or_absent — are keyed by args.c).
     * Forget one and two different units become one UDE. */
    void (*key)(struct buf *k, const struct det_unit *u);
    /* Optional: make the interned copy v own what it points to (its payload items, their
     * compiled regexes), kept by d. 0, or -1 when out of memory. */
    int (*own)(struct osprey_detect *d, struct det_unit *v);
    /* Optional: describe the compiled unit (--dump-chains labels a unit with its options'
     * text; the units the rule header implies have none and are labelled with this, else
     * with the name). */
    void (*dump)(struct buf *out, const struct det_unit *u);
    bool packet_only;   /* a property of the packet: a rule with it is a packet rule */
    bool gate_safe;     /* same answer at the commit as during the walk (compile.c
                           gate_eligible: may sit behind a flowbits gate) */
};
extern const struct det_unit_ops det_unit_payload, /* payload runs (unit_payload.c) */
    det_unit_flow, det_unit_dsize, det_unit_hdr, det_unit_tcpflags, det_unit_fragbits,
    det_unit_ipopts, det_unit_ipproto, det_unit_sameip, det_unit_geoip,
    det_unit_streamsize, det_unit_flow_start, /* packet and flow properties (unit_pkt.c) */
    det_unit_buflen, det_unit_absent, det_unit_dataset, /* an application buffer (unit_buf.c) */
    det_unit_appproto,  /* the flow's app_proto (rule header, app-layer-protocol; unit_app.c) */
    det_unit_file,      /* filename, fileext, filemagic, filesize, filemd5 … (unit_file.c) */
    det_unit_field,     /* dns.opcode, dns.rcode, dns.rrtype: a comparison on a parsers'
                           field, any element of a multi one (unit_app.c) */
    det_unit_pktprop,   /* tcp.mss, vlan.id, flow.pkts … (pkt_units.c) */
    det_unit_rpc,       /* rpc: the packet is an ONC-RPC call (unit_rpc.c) */
    det_unit_event,     /* decode-event, stream-event, app-layer-event (events.c) */
    det_unit_tls,       /* tls.version, ssl_state, tls.cert_chain_len … (tls_units.c) */
    det_unit_dce,       /* dce_iface, dce_opnum (dce_units.c) */
    det_unit_field_index, /* ldap.responses.operation …: a list field by position, true when
                             the newest element made it so (unit_fields.c) */
    det_unit_krb5_enc,  /* krb5.ticket_encryption (unit_fields.c) */
    det_unit_field_set, /* sip_method, sip_stat_code: a field in one of a few ranges */
    det_unit_lua;       /* lua / luajit: a script's match() (unit_lua.c, rules/lua/) */
struct det_tls;
struct det_dce;
/* dce_units.c: does the run read a byte field in DCERPC's byte order (byte_* with dce); the
 * byte order of the flow's last DCERPC PDU (true: little endian; false without one). */
bool det_dce_items(const struct det_unit *u);
bool det_dce_little(const struct osprey_detect *d, struct mon_ctx *ctx, struct mon_flow *f);
/* the flow is DCERPC, or SMB carrying it */
bool det_dce_flow(const struct osprey_detect *d, struct mon_ctx *ctx, struct mon_flow *f);

/* One payload option of a run (payload.c evaluates runs). */
enum det_pitem_type { PI_CONTENT, PI_PCRE, PI_ISDATAAT, PI_BYTE_TEST, PI_BYTE_JUMP,
                      PI_BYTE_EXTRACT, PI_BYTE_MATH,
                      PI_BASE64,     /* base64_decode: the items after it (base64_data) read
                                        the decoded bytes */
                      PI_ENTROPY,    /* entropy: a test of the buffer, moves nothing */
                      PI_ASN1,       /* asn1: BER objects from a position (asn1.c) */
                      PI_BER };      /* ber_data / ber_skip: the BER element at the cursor */
struct det_caps;  /* a worker's captures of the packet (captures.c) */
struct det_vars;  /* a flow's variables (captures.c) */

/* A pcre's captures into variables (captures.c): which group goes to which variable. */
#define DET_MAX_CAPS 8
struct det_capspec {
    uint8_t n;
    struct {
        uint8_t group, scope; /* enum osprey_var_scope */
        const char *name;
    } c[DET_MAX_CAPS];
};

struct det_pitem {
    uint8_t type;
    const struct det_capspec *cap; /* PI_PCRE with captures (owned by the detect object) */
    bool relative;    /* to the previous payload match: the run backtracks into it */
    const void *arg;  /* struct opt_content / opt_pcre / opt_isdataat / opt_byte / opt_asn1 */
    void *code;       /* PI_PCRE: the compiled regex (owned by the detect object) */
    /* byte variables, numbered per rule, stored as number + 1 (0: none): the ones the
     * option's fields name (see *_var_names in opt_eval.h), and the one it defines */
    uint8_t var[BYTE_VAR_FIELDS];
    uint8_t def;
    bool decoded;     /* in base64_data: after the run's PI_BASE64, on its decoded bytes */
};

/* One option unit: a match option, or a run of payload options that depend on each other
 * (an absolute one and the relative ones after it). Interned. The fields after app_neg are
 * one type's each (a union: its ops->key keys exactly those it reads; the ones before are
 * keyed for every unit by args.c). */
struct det_unit {
    const struct det_unit_ops *ops;           /* its type */
    uint8_t kind;
    uint16_t base;
    uint16_t ob;                              /* DK_APP: the parser buffer (registry id) */
    const struct det_xform *xf;               /* DK_APP: its transforms */
    bool or_absent;                           /* payload and buflen units after absent: or_else:
                                                 also holds when the buffer is missing */
    union {
        struct {                              /* appproto */
            struct osprey_app_proto_set app;  /* the protocols accepted */
            bool app_neg;                     /* app-layer-protocol:!x */
            uint8_t app_mode;                 /* DET_APP_* (app-layer-protocol's ,mode) */
        };
        struct {                              /* payload */
            uint32_t n;                       /* items */
            const struct det_pitem *items;
        };
        const struct opt_flow *flow;          /* flow */
        struct {                              /* dsize, hdr, buflen, field, streamsize */
            const struct opt_cmp *cmp;
            int field;                        /* hdr: HF_*; field: the parsers' field id
                                                 (osprey_field_find) */
        };
        struct tcpflags tf;                   /* tcpflags, fragbits */
        uint16_t ipopt;                       /* ipopts: option type or IPOPT_ANY */
        struct ipproto ipp;                   /* ipproto */
        struct {                              /* geoip, with the database */
            const struct opt_geoip *geo;
            const struct osprey_geoip *geodb;
        };
        const struct opt_pktprop *pp;         /* pktprop */
        const struct opt_event *event;        /* event */
        const struct det_tls *tls;            /* tls (owned by the detect object) */
        const struct det_dce *dce;            /* dce (owned by the detect object) */
        const struct opt_file *file;          /* file: filename … filesha256 (unit_file.c) */
        const struct opt_field_index *fidx;   /* field_index (ldap.responses.*) */
        const struct opt_krb5_enc *kenc;      /* krb5_enc (krb5.ticket_encryption) */
        const struct opt_field_set *fset;     /* field_set (sip_method, sip_stat_code) */
        const struct opt_rpc *rpc;            /* rpc (unit_rpc.c) */
        struct {                              /* lua: the script, for this rule only */
            const struct opt_lua *lua;
            const struct osprey_rule *lua_rule;
        };
        struct {                              /* dataset, with its set */
            const struct opt_dataset *ds;
            struct det_dataset *set;
            uint8_t addr;                     /* on ip.src (1), ip.dst (2) */
        };
    };
};

/* app-layer-protocol's mode: which of the flow's protocols it compares. FINAL (also no mode)
 * the flow's current one, as Suricata names it (osprey_parsers_app_proto_named: doh2 …);
 * ORIGINAL the one before a protocol change (h2c, STARTTLS, doh2), else the current one;
 * EITHER any of those and each direction's; TO_SERVER / TO_CLIENT what that direction's own
 * detection found (osprey_parsers_app_proto_dir: a client talking HTTP to an SSH server);
 * DIRECTION the packet's direction's. */
enum { DET_APP_FINAL, DET_APP_ORIGINAL, DET_APP_EITHER, DET_APP_TO_SERVER, DET_APP_TO_CLIENT,
       DET_APP_DIRECTION };

/* Does the run match the buffer? buf[0..len) holds its bytes from position origin on (a
 * stream window; 0 for whole buffers). md: the worker's pcre2 match data. */
bool det_payload_match(const struct det_unit *u, const uint8_t *buf, uint32_t len,
                       uint64_t origin, void *md, struct det_caps **caps);

/* A flowbits action (set, unset, toggle) run when the rule matches. */
struct det_bits_action {
    const struct opt_bits *b;
    const uint32_t *ids;
};

/* ---- xbits and flowint (xstate.c) ---- */
struct det_who {                /* the addresses an xbits track names */
    uint8_t src[16], dst[16];
};
struct det_xbits;               /* a worker's table */
struct det_xbits *det_xbits_create(void);
void det_xbits_free(struct det_xbits *t);
uint64_t det_xbits_dropped(const struct det_xbits *t);
/* isset / isnotset */
bool det_xbits_test(struct det_xbits *t, const struct opt_bits *b, const uint32_t *ids,
                    const struct det_who *who, uint64_t now_us);
/* set / unset / toggle (expire: the option's, else 30 s) */
void det_xbits_apply(struct det_xbits *t, const struct opt_bits *b, const uint32_t *ids,
                     const struct det_who *who, uint64_t now_us);
/* ---- tag (tag.c) ---- */
struct det_tag_state {          /* one tag's allowance: packets or bytes left, or a deadline */
    uint8_t metric;             /* enum tag_metric */
    uint64_t left, until_us;
};
struct det_tags;                /* a worker's host tags */
struct det_tags *det_tags_create(void);
void det_tags_free(struct det_tags *t);
uint64_t det_tags_dropped(const struct det_tags *t);
/* A tagging rule alerted on p: start (or extend) its session tag (session: the flow's state,
 * NULL without a flow) or host tag. */
void det_tag_start(struct det_tags *t, struct det_tag_state *session, const struct opt_tag *o,
                   const struct mon_packet *p);
/* Is p tagged (its flow's session tag, or a host tag of its source or destination)? Uses up
 * one packet of each tag it falls under. */
bool det_tag_packet(struct det_tags *t, struct det_tag_state *session,
                    const struct mon_packet *p);

struct det_flowint {
    const struct opt_flowint *arg;
    uint32_t id, value_id;      /* variable numbers: its own, and value_var's */
};
struct det_flow;
/* One flowint option, in rule order: an action (=, +, -) is done and holds; a condition
 * says whether it holds. */
bool det_flowint_run(const struct det_flowint *fi, struct det_flow *df, uint32_t nints);

/* Where a rule's match goes in a packet's commit (runtime.c): Suricata's signature order,
 * action first (pass, drop, reject, alert), then flowbits (setters before readers). */
enum det_order_action { DO_PASS, DO_DROP, DO_REJECT, DO_ALERT };
enum det_order_bits { DOB_SET, DOB_SET_READ, DOB_READ, DOB_NONE };

/* a TCP payload rule's stream and packet chains; a packet rule's chain and its app_detected
 * one (PV_DETECTED): the same rule matches a packet once through either */
enum det_twin { DET_TWIN_NONE, DET_TWIN_STREAM, DET_TWIN_PACKET, DET_TWIN_DETECTED };

#define DET_MAX_CAP_UNITS 4
struct det_rule {
    const struct det_unit *capu[DET_MAX_CAP_UNITS]; /* its payload units with captures */
    uint8_t ncapu;
    const struct osprey_rule *rule;
    uint32_t *prof_ids;                   /* profiling: its chain's unit slots, in order */
    uint32_t nprof;
    const struct opt_threshold *thr[2];   /* threshold, detection_filter (NULL = none) */
    struct det_bits_action *bits;
    uint32_t nbits;
    struct det_bits_action *conds;        /* flowbits isset/isnotset: tested at commit time,
                                             after the same packet's setters ran */
    uint32_t nconds;
    struct det_bits_action *xbits;        /* xbits options, in rule order */
    uint32_t nxbits;
    struct det_flowint *ints;             /* flowint options, in rule order */
    uint32_t nints;
    const struct opt_tag **tags;          /* tag options: started when the rule alerts */
    uint32_t ntags;
    uint8_t order_action, order_bits;     /* enum det_order_action, det_order_bits */
    bool noalert;                         /* flowbits:noalert: matches, never alerts */
    const struct opt_filestore *filestore; /* filestore: its files are stored when it matches */
    bool pass_alerts;                     /* `alert`: a pass rule that alerts too */
    bool flow_action;                     /* its drop or pass is the flow's, not the packet's:
                                             Suricata's action scope (stream and app rules,
                                             and packet rules with no option to evaluate,
                                             its IP-only kind); other packet rules' (and
                                             TCP rules' packet twins') their packet's only */
    bool suppressed;                      /* threshold.config: suppress without ip */
    struct det_suppress *sup;             /* threshold.config: suppress by_src/dst ip */
    uint32_t nsup;
    const struct det_rate *rate;          /* threshold.config: rate_filter (NULL = none) */
    const char *category;
    int severity;
    uint32_t nmeta;
    struct osprey_detect_meta *meta;
    uint8_t kind;
    uint16_t base;
    uint8_t twin;                         /* enum det_twin: a TCP rule's stream or packet
                                             chain; the rule matches a packet once through
                                             either */
    bool pkt_required;                    /* plan.h: a packet twin Suricata runs on every
                                             packet added to the stream */
    uint32_t idx;
    uint32_t rule_idx;                    /* idx of the rule's first chain: thresholds of
                                             its two chains count together */
    mon_event_t leaf;
    uint32_t chain_len;
    const struct det_unit **late;         /* behind a flowbits gate (compile.c gate_eligible):
                                             the chain's units, run at commit when the gate
                                             deferred the rule; NULL: no gate */
    uint32_t nlate;
    const char *fp_why;                   /* why its fast pattern is that one (--explain) */
    uint8_t fw_table;                     /* enum det_fw_table: a firewall rule's (FW_NONE) */
    uint8_t fw_dir, fw_rank;              /* FW_APP: its protocol state (firewall.h) */
    uint16_t fw_proto;
};

/* threshold.config `rate_filter`: after more than count matches in seconds (per tracked key),
 * the rule's action becomes new_action for timeout seconds. */
struct det_rate {
    uint8_t track;                 /* enum thr_track */
    uint32_t count, seconds, timeout;
    enum osprey_rule_action new_action;
};
struct det_thr_table;
/* The action of this match (threshold.c). */
enum osprey_rule_action det_rate_action(struct det_thr_table *t, const struct det_rule *dr,
                                        const struct mon_packet *p, const struct mon_flow *f);

/* threshold.config `suppress …, track by_src|by_dst|by_either, ip LIST` (one network). */
struct det_suppress {
    uint8_t track;        /* 0 by_src, 1 by_dst, 2 by_either */
    uint8_t ipver, prefix;
    uint8_t net[16];
};
/* Keep p until the detect object is freed (frees p and returns -1 when out of memory;
 * owned.c). */
int det_own(struct osprey_detect *d, void *p);
/* Apply threshold.config to the compiled rules (thresh_conf.c). */
int det_threshold_config(struct osprey_detect *d, FILE *diag);
bool det_suppressed(const struct det_rule *dr, const struct mon_packet *p);

/* A UDE the compiler defined, for --dump-chains and --explain. */
struct det_node {
    mon_event_t ev, parent;
    char *label;
    mon_filter_fn fn;           /* its filter (NULL: a child a multi-event filter raises) */
    const void *arg;            /* the filter's argument (a det_unit for det_unit_filter) */
};

/* The commit barrier: an always-true UDE under a base event that libmon walks last
 * (mon_define_last_event), so its handler runs after every rule leaf of the phase, however
 * deep: that is where the phase's matches are committed. */
bool det_barrier_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                        void *arg);

/* The root of the packet chains, under PKT_IN (always true): a UDE, so that a TCP packet
 * libmon reports as ORPHAN (its connection was never picked up) still runs the packet rules
 * through mon_run_event, as Suricata inspects every packet. */
bool det_pkt_root_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                         void *arg);

struct osprey_detect {
    bool prof;                       /* profiling.rules.enabled (profile.c) */
    bool labels;                     /* each UDE's label kept (det_node.label): --dump-chains,
                                        --explain; else NULL (16 MB with ET Open) */
    struct det_prof_unit **prof_map; /* profile slots by unit (compile time) */
    uint32_t prof_cap, nprof_units;
    char *mpm_cache;                 /* opts->mpm_cache_dir, owned */
    const struct osprey_ruleset *rs;
    bool pkt_root;                   /* base_ev[DB_PKT] is the packet root UDE */
    bool stream_root;                /* base_ev[DB_STREAM] is the stream root UDE (a UDE, so
                                        that ORPHAN can run it on a packet's payload) */
    uint16_t nbases;                 /* det_nbases(): the arrays below */
    mon_event_t *barrier;            /* commit barrier leaf per base (0 = none) */
    uint32_t *base_rules;            /* rules per base */
    mon_event_t *base_ev;            /* the base events (app ones from the parsers) */
    const struct osprey_parsers *parsers; /* NULL: application-layer rules are not compiled */
    bool *ob_multi;                  /* parser buffer id → a multi-buffer? (det_app_multi: one
                                        load on the packet path, not a registry walk) */
    uint16_t nob;
    int dce_proto, dce_le_field;     /* DCERPC's app id and its little_endian field (-1: none),
                                        looked up once per ruleset for byte_* dce (dce_units.c) */
    struct osprey_geoip *geoip;           /* geoip-database; NULL: geoip: rules not compiled */
    struct det_mpm mpm[DK__COUNT];
    struct det_mpm **app_mpm;        /* DK_APP: one per (base, buffer, transforms) */
    uint32_t napp_mpm;
    bool app_raw;                    /* application rules inspect the stream too */
    struct det_xform **xfs;          /* transform chains in use */
    uint32_t nxfs;
    struct det_hdx *hdx;             /* per base */
    uint16_t nhdx_slots;             /* header dispatchers defined: det_flow.hc's size */
    struct det_rule *rules;
    uint32_t nrules;
    struct det_node *nodes;
    uint32_t nnodes, cap_nodes;
    uint8_t *noted;             /* per event id: in nodes already */
    uint32_t cap_noted;
    void **owned;               /* interned arguments and labels to free */
    uint32_t nowned, cap_owned;
    const char **bit_names;     /* flowbit names; a name's index is its bit */
    uint32_t nbit_names, cap_bit_names;
    const char **int_names;     /* flowint names; a name's index is its variable */
    uint32_t nint_names, cap_int_names;
    bool has_xbits;
    bool has_tags;
    bool has_thresholds;
    bool has_pkt_required;      /* a packet twin with pkt_required: under ack delivery each
                                   connection packet's payload is scanned on arrival */
    bool arrival_unprefiltered; /* such a twin without a fast pattern (stream_size alone):
                                   its chain runs on every arrival, found pattern or not */
    bool has_caps;                   /* a pcre captures into variables (captures.c) */
    bool hold_alerts;                /* a pass rule or a rate_filter: alerts wait for the
                                        packet's end (held.c) */
    struct det_thr_table *thr;       /* one for all workers (threshold.c) */
    struct det_fw *fw;               /* the firewall rules' tables, NULL: none (firewall.h) */
    struct det_datasets *datasets;  /* dataset/datarep sets (dataset.c), made on first use */
    unsigned file_flags;            /* OSPREY_FILES_* the rules need (osprey_detect_file_flags) */
    bool datasets_disabled;         /* osprey_detect_opts' datasets settings */
    uint64_t dataset_memcap;
    uint32_t dataset_hashsize;
    void **codes;               /* compiled regexes */
    uint32_t ncodes, cap_codes;
    struct osprey_detect_stats stats;
    struct det_explain *explain;     /* --explain SID: its chains, traced (explain.c); NULL */
};

/* ---- engine events: decode-event, stream-event (events.c) ---- */
/* The unit of an event option and the base its rule needs: DB_DECODE (decoder events: the
 * packets that carry them mostly have no flow), DB_APP_EVENT (application-layer events),
 * DB_PKT_RCV (stream events: packet rules after the receiver update). NULL, or why not
 * compiled. */
const char *det_event_unit(const struct opt_event *ev, struct det_unit *u, uint16_t *base);
/* Whether a rule on event base `base` can run its other options: NULL, or why not (payload
 * options, application buffers, packet-only options beside an application-layer event, an
 * application-layer event without the parsers). */
const char *det_event_base_check(const struct osprey_detect *d, uint16_t base, uint32_t nitems,
                                 uint16_t app_base, bool packet_only);
/* event: does the packet being inspected carry the event? */
bool det_event_match(struct mon_ctx *ctx, struct mon_flow *f, const struct det_unit *u);
struct osprey_detect_worker;
/* Register the leaves of the decoder-event rules (their matches may have no flow state to
 * find the worker through); 0 or -1. The arguments are freed by det_events_detach. */
int det_events_attach(struct osprey_detect_worker *w);
void det_events_detach(struct osprey_detect_worker *w);

/* ---- the pending matches (pending.c) ---- */
/* The first handler of a packet's walk starts its verdict clean (once per packet). */
void det_new_packet(struct osprey_detect_worker *w);
/* A match reached its leaf: it waits for the phase's commit (runtime.c). */
void det_add_pending(struct osprey_detect_worker *w, const struct det_rule *dr,
                     struct mon_flow *f, int side, bool deferred);

/* Filters (filters.c). */
bool det_mpm_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg);
bool det_hdx_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                    void *arg);
bool det_header_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                       void *arg);
bool det_unit_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg);
/* The flowbits gate of a rule (arg: its det_rule): passes when its bits are set now, else
 * defers the rule to the commit (pending.c) and stops the chain. */
bool det_gate_filter(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev,
                     void *arg);


#include "runtime.h" /* stream sides, flows, pending matches, the worker */

/* ---- application layer (app.c) ---- */
/* The parser buffer (registry id) a rule buffer means and the base event that fills it, for
 * a rule that inspects to the server (to_client false) or to the client. -1: no parser has
 * it. */
int det_app_buffer_of(unsigned rule_buffer, bool to_client, uint16_t *ob, uint16_t *base);
/* The same for a rule whose header names application protocol app (0: none): that
 * protocol's row of a name several register (file.data: HTTP's, ftp-data's). */
int det_app_buffer_of_in(unsigned rule_buffer, bool to_client, uint16_t app, uint16_t *ob,
                         uint16_t *base);
/* Whether a rule buffer means another parser buffer in the response than in the request
 * (http.header, file_data …): a rule that names no direction inspects both. */
bool det_app_buffer_two_sided(unsigned rule_buffer);
/* Whether option i of r inspects the response: to_client (the rule's direction) except in a
 * => rule, where the sticky buffer's to_client / to_server argument picks the side of a
 * buffer both messages have (the request's without one). */
bool det_app_opt_to_client(const struct osprey_rule *r, uint32_t i, bool to_client);
/* The application protocol (registry id) of a header protocol word, 0 if none; *l4 gets the
 * transport (6, 17 or 0 = either). */
uint16_t det_app_proto_of(const char *proto, uint8_t *l4);
/* The application protocol of an application base. */
static inline uint16_t det_base_proto(uint16_t base)
{
    return osprey_event_proto(det_base_event(base));
}
/* The last event of base's message: the events of a protocol are listed in the order a
 * transaction reaches them, so it is the last of the run of events with base's protocol and
 * direction (http_request_body -> http_request_done). `absent` runs there: only then is a
 * buffer known to be missing. */
uint16_t det_app_base_last_of_message(uint16_t base);
/* Can the compiler apply this transform keyword? */
bool det_xform_supported(const char *keyword);
/* The application buffer ob as transformed by xf, NULL when the parser has none now. The
 * result lives until the next call with the same slot (0: filters of the mpm, 1: units). */
#define DET_OB_RAW 0xffff /* in an application rule: the packet payload (UDP) or the stream
                           * of the event's direction (TCP), as Suricata's unmodified contents */
const uint8_t *det_app_buffer(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                              struct mon_flow *f, uint16_t base, uint16_t ob,
                              const struct det_xform *xf, int slot, uint32_t *len,
                              uint64_t *origin);
/* The rule buffer whose events a match keyword inspects, as its keyword row says
 * (opt_def.buffer: urilen the URI's, a keyword on a parsers' field its protocol's message),
 * BUF_COUNT for the other keywords. */
struct opt_def;
unsigned det_app_match_buffer(const struct opt_def *def);

/* ---- Lua (unit_lua.c) ---- */
/* luaxform: b[0..n) through the script of arg (struct opt_lua) in w's state of it, into
 * out (cap bytes); 0, or -1 when the run failed (counted in w->lua_stats). */
int det_lua_xform(struct osprey_detect_worker *w, const void *arg, const uint8_t *b, uint32_t n,
                  uint8_t *out, uint32_t cap, uint32_t *outlen);
void det_lua_states_free(struct det_lua_states *s);
/* w's state of script s, made on first use (NULL: out of memory), with its last run: a TCP
 * rule's stream and packet chains both reach the script on the same packet, which runs it
 * once (Suricata runs it once per packet). lua_states.c. */
struct det_lua_entry {
    const struct rlua_script *s;
    struct rlua_state *st;
    const struct osprey_rule *rule; /* the last run: its rule, packet and result */
    uint64_t pkt;
    bool res;
};
struct det_lua_entry *det_lua_entry(struct osprey_detect_worker *w, const struct rlua_script *s);
/* Flow variables by name, for the scripts (captures.c): a flow's variable (NULL: unset) and
 * setting one (false when out of memory). */
const uint8_t *det_flowvar_get(struct det_flow *df, const char *name, uint32_t *len);
bool det_flowvar_set(struct det_flow *df, const char *name, const uint8_t *v, uint32_t len);
/* flowint variables by name (xstate.c): the variable number of a name in use (false: no
 * rule or script uses it), a flow's value (false: unset) and setting it. */
bool det_flowint_find(const struct osprey_detect *d, const char *name, uint32_t *id);
bool det_flowint_get(struct det_flow *df, uint32_t id, int64_t *out);
bool det_flowint_set(struct det_flow *df, uint32_t id, int64_t v);
/* The variable number of a flowint name, made on first use (plan_state.c); -1 out of
 * memory. */
int det_flowint_id(struct osprey_detect *d, const char *name, uint32_t *id);

/* b (n bytes) through the transforms xf (NULL: b itself), in the worker's slot. */
const uint8_t *det_app_xform(struct osprey_detect_worker *w, const struct det_xform *xf,
                             int slot, const uint8_t *b, uint32_t n, uint32_t *len);

/* Do options from and to of r inspect the same instance of a multi-buffer (no sticky buffer
 * keyword between them)? `dns.query; content:"a"; dns.query; content:"b";` names two
 * instances, which may match two different elements (multibuf.c). */
bool det_multi_same_instance(const struct osprey_rule *r, uint32_t from, uint32_t to);

/* Element i of ob (Suricata's multiple buffer matching: tls.certs, tls.alpn,
 * tls.subjectaltname, http.request_header, dns.*.rrname …): a content run or bsize on a
 * multi-buffer holds when it holds within one element, the fast pattern is looked for in each.
 * Other buffers have element 0 only. NULL past the last one. */
const uint8_t *det_app_buffer_at(struct osprey_detect_worker *w, struct mon_ctx *ctx,
                                 struct mon_flow *f, uint16_t base, uint16_t ob,
                                 const struct det_xform *xf, int slot, uint32_t i,
                                 uint32_t *len, uint64_t *origin);
/* Is ob a multi-buffer (a content list must match within one of its elements)? */
bool det_app_multi(const struct osprey_detect *d, uint16_t ob);
/* The rule direction a buffer implies: 1 to server, 2 to client, 0 none (either side: the
 * buffer is two-sided, or its protocol's buffers imply no direction, as HTTP's and DNS's). */
int det_app_buffer_side(unsigned rule_buffer);
/* The one stored transform chain with these keyword ids, arguments as written and parsed
 * (owned by d); NULL: out of memory or a bad argument. */
const struct det_xform *det_xform_intern(struct osprey_detect *d, const uint16_t *kw,
                                         const char *const *val, const void *const *arg,
                                         uint32_t n);
void det_xform_free(struct det_xform *x);
/* The base event's name, for --dump-chains. */
const char *det_base_name(uint16_t base);
/* A parser buffer's name, for --dump-chains. */
const char *det_ob_name(uint16_t ob);

#endif
