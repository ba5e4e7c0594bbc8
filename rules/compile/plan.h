/* plan.h — one rule's compile plan: its base (packet or stream), its options grouped into
 * units in rule order, its fast pattern, byte variables, flowbits and thresholds. */
#ifndef OSPREY_DETECT_PLAN_H
#define OSPREY_DETECT_PLAN_H

#include "detect_int.h"

/* One unit of a rule being compiled, with the option indexes it covers (for its label). */
struct unit_plan {
    struct det_unit u;
    uint32_t first_opt, last_opt;  /* PLAN_HEADER: implied by the rule header (no option) */
};
#define PLAN_HEADER UINT32_MAX

struct plan {
    const char *why;               /* not compiled: this */
    const struct osprey_rule_option *why_opt;
    uint8_t kind, proto;
    uint16_t base;
    uint16_t app;                  /* application protocol of the header (0: none) */
    uint16_t buf_app;              /* the protocol whose buffers it reads (0: the first that
                                      registers each name) */
    const struct opt_content *fp;  /* fast pattern, NULL = none */
    const char *fp_why;            /* why that one (--explain); static text */
    uint16_t fp_ob;                /* DK_APP: the fast pattern's buffer and transforms */
    const struct det_xform *fp_xf;
    struct unit_plan *units;
    uint32_t nunits;
    struct det_pitem *items;       /* all payload options, in order (units point into it) */
    uint32_t nitems;
    const struct opt_threshold *thr[2];
    struct det_bits_action *bits;  /* flowbits actions */
    uint32_t nbits;
    struct det_bits_action *conds; /* flowbits isset / isnotset */
    uint32_t nconds;
    struct det_bits_action *xbits; /* xbits, in rule order */
    uint32_t nxbits;
    struct det_flowint *ints;      /* flowint, in rule order */
    uint32_t nints;
    bool noalert;
    const struct opt_filestore *filestore; /* the filestore keyword's */
    bool filestore_file;           /* filestore alone: a file rule (plan.c filestore_file_rule) */
    bool pass_alerts;              /* the `alert` keyword: a pass rule that alerts too */
    bool two_sided;                /* no direction, a buffer with a response side: the
                                      rule is compiled again as PV_RESPONSE */
    bool also_packet;              /* a TCP stream rule: compiled again as PV_PACKET */
    bool pkt_required;             /* a payload content with depth/offset (startswith), or
                                      stream_size: Suricata's SIG_FLAG_REQUIRE_PACKET, its
                                      packet payload inspected on every packet (ack delivery:
                                      on arrival, detect_int.h det_chain_off) */
    uint8_t fw_table;              /* a firewall rule's table (firewall.h), FW_NONE */
    uint8_t fw_dir, fw_rank;       /* FW_APP: its protocol state */
    uint8_t flow_dirs;             /* DET_DIR_*: the flow directions its `flow` allows (the
                                      packet and stream fast-pattern groups, mpm_group.c) */
};

/* Which of a rule's chains a plan is for. A rule has one chain, or two: a TCP payload rule
 * inspects the reassembled stream and each packet's payload (PV_PACKET); an application rule
 * that names no direction inspects its two-sided buffers in the request and the response
 * (PV_RESPONSE). */
/* PV_DETECTED: a packet rule whose header names an application protocol, run again where
 * the flow's protocol is decided (the parsers' app_detected), on the packet that decided it */
enum plan_variant { PV_MAIN, PV_RESPONSE, PV_PACKET, PV_DETECTED };

/* Split a rule into units; decide base and fast pattern. plan->units/items/bits/conds
 * are malloc'd. variant: which of the rule's chains. app_as: 0, or a protocol that also runs
 * the rule (osprey_app_proto_rules_of): compiled for its flows and buffers. Returns -1 on
 * allocation failure; a rule that cannot be compiled has pl->why. */
int make_plan(struct osprey_detect *d, const struct osprey_rule *r, enum plan_variant variant,
              uint16_t app_as, struct plan *pl);
/* Snort 3's service list of a rule whose header names no application protocol (NULL: none);
 * whether protocol p registers every application buffer the rule inspects (false when it
 * inspects none); the protocol its first compile reads them in (0: the default, the first
 * registering them, when that one is listed). */
const struct opt_words *plan_service_words(const struct osprey_rule *r);
bool plan_registers_buffers(const struct osprey_rule *r, uint16_t p);
uint16_t plan_service_proto(const struct osprey_rule *r);
/* Release what make_plan allocated (whatever it returned). */
void plan_free(struct plan *pl);

/* ---- keyword plan functions: how one option becomes part of the plan ----
 * make_plan walks the rule's options; each one that is not a modifier, a sticky buffer or a
 * transform goes to its keyword's plan function (plan_table.c): it adds units
 * (plan_add_unit), payload items, flowbits, thresholds … to ctx->pl, or sets ctx->pl->why
 * (the rule is not compiled; the option is blamed). */
struct plan_ctx {
    struct osprey_detect *d;
    const struct osprey_rule *r;
    struct plan *pl;
    enum plan_variant variant;
    uint32_t i;                         /* the option being planned */
    const struct osprey_rule_option *o;
    const char *name;                   /* its keyword */
    uint16_t app_base;                  /* the application event the buffers need (DB_PKT:
                                           none) */
    bool to_client;                     /* the rule inspects responses */
    int side;                           /* direction for the TLS units: 0 either, 1 to
                                           server, 2 to client */
    bool has_vars;                      /* byte_extract/byte_math: one payload run */
    const char *vnames[BYTE_MAX_VARS];  /* byte variables, numbered per rule */
    uint32_t nvars, var_unit[BYTE_MAX_VARS];
    struct det_unit or_else[8];         /* the buffers of absent: or_else (ob, xf) */
    uint32_t nor_else;
    bool packet_only;                   /* a packet-only option (dsize, header fields …); a
                                           unit whose ops say packet_only sets it too */
    bool no_stream, only_stream;        /* flow:no_stream / only_stream (and tcp-pkt, …) */
    uint16_t ev_base;                   /* decoder/stream/app-layer event rules: their base */
};
/* 0 (ctx->pl->why set when the rule cannot be compiled), -1 when out of memory. */
typedef int (*plan_fn)(struct plan_ctx *ctx);

