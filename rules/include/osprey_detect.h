/* osprey_detect.h — accepted rules compiled into UDE chains on a libmon engine.
 *
 * Each rule becomes a chain of user-defined events (mOS §5.1):
 *
 *   base event ─ [fast-pattern hit] ─ header filter ─ option units in rule order ─ action
 *
 * base is MON_ON_PKT_IN (packet rules: non-TCP protocols, dsize, flow:no_stream, rules
 * without payload options), MON_ON_CONN_NEW_DATA (TCP rules with payload options: the
 * reassembled stream) or an application event of the parsers (rules on http.uri, dns.query,
 * tls.sni …: osprey_detect_opts.parsers). On one packet, the matches of a phase are committed
 * in Suricata's order (pass, drop, reject, alert; flowbit setters before readers). The
 * fast-pattern hit is a child event raised by one Hyperscan
 * multi-event filter per buffer kind, so each buffer is scanned once for every rule. An
 * "option unit" is one match-only option (flow, dsize …) or a run of payload options that
 * depend on each other (a content and the relative contents after it), evaluated together
 * so relative matches can backtrack. Identical (parent, filter, argument) triples are one
 * event: libmon dedups mon_define_event, and the compiler interns identical arguments.
 *
 * Lifetime: build on an unfrozen engine (it defines events), freeze the engine, then attach
 * one worker per mon_ctx. The compiled state is read-only after build; each worker owns its
 * Hyperscan scratch and per-flow state. Nothing here prints except through the FILE given.
 */
#ifndef OSPREY_DETECT_H
#define OSPREY_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mon.h"
#include "osprey_rules.h"

struct osprey_detect;
struct osprey_detect_worker;

/* One metadata key/value of a rule (Suricata groups them by key in EVE). */
struct osprey_detect_meta {
    const char *key, *value;
};

/* What an alert reports: the rule, and where it fired. Valid during the callback only. */
/* A value a pcre captured (Suricata's `(?P<flow_name>…)`, `, pkt:name` …): the flow's
 * variables and the packet's go into EVE's metadata.flowvars / metadata.pktvars, an alert
 * variable into the alert's context. */
enum osprey_var_scope { OSPREY_VAR_FLOW, OSPREY_VAR_PKT, OSPREY_VAR_ALERT };
struct osprey_detect_var {
    uint8_t scope;             /* enum osprey_var_scope */
    const char *name;
    const uint8_t *value;
    uint32_t len;
};

struct osprey_alert {
    const struct osprey_rule *rule;
    const char *category;      /* classtype description, "" without a classtype */
    int severity;              /* priority (rule, else classtype), 3 when neither gives one */
    uint32_t nmeta;
    const struct osprey_detect_meta *meta;
    const struct mon_packet *pkt; /* the packet being processed when it fired */
    struct mon_flow *flow;        /* NULL for a packet without a flow */
    bool to_server;               /* direction of the inspected data */
    bool from_stream;             /* matched on the reassembled stream */
    uint32_t nvars;               /* captured variables: the flow's, the packet's, this */
    const struct osprey_detect_var *vars; /* alert's (valid until the callback returns) */
    enum osprey_rule_action action; /* the rule's action: ALERT, LOG, DROP, REJECT* … (sdrop
                                       never reaches the callback; pass only with the rule's
                                       `alert` keyword) */
    bool firewall;                  /* a firewall rule's (EVE alert.engine "fw") */
};
typedef void (*osprey_alert_fn)(const struct osprey_alert *a, void *arg);

struct osprey_detect_stats {
    uint32_t rules;           /* accepted rules given */
    uint32_t compiled;        /* rules with a chain */
    uint32_t not_compiled;    /* rules the compiler refused (diagnostic printed) */
    uint32_t packet_rules, stream_rules;
    uint32_t app_rules;       /* rules on application-layer buffers (under parser events) */
    uint32_t fast_patterns;   /* distinct fast patterns (Hyperscan ids), all buffers */
    uint32_t ude_nodes;       /* distinct UDEs the rules defined (shared prefixes once) */
    uint32_t option_nodes;    /* sum over rules of their chain lengths (without sharing) */
    double compile_ms;
};

