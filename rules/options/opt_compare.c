/* opt_compare.c — options that compare one number: sizes, header fields, ICMP codes.
 *
 *   dsize:N|<N|>N|<=N|>=N|!N|A<>B|A<=>B        payload size          0..65535
 *   urilen:…[,norm|raw]  bsize:…  bufferlen:…[,relative]  (buffer lengths)
 *   itype, icode, ttl, tos (0..255); id, window, icmp_id, icmp_seq (0..65535);
 *   seq, ack (0..4294967295); fragoffset (0..8191)
 *   isdataat:[!]N|VAR[,relative][,rawbytes]
 *   stream_size:server|client|both|either,OP,N  (Snort 2/Suricata)  or  CMP,DIRECTION (Snort 3)
 * Suricata also writes ranges A-B for a few of them.
 */
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int cmp_option(struct rule_ctx *c, char *val, int64_t max, unsigned flags)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (cm == NULL)
        return -1;
    return parse_cmp(c, val, strlen(val), 0, max, flags, cm);
}

/* dsize and bsize are Suricata integer keywords: A-B is exclusive, !A-B outside it */
static int parse_dsize(struct rule_ctx *c, char *val)
{
    return cmp_option(c, val, 65535, CMP_DASH_EXCL);
}

static int parse_u8(struct rule_ctx *c, char *val)
{
    return cmp_option(c, val, 255, CMP_DASH);
}

static int parse_u16(struct rule_ctx *c, char *val)
{
    return cmp_option(c, val, 65535, 0);
}

/* Suricata also writes tos:x10 and tos:!x10 (hex without the 0) */
static int parse_tos(struct rule_ctx *c, char *val)
{
    const char *end = val + strlen(val), *p = skip_ws(val, end);
    bool neg = *p == '!';
    const char *x = neg ? skip_ws(p + 1, end) : p;
    if (*x != 'x' && *x != 'X')
        return parse_u8(c, val);
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (cm == NULL)
        return -1;
    cm->op = neg ? CMP_NE : CMP_EQ;
    const char *h = x + 1, *e = rtrim(h, end);
    int64_t v = 0;
    if (e == h || e - h > 2)
        return opt_error(c, x, "expected 'x' and one or two hex digits");
    for (const char *q = h; q < e; q++) {
        if (!is_xdigit(*q))
            return opt_error(c, q, "expected 'x' and one or two hex digits");
        v = v * 16 + xdigit_val(*q);
    }
    cm->lo = v;
    return 0;
}

/* id:"N" — Suricata takes the number quoted too */
static int parse_id(struct rule_ctx *c, char *val)
{
    size_t n = strlen(val);
    if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
        val[n - 1] = '\0';
        val++;
    }
    return parse_u16(c, val);
}

static int parse_u32(struct rule_ctx *c, char *val)
{
    return cmp_option(c, val, UINT32_MAX, 0);
}

static int parse_fragoffset(struct rule_ctx *c, char *val)
{
    return cmp_option(c, val, 8191, 0);
}

/* "CMP[,WORD]" where WORD is one of words (or absent). */
static int cmp_with_word(struct rule_ctx *c, char *val, int64_t max, const char *const *words,
                         unsigned dash)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (cm == NULL)
        return -1;
    char *comma = strchr(val, ',');
    size_t n = comma ? (size_t)(comma - val) : strlen(val);
    if (parse_cmp(c, val, n, 0, max, dash, cm) < 0)
        return -1;
    if (comma) {
        const char *w = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
        int k = parse_choice(c, w, strlen(w), words, "modifier");
        if (k < 0)
            return -1;
        cm->flags = (uint32_t)k + 1;
    }
    return 0;
}

static int parse_urilen(struct rule_ctx *c, char *val)
{
    static const char *const W[] = {"norm", "raw", NULL};
    return cmp_with_word(c, val, 65535, W, CMP_DASH);
}

static int parse_bsize(struct rule_ctx *c, char *val)
{
    static const char *const W[] = {NULL};
    return cmp_with_word(c, val, UINT32_MAX, W, CMP_DASH_EXCL);
}

static int parse_bufferlen(struct rule_ctx *c, char *val)
{
    static const char *const W[] = {"relative", NULL};
    return cmp_with_word(c, val, 65535, W, CMP_DASH);
}

static int parse_window(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (cm == NULL)
        return -1;
    const char *p = val;
    cm->op = CMP_EQ;
    if (*p == '!') {
        cm->op = CMP_NE;
        p = skip_ws(p + 1, p + strlen(p));
    }
    return parse_num(c, p, strlen(p), 0, 65535, true, &cm->lo, "window");
}

static int parse_isdataat(struct rule_ctx *c, char *val)
{
    struct opt_isdataat *d = opt_arg_new(c, sizeof *d);
    if (d == NULL)
        return -1;
    struct list_iter it;
    const char *item;
    size_t n;
    bool first = true;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        if (first) {
            first = false;
            if (n && *item == '!') {
                d->negated = true;
                item++;
                n--;
                while (n && is_space(*item))
                    item++, n--;
            }
            if (parse_num_or_var(c, item, n, 0, 65535, false, &d->var, &d->n, "size") < 0)
                return -1;
        } else if (slice_eq(item, n, "relative") && !d->relative) {
            d->relative = true;
            opt_relative_to_previous(c);
        } else if (slice_eq(item, n, "rawbytes") && !d->rawbytes) {
            d->rawbytes = true;
        } else {
            return opt_error(c, item, "unexpected '%.*s' (relative, rawbytes)", (int)n, item);
        }
    }
    return 0;
}

