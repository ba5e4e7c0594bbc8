/* opt_byte.c — byte_test, byte_jump, byte_extract, byte_math (every dialect).
 *
 *   byte_test:BYTES,[!]OP,VALUE,OFFSET[,relative][,big|little][,string,hex|dec|oct][,dce]
 *             [,bitmask MASK]                       OP: < > = <= >= & ^
 *   byte_jump:BYTES,OFFSET[,relative][,multiplier N][,big|little][,string,hex|dec|oct]
 *             [,align][,from_beginning|from_end][,post_offset N][,dce][,bitmask MASK]
 *   byte_extract:BYTES,OFFSET,NAME[,relative][,multiplier N][,big|little]
 *             [,string,hex|dec|oct][,align 2|4][,dce][,bitmask MASK]
 *   byte_math:bytes N, offset N, oper + - * / << >>, rvalue N|VAR, result NAME[,relative]
 *             [,endian big|little][,string hex|dec|oct][,dce][,bitmask MASK]
 * VALUE and OFFSET may name a variable defined by an earlier byte_extract/byte_math, which
 * byte_extract (NAME) and byte_math (result) define for later options.
 */
#include <string.h>

#include "opt_eval.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

enum { F_TEST, F_JUMP, F_EXTRACT, F_MATH };

#define MAX_FIELDS 24

struct fields {
    const char *f[MAX_FIELDS];
    size_t n[MAX_FIELDS];
    int count;
};

static int split_fields(struct rule_ctx *c, const char *val, struct fields *fs)
{
    struct list_iter it;
    fs->count = 0;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &fs->f[fs->count], &fs->n[fs->count])) {
        if (fs->n[fs->count] == 0)
            return opt_error(c, fs->f[fs->count], "empty field");
        if (++fs->count == MAX_FIELDS)
            return opt_error(c, val, "too many fields");
    }
    return 0;
}

static int set_flag(struct rule_ctx *c, struct opt_byte *b, uint32_t flag, const char *pos,
                    const char *word)
{
    if (b->flags & flag)
        return opt_error(c, pos, "'%s' given twice", word);
    b->flags |= flag;
    return 0;
}

static int set_base(struct rule_ctx *c, struct opt_byte *b, const char *w, size_t n)
{
    uint8_t base = slice_eq(w, n, "hex") ? 16 : slice_eq(w, n, "dec") ? 10
                 : slice_eq(w, n, "oct") ? 8 : 0;
    if (base == 0)
        return opt_error(c, w, "expected hex, dec or oct, got '%.*s'", (int)n, w);
    if (b->base)
        return opt_error(c, w, "number base given twice");
    b->base = base;
    return 0;
}