/* Compile every accepted rule of rs onto eng (not frozen). Rules the compiler cannot honour
 * completely (an application-layer protocol, a content in an HTTP buffer …) are skipped with
 * one line `file:line: sid N: not compiled: reason` on diag (may be NULL). Returns 0 or -1
 * (out of memory, Hyperscan error: explained on diag). rs must outlive *out. */
int osprey_detect_build(struct osprey_detect **out, struct mon_engine *eng,
                        const struct osprey_ruleset *rs, FILE *diag);

/* How the stream buffer's fast patterns are scanned (config key detect.stream-mpm).
 * BLOCK: each time a side's stream grows, a block-mode scan of the new bytes (plus the
 * longest pattern's length - 1 before them). STREAM: one Hyperscan stream per flow side,
 * fed only the new bytes, so nothing is scanned twice. Either way the rules' options are
 * verified on a window of the side's stream (the new bytes and 32 KiB before them), with
 * positions counted from the side's first byte, up to 256 KiB into it. */
enum osprey_stream_mpm { OSPREY_STREAM_MPM_BLOCK, OSPREY_STREAM_MPM_STREAM };
struct osprey_parsers;
struct osprey_detect_opts {
    enum osprey_stream_mpm stream_mpm;
    /* detect.sgh-mpm-caching-path when detect.sgh-mpm-caching is on, else NULL: compiled
     * fast-pattern databases are kept there and read back by later starts (mpm_cache.c) */
    const char *mpm_cache_dir;
    double mpm_cache_max_age; /* seconds; cache files unused this long are removed (0: kept) */
    /* profiling.rules.enabled: time and count each rule's option evaluations (a little slower) */
    bool profile_rules;
    /* pcre.match-limit, pcre.match-limit-recursion (0: PCRE2's): process-wide, set by the build */
    uint32_t pcre_match_limit, pcre_depth_limit;
    /* The application-layer parsers defined on the same engine (osprey_parsers_define, before
     * this build), or NULL: then rules on app-layer buffers or protocols (http.uri, alert
     * http …) are not compiled. Attach a parsers worker to each context before
     * osprey_detect_attach. */
    const struct osprey_parsers *parsers;
    /* geoip-database (a MaxMind .mmdb), or NULL/"": then rules with geoip: are not compiled.
     * Opened by the build, closed by osprey_detect_free. */
    const char *geoip_database;
    /* datasets (dataset/datarep rules): datasets.enabled (false: those rules are not
     * compiled), and a set's memcap and hashsize when its rule gives none (0: 16 MiB, 4096). */
    bool datasets_disabled;
    uint64_t dataset_memcap;
    uint32_t dataset_hashsize;
    /* `osprey --explain SID`: 0, or the sid of the rule to explain. Its chains are then
     * traced: on traffic, each step of them that fails, and each match's outcome at its
     * commit, is a line on explain_out (NULL: stdout). For one worker: lines of several
     * workers would interleave. profile_rules is ignored then. */
    uint32_t explain_sid;
    FILE *explain_out;
    /* Keep each UDE's label for osprey_detect_dump_chains (`-T --dump-chains`); --explain
     * keeps them anyway. Off, the build writes none (with ET Open: 16 MB less at startup).
     * A build without options keeps them. */
    bool labels;
    /* The configuration, for firewall mode's default policies (`firewall.policies.*`,
     * read when the ruleset has firewall rules), or NULL: the built-in defaults. */
    const struct osprey_config *config;
};
/* osprey_detect_build with options. NULL (and osprey_detect_build): block mode; osprey itself
 * passes the configuration's detect.stream-mpm, whose default is stream. */
int osprey_detect_build_opts(struct osprey_detect **out, struct mon_engine *eng,
                             const struct osprey_ruleset *rs, FILE *diag,
                             const struct osprey_detect_opts *opts);
