/* opt_lua.c — Lua in rules (Suricata 8): `lua:[!]SCRIPT;` (and `luajit:`, its old alias), a
 * script whose match(args) decides, and the `luaxform:SCRIPT[, ARG …];` transform. Both are
 * refused unless security.lua.allow-rules is on (`file:line: sid N: lua: Lua rules are not
 * enabled …`). The script is looked up beside the rule file, then under default-rule-path;
 * it is read and its init() run here (rules/lua/), so a missing script, a syntax error or a
 * failing init() rejects its rule at load and in `osprey -T`.
 *
 * Where a lua rule runs: on the sticky buffer in force; else on the buffer init() names
 * (needs["http.request_line"] …: under that buffer's message); else on the packet/stream,
 * as Suricata's packet match list (suricata.http.get_tx() … then read the flow's current
 * transaction). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "buffers.h"
#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "rlua.h"
#include "ruleset.h"
#include "text.h"

/* path of a script: beside the rule file, else under default-rule-path, else as written */
static void script_path(struct rule_ctx *c, const char *name, char *path, size_t len)
{
    const char *rf = c->rs->file;
    const char *slash = rf ? strrchr(rf, '/') : NULL;
    if (name[0] == '/') {
        snprintf(path, len, "%s", name);
        return;
    }
    if (slash) {
        snprintf(path, len, "%.*s/%s", (int)(slash - rf), rf, name);
        if (!access(path, R_OK))
            return;
    }
    if (c->rs->rule_path) {
        snprintf(path, len, "%s/%s", c->rs->rule_path, name);
        if (!access(path, R_OK))
            return;
    }
    snprintf(path, len, "%s", name);
}

static int keep(struct rule_ctx *c, struct rlua_script *s)
{
    struct osprey_ruleset *rs = c->rs;
    if (rs->nluas == rs->capluas) {
        size_t cap = rs->capluas ? rs->capluas * 2 : 8;
        struct rlua_script **v = realloc(rs->luas, cap * sizeof *v);
        if (!v) {
            rlua_script_free(s);
            return rule_oom(c);
        }
        rs->luas = v;
        rs->capluas = cap;
    }
    rs->luas[rs->nluas++] = s;
    return 0;
}

/* Load the script; NULL (the rule's semantic error recorded, or -1 in *rc) when it cannot. */
static struct rlua_script *load(struct rule_ctx *c, const char *pos, const char *name, bool xform,
                                int *rc)
{
    *rc = 0;
    if (!c->rs || !c->rs->lua.allow_rules) { /* (no ruleset: a unit test's bare context) */
        rule_semantic_error(c, pos, "lua not enabled",
                            "%s: Lua rules are not enabled (security.lua.allow-rules: no)",
                            c->def->name);
        return NULL;
    }
    char path[4096], why[512];
    script_path(c, name, path, sizeof path);
    struct rlua_script *s = rlua_script_load(path, &c->rs->lua, xform, why, sizeof why);
    if (!s) {
        if (!strcmp(why, "out of memory"))
            *rc = rule_oom(c);
        else
            rule_semantic_error(c, pos, "lua script", "%s: %s: %s", c->def->name, path, why);
        return NULL;
    }
    if (c->rs->log_dir && !(s->log_dir = strdup(c->rs->log_dir))) {
        rlua_script_free(s);
        *rc = rule_oom(c);
        return NULL;
    }
    if (keep(c, s) < 0) {
        *rc = -1;
        return NULL;
    }
    return s;
}

/* The rule buffer of a name (BUF_COUNT: none). */
static unsigned buffer_named(const char *name)
{
    static const struct { const char *old, *now; } ALIAS[] = {
        {"http.request_headers", "http.header"}, {"http.request_headers.raw", "http.header.raw"},
        {"http.response_headers", "http.header"}, {"http.response_headers.raw", "http.header.raw"},
        {"http.request_cookie", "http.cookie"}, {"http.response_cookie", "http.cookie"},
        {"http.request_user_agent", "http.user_agent"}, {"dns.rrname", "dns.query"},
        {"dns.request", "dns.query"}};
    for (size_t i = 0; i < sizeof ALIAS / sizeof ALIAS[0]; i++)
        if (!strcmp(name, ALIAS[i].old))
            name = ALIAS[i].now;
    for (unsigned b = 0; b < BUF_COUNT; b++)
        if (!strcmp(osprey_rules_buffer_name(b), name))
            return b;
    return BUF_COUNT;
}

static int parse_lua(struct rule_ctx *c, char *val)
{
    const char *end = rtrim(val, val + strlen(val));
    const char *p = skip_ws(val, end);
    bool neg = p < end && *p == '!';
    if (neg)
        p = skip_ws(p + 1, end);
    if (p == end)
        return opt_error(c, val, "expected a Lua script name");
    struct opt_lua *a = opt_arg_new(c, sizeof *a);
    const char *name = opt_strdup(c, p, (size_t)(end - p));
    if (!a || !name)
        return -1;
    a->negated = neg;
    a->name = name;
    int rc;
    if (!(a->script = load(c, p, name, false, &rc)))
        return rc;
    const struct rlua_script *s = a->script;
    /* the buffer it runs on, when no sticky buffer is in force */
    if (c->buffer == BUF_PKT && !(s->needs & (RLUA_NEED_PACKET | RLUA_NEED_PAYLOAD |
                                              RLUA_NEED_STREAM))) {
        unsigned b = s->app_buffer ? buffer_named(s->app_buffer) : BUF_COUNT;
        if (b != BUF_COUNT)
            c->opt->buffer = (uint16_t)b;
    }
    return 0;
}

/* luaxform:SCRIPT[, ARG …] */
static int parse_luaxform(struct rule_ctx *c, char *val)
{
    size_t n = strcspn(val, ",");
    const char *p = skip_ws(val, val + n), *end = rtrim(val, val + n);
    if (end <= p)
        return opt_error(c, val, "expected a Lua script name");
    struct opt_lua *a = opt_arg_new(c, sizeof *a);
    const char *name = opt_strdup(c, p, (size_t)(end - p));
    if (!a || !name)
        return -1;
    a->name = name;
    /* the arguments: comma-separated, trimmed */
    const char *rest = val[n] ? val + n + 1 : NULL;
    uint32_t cnt = 0;
    for (const char *q = rest; q; q = strchr(q, ','), q = q ? q + 1 : NULL)
        cnt++;
    const char **args = cnt ? arena_zalloc(c->ar, cnt * sizeof *args) : NULL;
    if (cnt && !args)
        return rule_oom(c);
    for (const char *q = rest; q && a->nargs < cnt;) {
        size_t k = strcspn(q, ",");
        const char *s0 = skip_ws(q, q + k), *e0 = rtrim(q, q + k);
        if (!(args[a->nargs++] = opt_strdup(c, s0, e0 > s0 ? (size_t)(e0 - s0) : 0)))
            return -1;
        q = q[k] ? q + k + 1 : NULL;
    }
    a->args = args;
    int rc;
    if (!(a->script = load(c, p, name, true, &rc)))
        return rc;
    return 0;
}

static const struct opt_def DEFS[] = {
    {"lua", OPT_PAYLOAD, D_SURI, ARG_REQUIRED, 0, parse_lua, true, NULL},
    {"luajit", OPT_PAYLOAD, D_SURI, ARG_REQUIRED, 0, parse_lua, true, NULL},
    {"luaxform", OPT_TRANSFORM, D_SURI, ARG_REQUIRED, 0, parse_luaxform, true, NULL},
};

OPT_TABLE(opt_table_lua, DEFS);