/* The optional words after the positional fields. */
static int parse_flags(struct rule_ctx *c, struct opt_byte *b, int kind, struct fields *fs,
                       int from, const char *pos)
{
    for (int i = from; i < fs->count; i++) {
        const char *w, *v;
        size_t wn, vn;
        split_word(fs->f[i], fs->n[i], &w, &wn, &v, &vn);
        int64_t x;
        int rc = 0;
        if (slice_eq(w, wn, "relative")) {
            rc = set_flag(c, b, BYTE_RELATIVE, w, "relative");
            opt_relative_to_previous(c);
        }
        else if (slice_eq(w, wn, "big"))
            rc = set_flag(c, b, BYTE_BIG, w, "big");
        else if (slice_eq(w, wn, "little"))
            rc = set_flag(c, b, BYTE_LITTLE, w, "little");
        else if (slice_eq(w, wn, "dce"))
            rc = set_flag(c, b, BYTE_DCE, w, "dce");
        else if (slice_eq(w, wn, "string")) {
            rc = set_flag(c, b, BYTE_STRING, w, "string");
            if (rc == 0 && vn) /* Snort 3 and byte_math: "string hex" */
                rc = set_base(c, b, v, vn), vn = 0;
        } else if (slice_eq(w, wn, "hex") || slice_eq(w, wn, "dec") || slice_eq(w, wn, "oct"))
            rc = set_base(c, b, w, wn);
        else if (slice_eq(w, wn, "endian") && kind == F_MATH) {
            if (slice_eq(v, vn, "big"))
                rc = set_flag(c, b, BYTE_BIG, v, "big");
            else if (slice_eq(v, vn, "little"))
                rc = set_flag(c, b, BYTE_LITTLE, v, "little");
            else if (slice_eq(v, vn, "dce"))
                rc = set_flag(c, b, BYTE_DCE, v, "dce");
            else
                rc = opt_error(c, v, "endian must be big, little or dce");
            vn = 0;
        } else if (slice_eq(w, wn, "bitmask")) {
            if (b->bitmask)
                return opt_error(c, w, "bitmask given twice");
            if (parse_num(c, v, vn, 1, UINT32_MAX, true, &x, "bitmask") < 0)
                return -1;
            b->bitmask = (uint64_t)x;
            vn = 0;
        } else if (slice_eq(w, wn, "multiplier") && (kind == F_JUMP || kind == F_EXTRACT)) {
            if (parse_num(c, v, vn, 1, 65535, false, &x, "multiplier") < 0)
                return -1;
            b->multiplier = (uint32_t)x;
            vn = 0;
        } else if (slice_eq(w, wn, "align") && kind == F_JUMP) {
            rc = set_flag(c, b, BYTE_ALIGN, w, "align");
        } else if (slice_eq(w, wn, "align") && kind == F_EXTRACT) {
            if (parse_num(c, v, vn, 2, 4, false, &x, "align") < 0 || x == 3)
                return x == 3 ? opt_error(c, v, "align must be 2 or 4") : -1;
            b->align = (uint32_t)x;
            vn = 0;
        } else if (slice_eq(w, wn, "from_beginning") && kind == F_JUMP)
            rc = set_flag(c, b, BYTE_FROM_BEGINNING, w, "from_beginning");
        else if (slice_eq(w, wn, "from_end") && kind == F_JUMP)
            rc = set_flag(c, b, BYTE_FROM_END, w, "from_end");
        else if (slice_eq(w, wn, "post_offset") && kind == F_JUMP) {
            if (parse_num(c, v, vn, -65535, 65535, false, &b->post_offset, "post_offset") < 0)
                return -1;
            vn = 0;
        } else
            return opt_error(c, w, "unknown field '%.*s'", (int)wn, w);
        if (rc < 0)
            return -1;
        if (vn)
            return opt_error(c, v, "unexpected '%.*s' after '%.*s'", (int)vn, v, (int)wn, w);
    }
    if ((b->flags & BYTE_BIG) && (b->flags & BYTE_LITTLE))
        return opt_error(c, pos, "big and little endian together");
    if (b->base && !(b->flags & BYTE_STRING))
        return opt_error(c, pos, "hex/dec/oct need 'string'");
    if ((b->flags & BYTE_STRING) && !b->base)
        b->base = 10;
    if ((b->flags & BYTE_DCE) && (b->flags & (BYTE_BIG | BYTE_LITTLE | BYTE_STRING)))
        return opt_error(c, pos, "dce takes its byte order from DCE/RPC: no endian or "
                                      "string with it");
    if ((b->flags & BYTE_FROM_BEGINNING) && (b->flags & BYTE_FROM_END))
        return opt_error(c, pos, "from_beginning and from_end together");
    /* 0 bytes: ET's "http.content_len; byte_test:0,>,1000,0,string,dec" reads the whole
     * (short) buffer as a number, and "byte_jump:0,0,relative,post_offset -13" only moves
     * by post_offset; Suricata accepts both. Anything else needs at least one byte. */
    if (b->bytes_var)
        return 0; /* the count is checked when the variable is bound */
    if (b->bytes == 0 && !(kind == F_JUMP || (kind == F_TEST && (b->flags & BYTE_STRING))))
        return opt_error(c, pos, "0 bytes: the count must be 1..10 (0 only for a string "
                                 "byte_test or a byte_jump)");
    int64_t max = (b->flags & BYTE_STRING) ? 23 : 10;
    if (b->bytes > (uint64_t)max)
        return opt_error(c, pos, "%u bytes: at most %lld %s", b->bytes, (long long)max,
                         (b->flags & BYTE_STRING) ? "for a string" : "for a binary number");
    return 0;
}

/* The number of bytes; byte_test, byte_jump and byte_math (not byte_extract) also take a
 * variable there, as Suricata does. */
static int parse_bytes(struct rule_ctx *c, struct opt_byte *b, const char *s, size_t n)
{
    int64_t x = 0;
    bool var_ok = strcmp(c->def->name, "byte_extract") != 0;
    if (parse_num_or_var(c, s, n, 0, 23, false, var_ok ? &b->bytes_var : NULL, &x,
                         "number of bytes") < 0)
        return -1;
    b->bytes = (uint32_t)x;
    return 0;
}