static int parse_stream_size(struct rule_ctx *c, char *val)
{
    static const char *const SIDES[] = {"server", "client", "both", "either", NULL};
    static const char *const DIRS[] = {"to_server", "to_client", "both", "either", NULL};
    static const char *const OPS[] = {"=", "!=", "<", ">", "<=", ">=", NULL};
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (cm == NULL)
        return -1;
    const char *f[4];
    size_t fl[4];
    int k = list_split(val, strlen(val), ',', f, fl, 4);
    if (k >= 1 && fl[0] && is_alpha(f[0][0])) {
        /* Snort 2 / Suricata: side, operator, value */
        if (k != 3)
            return opt_error(c, val, "expected 'server|client|both|either,OPERATOR,VALUE'");
        int side = parse_choice(c, f[0], fl[0], SIDES, "side");
        int op = side < 0 ? -1 : parse_choice(c, f[1], fl[1], OPS, "operator");
        if (op < 0)
            return -1;
        cm->op = (uint8_t)op; /* CMP_EQ, CMP_NE, CMP_LT, CMP_GT, CMP_LE, CMP_GE in this order */
        cm->flags = (uint32_t)side + 1;
        return parse_num(c, f[2], fl[2], 0, UINT32_MAX, false, &cm->lo, "value");
    }
    /* Snort 3: comparison[, direction] */
    if (k > 2)
        return opt_error(c, val, "expected 'COMPARISON[,to_server|to_client|both|either]'");
    if (parse_cmp(c, f[0], fl[0], 0, UINT32_MAX, 0, cm) < 0)
        return -1;
    if (k == 2) {
        int d = parse_choice(c, f[1], fl[1], DIRS, "direction");
        if (d < 0)
            return -1;
        cm->flags = (uint32_t)d + 5; /* Snort 3's directions: STREAM_SIZE_TO_SERVER … */
    }
    return 0;
}

const char *stream_size_compile_check(const void *arg)
{
    const struct opt_cmp *cm = arg;
    if (cm->flags == 0)
        return "a Snort 3 comparison without a direction";
    if (cm->op > CMP_GE)
        return "a range";
    return NULL;
}

bool stream_size_match(const struct opt_cmp *cm, uint64_t client, uint64_t server)
{
    /* Snort 2/Suricata name whose bytes (server, client), Snort 3 their direction */
    switch (cm->flags) {
    case STREAM_SIZE_SERVER:
    case STREAM_SIZE_TO_CLIENT:
        return cmp_match(cm, (int64_t)server);
    case STREAM_SIZE_CLIENT:
    case STREAM_SIZE_TO_SERVER:
        return cmp_match(cm, (int64_t)client);
    case STREAM_SIZE_BOTH:
    case STREAM_SIZE_TO_BOTH:
        return cmp_match(cm, (int64_t)client) && cmp_match(cm, (int64_t)server);
    default:
        return cmp_match(cm, (int64_t)client) || cmp_match(cm, (int64_t)server);
    }
}

static const struct opt_def DEFS[] = {
    {"dsize", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_dsize, true, cmp_compile_check},
    {"urilen", OPT_MATCH, D_CLASSIC, ARG_REQUIRED, BUF_HTTP_URI, parse_urilen, true, urilen_compile_check},
    {"bsize", OPT_PAYLOAD, D_SURI, ARG_REQUIRED, 0, parse_bsize, true, cmp_compile_check},
    {"bufferlen", OPT_PAYLOAD, D_S3, ARG_REQUIRED, 0, parse_bufferlen, true,
     bufferlen_compile_check},
    {"isdataat", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_isdataat, true, isdataat_compile_check},
    {"itype", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u8, true, cmp_compile_check},
    {"icode", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u8, true, cmp_compile_check},
    {"ttl", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u8, true, cmp_compile_check},
    {"tos", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_tos, true, cmp_compile_check},
    {"id", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_id, true, cmp_compile_check},
    {"icmp_id", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u16, true, cmp_compile_check},
    {"icmp_seq", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u16, true, cmp_compile_check},
    {"seq", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u32, true, cmp_compile_check},
    {"ack", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_u32, true, cmp_compile_check},
    {"window", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_window, true, cmp_compile_check},
    /* Suricata's own names for the same fields */
    {"tcp.seq", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_u32, true, cmp_compile_check},
    {"tcp.ack", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_u32, true, cmp_compile_check},
    {"tcp.window", OPT_MATCH, D_SURI, ARG_REQUIRED, 0, parse_window, true, cmp_compile_check},
    {"fragoffset", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_fragoffset, true, cmp_compile_check},
    {"stream_size", OPT_MATCH, D_ALL, ARG_REQUIRED, 0, parse_stream_size, true,
     stream_size_compile_check},
};
OPT_TABLE(opt_table_compare, DEFS);

