/* opt_transforms.c — Suricata transforms of the sticky buffer in force.
 *
 *   http.uri; to_lowercase; content:"/admin";      dns.query; dotprefix; content:".evil.com";
 * A transform must follow a sticky buffer directly (before anything inspects it); several
 * chain in order. Arguments: xor:"hexkey", pcrexform:"regex with one capture",
 * from_base64[:bytes N, offset N, mode rfc4648|rfc2045|strict].
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <openssl/evp.h>
#include <pcre2.h>
#include <string.h>

#include "opt_eval.h"

#include "opt_params.h"
#include "opt_util.h"
#include "registry.h"
#include "text.h"

static int parse_xor(struct rule_ctx *c, char *val)
{
    struct opt_str *s = opt_arg_new(c, sizeof *s);
    if (s == NULL || parse_neg_string(c, val, false, 0, s) < 0)
        return -1;
    if (s->len % 2)
        return opt_error(c, val, "the key must be an even number of hex digits");
    for (uint32_t i = 0; i < s->len; i++)
        if (!is_xdigit((char)s->bytes[i]))
            return opt_error(c, val, "the key must be hex digits");
    return 0;
}

static int parse_pcrexform(struct rule_ctx *c, char *val)
{
    struct opt_str *s = opt_arg_new(c, sizeof *s);
    if (s == NULL || parse_neg_string(c, val, false, 0, s) < 0)
        return -1;
    int err;
    PCRE2_SIZE off;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)s->bytes, s->len, 0, &err, &off, NULL);
    if (code == NULL) {
        PCRE2_UCHAR msg[160];
        if (pcre2_get_error_message(err, msg, sizeof msg) < 0)
            strcpy((char *)msg, "invalid regular expression");
        return opt_error(c, val, "%s at offset %zu of the regex", (const char *)msg,
                         (size_t)off);
    }
    uint32_t groups = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
    pcre2_code_free(code);
    if (groups < 1)
        return opt_error(c, val, "the regex needs a capture group");
    return 0;
}

static const char *const B64_MODES[] = {"rfc4648", "rfc2045", "strict", NULL}; /* the
                                                               order of enum b64_mode */
static const struct opt_param FROM_BASE64[] = {
    {.name = "bytes", .type = PT_NUM, .lo = 0, .hi = 65535, .what = "value",
     PARAM_AT(struct opt_base64, bytes)},
    {.name = "offset", .type = PT_NUM, .lo = 0, .hi = 65535, .what = "value",
     PARAM_AT(struct opt_base64, offset)},
    {.name = "mode", .type = PT_ENUM, .words = B64_MODES, PARAM_AT(struct opt_base64, mode)},
};

static int parse_from_base64(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(FROM_BASE64), .item = "argument",
                                           .unknown = PU_LIST};
    struct opt_base64 *b = opt_arg_new(c, sizeof *b);
    if (b == NULL)
        return -1;
    return val ? opt_params_parse(c, val, &SPEC, b, NULL) : 0;
}

/* zlib_deflate / gunzip [: max-size N] — the inflated buffer's limit (Suricata's default). */
static const struct opt_param INFLATE[] = {
    {.name = "max-size", .type = PT_NUM, .lo = 1, .hi = 16 * 1024 * 1024,
     PARAM_AT(struct opt_inflate, max_size)},
};

static int parse_inflate(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(INFLATE), .item = "argument",
                                           .unknown = PU_LIST};
    struct opt_inflate *z = opt_arg_new(c, sizeof *z);
    if (z == NULL)
        return -1;
    z->max_size = 1024;
    return val ? opt_params_parse(c, val, &SPEC, z, NULL) : 0;
}

#define XFORM(name) {name, OPT_TRANSFORM, D_SURI, ARG_NONE, 0, NULL, false, NULL}
#define XFORM_DONE(name) {name, OPT_TRANSFORM, D_SURI, ARG_NONE, 0, NULL, true, NULL}