static int parse_byte_test(struct rule_ctx *c, char *val)
{
    struct opt_byte *b = opt_arg_new(c, sizeof *b);
    struct fields fs;
    if (b == NULL || split_fields(c, val, &fs) < 0)
        return -1;
    if (fs.count < 4)
        return opt_error(c, val, "expected 'BYTES,OPERATOR,VALUE,OFFSET[,...]'");
    if (parse_bytes(c, b, fs.f[0], fs.n[0]) < 0)
        return -1;
    const char *op = fs.f[1];
    size_t on = fs.n[1];
    if (on > 1 && op[0] == '!') {
        b->flags |= BYTE_NEGATED;
        op++;
        on--;
    }
    static const char *const OPS[] = {"<", ">", "=", "<=", ">=", "&", "^", NULL};
    if (parse_choice(c, op, on, OPS, "operator") < 0)
        return -1;
    memcpy(b->op, op, on);
    if (parse_num_or_var(c, fs.f[2], fs.n[2], 0, INT64_MAX, true, &b->value_var, &b->value,
                         "value") < 0 ||
        parse_num_or_var(c, fs.f[3], fs.n[3], -65535, 65535, false, &b->offset_var, &b->offset,
                         "offset") < 0)
        return -1;
    return parse_flags(c, b, F_TEST, &fs, 4, val);
}

static int parse_byte_jump(struct rule_ctx *c, char *val)
{
    struct opt_byte *b = opt_arg_new(c, sizeof *b);
    struct fields fs;
    if (b == NULL || split_fields(c, val, &fs) < 0)
        return -1;
    if (fs.count < 2)
        return opt_error(c, val, "expected 'BYTES,OFFSET[,...]'");
    if (parse_bytes(c, b, fs.f[0], fs.n[0]) < 0 ||
        parse_num_or_var(c, fs.f[1], fs.n[1], -65535, 65535, false, &b->offset_var, &b->offset,
                         "offset") < 0)
        return -1;
    return parse_flags(c, b, F_JUMP, &fs, 2, val);
}

static int parse_byte_extract(struct rule_ctx *c, char *val)
{
    struct opt_byte *b = opt_arg_new(c, sizeof *b);
    struct fields fs;
    if (b == NULL || split_fields(c, val, &fs) < 0)
        return -1;
    if (fs.count < 3)
        return opt_error(c, val, "expected 'BYTES,OFFSET,NAME[,...]'");
    if (parse_bytes(c, b, fs.f[0], fs.n[0]) < 0 ||
        parse_num(c, fs.f[1], fs.n[1], -65535, 65535, false, &b->offset, "offset") < 0)
        return -1;
    if (!is_alpha(fs.f[2][0]) || !is_name(fs.f[2], fs.n[2], NULL))
        return opt_error(c, fs.f[2], "invalid variable name '%.*s'", (int)fs.n[2], fs.f[2]);
    if (parse_flags(c, b, F_EXTRACT, &fs, 3, val) < 0 ||
        rule_define_var(c, fs.f[2], fs.f[2], fs.n[2]) < 0)
        return -1;
    b->name = opt_strdup(c, fs.f[2], fs.n[2]);
    return b->name ? 0 : -1;
}

