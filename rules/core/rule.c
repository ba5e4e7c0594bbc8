/* rule.c — one logical rule → AST: header, option split, dialect, the option walk.
 *
 * The text is an arena copy that is tokenised in place (NULs written after keywords and
 * values), so the AST's strings point into it and a rule costs one copy of its text.
 */
#include "rule.h"

#include <string.h>

#include "buffers.h"
#include "expr.h"
#include "header.h"
#include "opt_args.h"
#include "registry.h"
#include "requires.h"
#include "ruleset.h"
#include "text.h"

struct otok {
    char *kw;    /* NUL-terminated keyword */
    char *val;   /* NUL-terminated trimmed value, or NULL */
    int id;      /* keyword id, -1 unknown */
};

/* --- header ------------------------------------------------------------------------------ */

struct htok {
    char *s;
    uint32_t n;
};

/* Split the header into at most 8 whitespace-separated fields ending at '(' (outside
 * brackets). Returns the number of fields and sets *open to the '(' (NULL when missing). */
static int header_fields(struct rule_ctx *c, char *p, char *end, struct htok *f, char **open)
{
    int n = 0;
    *open = NULL;
    for (;;) {
        while (p < end && is_space(*p))
            p++;
        if (p >= end)
            return n;
        if (*p == '(') {
            *open = p;
            return n;
        }
        char *s = p;
        int depth = 0;
        while (p < end) {
            if (*p == '[')
                depth++;
            else if (*p == ']')
                depth--;
            else if (depth <= 0 && (is_space(*p) || *p == '('))
                break;
            p++;
        }
        if (depth > 0) {
            rule_syntax_error(c, s, "syntax error in header", "header: '[' without ']'");
            return -1;
        }
        if (n == 8) {
            rule_syntax_error(c, s, "syntax error in header",
                              "header: too many fields before '(' (expected action, protocol, "
                              "source, source port, direction, destination, destination port)");
            return -1;
        }
        f[n].s = s;
        f[n].n = (uint32_t)(p - s);
        n++;
    }
}

static void set_endpoint_error(struct rule_ctx *c, const char *base, const struct expr_err *err)
{
    const char *pos = err->pos ? err->pos : base;
    if (strcmp(err->key, "out of memory") == 0)
        rule_oom(c);
    else if (err->semantic)
        rule_semantic_error(c, pos, err->key, "%s", err->msg);
    else
        rule_syntax_error(c, pos, err->key, "%s", err->msg);
}

static void parse_endpoint(struct rule_ctx *c, const struct htok *a, const struct htok *p,
                           struct osprey_rule_endpoint *ep)
{
    struct expr_err err;
    ep->addr_text = a->s;
    ep->port_text = p->s;
    ep->addr = expr_ipset(&c->rs->vars, c->ar, c->tmp, a->s, a->n, &err);
    if (ep->addr == NULL) {
        set_endpoint_error(c, a->s, &err);
        ep->addr = &expr_any_ip;
    }
    ep->port = expr_portset(&c->rs->vars, c->ar, c->tmp, p->s, p->n, &err);
    if (ep->port == NULL) {
        set_endpoint_error(c, p->s, &err);
        ep->port = &expr_any_port;
    }
}