/* "block" / "stream" → the mode; -1 for anything else. */
int osprey_detect_stream_mpm_parse(const char *s);
void osprey_detect_free(struct osprey_detect *d);
/* What the rules need of the parsers' files (OSPREY_FILES_*: hashes for filemd5 …, magic
 * for filemagic / file.magic, kept bytes for filestore), for osprey_parsers_set_files. */
unsigned osprey_detect_file_flags(const struct osprey_detect *d);
const struct osprey_detect_stats *osprey_detect_stats(const struct osprey_detect *d);

/* A dataset's values from outside the rules (Suricata's dataset-add/-remove/-lookup unix-socket
 * commands): set by name, type as Suricata spells it (string, md5, sha256, ipv4, ip), value as
 * in a dataset file (strings in base64). 1 added/removed/found, 0 already there/not there, -1
 * with why[] filled (no rule opened that set, another type, a bad value, the set's memcap).
 * Safe while workers match. */
enum osprey_dataset_op { OSPREY_DATASET_ADD, OSPREY_DATASET_REMOVE, OSPREY_DATASET_LOOKUP };
int osprey_detect_dataset(struct osprey_detect *d, enum osprey_dataset_op op, const char *set,
                          const char *type, const char *value, char *why, size_t whylen);

/* `osprey -T --dump-chains`: the forest, one line per UDE, indented under its parent (its
 * label: d built with osprey_detect_opts.labels, or without options; else "?"). */
void osprey_detect_dump_chains(const struct osprey_detect *d, FILE *out);
/* `osprey --explain SID` (d built with osprey_detect_opts.explain_sid): how that rule was
 * compiled — header, kind and base event, buffers, fast pattern and why, its chain(s) of UDEs
 * step by step, flowbits and thresholds — or the diagnostic that rejected it (loader) or left it
 * out (compiler). 0 when a rule with the sid was read, 1 when none was, -1 when d explains
 * nothing. */
int osprey_detect_explain(const struct osprey_detect *d, FILE *out);
/* After traffic went through a build that explains: how often the rule's chains stopped,
 * matched and took the rule's action (0; -1 when d explains nothing). */
int osprey_detect_explain_summary(const struct osprey_detect *d, FILE *out);

/* One worker per context (engine frozen): opens a stream socket over all traffic, registers
 * the chains' handlers and allocates the Hyperscan scratch. cb gets every alert. */
struct osprey_detect_worker *osprey_detect_attach(const struct osprey_detect *d,
                                                  struct mon_ctx *ctx, osprey_alert_fn cb,
                                                  void *arg);
/* Release a flow's detection state: call from the context's flow-end callback. */
void osprey_detect_flow_end(struct osprey_detect_worker *w, struct mon_flow *f);
/* profiling.rules.enabled: the top `limit` rules (all: 0) by the time their options took, as
 * JSON (Suricata's rule_perf.log fields: signature_id, gid, rev, checks, matches, ticks_total,
 * ticks_avg, percent; times in ns) and/or as text; the workers' counts are summed. */
int osprey_detect_profile_write(const struct osprey_detect *d,
                                struct osprey_detect_worker *const *w, int nw, int limit,
                                FILE *json, FILE *text);

/* pcre searches that gave up at pcre.match-limit / match-limit-recursion so far. */
uint64_t osprey_detect_pcre_limit_hits(void);

/* The flow's TCP connection closed (mon_set_conn_closed_cb): its stream windows and
 * Hyperscan streams go (no stream byte follows); the flow's other state stays. */
void osprey_detect_conn_closed(struct osprey_detect_worker *w, struct mon_flow *f);
/* Destroy after mon_ctx_destroy (whose flush ends every flow). */
void osprey_detect_worker_free(struct osprey_detect_worker *w);
uint64_t osprey_detect_worker_alerts(const struct osprey_detect_worker *w);

