/* opt_app.c — application protocol options that are not buffers.
 *
 *   service:http[,smtp…]                 (Snort 3: the services the rule applies to)
 *   sip_method:[!]invite[,options…]      sip_stat_code:200[,1…]   (Snort 2/3)
 *   ftpdata_command:stor|retr            dns.opcode:[!]N            (Suricata)
 *   ftp.dynamic_port:<cmp>   ftp.mode:active|passive   ftp.reply_received:yes|no (Suricata 8)
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"
#include "text.h"

static int parse_service(struct rule_ctx *c, char *val)
{
    struct opt_words *w = opt_arg_new(c, sizeof *w);
    return w ? parse_words(c, val, ',', false, NULL, w) : -1;
}

/* Detection restricts the rule to flows of the services listed: each must be a protocol the
 * parsers register (its name or an alias, osprey_parsers.h), or the rule would run on part of
 * what it names. */
const char *service_compile_check(const void *arg)
{
    const struct opt_words *w = arg;
    for (uint32_t i = 0; i < w->n; i++)
        if (osprey_app_proto_find(w->words[i]) <= OSPREY_APP_PROTO_FAILED ||
            (w->negated && w->negated[i]))
            return "a service the parsers do not detect";
    return NULL;
}

/* sip_method: methods by name (the SIP parser's field values: Snort's methods), any of them;
 * a single one may be negated */
static int parse_sip_method(struct rule_ctx *c, char *val)
{
    struct opt_words w;
    struct opt_field_set *x = opt_arg_new(c, sizeof *x);
    if (!x || parse_words(c, val, ',', true, NULL, &w) < 0)
        return -1;
    x->field = osprey_field_find("sip_method");
    for (uint32_t i = 0; i < w.n; i++) {
        char name[32];
        size_t k = strlen(w.words[i]);
        int64_t v;
        if (w.negated && w.negated[i]) {
            if (w.n > 1)
                return opt_error(c, w.words[i], "a negated method must be the only one");
            x->neg = true;
        }
        for (size_t j = 0; j < k && j < sizeof name - 1; j++)
            name[j] = (char)tolower((unsigned char)w.words[i][j]);
        name[k < sizeof name ? k : sizeof name - 1] = 0;
        if (x->field < 0 || !osprey_field_value((uint16_t)x->field, name, &v))
            return opt_error(c, w.words[i], "unknown SIP method '%s'", w.words[i]);
        if (x->n == OPT_FIELD_SET_MAX)
            return opt_error(c, w.words[i], "at most %d methods", OPT_FIELD_SET_MAX);
        x->r[x->n].lo = x->r[x->n].hi = v;
        x->n++;
    }
    return 0;
}

/* sip_stat_code: codes 100-999, or classes 1-9 (4: 400-499), any of them */
static int parse_sip_stat_code(struct rule_ctx *c, char *val)
{
    struct opt_field_set *x = opt_arg_new(c, sizeof *x);
    if (!x)
        return -1;
    x->field = osprey_field_find("sip_stat_code");
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        int64_t v;
        if (parse_num(c, item, n, 1, 999, false, &v, "status code") < 0)
            return -1;
        if (v >= 10 && v < 100)
            return opt_error(c, item, "status code %lld: use 1-9 for a class or 100-999",
                             (long long)v);
        if (x->n == OPT_FIELD_SET_MAX)
            return opt_error(c, item, "at most %d codes", OPT_FIELD_SET_MAX);
        x->r[x->n].lo = v < 10 ? v * 100 : v;
        x->r[x->n].hi = v < 10 ? v * 100 + 99 : v;
        x->n++;
    }
    return 0;
}


/* Suricata's integer keywords: N, !N, <N, >N …, and A-B meaning A < x < B. */
static int parse_dns_uint(struct rule_ctx *c, char *val, struct opt_cmp *cm, int64_t max)
{
    if (parse_cmp(c, val, strlen(val), 0, max, CMP_DASH, cm) < 0)
        return -1;
    if (cm->op == CMP_RANGE_INCL && strchr(val, '-'))
        cm->op = CMP_RANGE;
    return 0;
}

static int parse_dns_opcode(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_dns_uint(c, val, cm, 15) : -1;
}

/* dns.rcode: a comparison as dns.opcode's, the value also by name (nxdomain …, RFC 1035/2136) */
static int parse_dns_rcode(struct rule_ctx *c, char *val)
{
    static const char *const NAMES[] = {"noerror", "formerr", "servfail", "nxdomain", "notimp",
                                        "refused", "yxdomain", "yxrrset", "nxrrset", "notauth",
                                        "notzone", NULL};
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    bool neg = *v == '!';
    for (int i = 0; NAMES[i]; i++)
        if (!strcasecmp(v + neg, NAMES[i])) {
            char num[16];
            snprintf(num, sizeof num, "%s%d", neg ? "!" : "", i);
            return parse_cmp(c, num, strlen(num), 0, 15, 0, cm);
        }
    return parse_dns_uint(c, val, cm, 15);
}