/* Returns the '(' or NULL after a syntax error. */
static char *parse_header(struct rule_ctx *c, char *text, char *end)
{
    struct osprey_rule *r = c->rule;
    struct htok f[8];
    char *open;
    int n = header_fields(c, text, end, f, &open);
    if (n < 0)
        return NULL;
    if (open == NULL) {
        rule_syntax_error(c, n ? f[n - 1].s : text, "syntax error in header",
                          "header: missing '(' before the options");
        return NULL;
    }
    if (n == 0) {
        rule_syntax_error(c, open, "syntax error in header", "header: missing action");
        return NULL;
    }
    /* Suricata 8's firewall rules: `accept:hook`, `drop:flow` … (action:scope) */
    const char *acolon = memchr(f[0].s, ':', f[0].n);
    size_t an = acolon ? (size_t)(acolon - f[0].s) : f[0].n;
    int action = header_action(f[0].s, an);
    if (action < 0) {
        rule_syntax_error(c, f[0].s, "syntax error in header", "header: unknown action '%.*s'",
                          (int)f[0].n, f[0].s);
        return NULL;
    }
    r->action = (enum osprey_rule_action)action;
    if (acolon) {
        size_t sn = f[0].n - an - 1;
        int scope = header_action_scope(r->action, acolon + 1, sn);
        if (scope < 0) {
            rule_syntax_error(c, acolon, "syntax error in header",
                              "header: action '%.*s' takes no scope '%.*s'", (int)an, f[0].s,
                              (int)sn, acolon + 1);
            return NULL;
        }
        r->scope = (enum osprey_action_scope)scope;
    } else if (action == OSPREY_ACTION_ACCEPT) {
        rule_syntax_error(c, f[0].s, "syntax error in header",
                          "header: accept needs a scope (accept:packet, flow, hook or tx)");
        return NULL;
    }
    r->src.addr_text = r->src.port_text = r->dst.addr_text = r->dst.port_text = "any";
    r->src.addr = r->dst.addr = &expr_any_ip;
    r->src.port = r->dst.port = &expr_any_port;
    if (action == OSPREY_ACTION_FILE_ID) {
        /* Snort 3 file rule: `file_id (...)`, no header fields at all. */
        if (n != 1) {
            rule_syntax_error(c, f[1].s, "syntax error in header",
                              "header: file_id rules take no header fields");
            return NULL;
        }
        r->proto = "file";
        r->headerless = true;
        c->snort3 = true;
        return open;
    }
    if (n == 1) {
        rule_syntax_error(c, open, "syntax error in header", "header: missing protocol");
        return NULL;
    }
    /* Suricata 8's rule hooks: `proto:hook` (the compiler knows which hooks run) */
    const char *colon = memchr(f[1].s, ':', f[1].n);
    size_t pn = colon ? (size_t)(colon - f[1].s) : f[1].n;
    if (colon) {
        size_t hn = f[1].n - pn - 1;
        if (!hn || !is_name(colon + 1, hn, NULL)) {
            rule_syntax_error(c, colon, "syntax error in header",
                              "header: invalid rule hook '%.*s'", (int)hn, colon + 1);
            return NULL;
        }
        char *hook = arena_alloc(c->ar, hn + 1);
        if (hook == NULL) {
            rule_oom(c);
            return NULL;
        }
        memcpy(hook, colon + 1, hn);
        hook[hn] = 0;
        r->hook = hook;
    } else if (r->scope != OSPREY_SCOPE_NONE) {
        /* a firewall rule says where it runs (Suricata 8 requires it too) */
        rule_syntax_error(c, f[1].s, "syntax error in header",
                          "header: a firewall rule needs an explicit hook (%.*s:all …)",
                          (int)f[1].n, f[1].s);
        return NULL;
    }
    r->proto = header_proto(f[1].s, pn);
    if (r->proto == NULL) {
        rule_syntax_error(c, f[1].s, "syntax error in header", "header: unknown protocol '%.*s'",
                          (int)f[1].n, f[1].s);
        return NULL;
    }
    if (n == 2) {
        /* Snort 3 service rule: `alert http (...)`. */
        r->headerless = true;
        c->snort3 = true;
        return open;
    }
    if (n != 7) {
        rule_syntax_error(c, f[n - 1].s, "syntax error in header",
                          "header: %d fields; expected 'action protocol source port direction "
                          "destination port' (7) or Snort 3's 'action service' (2)",
                          n);
        return NULL;
    }
    if (f[4].n == 2 && memcmp(f[4].s, "->", 2) == 0) {
        r->dir = OSPREY_DIR_TO;
    } else if (f[4].n == 2 && memcmp(f[4].s, "<>", 2) == 0) {
        r->dir = OSPREY_DIR_BOTH;
    } else if (f[4].n == 2 && memcmp(f[4].s, "=>", 2) == 0 && !c->snort3) {
        r->dir = OSPREY_DIR_TX;
    } else {
        rule_syntax_error(c, f[4].s, "syntax error in header",
                          "header: direction must be '->', '<>' or '=>', got '%.*s'", (int)f[4].n,
                          f[4].s);
        return NULL;
    }
    for (int i = 1; i < 7; i++)
        f[i].s[f[i].n] = '\0'; /* the byte after a field is a space or the '(' (already found) */
    parse_endpoint(c, &f[2], &f[3], &r->src);
    parse_endpoint(c, &f[5], &f[6], &r->dst);
    return c->syntax.set ? NULL : open;
}