static int parse_byte_math(struct rule_ctx *c, char *val)
{
    static const char *const OPS[] = {"+", "-", "*", "/", "<<", ">>", NULL};
    struct opt_byte *b = opt_arg_new(c, sizeof *b);
    struct fields fs;
    if (b == NULL || split_fields(c, val, &fs) < 0)
        return -1;
    struct fields rest = {.count = 0};
    unsigned seen = 0;
    const char *result = NULL;
    size_t result_n = 0;
    for (int i = 0; i < fs.count; i++) {
        const char *w, *v;
        size_t wn, vn;
        split_word(fs.f[i], fs.n[i], &w, &wn, &v, &vn);
        unsigned bit = slice_eq(w, wn, "bytes")    ? 1
                     : slice_eq(w, wn, "offset")   ? 2
                     : slice_eq(w, wn, "oper")     ? 4
                     : slice_eq(w, wn, "rvalue")   ? 8
                     : slice_eq(w, wn, "result")   ? 16 : 0;
        if (bit == 0) {
            rest.f[rest.count] = fs.f[i];
            rest.n[rest.count++] = fs.n[i];
            continue;
        }
        if (seen & bit)
            return opt_error(c, w, "'%.*s' given twice", (int)wn, w);
        seen |= bit;
        if (vn == 0)
            return opt_error(c, w, "'%.*s' needs a value", (int)wn, w);
        int rc = 0;
        switch (bit) {
        case 1: rc = parse_bytes(c, b, v, vn); break;
        case 2:
            rc = parse_num_or_var(c, v, vn, -65535, 65535, false, &b->offset_var, &b->offset,
                                  "offset");
            break;
        case 4:
            rc = parse_choice(c, v, vn, OPS, "operator");
            if (rc >= 0)
                memcpy(b->op, v, vn), rc = 0;
            break;
        case 8:
            rc = parse_num_or_var(c, v, vn, 1, UINT32_MAX, true, &b->rvalue_var, &b->rvalue,
                                  "rvalue");
            break;
        default:
            if (!is_alpha(v[0]) || !is_name(v, vn, NULL))
                return opt_error(c, v, "invalid result name '%.*s'", (int)vn, v);
            result = v;
            result_n = vn;
        }
        if (rc < 0)
            return -1;
    }
    if ((seen & 31) != 31)
        return opt_error(c, val, "needs bytes, offset, oper, rvalue and result");
    if (parse_flags(c, b, F_MATH, &rest, 0, val) < 0 ||
        rule_define_var(c, result, result, result_n) < 0)
        return -1;
    b->name = opt_strdup(c, result, result_n);
    return b->name ? 0 : -1;
}

static const struct opt_def DEFS[] = {
    {"byte_test", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_byte_test, true, byte_compile_check},
    {"byte_jump", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_byte_jump, true, byte_compile_check},
    {"byte_extract", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_byte_extract, true,
     byte_compile_check},
    {"byte_math", OPT_PAYLOAD, D_ALL, ARG_REQUIRED, 0, parse_byte_math, true, byte_compile_check},
};
OPT_TABLE(opt_table_byte, DEFS);

/* --- compile and evaluate (byte_test, byte_jump, byte_extract, byte_math) --------------- */

/* Variables (value, offset) are resolved by the compiler and bound at run time. */
const char *byte_compile_check(const void *arg)
{
    const struct opt_byte *b = arg;
    (void)b; /* dce: the DCERPC PDU's byte order (byte_dce_little) */
    return NULL;
}

_Thread_local bool byte_dce_little;

/* Read the field at (relative ? prev_end : 0) + offset, as Suricata does: big endian unless
 * little, or `bytes` characters of a number in base 10/16/8 with string; then the bitmask,
 * shifted down by its trailing zeros. *end: just past the field. */
static bool byte_read(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                      int64_t prev_end, uint64_t *val, int64_t *end)
{
    int64_t at = ((b->flags & BYTE_RELATIVE) ? prev_end : 0) + b->offset;
    /* 0 bytes (byte_jump, or a variable that holds 0): the value 0, as Suricata's binary
     * read of no bytes; a string of no digits is no number */
    if (at < 0 || at + b->bytes > (int64_t)len || (b->bytes == 0 && (b->flags & BYTE_STRING)))
        return false;
    uint64_t v = 0;
    if (b->flags & BYTE_STRING) {
        unsigned base = b->base ? b->base : 10;
        for (uint32_t i = 0; i < b->bytes; i++) {
            int ch = buf[at + i], d;
            if (ch >= '0' && ch <= '9')
                d = ch - '0';
            else if (ch >= 'a' && ch <= 'f')
                d = ch - 'a' + 10;
            else if (ch >= 'A' && ch <= 'F')
                d = ch - 'A' + 10;
            else
                return false;
            if ((unsigned)d >= base)
                return false;
            v = v * base + (unsigned)d;
        }
    } else {
        bool little = (b->flags & BYTE_LITTLE) || ((b->flags & BYTE_DCE) && byte_dce_little);
        if (b->bytes > 8)
            return false;
        for (uint32_t i = 0; i < b->bytes; i++) {
            uint32_t k = little ? b->bytes - 1 - i : i;
            v = v << 8 | buf[at + k];
        }
    }
    if (b->bitmask) {
        v &= b->bitmask;
        for (uint64_t m = b->bitmask; !(m & 1); m >>= 1)
            v >>= 1;
    }
    *val = v;
    *end = at + b->bytes;
    return true;
}