/* --- compile and evaluate (dsize and the other plain comparisons) ---------------------- */

const char *cmp_compile_check(const void *arg)
{
    const struct opt_cmp *cm = arg;
    if (cm->var)
        return "a byte variable as the value";
    if (cm->flags)
        return "a comparison modifier";
    return NULL;
}

const char *bufferlen_compile_check(const void *arg)
{
    const struct opt_cmp *cm = arg;
    if (cm->flags != 1)
        return cmp_compile_check(cm);
    if (cm->var)
        return "a byte variable as the value";
    if (cm->op == CMP_NE || cm->op == CMP_OUTSIDE)
        return "bufferlen,relative with this comparison";
    return NULL;
}

const char *urilen_compile_check(const void *arg)
{
    /* its norm/raw modifier is honoured (the flags); a byte variable is not */
    struct opt_cmp plain = *(const struct opt_cmp *)arg;
    plain.flags = 0;
    return cmp_compile_check(&plain) ? "a byte variable as the value" : NULL;
}

bool cmp_match(const struct opt_cmp *cm, int64_t x)
{
    switch (cm->op) {
    case CMP_EQ: return x == cm->lo;
    case CMP_NE: return x != cm->lo;
    case CMP_LT: return x < cm->lo;
    case CMP_GT: return x > cm->lo;
    case CMP_LE: return x <= cm->lo;
    case CMP_GE: return x >= cm->lo;
    case CMP_RANGE: return x > cm->lo && x < cm->hi;
    case CMP_RANGE_INCL: return x >= cm->lo && x <= cm->hi;
    case CMP_OUTSIDE: return x <= cm->lo || x >= cm->hi;
    case CMP_MASK: return (x & cm->hi) == cm->lo;
    case CMP_ANY_BIT: return (x & cm->lo) != 0;
    default: return false;
    }
}

const char *isdataat_compile_check(const void *arg)
{
    const struct opt_isdataat *d = arg;
    (void)d; /* a variable size is bound at run time (isdataat_bind) */
    return NULL;
}

void isdataat_var_names(const struct opt_isdataat *d, const char *names[BYTE_VAR_FIELDS])
{
    names[0] = d->var;
    names[1] = names[2] = names[3] = NULL;
}

bool isdataat_bind(const struct opt_isdataat *d, const int64_t vals[BYTE_VAR_FIELDS],
                   struct opt_isdataat *out)
{
    *out = *d;
    if (d->var) {
        if (vals[0] < 0 || vals[0] > INT32_MAX)
            return false;
        out->n = vals[0];
    }
    return true;
}

/* isdataat:N — is there a byte at N (from the start, or past the previous match)? */
bool isdataat_match(const struct opt_isdataat *d, uint32_t len, int64_t prev_end)
{
    /* absolute: a byte at offset n; relative: at least n bytes after the previous match
     * (so isdataat:32,relative holds at the start of 32 bytes where isdataat:32 does not) */
    bool there = d->relative ? prev_end + d->n <= (int64_t)len : d->n < (int64_t)len;
    return d->negated ? !there : there;
}

/* Header fields the comparisons above test (itype … window, fragoffset): the packet's
 * value, or false when the packet has no such field (id on IPv6, seq on UDP, itype on TCP …). */
bool hdr_field(int field, const struct hdr_view *h, int64_t *v)
{
    switch (field) {
    case HF_ITYPE: *v = h->icmp_type; return h->is_icmp;
    case HF_ICODE: *v = h->icmp_code; return h->is_icmp;
    case HF_TTL: *v = h->ttl; return h->ipver != 0;
    case HF_TOS: *v = h->tos; return h->ipver != 0;
    case HF_ID: *v = h->ip_id; return h->ipver == 4;
    case HF_ICMP_ID: *v = h->icmp_id; return h->icmp_echo;
    case HF_ICMP_SEQ: *v = h->icmp_seq; return h->icmp_echo;
    case HF_SEQ: *v = h->tcp_seq; return h->is_tcp;
    case HF_ACK: *v = h->tcp_ack; return h->is_tcp;
    case HF_WINDOW: *v = h->tcp_win; return h->is_tcp;
    case HF_FRAGOFF: *v = h->frag_off; return h->ipver == 4;
    }
    return false;
}

int hdr_field_of(const char *keyword)
{
    if (!strncmp(keyword, "tcp.", 4) && (!strcmp(keyword + 4, "seq") ||
                                         !strcmp(keyword + 4, "ack") ||
                                         !strcmp(keyword + 4, "window")))
        keyword += 4; /* tcp.seq, tcp.ack, tcp.window: Suricata's names of seq, ack, window */
    static const char *const NAMES[] = {"itype", "icode", "ttl", "tos", "id", "icmp_id",
                                        "icmp_seq", "seq", "ack", "window", "fragoffset",
                                        NULL};
    for (int i = 0; NAMES[i]; i++)
        if (!strcmp(NAMES[i], keyword))
            return i;
    return -1;
}
