/* ruleset.c — building a ruleset: each rule's fate, duplicate sids, diagnostics, accessors. */
#include "ruleset.h"
#include "header.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "expr.h"
#include "osprey_config.h"

int64_t ruleset_diag(struct osprey_ruleset *rs, enum osprey_rules_diag_kind kind,
                     const char *file, uint32_t line, uint32_t sid, const char *key,
                     const char *fmt, ...)
{
    if (rs->ndiags == rs->capdiags) {
        size_t cap = rs->capdiags ? rs->capdiags * 2 : 256;
        struct osprey_rules_diag *d = realloc(rs->diags, cap * sizeof *d);
        if (d == NULL)
            return -1;
        rs->diags = d;
        rs->capdiags = cap;
    }
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    struct osprey_rules_diag *d = &rs->diags[rs->ndiags];
    d->kind = kind;
    d->file = file;
    d->line = line;
    d->sid = sid;
    d->text = arena_strdup(&rs->meta, buf);
    d->key = arena_strdup(&rs->meta, key);
    if (d->text == NULL || d->key == NULL)
        return -1;
    return (int64_t)rs->ndiags++;
}

/* --- duplicate sids ---------------------------------------------------------------------- */

static uint64_t sid_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

static struct sid_rec *sid_slot(struct osprey_ruleset *rs, uint64_t key)
{
    size_t mask = rs->capsids - 1;
    for (size_t i = sid_hash(key) & mask;; i = (i + 1) & mask)
        if (rs->sids[i].key == key || rs->sids[i].key == 0)
            return &rs->sids[i];
}

static int sid_grow(struct osprey_ruleset *rs)
{
    if (rs->nsids * 2 < rs->capsids)
        return 0;
    size_t old = rs->capsids;
    struct sid_rec *o = rs->sids;
    rs->capsids = old ? old * 2 : 4096;
    rs->sids = calloc(rs->capsids, sizeof *rs->sids);
    if (rs->sids == NULL) {
        rs->sids = o;
        rs->capsids = old;
        return -1;
    }
    for (size_t i = 0; i < old; i++)
        if (o[i].key)
            *sid_slot(rs, o[i].key) = o[i];
    free(o);
    return 0;
}

/* Mark an earlier rule as superseded by a newer revision. */
static void supersede(struct osprey_ruleset *rs, struct sid_rec *e, const struct osprey_rule *r)
{
    char text[256];
    snprintf(text, sizeof text, "sid %u rev %u superseded by rev %u at %s:%u", r->sid, e->rev,
             r->rev, r->file, r->line);
    const char *t = arena_strdup(&rs->meta, text);
    const char *k = "conflicting revision";
    if (e->rule_idx >= 0) {
        struct osprey_rule *old = rs->rules[e->rule_idx];
        old->status = OSPREY_RULE_REJECTED;
        old->reason = t;
        rs->need_compact = !rs->opts.keep_all;
        rs->stats.accepted--;
        rs->stats.rejected++;
        e->diag = ruleset_diag(rs, OSPREY_DIAG_REJECTED, e->file, e->line, r->sid, k, "%s", text);
    } else if (e->diag >= 0) {
        struct osprey_rules_diag *d = &rs->diags[e->diag];
        if (strncmp(d->key, "unsupported option", 18) == 0)
            rs->stats.unsupported--;
        d->text = t ? t : d->text;
        d->key = k;
    }
    rs->stats.conflicting_revs++;
}

/* Returns a rejection reason for r, or NULL; fills key. */
static const char *check_duplicate(struct osprey_ruleset *rs, const struct osprey_rule *r,
                                   char *buf, size_t len, const char **key,
                                   struct sid_rec **rec)
{
    *rec = NULL;
    if (sid_grow(rs) < 0)
        return NULL;
    uint64_t k = (uint64_t)r->gid << 32 | r->sid;
    struct sid_rec *e = sid_slot(rs, k);
    if (e->key == 0) {
        *e = (struct sid_rec){k, r->rev, r->line, r->file, -1, -1};
        rs->nsids++;
        *rec = e;
        return NULL;
    }
    if (r->rev == e->rev) {
        snprintf(buf, len, "duplicate sid %u (gid %u rev %u): first at %s:%u", r->sid, r->gid,
                 r->rev, e->file, e->line);
        *key = "duplicate sid";
        rs->stats.duplicate_sids++;
        return buf;
    }
    if (r->rev < e->rev) {
        snprintf(buf, len, "sid %u rev %u is older than rev %u at %s:%u", r->sid, r->rev,
                 e->rev, e->file, e->line);
        *key = "conflicting revision";
        rs->stats.conflicting_revs++;
        return buf;
    }
    supersede(rs, e, r);
    *e = (struct sid_rec){k, r->rev, r->line, r->file, -1, -1};
    *rec = e;
    return NULL;
}