/* --- options ----------------------------------------------------------------------------- */

/* Do the quotes of the body pair up (backslash escapes honoured)? */
static const char *unpaired_quote(const char *p, const char *end)
{
    const char *open = NULL;
    for (; p < end; p++) {
        if (*p == '\\' && p + 1 < end)
            p++;
        else if (*p == '"')
            open = open ? NULL : p;
    }
    return open;
}

/* Split the body (between the parentheses) into options. Returns their number or -1.
 *
 * Options end at ';' outside double quotes (Snort 3 reads quoted strings whole). When the
 * quotes of a rule do not pair up — Snort 2 and Suricata split at every unescaped ';' and some
 * regexes hold a lone '"' — the split ignores quotes, as those engines do. */
static int split_options(struct rule_ctx *c, char *p, char *end, struct otok **out)
{
    const bool quotes = unpaired_quote(p, end) == NULL;
    /* Upper bound of options: one per ';' plus a last one without. */
    uint32_t cap = 1;
    for (char *q = p; q < end; q++)
        cap += *q == ';';
    if (cap > 4096)
        return rule_syntax_error(c, p, "syntax error in options",
                                 "options: more than 4096 options in one rule");
    struct otok *t = arena_alloc(c->tmp, cap * sizeof *t);
    if (t == NULL)
        return rule_oom(c);
    uint32_t n = 0;
    while (p < end) {
        char *s = p;
        bool quote = false;
        while (p < end) {
            if (*p == '\\' && p + 1 < end) {
                p += 2;
                continue;
            }
            if (*p == '"' && quotes)
                quote = !quote;
            else if (*p == ';' && !quote)
                break;
            p++;
        }
        char *e = p;
        bool last = p >= end;
        p++; /* past ';' */
        char *ks = s;
        while (ks < e && is_space(*ks))
            ks++;
        e = (char *)rtrim(ks, e);
        if (ks == e) {
            if (last)
                break; /* whitespace after the final ';' */
            return rule_syntax_error(c, ks, "syntax error in options",
                                     "options: empty option (';;')");
        }
        char *ke = ks;
        while (ke < e && is_word(*ke))
            ke++;
        if (ke == ks)
            return rule_syntax_error(c, ks, "syntax error in options",
                                     "options: expected a keyword, got '%c'", *ks);
        char *v = ke;
        while (v < e && is_space(*v))
            v++;
        char *val = NULL;
        if (v < e) {
            if (*v != ':')
                return rule_syntax_error(c, v, "syntax error in options",
                                         "options: expected ':' or ';' after '%.*s'",
                                         (int)(ke - ks), ks);
            v++;
            while (v < e && is_space(*v))
                v++;
            if (v == e)
                return rule_syntax_error(c, v - 1, "syntax error in options",
                                         "options: missing value after '%.*s:'",
                                         (int)(ke - ks), ks);
            val = v;
            *e = '\0';
        }
        *ke = '\0';
        t[n].kw = ks;
        t[n].val = val;
        t[n].id = opt_index_find(&c->rs->index, ks, (size_t)(ke - ks));
        n++;
    }
    *out = t;
    return (int)n;
}