/* The plan function of a keyword (plan_table.c), NULL: not compiled yet. */
plan_fn plan_fn_of(const char *keyword);
/* The same by keyword id (osprey_rule_option.kw), in one load. */
plan_fn plan_fn_of_kw(size_t kw);
/* The table's i-th keyword (NULL past the end): for its tests. */
const char *plan_table_name(size_t i);

/* Shared by the plan functions (plan_ctx.c). */
/* Append unit u for the option being planned. */
void plan_add_unit(struct plan_ctx *ctx, struct det_unit u);
/* The option's parser buffer and transforms (interned); DET_OB_RAW when it inspects the
 * packet/stream. -1: out of memory. */
int plan_app_buffer(struct plan_ctx *ctx, uint16_t *ob, const struct det_xform **xf);

/* The keywords' plan functions, by family (named in plan_table.c). */
int plan_lua(struct plan_ctx *ctx);             /* unit_lua.c: lua, luajit */
int plan_meta(struct plan_ctx *ctx);             /* plan_state.c: nothing to evaluate */
int plan_threshold(struct plan_ctx *ctx);
int plan_flowbits(struct plan_ctx *ctx);
int plan_xbits(struct plan_ctx *ctx);            /* xbits, hostbits */
int plan_flowint(struct plan_ctx *ctx);
int plan_noalert(struct plan_ctx *ctx);
int plan_alert(struct plan_ctx *ctx);
int plan_content(struct plan_ctx *ctx);          /* plan_payload.c */
int plan_pcre(struct plan_ctx *ctx);
int plan_isdataat(struct plan_ctx *ctx);
int plan_entropy(struct plan_ctx *ctx);
int plan_base64_decode(struct plan_ctx *ctx);
int plan_byte(struct plan_ctx *ctx);             /* byte_test, _jump, _extract, _math */
int plan_asn1(struct plan_ctx *ctx);
int plan_flow(struct plan_ctx *ctx);             /* plan_pkt.c */
int plan_dsize(struct plan_ctx *ctx);
int plan_hdr_field(struct plan_ctx *ctx);        /* ttl, itype, seq … */
int plan_geoip(struct plan_ctx *ctx);
int plan_ip_proto(struct plan_ctx *ctx);
int plan_sameip(struct plan_ctx *ctx);
int plan_rpc(struct plan_ctx *ctx);          /* unit_rpc.c */
int plan_pktprop(struct plan_ctx *ctx);          /* tcp.mss, vlan.id, flow.pkts … */
int plan_tcpflags(struct plan_ctx *ctx);         /* flags, tcp.flags */
int plan_fragbits(struct plan_ctx *ctx);
int plan_ipopts(struct plan_ctx *ctx);
int plan_stream_size(struct plan_ctx *ctx);
int plan_buflen(struct plan_ctx *ctx);           /* plan_app.c: urilen, bsize, bufferlen */
int plan_absent(struct plan_ctx *ctx);
int plan_dataset(struct plan_ctx *ctx);          /* dataset, datarep */
int plan_dns_field(struct plan_ctx *ctx); /* dns.opcode … ftp.mode: a parsers field */
int plan_ftpbounce(struct plan_ctx *ctx);
int plan_field_index(struct plan_ctx *ctx);       /* ldap.responses.* (unit_fields.c) */
int plan_krb5_enc(struct plan_ctx *ctx);          /* krb5.ticket_encryption */
int plan_ike_attr(struct plan_ctx *ctx);          /* ike.chosen_sa_attribute */
int plan_field_set(struct plan_ctx *ctx);         /* sip_method, sip_stat_code */
int plan_fields(struct plan_ctx *ctx);            /* plan_ics.c: modbus */
int plan_named_field(struct plan_ctx *ctx);       /* dnp3_*, enip_command, cip_service */
int plan_bufferlen_relative(struct plan_ctx *ctx); /* bufferlen:…,relative (plan_payload.c) */
int plan_ber(struct plan_ctx *ctx);               /* ber_data, ber_skip (plan_payload.c) */
int plan_event(struct plan_ctx *ctx);            /* decode-, stream-, app-layer-event */
int plan_tls(struct plan_ctx *ctx);              /* ssl_state, tls.version … */
int plan_dce(struct plan_ctx *ctx);              /* dce_iface, dce_opnum (dce_units.c) */
int plan_service(struct plan_ctx *ctx);          /* plan_proto.c */
int plan_app_layer_protocol(struct plan_ctx *ctx);
int plan_app_layer_state(struct plan_ctx *ctx);
/* Is the planned rule protocol-detection-only (plan_proto.c)? Then it runs under the
 * parsers' app_detected (DB_APP_DETECTED), once where the flow's protocol is decided. */
bool plan_pd_only(const struct plan *pl, const struct osprey_rule *r);
int plan_file(struct plan_ctx *ctx);             /* unit_file.c: filename … filesha256 */
int plan_filestore(struct plan_ctx *ctx);

/* How far into its buffer a match of the plan's fast pattern can end and still let the rule
 * match (plan_payload.c): an absolute content's offset + depth (startswith: its length), on a
 * packet also its largest dsize; UINT32_MAX when anywhere. */
uint32_t plan_fp_maxend(const struct plan *pl);

#endif
