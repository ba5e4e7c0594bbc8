/* dump.c — `osprey --dump-rules`: every rule read as one JSON object per line.
 *
 * For people (what did the parser make of this rule?) and for tests, which assert on the AST
 * through it: header with resolved address/port ranges, identity, options with the buffer each
 * inspects, and the decoded bytes and modifiers of contents.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "header.h"
#include "opt_args.h"
#include "osprey_rules.h"
#include "registry.h"
#include "rules_files.h"

static void json_str(FILE *out, const char *s)
{
    if (s == NULL) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void ip_text(FILE *out, struct osprey_ip ip)
{
    if (ip.hi == 0 && (ip.lo >> 32) == 0xffff) {
        uint32_t v = (uint32_t)ip.lo;
        fprintf(out, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
        return;
    }
    /* Plain eight groups: exact and easy to compare in tests. */
    for (int i = 0; i < 8; i++) {
        uint64_t w = i < 4 ? ip.hi : ip.lo;
        fprintf(out, "%s%x", i ? ":" : "", (unsigned)((w >> (48 - 16 * (i % 4))) & 0xffff));
    }
}

static void ipset(FILE *out, const struct osprey_ip_set *s)
{
    fputc('[', out);
    for (uint32_t i = 0; i < s->n; i++) {
        fputs(i ? ",\"" : "\"", out);
        ip_text(out, s->r[i].lo);
        fputc('-', out);
        ip_text(out, s->r[i].hi);
        fputc('"', out);
    }
    fputc(']', out);
}

static void portset(FILE *out, const struct osprey_port_set *s)
{
    fputc('[', out);
    for (uint32_t i = 0; i < s->n; i++)
        fprintf(out, "%s[%u,%u]", i ? "," : "", s->r[i].lo, s->r[i].hi);
    fputc(']', out);
}

static void content(FILE *out, const struct opt_content *ct)
{
    fputs(",\"pattern_hex\":\"", out);
    for (uint32_t i = 0; i < ct->len; i++)
        fprintf(out, "%02x", ct->pattern[i]);
    fprintf(out, "\",\"negated\":%s,\"nocase\":%s", ct->negated ? "true" : "false",
            ct->nocase ? "true" : "false");
    if (ct->has & CONTENT_DEPTH)
        fprintf(out, ",\"depth\":%d", ct->depth);
    if (ct->has & CONTENT_OFFSET)
        fprintf(out, ",\"offset\":%d", ct->offset);
    if (ct->has & CONTENT_DISTANCE)
        fprintf(out, ",\"distance\":%d", ct->distance);
    if (ct->has & CONTENT_WITHIN)
        fprintf(out, ",\"within\":%d", ct->within);
    const char *vars[] = {ct->depth_var, ct->offset_var, ct->distance_var, ct->within_var};
    const char *names[] = {"depth_var", "offset_var", "distance_var", "within_var"};
    for (int i = 0; i < 4; i++)
        if (vars[i]) {
            fprintf(out, ",\"%s\":", names[i]);
            json_str(out, vars[i]);
        }
    if (ct->fast_pattern)
        fprintf(out, ",\"fast_pattern\":%s", ct->fp_only ? "\"only\"" : "true");
    if (ct->startswith)
        fputs(",\"startswith\":true", out);
    if (ct->endswith)
        fputs(",\"endswith\":true", out);
    if (ct->rawbytes)
        fputs(",\"rawbytes\":true", out);
}

static void rule_json(FILE *out, const struct osprey_rule *r)
{
    static const char *const STATUS[] = {"accepted", "rejected", "disabled"};
    static const char *const DIALECT[] = {"auto", "snort2", "snort3", "suricata"};
    fputs("{\"file\":", out);
    json_str(out, r->file);
    fprintf(out, ",\"line\":%u,\"status\":\"%s\"", r->line, STATUS[r->status]);
    if (r->reason) {
        fputs(",\"reason\":", out);
        json_str(out, r->reason);
    }
    fprintf(out, ",\"dialect\":\"%s\",\"action\":\"%s\",\"proto\":", DIALECT[r->dialect],
            header_action_name(r->action));
    json_str(out, r->proto);
    if (r->hook) { /* Suricata 8's rule hook and a firewall rule's action scope */
        fputs(",\"hook\":", out);
        json_str(out, r->hook);
    }
    static const char *const SCOPE[] = {NULL, "packet", "flow", "hook", "tx"};
    if (r->scope != OSPREY_SCOPE_NONE)
        fprintf(out, ",\"scope\":\"%s\"", SCOPE[r->scope]);
    fprintf(out, ",\"gid\":%u,\"sid\":%u,\"rev\":%u,\"priority\":%d", r->gid, r->sid, r->rev,
            r->priority);
    fputs(",\"msg\":", out);
    json_str(out, r->msg);
    fputs(",\"classtype\":", out);
    json_str(out, r->classtype);
    if (r->proto && r->src.addr) {
        fputs(",\"src\":", out);
        json_str(out, r->src.addr_text);
        fputs(",\"sport\":", out);
        json_str(out, r->src.port_text);
        fprintf(out, ",\"dir\":\"%s\",\"dst\":", r->dir == OSPREY_DIR_BOTH ? "<>"
                                            : r->dir == OSPREY_DIR_TX ? "=>" : "->");
        json_str(out, r->dst.addr_text);
        fputs(",\"dport\":", out);
        json_str(out, r->dst.port_text);
        fputs(",\"src_ranges\":", out);
        ipset(out, r->src.addr);
        fputs(",\"sport_ranges\":", out);
        portset(out, r->src.port);
        fputs(",\"dst_ranges\":", out);
        ipset(out, r->dst.addr);
        fputs(",\"dport_ranges\":", out);
        portset(out, r->dst.port);
    }
    fputs(",\"options\":[", out);
    for (uint32_t i = 0; i < r->nopts; i++) {
        const struct osprey_rule_option *o = &r->opts[i];
        fputs(i ? ",{\"keyword\":" : "{\"keyword\":", out);
        json_str(out, o->keyword);
        fputs(",\"value\":", out);
        json_str(out, o->value);
        fputs(",\"buffer\":", out);
        json_str(out, osprey_rules_buffer_name(o->buffer));
        if (o->arg && (strcmp(o->keyword, "content") == 0 ||
                       strcmp(o->keyword, "uricontent") == 0))
            content(out, o->arg);
        fputc('}', out);
    }
    fputs("]}\n", out);
}

int osprey_rules_dump(const struct osprey_config *cfg, const char *const *files, int nfiles,
                      FILE *out)
{
    struct osprey_ruleset *rs;
    int rc = rules_load_for_report(cfg, files, nfiles, true, stderr, &rs);
    if (rc < 0)
        return 1;
    for (size_t i = 0; i < osprey_ruleset_count(rs); i++)
        rule_json(out, osprey_ruleset_rule(rs, i));
    /* Problems outside rules (files, variables, config files) go to stderr. */
    for (size_t i = 0; i < osprey_ruleset_diag_count(rs); i++) {
        const struct osprey_rules_diag *d = osprey_ruleset_diag(rs, i);
        if (d->kind == OSPREY_DIAG_CONFIG || d->kind == OSPREY_DIAG_WARNING)
            fprintf(stderr, "%s%s:%u: %s\n", d->kind == OSPREY_DIAG_WARNING ? "warning: " : "",
                    d->file, d->line, d->text);
    }
    const struct osprey_rules_stats *s = osprey_ruleset_stats(rs);
    int status = rc == 0 && s->rejected == 0 && s->config_errors == 0 ? 0 : 1;
    osprey_ruleset_free(rs);
    return status;
}