/* `content:"x",nocase` — Snort 3's comma arguments after the string. */
static bool has_comma_args(const char *v)
{
    if (v == NULL)
        return false;
    while (is_space(*v))
        v++;
    if (*v == '!')
        v++;
    while (is_space(*v))
        v++;
    if (*v != '"')
        return false;
    for (v++; *v && *v != '"'; v++)
        if (*v == '\\' && v[1])
            v++;
    if (*v != '"')
        return false;
    for (v++; is_space(*v); v++)
        ;
    return *v == ',';
}

static void decide_dialect(struct rule_ctx *c, const struct otok *t, int n)
{
    enum osprey_rule_dialect forced = c->rs->opts.dialect;
    bool s3 = c->snort3, suri = false, content_seen = false;
    for (int i = 0; i < n; i++) {
        if (t[i].id < 0)
            continue;
        const struct opt_def *d = opt_def_by_id(t[i].id);
        if (d->dialects == D_S3 || strcmp(d->name, "service") == 0)
            s3 = true;
        else if (d->dialects == D_SURI)
            suri = true;
        bool is_content = strcmp(d->name, "content") == 0;
        if (is_content && has_comma_args(t[i].val))
            s3 = true;
        if (is_content || strcmp(d->name, "uricontent") == 0)
            content_seen = true;
        else if (d->kind == OPT_HTTP_LEGACY && !content_seen)
            s3 = true; /* a classic modifier would have nothing to modify */
    }
    /* A rule with no marker either way is read like the file's earlier rules. */
    if (s3)
        c->rs->file_snort3 = true;
    else if (c->rs->file_snort3 && !suri)
        s3 = true;
    switch (forced) {
    case OSPREY_DIALECT_SNORT3:
        s3 = true;
        break;
    case OSPREY_DIALECT_SNORT2:
    case OSPREY_DIALECT_SURICATA:
        s3 = false;
        break;
    default:
        break;
    }
    c->snort3 = s3;
    c->suricata = suri;
    c->rule->dialect = s3                                            ? OSPREY_DIALECT_SNORT3
                       : (suri || forced == OSPREY_DIALECT_SURICATA) ? OSPREY_DIALECT_SURICATA
                                                                     : OSPREY_DIALECT_SNORT2;
}

static void select_buffer(struct rule_ctx *c, uint16_t buffer)
{
    if (c->sticky_opt && buffer == c->buffer)
        return; /* "file_data; file_data;" selects it once */
    /* Suricata refuses a buffer set up without matches; Snort 3 tolerates it. */
    if (!c->snort3 && c->sticky_opt && !c->buffer_used && c->buffer != BUF_PKT)
        rule_syntax_error(c, c->sticky_pos, "syntax error in buffers",
                          "%s: sticky buffer selected but nothing inspects it",
                          c->sticky_opt->keyword);
    c->buffer = buffer;
    c->side = OSPREY_SIDE_ANY;
    c->xforms = NULL;
    c->nxforms = 0;
    c->buffer_used = false;
    c->absent_only = false;
    c->xform_pending = false;
    c->sticky_opt = c->opt;
    c->sticky_pos = c->kwpos;
}

/* Classic `content:"x"; http_uri;`: move the last content into the modifier's buffer. */
static int legacy_modifier(struct rule_ctx *c)
{
    struct opt_content *ct = c->last_content;
    if (ct == NULL)
        return opt_error(c, c->kwpos, "needs a content before it (a Snort 2/Suricata content "
                                      "modifier)");
    if (ct->buffer_from_modifier)
        return opt_error(c, c->kwpos, "the content before it is already in %s",
                         osprey_rules_buffer_name(ct->buffer));
    /* Snort 2 lets the modifier move a content out of file_data; Suricata refuses. */
    if (ct->buffer != BUF_PKT && c->suricata)
        return opt_error(c, c->kwpos, "the content before it is in sticky buffer %s",
                         osprey_rules_buffer_name(ct->buffer));
    ct->buffer = c->def->buffer;
    ct->buffer_from_modifier = true;
    c->last_content_opt->buffer = c->def->buffer;
    return 0;
}