static const struct opt_def DEFS[] = {
    XFORM_DONE("to_lowercase"),
    XFORM_DONE("to_uppercase"),
    XFORM_DONE("strip_whitespace"),
    XFORM_DONE("compress_whitespace"),
    XFORM_DONE("dotprefix"),
    XFORM_DONE("url_decode"),
    XFORM_DONE("to_md5"),
    XFORM_DONE("to_sha1"),
    XFORM_DONE("to_sha256"),
    XFORM_DONE("header_lowercase"),
    XFORM_DONE("strip_pseudo_headers"),
    {"xor", OPT_TRANSFORM, D_SURI, ARG_REQUIRED, 0, parse_xor, true, NULL},
    {"pcrexform", OPT_TRANSFORM, D_SURI, ARG_REQUIRED, 0, parse_pcrexform, true, NULL},
    {"from_base64", OPT_TRANSFORM, D_SURI, ARG_OPTIONAL, 0, parse_from_base64, true, NULL},
    {"zlib_deflate", OPT_TRANSFORM, D_SURI, ARG_OPTIONAL, 0, parse_inflate, true, NULL},
    {"gunzip", OPT_TRANSFORM, D_SURI, ARG_OPTIONAL, 0, parse_inflate, true, NULL},
    /* known, not applied yet: domain and tld need the public suffix list (luaxform: opt_lua.c) */
    XFORM("domain"),
    XFORM("tld"),
};
OPT_TABLE(opt_table_transforms, DEFS);

/* --- evaluate ----------------------------------------------------------------------------- */

static bool is_ws(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int hexval(uint8_t c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static uint32_t digest(const EVP_MD *md, const uint8_t *in, uint32_t n, uint8_t *out)
{
    unsigned int len = 0;
    if (!EVP_Digest(in, n, out, &len, md, NULL))
        return 0; /* out of memory in libcrypto: an empty buffer, which matches nothing */
    return len;
}

uint32_t xform_apply(const char *name, const uint8_t *in, uint32_t n, uint8_t *out)
{
    uint32_t o = 0;
    if (!strcmp(name, "to_lowercase") || !strcmp(name, "to_uppercase")) {
        bool lower = name[3] == 'l';
        for (uint32_t i = 0; i < n; i++) {
            uint8_t c = in[i];
            out[o++] = lower ? (c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c)
                             : (c >= 'a' && c <= 'z' ? (uint8_t)(c - 32) : c);
        }
    } else if (!strcmp(name, "strip_whitespace")) {
        for (uint32_t i = 0; i < n; i++)
            if (!is_ws(in[i]))
                out[o++] = in[i];
    } else if (!strcmp(name, "compress_whitespace")) {
        /* a run of whitespace becomes its first character */
        for (uint32_t i = 0; i < n; i++)
            if (!is_ws(in[i]) || i == 0 || !is_ws(in[i - 1]))
                out[o++] = in[i];
    } else if (!strcmp(name, "dotprefix")) {
        out[o++] = '.';
        memcpy(out + 1, in, n);
        o += n;
    } else if (!strcmp(name, "url_decode")) {
        for (uint32_t i = 0; i < n; i++) {
            int h, l;
            if (in[i] == '%' && i + 2 < n && (h = hexval(in[i + 1])) >= 0 &&
                (l = hexval(in[i + 2])) >= 0) {
                out[o++] = (uint8_t)(h << 4 | l);
                i += 2;
            } else {
                out[o++] = in[i] == '+' ? ' ' : in[i];
            }
        }
    } else if (!strcmp(name, "header_lowercase")) {
        /* header names (up to the ':' of each line) to lower case, values untouched */
        bool in_name = true;
        for (uint32_t i = 0; i < n; i++) {
            uint8_t c = in[i];
            if (c == '\n')
                in_name = true;
            else if (c == ':')
                in_name = false;
            else if (in_name && c >= 'A' && c <= 'Z')
                c = (uint8_t)(c + 32);
            out[o++] = c;
        }
    } else if (!strcmp(name, "strip_pseudo_headers")) {
        /* header lines whose name starts with ':' (HTTP/2's :method, :path …) go */
        for (uint32_t i = 0; i < n;) {
            uint32_t e = i;
            while (e < n && in[e] != '\n')
                e++;
            e += e < n; /* the line with its '\n' */
            if (in[i] != ':') {
                memcpy(out + o, in + i, e - i);
                o += e - i;
            }
            i = e;
        }
    } else if (!strcmp(name, "to_md5")) {
        o = digest(EVP_md5(), in, n, out);
    } else if (!strcmp(name, "to_sha1")) {
        o = digest(EVP_sha1(), in, n, out);
    } else if (!strcmp(name, "to_sha256")) {
        o = digest(EVP_sha256(), in, n, out);
    } else {
        memcpy(out, in, n); /* not reached: the compiler only keeps the transforms above */
        o = n;
    }
    return o;
}
