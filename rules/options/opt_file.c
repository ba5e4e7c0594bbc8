/* opt_file.c — files seen in flows (Suricata) and Snort 3 file identification.
 *
 *   filestore[:to_server|to_client|both[,file|tx|ssn|flow]]
 *   filemagic:[!]"…"  filename:[!]"…"  fileext:[!]"…"
 *   filemd5|filesha1|filesha256:[!]LISTFILE     filesize:[SIDE,]CMP
 *
 * The Suricata ones test each file of the transaction the rule inspects (file_match; the
 * unit is rules/compile/unit_file.c): filename / filemagic find their text in the name /
 * libmagic's description in any case, fileext the name's ending ".ext" in any case, filesize
 * compares a complete file's size, the hash lists (read when the rule is, relative to the
 * rule file's folder) hold a complete file's digest.
 *   file_meta:type NAME, id N[, category "…"][, group "…"][, version "…"]   (Snort 3)
 *   file_type:NAME[,VERSION] | "NAME" …                                      (Snort 3)
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "opt_eval.h"
#include "osprey_parsers.h"
#include "opt_params.h"
#include "opt_util.h"
#include "registry.h"
#include "ruleset.h"
#include "text.h"

static int parse_filestore(struct rule_ctx *c, char *val)
{
    static const char *const DIRS[] = {"request", "response", "to_server", "to_client", "both",
                                       NULL};
    static const char *const SCOPES[] = {"file", "tx", "ssn", "flow", NULL};
    struct opt_filestore *fs = opt_arg_new(c, sizeof *fs);
    if (!fs)
        return -1;
    if (val == NULL)
        return 0;
    const char *f[3];
    size_t fl[3];
    int k = list_split(val, strlen(val), ',', f, fl, 3);
    if (k > 2)
        return opt_error(c, f[2], "expected 'DIRECTION[,SCOPE]'");
    int d = parse_choice(c, f[0], fl[0], DIRS, "direction");
    if (d < 0)
        return -1;
    static const uint8_t DIR_OF[] = {FILESTORE_DIR_TO_SERVER, FILESTORE_DIR_TO_CLIENT,
                                     FILESTORE_DIR_TO_SERVER, FILESTORE_DIR_TO_CLIENT,
                                     FILESTORE_DIR_BOTH};
    fs->dir = DIR_OF[d];
    int s = k == 2 ? parse_choice(c, f[1], fl[1], SCOPES, "scope") : 0;
    if (s < 0)
        return -1;
    fs->flow = s >= 2;
    return 0;
}

/* filename, filemagic: [!]"text" (found anywhere in the name / the magic, any case);
 * fileext: [!]"ext" (the name ends with ".ext", any case) */
static int parse_file_str(struct rule_ctx *c, char *val)
{
    struct opt_file *fa = opt_arg_new(c, sizeof *fa);
    struct opt_str st = {0};
    if (!fa || parse_neg_string(c, val, true, 0, &st) < 0)
        return -1;
    const char *kw = c->def->name;
    fa->type = !strcmp(kw, "filemagic") ? FILE_T_MAGIC
             : !strcmp(kw, "fileext") ? FILE_T_EXT : FILE_T_NAME;
    fa->negated = st.negated;
    fa->str = st.bytes;
    fa->len = st.len;
    if (fa->type == FILE_T_EXT) { /* ".ext": the dot is part of what must end the name */
        uint8_t *e = arena_alloc(c->ar, st.len + 1);
        if (!e)
            return rule_oom(c);
        e[0] = '.';
        memcpy(e + 1, st.bytes, st.len);
        fa->str = e;
        fa->len = st.len + 1;
    }
    return 0;
}

static int hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0'
         : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
         : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* qsort's comparators, one per digest length (no argument reaches them) */