static void count_keywords(struct rule_ctx *c, const struct otok *t, int n)
{
    struct osprey_ruleset *rs = c->rs;
    size_t nkw = opt_def_count();
    memset(rs->kw_seen, 0, (nkw + 7) / 8);
    for (int i = 0; i < n; i++) {
        if (t[i].id < 0)
            continue;
        unsigned id = (unsigned)t[i].id;
        if (rs->kw_seen[id / 8] & (1u << (id % 8)))
            continue;
        rs->kw_seen[id / 8] |= (uint8_t)(1u << (id % 8));
        if (c->disabled)
            rs->kw_disabled[id]++;
        else
            rs->kw_enabled[id]++;
    }
}

/* After a syntax error, still find the sid so the message can name the rule. */
static void salvage_sid(struct rule_ctx *c, const struct otok *t, int n)
{
    for (int i = 0; i < n; i++) {
        if (strcmp(t[i].kw, "sid") == 0 && t[i].val) {
            uint64_t v;
            if (slice_u64(t[i].val, strlen(t[i].val), false, UINT32_MAX, &v))
                c->rule->sid = (uint32_t)v;
        }
    }
}

/* The sid of a rule whose options could not even be split: scan the raw text. */
static void salvage_sid_raw(struct rule_ctx *c, const char *start, const char *end)
{
    for (const char *p = start + 1; p + 4 < end; p++) {
        if ((p[-1] == ';' || p[-1] == '(' || is_space(p[-1])) && memcmp(p, "sid", 3) == 0) {
            const char *q = skip_ws(p + 3, end);
            if (q < end && *q == ':') {
                q = skip_ws(q + 1, end);
                uint64_t v = 0;
                const char *d = q;
                while (d < end && is_digit(*d))
                    d++;
                if (d > q && slice_u64(q, (size_t)(d - q), false, UINT32_MAX, &v))
                    c->rule->sid = (uint32_t)v;
                return;
            }
        }
    }
}

static void walk_options(struct rule_ctx *c, struct otok *t, int n,
                         struct osprey_rule_option *opts)
{
    for (int i = 0; i < n && !c->syntax.set; i++) {
        struct osprey_rule_option *o = &opts[i];
        if (t[i].id < 0) {
            rule_syntax_error(c, t[i].kw, "unknown option", "unknown option '%s'", t[i].kw);
            break;
        }
        const struct opt_def *d = opt_def_by_id(t[i].id);
        o->keyword = d->name;
        o->value = t[i].val;
        o->kw = (uint16_t)t[i].id;
        rule_where(c, t[i].kw, &o->line, &o->col);
        c->opt = o;
        c->def = d;
        c->kwpos = t[i].kw;
        c->rule->nopts = (uint32_t)i + 1;
        if (d->arg == ARG_NONE && t[i].val) {
            opt_error(c, t[i].val, "takes no argument");
            break;
        }
        if (d->arg == ARG_REQUIRED && !t[i].val) {
            opt_error(c, t[i].kw, "needs an argument ('%s:VALUE;')", d->name);
            break;
        }
        switch (d->kind) {
        case OPT_STICKY:
            select_buffer(c, d->buffer);
            break;
        case OPT_HTTP_LEGACY:
            if (c->snort3)
                select_buffer(c, d->buffer);
            else if (legacy_modifier(c) < 0)
                return;
            break;
        case OPT_TRANSFORM:
            if (c->buffer == BUF_PKT) {
                opt_error(c, t[i].kw, "a transform needs a sticky buffer before it");
                return;
            }
            if (c->buffer_used && !c->xform_pending) {
                /* Suricata 8: the options before it inspected the buffer as it was, the
                 * ones after it inspect a new chain of transforms from this one on */
                c->xforms = NULL;
                c->nxforms = 0;
            }
            if (c->buffer_used)
                c->xform_pending = true;
            break;
        case OPT_MODIFIER:
            if (c->last_content == NULL) {
                opt_error(c, t[i].kw, "needs a content before it");
                return;
            }
            break;
        default:
            break;
        }
        if (d->kind == OPT_PAYLOAD && c->absent_only) {
            opt_error(c, t[i].kw, "the buffer is tested with plain 'absent' (use 'absent: "
                                  "or_else' to inspect it when present)");
            return;
        }
        o->buffer = c->buffer;
        o->side = c->side;
        if (d->kind == OPT_TRANSFORM && c->nxforms++ == 0)
            c->xform_at = (uint16_t)i;
        o->xform_at = c->xform_at;
        o->nxforms = d->kind == OPT_TRANSFORM ? 0 : c->nxforms;
        if (d->parse && d->parse(c, t[i].val) < 0)
            return;
        if (d->kind == OPT_STICKY)
            o->side = c->side; /* its own argument */
        if (d->kind == OPT_PAYLOAD) {
            c->buffer_used = true;
            c->xform_pending = false;
            c->last_payload_opt = o;
        }
        if (d->kind == OPT_TRANSFORM) {
            struct xform_chain *x = arena_alloc(c->ar, sizeof *x);
            if (x == NULL) {
                rule_oom(c);
                return;
            }
            x->prev = c->xforms;
            x->kw = o->kw;
            x->arg = o->arg;
            c->xforms = x;
        }
        if (c->unsupported_kw < 0) {
            bool done = opt_def_implemented(d);
            const char *why = done ? opt_compile_check(d, o->arg) : NULL;
            if (!done || why) {
                c->unsupported_kw = t[i].id;
                c->unsupported_why = why;
            }
        }
    }
    if (!c->syntax.set && c->xform_pending)
        rule_syntax_error(c, c->sticky_pos, "syntax error in buffers",
                          "%s: a transform after its matches, and nothing inspects its result",
                          c->sticky_opt->keyword);
    if (!c->syntax.set && !c->snort3 && c->sticky_opt && !c->buffer_used &&
        c->buffer != BUF_PKT)
        rule_syntax_error(c, c->sticky_pos, "syntax error in buffers",
                          "%s: sticky buffer selected but nothing inspects it",
                          c->sticky_opt->keyword);
}