/* Per-packet verdict for inline mode, valid after mon_process() of a packet returns and reset
 * when the next packet enters detection (PKT_IN or ORPHAN; a fragment that defrag holds
 * raises neither: mon_process returned MON_DEC_FRAG_HELD and there is nothing to forward).
 * A packet is dropped when a drop, sdrop, reject* rule (or a rate_filter's new_action) matched
 * it (packet, stream or app-layer rule), or when it belongs to a flow such a rule
 * dropped earlier: subsequent packets of a dropped flow are dropped, and no longer inspected
 * (no more alerts from that flow), as in Suricata's IPS mode. Which matches drop the flow is
 * Suricata's action scope: stream and application rules, and packet rules with no option to
 * evaluate (IP-only); the other packet rules drop their packet only. In IDS mode nothing is dropped:
 * the caller just ignores the verdict (EVE then says "allowed"). */
bool osprey_detect_packet_dropped(const struct osprey_detect_worker *w);

/* The end of a packet: call after each mon_process (and after mon_flush). A ruleset with a
 * pass rule holds the packet's alerts until then, so that a pass rule a later phase of the
 * packet matches (its stream, its application events) still cancels the alerts and the drop
 * of the other rules, as Suricata resolves a packet's alerts by action priority (pass
 * first). The held alerts are given to the callback here (and at a flow's end, before its
 * state goes); the verdict above is final only after this call. */
void osprey_detect_packet_end(struct osprey_detect_worker *w);

/* Does the last packet fall under a tag (a tag:session of its flow, a tag:host of its source
 * or destination, started by an earlier alert)? Valid like the verdict above; the engine logs
 * such packets (EVE "packet" records). */
bool osprey_detect_packet_tagged(const struct osprey_detect_worker *w);

/* What a reject rule asks the inline engine to send for the last packet: nothing, a TCP RST
 * (TCP flows), or an ICMP destination unreachable (port unreachable; other protocols).
 * Only the packet that matched the reject rule gets one, not the flow's later packets. */
enum osprey_reject { OSPREY_REJECT_NONE, OSPREY_REJECT_RST, OSPREY_REJECT_ICMP };
/* Towards whom: reject/rejectsrc = the matching packet's source, rejectdst = its destination,
 * rejectboth = both. */
enum osprey_reject_to { OSPREY_REJECT_TO_SRC, OSPREY_REJECT_TO_DST, OSPREY_REJECT_TO_BOTH };
/* The reject kind of the last packet; *to (may be NULL) gets the direction. */
enum osprey_reject osprey_detect_packet_reject(const struct osprey_detect_worker *w,
                                               enum osprey_reject_to *to);
/* Counters of a worker's verdicts (packets dropped, of which by a flow already dropped;
 * flows passed by a pass rule or by the midstream policy; packets dropped by the midstream
 * policy, also counted in dropped). */
struct osprey_detect_verdicts {
    uint64_t dropped, dropped_flow, rejected, passed_flows;
    uint64_t midstream_passed, midstream_dropped;
    uint64_t memcap_exceptions; /* reassembly memcap hits the memcap policy acted on */
    /* firewall mode (firewall rules loaded): Suricata 8's firewall.* counters — packets the
     * firewall accepted and blocked, and why each blocked one was */
    bool firewall;
    uint64_t fw_accepted, fw_blocked;
    uint64_t fw_drop_rules, fw_drop_default_packet, fw_drop_default_app, fw_drop_pre_flow,
        fw_drop_pre_stream, fw_drop_flow;
};

/* What detection does with TCP sessions whose handshake was not seen (Suricata's
 * stream.midstream-policy once the engine resolved auto and the master switch), in
 * struct osprey_detect_policy:
 *   IGNORE     nothing special;
 *   PASS_FLOW  a session the stack picked up midstream (MON_TCPF_MIDSTREAM), or with
 *              midstream off one it never picked up (its ORPHAN packets, which the packet
 *              rules inspect otherwise), is not inspected at all, from its first packet;
 *   DROP_FLOW  every packet of a TCP flow the stack did not pick up (no SYN seen, midstream
 *              off: ORPHAN packets of a flow that never started) is dropped;
 *   REJECT     as DROP_FLOW, and the flow's first packet is also rejected (RST). */
