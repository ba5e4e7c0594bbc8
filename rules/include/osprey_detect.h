/* osprey_detect.h — accepted rules compiled into UDE chains on a libmon engine.
 *
 * Each rule becomes a chain of user-defined events (mOS §5.1):
 *
 *   base event ─ [fast-pattern hit] ─ header filter ─ option units in rule order ─ action
 *
 * base is MON_ON_PKT_IN (packet rules: non-TCP protocols, dsize, flow:no_stream, rules
 * without payload options) or MON_ON_CONN_NEW_DATA (TCP rules with payload options: the
 * reassembled stream). The fast-pattern hit is a child event raised by one Hyperscan
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
};
typedef void (*osprey_alert_fn)(const struct osprey_alert *a, void *arg);

struct osprey_detect_stats {
    uint32_t rules;           /* accepted rules given */
    uint32_t compiled;        /* rules with a chain */
    uint32_t not_compiled;    /* rules the compiler refused (diagnostic printed) */
    uint32_t packet_rules, stream_rules;
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
 * fed only the new bytes, so nothing is scanned twice. Either way the side keeps its copy of
 * the stream (up to 256 KiB): the rules' options are verified on it. */
enum osprey_stream_mpm { OSPREY_STREAM_MPM_BLOCK, OSPREY_STREAM_MPM_STREAM };
struct osprey_detect_opts {
    enum osprey_stream_mpm stream_mpm;
};
/* osprey_detect_build with options. NULL (and osprey_detect_build): block mode; osprey itself
 * passes the configuration's detect.stream-mpm, whose default is stream. */
int osprey_detect_build_opts(struct osprey_detect **out, struct mon_engine *eng,
                             const struct osprey_ruleset *rs, FILE *diag,
                             const struct osprey_detect_opts *opts);
/* "block" / "stream" → the mode; -1 for anything else. */
int osprey_detect_stream_mpm_parse(const char *s);
void osprey_detect_free(struct osprey_detect *d);
const struct osprey_detect_stats *osprey_detect_stats(const struct osprey_detect *d);

/* `osprey -T --dump-chains`: the forest, one line per UDE, indented under its parent. */
void osprey_detect_dump_chains(const struct osprey_detect *d, FILE *out);

/* One worker per context (engine frozen): opens a stream socket over all traffic, registers
 * the chains' handlers and allocates the Hyperscan scratch. cb gets every alert. */
struct osprey_detect_worker *osprey_detect_attach(const struct osprey_detect *d,
                                                  struct mon_ctx *ctx, osprey_alert_fn cb,
                                                  void *arg);
/* Release a flow's detection state: call from the context's flow-end callback. */
void osprey_detect_flow_end(struct osprey_detect_worker *w, struct mon_flow *f);
/* Destroy after mon_ctx_destroy (whose flush ends every flow). */
void osprey_detect_worker_free(struct osprey_detect_worker *w);
uint64_t osprey_detect_worker_alerts(const struct osprey_detect_worker *w);

/* Load rules the way osprey does: -S files, or the configuration's rule-files. Rejected rules
 * are reported on diag. Returns 0, 1 when a file could not be read or no file was given (the
 * ruleset is still returned), -1 when out of memory. */
int osprey_detect_load_rules(const struct osprey_config *cfg, const char *const *files,
                             int nfiles, FILE *diag, struct osprey_ruleset **rs);

#endif
