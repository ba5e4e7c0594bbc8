/* ruleset.h — the ruleset object shared by the loader, the rule parser and the reports. */
#ifndef RULES_RULESET_H
#define RULES_RULESET_H

#include <stdbool.h>
#include <stdint.h>

#include "rlua.h"
#include "arena.h"
#include "osprey_rules.h"
#include "registry.h"
#include "rule.h"
#include "vars.h"

struct classtype {
    const char *name, *desc;
    int32_t priority;
};

struct refsys {
    const char *name, *url;
};

/* One line of threshold.config. */
enum thr_kind { TC_THRESHOLD, TC_SUPPRESS, TC_RATE_FILTER, TC_EVENT_FILTER };
struct thr_entry {
    uint8_t kind;  /* enum thr_kind */
    uint8_t type;  /* threshold/event_filter: enum thr_type (opt_args.h) */
    uint8_t track; /* enum thr_track, or for suppress 0xff = none */
    uint32_t gid, sid;
    uint32_t count, seconds, timeout;
    const char *new_action; /* rate_filter */
    const char *ip;         /* suppress ip list as written */
    const char *file;
    uint32_t line;
};

/* Earliest enabled, well-formed rule with a gid:sid — for duplicate detection. */
struct sid_rec {
    uint64_t key; /* gid << 32 | sid, 0 = empty slot */
    uint32_t rev;
    uint32_t line;
    const char *file;
    int64_t diag;     /* its rejection diagnostic, or -1 */
    int64_t rule_idx; /* its index in rules[] while accepted, or -1 */
};

struct osprey_ruleset {
    struct osprey_rules_options opts;
    struct arena ast;  /* rules kept */
    struct arena tmp;  /* per-rule scratch */
    struct arena meta; /* diagnostics, file names, config tables */
    struct vars vars;
    struct opt_index index;

    bool check_classes, check_refs; /* a file was configured: names must be in it */
    struct classtype *classes;
    uint32_t nclasses;
    struct refsys *refs;
    uint32_t nrefs;
    struct thr_entry *thr;
    uint32_t nthr;

    struct osprey_rule **rules;
    size_t nrules, caprules;
    struct osprey_rules_diag *diags;
    size_t ndiags, capdiags;
    struct osprey_rules_stats stats;
    uint32_t *kw_enabled, *kw_disabled; /* per keyword id */
    uint8_t *kw_seen;                   /* per rule scratch bitmap */

    struct sid_rec *sids;
    size_t nsids, capsids;

    /* logical line being assembled */
    char *line;
    size_t linecap;
    struct rule_seg *segs;
    uint32_t nsegs, capsegs;

    bool need_compact; /* an accepted rule was superseded: drop it from rules[] */

    const char *file;  /* current file name (meta arena) */
    bool file_snort3;  /* this file showed Snort 3 syntax */

    /* Lua rules (rules/lua/): security.lua from the configuration, the folders a script
     * name is looked up in after the rule file's (default-rule-path; NULL: none), the log
     * folder (suricata.config.log_path) and the scripts loaded (freed with the ruleset) */
    struct rlua_limits lua;
    char *rule_path, *log_dir;
    struct rlua_script **luas;
    size_t nluas, capluas;
};

/* Add a diagnostic; returns its index or -1 (out of memory). */
int64_t ruleset_diag(struct osprey_ruleset *rs, enum osprey_rules_diag_kind kind,
                     const char *file, uint32_t line, uint32_t sid, const char *key,
                     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* classification.config, reference.config, threshold.config (conf_*.c). */
int conf_load_classification(struct osprey_ruleset *rs, const char *path);
int conf_load_reference(struct osprey_ruleset *rs, const char *path);
int conf_load_threshold(struct osprey_ruleset *rs, const char *path);
const struct classtype *conf_classtype(const struct osprey_ruleset *rs, const char *s, size_t n);
const struct refsys *conf_refsys(const struct osprey_ruleset *rs, const char *s, size_t n);

/* Drop superseded rules from rules[] and refresh the byte count (end of each file). */
void ruleset_compact(struct osprey_ruleset *rs);

/* After the last file: cross-checks that need every rule (threshold entries). */
void ruleset_finish(struct osprey_ruleset *rs);

/* Split text into logical rules and take each (source.c). */
int ruleset_parse_text(struct osprey_ruleset *rs, const char *text, size_t size);

/* Parse one logical rule held in rs->line / rs->segs and file it (ruleset.c). */
int ruleset_take_rule(struct osprey_ruleset *rs, uint32_t len, bool disabled);

#endif