enum osprey_midstream_policy {
    OSPREY_MIDSTREAM_IGNORE, OSPREY_MIDSTREAM_PASS_FLOW, OSPREY_MIDSTREAM_DROP_FLOW,
    OSPREY_MIDSTREAM_REJECT,
};
/* Suricata's exception policies for an exception in the middle of a flow (here: a side's
 * reassembly buffer could not be had for stream.reassembly.memcap, libmon's ERROR with
 * MON_ERR_MEMCAP). DROP_FLOW: that packet and the flow's later ones are dropped and no longer
 * inspected; REJECT: the same, and that packet is rejected (RST); DROP_PACKET: that packet
 * only; PASS_FLOW and BYPASS: the flow is no longer inspected, its packets go through;
 * PASS_PACKET and IGNORE: nothing. */
enum osprey_exception_policy {
    OSPREY_EXCEPTION_IGNORE, OSPREY_EXCEPTION_DROP_FLOW, OSPREY_EXCEPTION_DROP_PACKET,
    OSPREY_EXCEPTION_REJECT, OSPREY_EXCEPTION_BYPASS, OSPREY_EXCEPTION_PASS_FLOW,
    OSPREY_EXCEPTION_PASS_PACKET,
};
/* How a worker treats exceptions; all zero (IGNORE) is the default after attach. */
struct osprey_detect_policy {
    enum osprey_midstream_policy midstream;
    enum osprey_exception_policy reassembly_memcap; /* stream.reassembly.memcap-policy */
    bool ack_delivery; /* the stack delivers a side's bytes once acked (stream.inline: no, and
                          auto in IDS mode): a TCP rule's packet payload is inspected as the
                          packet arrives, for the rules Suricata inspects on every packet
                          (content depth/offset, stream_size), not at the later delivery */
    bool ips; /* IPS (inline): as Suricata's inline stream, a packet's data is parsed before
                 the packet is inspected, so a packet rule naming a protocol matches the
                 packet that lets the parser decide it (in IDS mode the packet that acks it) */
};
void osprey_detect_worker_set_policy(struct osprey_detect_worker *w,
                                     const struct osprey_detect_policy *p);
const struct osprey_detect_verdicts *osprey_detect_worker_verdicts(
    const struct osprey_detect_worker *w);

/* Memory of a worker's stream inspection: the bytes its flows' stream windows hold now and at
 * most, and (for comparison) what copies of every side's stream from its first byte, up to
 * the 256 KiB inspection cap, would have allocated (4 KiB doubled as needed) — the design
 * before the windows. */
struct osprey_detect_mem {
    uint64_t window_bytes, window_peak;
    uint64_t copy_bytes, copy_peak;
};
const struct osprey_detect_mem *osprey_detect_worker_mem(const struct osprey_detect_worker *w);

/* Lua rules (rules/lua/): a worker's failed script runs — all of them, and those that called a
 * blocked function, reached security.lua.max-instructions or max-bytes (Suricata's
 * stats.detect.lua.*). */
struct osprey_detect_lua {
    uint64_t errors, blocked_function_errors, instruction_limit_errors, memory_limit_errors;
};
const struct osprey_detect_lua *osprey_detect_worker_lua(const struct osprey_detect_worker *w);

/* The fast-pattern prefilter's work: buffers scanned (and their bytes), patterns found that
 * raised their rules, patterns found that no rule using them can match at the buffer's ports
 * (not raised), and the header checks of the rules raised, with how many passed — what
 * failed is the prefilter's false positives. */
struct osprey_detect_prefilter {
    uint64_t scans, bytes, raised, unwanted, header_checks, header_passed;
};
const struct osprey_detect_prefilter *osprey_detect_worker_prefilter(
    const struct osprey_detect_worker *w);

/* Load rules the way osprey does: -S files, or the configuration's rule-files. Rejected rules
 * are reported on diag. Returns 0, 1 when a file could not be read or no file was given (the
 * ruleset is still returned), -1 when out of memory. */
int osprey_detect_load_rules(const struct osprey_config *cfg, const char *const *files,
                             int nfiles, FILE *diag, struct osprey_ruleset **rs);

#endif