bool byte_test_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                    int64_t prev_end)
{
    uint64_t v, x = (uint64_t)b->value;
    int64_t end;
    if (!byte_read(b, buf, len, prev_end, &v, &end))
        return false;
    bool m;
    if (!strcmp(b->op, "<"))
        m = v < x;
    else if (!strcmp(b->op, ">"))
        m = v > x;
    else if (!strcmp(b->op, "<="))
        m = v <= x;
    else if (!strcmp(b->op, ">="))
        m = v >= x;
    else if (!strcmp(b->op, "&"))
        m = (v & x) != 0;
    else if (!strcmp(b->op, "^"))
        m = (v ^ x) != 0;
    else
        m = v == x;
    return (b->flags & BYTE_NEGATED) ? !m : m;
}

/* The new position: past the field plus the value (times multiplier, aligned to 4), or from
 * the buffer's start/end; then post_offset. Like Suricata, it must land inside the buffer. */
bool byte_jump_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                    int64_t prev_end, int64_t *new_end)
{
    uint64_t v;
    int64_t end;
    if (!byte_read(b, buf, len, prev_end, &v, &end) || v > (1ull << 40))
        return false;
    int64_t j = (int64_t)v * (b->multiplier ? b->multiplier : 1);
    if (b->flags & BYTE_ALIGN)
        j = (j + 3) & ~(int64_t)3;
    int64_t to = (b->flags & BYTE_FROM_BEGINNING) ? j
                 : (b->flags & BYTE_FROM_END)     ? (int64_t)len + j
                                                  : end + j;
    to += b->post_offset;
    if (to < 0 || to >= (int64_t)len)
        return false;
    *new_end = to;
    return true;
}

/* A variable used as a position must stay well inside int64 arithmetic; anything beyond 32
 * bits cannot be a position in a buffer of at most a few hundred KiB anyway. */
static bool pos_ok(int64_t v)
{
    return v >= -(INT64_C(1) << 32) && v <= (INT64_C(1) << 32);
}

void byte_var_names(const struct opt_byte *b, const char *names[BYTE_VAR_FIELDS])
{
    names[0] = b->value_var;
    names[1] = b->offset_var;
    names[2] = b->rvalue_var;
    names[3] = b->bytes_var;
}

bool byte_bind(const struct opt_byte *b, const int64_t vals[BYTE_VAR_FIELDS],
               struct opt_byte *out)
{
    *out = *b;
    if (b->value_var)
        out->value = vals[0]; /* compared as unsigned, like a field read */
    if (b->offset_var) {
        if (!pos_ok(vals[1]))
            return false;
        out->offset = vals[1];
    }
    if (b->rvalue_var)
        out->rvalue = vals[2];
    if (b->bytes_var) {
        /* the counts a number there may have (0: byte_jump only moves by post_offset) */
        int64_t max = (b->flags & BYTE_STRING) ? 23 : 8;
        if (vals[3] < (b->op[0] || b->name ? 1 : 0) || vals[3] > max)
            return false;
        out->bytes = (uint32_t)vals[3];
    }
    return true;
}

/* byte_extract: the field (bitmask applied as byte_read does), times multiplier, rounded up
 * to align; the cursor moves past the field. */
bool byte_extract_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                       int64_t prev_end, int64_t *val, int64_t *new_end)
{
    uint64_t v;
    if (!byte_read(b, buf, len, prev_end, &v, new_end))
        return false;
    if (b->multiplier)
        v *= b->multiplier;
    if (b->align && v % b->align)
        v += b->align - v % b->align;
    *val = (int64_t)v;
    return true;
}

/* byte_math: the field OPER rvalue, then the bitmask (Suricata applies it to the result);
 * division by zero does not match, shifts of 64 or more give 0. The cursor moves past the
 * field, as Suricata does. */
bool byte_math_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                    int64_t prev_end, int64_t *val, int64_t *new_end)
{
    struct opt_byte raw = *b;
    raw.bitmask = 0;
    uint64_t v, r = (uint64_t)b->rvalue;
    if (!byte_read(&raw, buf, len, prev_end, &v, new_end))
        return false;
    if (!strcmp(b->op, "+"))
        v += r;
    else if (!strcmp(b->op, "-"))
        v -= r;
    else if (!strcmp(b->op, "*"))
        v *= r;
    else if (!strcmp(b->op, "/")) {
        if (r == 0)
            return false;
        v /= r;
    } else if (!strcmp(b->op, "<<"))
        v = r >= 64 ? 0 : v << r;
    else
        v = r >= 64 ? 0 : v >> r;
    if (b->bitmask) {
        v &= b->bitmask;
        for (uint64_t m = b->bitmask; !(m & 1); m >>= 1)
            v >>= 1;
    }
    *val = (int64_t)v;
    return true;
}