static int cmp_md5(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static int cmp_sha1(const void *a, const void *b)
{
    return memcmp(a, b, 20);
}

static int cmp_sha256(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

/* Read the list file: one digest per line in hex (what follows it on the line, blank lines and
 * # comments ignored), sorted for a binary search. A file that cannot be read or holds a bad
 * line is the rule's semantic error (`file:line: sid N: filemd5: …`); -1 only when out of
 * memory. */
static int load_hashes(struct rule_ctx *c, const char *pos, const char *name, struct opt_file *fa)
{
    char path[4096];
    const char *rf = c->rs ? c->rs->file : NULL;
    const char *slash = rf ? strrchr(rf, '/') : NULL;
    if (name[0] != '/' && slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - rf), rf, name);
    else
        snprintf(path, sizeof path, "%s", name);
    FILE *fp = fopen(path, "r");
    if (!fp) { /* the rule is rejected for it; its other options are still read */
        rule_semantic_error(c, pos, "file hash list", "%s: cannot read '%s': %s", c->def->name,
                            path, strerror(errno));
        return 0;
    }
    uint8_t *v = NULL;
    uint32_t n = 0, cap = 0, lineno = 0;
    char line[512];
    int rc = 0;
    bool bad = false;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
            continue;
        size_t k = 0;
        while (hexval((unsigned char)p[k]) >= 0)
            k++;
        if (k != 2u * fa->hlen || (p[k] && !strchr(" \t\r\n,;#", p[k]))) {
            rule_semantic_error(c, pos, "file hash list", "%s: %s:%u: expected %u hex digits",
                                c->def->name, path, lineno, 2u * fa->hlen);
            n = 0;
            bad = true;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            uint8_t *nv = realloc(v, (size_t)cap * fa->hlen);
            if (!nv) {
                rc = rule_oom(c);
                break;
            }
            v = nv;
        }
        for (size_t i = 0; i < fa->hlen; i++)
            v[(size_t)n * fa->hlen + i] =
                (uint8_t)(hexval((unsigned char)p[2 * i]) << 4 | hexval((unsigned char)p[2 * i + 1]));
        n++;
    }
    fclose(fp);
    if (rc == 0 && n == 0 && !bad)
        rule_semantic_error(c, pos, "file hash list", "%s: '%s' holds no hash", c->def->name,
                            path);
    if (rc == 0 && n > 0) {
        qsort(v, n, fa->hlen, fa->hlen == 16 ? cmp_md5 : fa->hlen == 20 ? cmp_sha1 : cmp_sha256);
        uint8_t *keep = arena_alloc(c->ar, (size_t)n * fa->hlen);
        if (!keep)
            rc = rule_oom(c);
        else {
            memcpy(keep, v, (size_t)n * fa->hlen);
            fa->hashes = keep;
            fa->nhashes = n;
        }
    }
    free(v);
    return rc;
}

/* filemd5 / filesha1 / filesha256: [!]LISTFILE, read now, relative to the rule file's folder */
static int parse_hash_list(struct rule_ctx *c, char *val)
{
    struct opt_file *fa = opt_arg_new(c, sizeof *fa);
    if (!fa)
        return -1;
    const char *p = skip_ws(val, val + strlen(val));
    if (*p == '!') {
        fa->negated = true;
        p = skip_ws(p + 1, p + 1 + strlen(p + 1));
    }
    if (!is_name(p, strlen(p), "/"))
        return opt_error(c, p, "expected a list file name, got '%s'", p);
    const char *kw = c->def->name;
    fa->type = !strcmp(kw, "filemd5") ? FILE_T_MD5 : !strcmp(kw, "filesha1") ? FILE_T_SHA1
                                                                             : FILE_T_SHA256;
    fa->hlen = fa->type == FILE_T_MD5 ? 16 : fa->type == FILE_T_SHA1 ? 20 : 32;
    return c->disabled ? 0 : load_hashes(c, p, p, fa);
}

/* filesize:[to_server|to_client,]CMP (Suricata 8's integer forms; the side for => rules) */
static int parse_filesize(struct rule_ctx *c, char *val)
{
    struct opt_file *fa = opt_arg_new(c, sizeof *fa);
    if (!fa)
        return -1;
    fa->type = FILE_T_SIZE;
    const char *p = skip_ws(val, val + strlen(val));
    static const char *const SIDES[] = {"to_server", "to_client", NULL};
    const char *comma = strchr(p, ',');
    if (comma) {
        int k = parse_choice(c, p, (size_t)(comma - p), SIDES, "side");
        if (k < 0)
            return -1;
        c->opt->side = k == 0 ? OSPREY_SIDE_TO_SERVER : OSPREY_SIDE_TO_CLIENT;
        p = skip_ws(comma + 1, comma + 1 + strlen(comma + 1));
    }
    return parse_cmp(c, p, strlen(p), 0, INT64_MAX, CMP_DASH_EXCL, &fa->cmp);
}