struct osprey_rule *rule_parse(struct rule_ctx *c, char *text, uint32_t len)
{
    struct osprey_rule *r = arena_zalloc(c->ar, sizeof *r);
    if (r == NULL) {
        rule_oom(c);
        return NULL;
    }
    c->rule = r;
    c->text = text;
    c->buffer = BUF_PKT;
    c->unsupported_kw = -1;
    c->unsupported_why = NULL;
    r->gid = 1;
    char *end = text + len;
    char *open = parse_header(c, text, end);
    if (open == NULL) {
        salvage_sid_raw(c, text, end);
        return r;
    }
    char *close = (char *)rtrim(open, end);
    if (close == open + 1 || close[-1] != ')') {
        rule_syntax_error(c, close > open ? close - 1 : open, "syntax error in options",
                          "options: the rule must end with ')'");
        salvage_sid_raw(c, open, end);
        return r;
    }
    close--;
    struct otok *t = NULL;
    int n = split_options(c, open + 1, close, &t);
    if (n < 0) {
        salvage_sid_raw(c, open, end);
        return r;
    }
    /* Suricata reads requires: first: a rule for a newer engine may use keywords this one
     * does not know, and is skipped quietly when its requirements are not met */
    for (int i = 0; i < n; i++) {
        const char *bad;
        if (!strcmp(t[i].kw, "requires") && t[i].val && requires_eval(c, t[i].val, &bad) == 0) {
            c->skipped = true;
            salvage_sid(c, t, n);
            return r;
        }
    }
    count_keywords(c, t, n);
    decide_dialect(c, t, n);
    struct osprey_rule_option *opts = arena_zalloc(c->ar, (size_t)(n ? n : 1) * sizeof *opts);
    if (opts == NULL) {
        rule_oom(c);
        return r;
    }
    r->opts = opts;
    walk_options(c, t, n, opts);
    if (c->syntax.set) {
        salvage_sid(c, t, n);
        return r;
    }
    if (!(c->meta_seen & META_SID))
        rule_syntax_error(c, open, "missing sid", "the rule has no sid");
    return r;
}