/* --- one rule ---------------------------------------------------------------------------- */

static int keep(struct osprey_ruleset *rs, struct osprey_rule *r)
{
    if (rs->nrules == rs->caprules) {
        size_t cap = rs->caprules ? rs->caprules * 2 : 1024;
        struct osprey_rule **v = realloc(rs->rules, cap * sizeof *v);
        if (v == NULL)
            return -1;
        rs->rules = v;
        rs->caprules = cap;
    }
    rs->rules[rs->nrules++] = r;
    return 0;
}

int ruleset_take_rule(struct osprey_ruleset *rs, uint32_t len, bool disabled)
{
    struct arena_mark mark = arena_mark(&rs->ast), tmark = arena_mark(&rs->tmp);
    char *text = arena_strndup(&rs->ast, rs->line, len);
    if (text == NULL)
        return -1;
    struct rule_ctx c;
    memset(&c, 0, sizeof c);
    c.rs = rs;
    c.ar = &rs->ast;
    c.tmp = &rs->tmp;
    c.segs = rs->segs;
    c.nsegs = rs->nsegs;
    c.disabled = disabled;
    struct osprey_rule *r = rule_parse(&c, text, len);
    arena_release(&rs->tmp, tmark);
    if (r == NULL)
        return -1;
    if (c.syntax.set && strcmp(c.syntax.key, "out of memory") == 0)
        return -1;
    r->file = rs->file;
    r->line = rs->segs[0].line;
    rs->stats.read++;
    bool kept = false;
    if (disabled) {
        rs->stats.disabled++;
        r->status = OSPREY_RULE_DISABLED;
        if (c.syntax.set) {
            rs->stats.disabled_syntax_errors++;
            r->reason = arena_strdup(&rs->ast, c.syntax.msg);
            if (!rs->opts.quiet_disabled &&
                ruleset_diag(rs, OSPREY_DIAG_DISABLED, r->file, r->line, r->sid, c.syntax.key,
                             "%s", c.syntax.msg) < 0)
                return -1;
        } else {
            rs->stats.disabled_parsed++;
        }
        if (rs->opts.keep_all) {
            if (keep(rs, r) < 0)
                return -1;
            kept = true;
        }
    } else if (c.skipped) {
        rs->stats.enabled++;
        rs->stats.skipped++;
    } else {
        rs->stats.enabled++;
        char buf[384];
        const char *reason = NULL, *key = NULL;
        struct sid_rec *rec = NULL;
        if (c.syntax.set) {
            reason = c.syntax.msg;
            key = c.syntax.key;
            rs->stats.syntax_errors++;
        } else if (c.semantic.set) {
            reason = c.semantic.msg;
            key = c.semantic.key;
        } else if ((reason = check_duplicate(rs, r, buf, sizeof buf, &key, &rec)) == NULL &&
                   c.unsupported_kw >= 0) {
            if (c.unsupported_why)
                snprintf(buf, sizeof buf, "unsupported option %s: %s",
                         osprey_rules_keyword_name((size_t)c.unsupported_kw), c.unsupported_why);
            else
                snprintf(buf, sizeof buf, "unsupported option %s",
                         osprey_rules_keyword_name((size_t)c.unsupported_kw));
            reason = key = buf;
            rs->stats.unsupported++;
        } else if (!reason && !header_proto_implemented(r->proto)) {
            snprintf(buf, sizeof buf, "unsupported protocol %s", r->proto);
            reason = key = buf;
            rs->stats.unsupported++;
        }
        if (reason) {
            rs->stats.rejected++;
            r->status = OSPREY_RULE_REJECTED;
            int64_t d = ruleset_diag(rs, OSPREY_DIAG_REJECTED, r->file, r->line, r->sid, key,
                                     "%s", reason);
            if (d < 0)
                return -1;
            r->reason = rs->diags[d].text;
            if (rec)
                rec->diag = d;
            if (rs->opts.keep_all) {
                if (keep(rs, r) < 0)
                    return -1;
                kept = true;
            }
        } else {
            rs->stats.accepted++;
            r->status = OSPREY_RULE_ACCEPTED;
            if (rec)
                rec->rule_idx = (int64_t)rs->nrules;
            if (keep(rs, r) < 0)
                return -1;
            kept = true;
        }
    }
    if (!kept)
        arena_release(&rs->ast, mark);
    return 0;
}