static bool has_nocase(const uint8_t *h, uint32_t hn, const uint8_t *n, uint32_t nn, bool at_end)
{
    if (nn > hn)
        return false;
    for (uint32_t i = at_end ? hn - nn : 0; i + nn <= hn; i++) {
        uint32_t k = 0;
        while (k < nn && tolower(h[i + k]) == tolower(n[k]))
            k++;
        if (k == nn)
            return true;
    }
    return false;
}

bool file_match(const struct opt_file *fa, const struct osprey_file_info *fi)
{
    bool r;
    switch (fa->type) {
    case FILE_T_NAME:
    case FILE_T_EXT:
        r = has_nocase(fi->name, fi->name_len, fa->str, fa->len, fa->type == FILE_T_EXT);
        break;
    case FILE_T_MAGIC:
        if (!fi->magic)
            return false; /* not known: neither form holds */
        r = has_nocase((const uint8_t *)fi->magic, (uint32_t)strlen(fi->magic), fa->str,
                       fa->len, false);
        break;
    case FILE_T_SIZE:
        /* a complete file by its size; one still coming only once it is past a lower bound
         * (> / >=: more bytes cannot undo that); a truncated one never */
        if (fi->state == OSPREY_FILE_CLOSED)
            return cmp_match(&fa->cmp, (int64_t)fi->size);
        return fi->state == OSPREY_FILE_OPEN &&
               (fa->cmp.op == CMP_GT || fa->cmp.op == CMP_GE) &&
               cmp_match(&fa->cmp, (int64_t)fi->size);
    default: {
        const uint8_t *d = fa->type == FILE_T_MD5 ? fi->md5 : fa->type == FILE_T_SHA1 ? fi->sha1
                                                                                   : fi->sha256;
        bool has = fa->type == FILE_T_MD5 ? fi->has_md5 : fa->type == FILE_T_SHA1 ? fi->has_sha1
                                                                                 : fi->has_sha256;
        if (!has)
            return false; /* not complete (or cut short): no digest to look up */
        uint32_t lo = 0, hi = fa->nhashes;
        r = false;
        while (lo < hi && !r) {
            uint32_t mid = lo + (hi - lo) / 2;
            int c = memcmp(fa->hashes + (size_t)mid * fa->hlen, d, fa->hlen);
            if (c == 0)
                r = true;
            else if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        break;
    }
    }
    return r != fa->negated;
}

/* file_meta: nothing is kept (Snort 3's file identification is not run) */
static const struct opt_param FILE_META[] = {
    {.name = "type", .type = PT_NAME, .flags = P_REQUIRED, .what = "a name"},
    {.name = "id", .type = PT_NUM, .flags = P_REQUIRED, .lo = 1, .hi = UINT32_MAX},
    {.name = "category", .type = PT_STRING},
    {.name = "group", .type = PT_STRING},
    {.name = "version", .type = PT_STRING},
};

static int parse_file_meta(struct rule_ctx *c, char *val)
{
    static const struct opt_params SPEC = {OPT_PARAMS(FILE_META), .item = "field",
                                           .missing = "needs type and id"};
    return opt_params_parse(c, val, &SPEC, NULL, NULL);
}

static int parse_file_type(struct rule_ctx *c, char *val)
{
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), '|');
    while (list_next(&it, &item, &n))
        if (n == 0)
            return opt_error(c, item, "empty file type");
    return 0;
}

static const struct opt_def DEFS[] = {
    {"filestore", OPT_MATCH, D_SURI, ARG_OPTIONAL, 0, parse_filestore, true, NULL},
    /* the file keywords read a message's files: they run where a protocol serves file.name
     * (the row's buffer; rules/compile/unit_file.c) */
    {"filemagic", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_file_str, true, NULL},
    {"filename", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_file_str, true, NULL},
    {"fileext", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_file_str, true, NULL},
    {"filemd5", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_hash_list, true, NULL},
    {"filesha1", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_hash_list, true, NULL},
    {"filesha256", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_hash_list, true, NULL},
    {"filesize", OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_FILE_NAME, parse_filesize, true, NULL},
    {"file_meta", OPT_META, D_S3, ARG_REQUIRED, 0, parse_file_meta, false, NULL},
    {"file_type", OPT_MATCH, D_S3, ARG_REQUIRED, 0, parse_file_type, false, NULL},
};
OPT_TABLE(opt_table_file, DEFS);