/* dns.rrtype: a comparison on 16 bits, the value also by name (a, ns, cname … any) */
static int parse_dns_rrtype(struct rule_ctx *c, char *val)
{
    static const struct { const char *name; int v; } T[] = {
        {"a", 1}, {"ns", 2}, {"cname", 5}, {"soa", 6}, {"ptr", 12}, {"hinfo", 13}, {"mx", 15},
        {"txt", 16}, {"aaaa", 28}, {"srv", 33}, {"naptr", 35}, {"ds", 43}, {"rrsig", 46},
        {"nsec", 47}, {"dnskey", 48}, {"https", 65}, {"any", 255}};
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    bool neg = *val == '!';
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcasecmp(val + neg, T[i].name)) {
            cm->op = neg ? CMP_NE : CMP_EQ;
            cm->lo = T[i].v;
            return 0;
        }
    return parse_dns_uint(c, val, cm, 65535);
}

/* ftp.dynamic_port: the port a PORT / EPRT / PASV / EPSV announced, a comparison */
static int parse_ftp_port(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_dns_uint(c, val, cm, 65535) : -1;
}

/* ftp.mode / ftp.reply_received: one named value (the parsers' field values: active 1,
 * passive 2; no 0, yes 1), kept as an equality */
static int parse_ftp_named(struct rule_ctx *c, char *val, const char *const *names,
                           const int *values, const char *what)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    while (*val == ' ')
        val++;
    size_t n = strlen(val);
    while (n && val[n - 1] == ' ')
        n--;
    int k = parse_choice(c, val, n, names, what);
    if (k < 0)
        return -1;
    cm->op = CMP_EQ;
    cm->lo = values[k];
    return 0;
}

/* ftpdata_command: the ftp-data connection's command (the parsers' values: stor 1, retr 2) */
static int parse_ftpdata_command(struct rule_ctx *c, char *val)
{
    static const char *const NAMES[] = {"stor", "retr", NULL};
    static const int VALUES[] = {1, 2};
    return parse_ftp_named(c, val, NAMES, VALUES, "command");
}

static int parse_ftp_mode(struct rule_ctx *c, char *val)
{
    static const char *const NAMES[] = {"active", "passive", NULL};
    static const int VALUES[] = {1, 2};
    return parse_ftp_named(c, val, NAMES, VALUES, "mode");
}

static int parse_ftp_reply_received(struct rule_ctx *c, char *val)
{
    static const char *const NAMES[] = {"yes", "on", "no", "off", NULL};
    static const int VALUES[] = {1, 1, 0, 0};
    return parse_ftp_named(c, val, NAMES, VALUES, "value");
}

#define APP_MATCH(name, buf, parse)                                                        \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_##buf, parse, true, NULL}
static const struct opt_def DEFS[] = {
    {"service", OPT_META, D_S3, ARG_REQUIRED, 0, parse_service, true, service_compile_check},
    /* on a SIP request / response (the SIP parser's fields; compile/unit_fields.c) */
    {"sip_method", OPT_MATCH, D_S2 | D_S3, ARG_REQUIRED, BUF_SIP_METHOD, parse_sip_method, true,
     NULL},
    {"sip_stat_code", OPT_MATCH, D_S2 | D_S3, ARG_REQUIRED, BUF_SIP_STAT_CODE,
     parse_sip_stat_code, true, NULL},
    /* an app match keyword's row names the buffer whose message it reads (its event: the
     * compiler runs it there, det_app_match_buffer) */
    APP_MATCH("ftpdata_command", FTP_DATA_TRANSACTION, parse_ftpdata_command), /* either way */
    APP_MATCH("dns.opcode", DNS_QUERIES_RRNAME, parse_dns_opcode), /* any DNS message */
    APP_MATCH("dns.rcode", DNS_QUERIES_RRNAME, parse_dns_rcode),
    APP_MATCH("dns.rrtype", DNS_QUERIES_RRNAME, parse_dns_rrtype),
    APP_MATCH("ftp.dynamic_port", FTP_TRANSACTION, parse_ftp_port), /* once answered */
    APP_MATCH("ftp.mode", FTP_TRANSACTION, parse_ftp_mode),
    APP_MATCH("ftp.reply_received", FTP_COMPLETION_CODE, parse_ftp_reply_received),
};
OPT_TABLE(opt_table_app, DEFS);