/* --- lifetime ---------------------------------------------------------------------------- */

/* A relative name from the config file is next to that file (osprey_config_path). */
static const char *cfg_path(const struct osprey_config *cfg, const char *override,
                            const char *key, char *buf, size_t len)
{
    if (override)
        return override[0] ? override : NULL;
    if (cfg == NULL)
        return NULL;
    const char *v = osprey_config_path(cfg, key, buf, len);
    if (v == NULL)
        v = osprey_config_str(cfg, key); /* too long to join: fails to open under its name */
    return v && v[0] ? v : NULL;
}

/* Load one of the three tables. A missing file that is only the built-in default is a warning
 * (osprey -T works from any directory); one that was configured is an error. Either way the
 * names it would define are then not checked. Returns -1 only when out of memory. */
static int load_conf(struct osprey_ruleset *rs, const struct osprey_config *cfg,
                     const char *override, const char *key, const char *what,
                     int (*loader)(struct osprey_ruleset *, const char *), bool *check)
{
    char buf[4096];
    const char *path = cfg_path(cfg, override, key, buf, sizeof buf);
    if (path == NULL)
        return 0;
    if (check)
        *check = true;
    int rc = loader(rs, path);
    if (rc == -2)
        return -1;
    if (rc > -3)
        return 0;
    if (check)
        *check = false;
    char origin[256] = "";
    if (override == NULL && cfg)
        osprey_config_origin(cfg, key, origin, sizeof origin);
    const char *file = arena_strdup(&rs->meta, path);
    if (file == NULL)
        return -1;
    bool is_default = strcmp(origin, "default") == 0;
    /* a file whose names no rule is checked against (threshold.config) leaves the rules as
     * they are written when it cannot be read (Suricata says so and runs on); an unreadable
     * classification or reference file given on purpose stops the load, since rules would be
     * judged against the wrong names */
    bool warn = is_default || !check;
    if (!warn)
        rs->stats.config_errors++;
    return ruleset_diag(rs, warn ? OSPREY_DIAG_WARNING : OSPREY_DIAG_CONFIG, file, 0, 0,
                        "unreadable config file", "cannot open the %s file (%s: %s)%s", what,
                        key, strerror(-3 - rc),
                        check ? "; its names are not checked"
                        : warn && !is_default ? "; the rules run without it" : "") < 0
               ? -1
               : 0;
}

int osprey_ruleset_create(struct osprey_ruleset **out, const struct osprey_config *cfg,
                          const struct osprey_rules_options *opts)
{
    *out = NULL;
    struct osprey_ruleset *rs = calloc(1, sizeof *rs);
    if (rs == NULL)
        return -1;
    if (opts)
        rs->opts = *opts;
    arena_init(&rs->ast);
    arena_init(&rs->tmp);
    arena_init(&rs->meta);
    size_t nkw = opt_def_count();
    rs->kw_enabled = calloc(nkw, sizeof *rs->kw_enabled);
    rs->kw_disabled = calloc(nkw, sizeof *rs->kw_disabled);
    rs->kw_seen = calloc((nkw + 7) / 8, 1);
    if (rs->kw_enabled == NULL || rs->kw_disabled == NULL || rs->kw_seen == NULL ||
        opt_index_build(&rs->index) < 0 || vars_load(&rs->vars, cfg) < 0) {
        osprey_ruleset_free(rs);
        return -1;
    }
    rs->lua = (struct rlua_limits){false, RLUA_DEFAULT_MAX_BYTES, RLUA_DEFAULT_MAX_INSTRUCTIONS};
    if (cfg) {
        char buf[4096];
        rs->lua.allow_rules = osprey_config_bool(cfg, "security.lua.allow-rules");
        rs->lua.max_bytes = (uint64_t)osprey_config_int(cfg, "security.lua.max-bytes");
        rs->lua.max_instructions = (uint64_t)osprey_config_int(cfg, "security.lua.max-instructions");
        const char *rp = osprey_config_path(cfg, "default-rule-path", buf, sizeof buf);
        if (rp && *rp && !(rs->rule_path = strdup(rp))) {
            osprey_ruleset_free(rs);
            return -1;
        }
        const char *ld = osprey_config_str(cfg, "default-log-dir");
        if (ld && *ld && !(rs->log_dir = strdup(ld))) {
            osprey_ruleset_free(rs);
            return -1;
        }
    }
    /* Resolve every variable up front so a bad one is reported once, with its origin. */
    for (uint32_t i = 0; i < rs->vars.n; i++) {
        struct rule_var *v = &rs->vars.v[i];
        if (expr_resolve_var(&rs->vars, &rs->tmp, v) < 0 && v->state == VAR_BAD) {
            ruleset_diag(rs, OSPREY_DIAG_CONFIG, v->file, (uint32_t)v->line, 0,
                         "invalid variable", "vars.%s.%s: %s",
                         v->is_port ? "port-groups" : "address-groups", v->name, v->error);
            rs->stats.config_errors++;
        }
    }
    arena_release(&rs->tmp, (struct arena_mark){0});
    if (load_conf(rs, cfg, rs->opts.classification_file, "classification-file",
                  "classification", conf_load_classification, &rs->check_classes) < 0 ||
        load_conf(rs, cfg, rs->opts.reference_file, "reference-config-file", "reference",
                  conf_load_reference, &rs->check_refs) < 0 ||
        load_conf(rs, cfg, rs->opts.threshold_file, "threshold-file", "threshold",
                  conf_load_threshold, NULL) < 0) {
        osprey_ruleset_free(rs);
        return -1;
    }
    *out = rs;
    return 0;
}

void osprey_ruleset_free(struct osprey_ruleset *rs)
{
    if (rs == NULL)
        return;
    arena_free(&rs->ast);
    arena_free(&rs->tmp);
    arena_free(&rs->meta);
    vars_free(&rs->vars);
    opt_index_free(&rs->index);
    free(rs->kw_enabled);
    free(rs->kw_disabled);
    free(rs->kw_seen);
    free(rs->rules);
    free(rs->diags);
    free(rs->sids);
    free(rs->line);
    free(rs->segs);
    for (size_t i = 0; i < rs->nluas; i++)
        rlua_script_free(rs->luas[i]);
    free(rs->luas);
    free(rs->rule_path);
    free(rs->log_dir);
    free(rs);
}

/* --- accessors --------------------------------------------------------------------------- */

/* Rules superseded after being accepted leave the list at the end of the file that
 * superseded them, so the accessors below never change the ruleset. */
void ruleset_compact(struct osprey_ruleset *rs)
{
    if (!rs->need_compact)
        return;
    rs->need_compact = false;
    size_t w = 0;
    for (size_t i = 0; i < rs->nrules; i++)
        if (rs->rules[i]->status == OSPREY_RULE_ACCEPTED)
            rs->rules[w++] = rs->rules[i];
    rs->nrules = w;
    /* Indexes in the sid table are stale now: rebuild them. */
    for (size_t i = 0; i < rs->capsids; i++)
        rs->sids[i].rule_idx = -1;
    for (size_t i = 0; i < rs->nrules && rs->capsids; i++) {
        const struct osprey_rule *r = rs->rules[i];
        struct sid_rec *e = sid_slot(rs, (uint64_t)r->gid << 32 | r->sid);
        if (e->key)
            e->rule_idx = (int64_t)i;
    }
}

size_t osprey_ruleset_count(const struct osprey_ruleset *rs)
{
    return rs->nrules;
}

const struct osprey_rule *osprey_ruleset_rule(const struct osprey_ruleset *rs, size_t i)
{
    return i < rs->nrules ? rs->rules[i] : NULL;
}

const struct osprey_rules_stats *osprey_ruleset_stats(const struct osprey_ruleset *rs)
{
    return &rs->stats;
}

size_t osprey_ruleset_diag_count(const struct osprey_ruleset *rs)
{
    return rs->ndiags;
}

const struct osprey_rules_diag *osprey_ruleset_diag(const struct osprey_ruleset *rs, size_t i)
{
    return i < rs->ndiags ? &rs->diags[i] : NULL;
}

void osprey_ruleset_keyword_uses(const struct osprey_ruleset *rs, size_t kw, uint32_t *enabled,
                                 uint32_t *disabled)
{
    bool ok = kw < opt_def_count();
    if (enabled)
        *enabled = ok ? rs->kw_enabled[kw] : 0;
    if (disabled)
        *disabled = ok ? rs->kw_disabled[kw] : 0;
}

void ruleset_finish(struct osprey_ruleset *rs)
{
    /* A threshold.config line naming a rule that was never read is most likely a typo. */
    for (uint32_t i = 0; i < rs->nthr; i++) {
        const struct thr_entry *t = &rs->thr[i];
        if (t->sid == 0)
            continue;
        uint64_t key = (uint64_t)t->gid << 32 | t->sid;
        if (rs->capsids && sid_slot(rs, key)->key == key)
            continue;
        ruleset_diag(rs, OSPREY_DIAG_WARNING, t->file, t->line, 0, "threshold for unknown rule",
                     "no rule with gen_id %u, sig_id %u was read", t->gid, t->sid);
    }
}
