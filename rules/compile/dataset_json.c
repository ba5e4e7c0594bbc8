/* dataset_json.c — the values of a dataset file in Suricata 8's `format json` (one JSON
 * document: an array of objects, or an object holding one at `array_key`) or `format ndjson`
 * (one object a line): each object's member at `value_key` (a dotted path into nested
 * objects). A small bounded reader of our own: strings are unescaped (\uXXXX as UTF-8),
 * numbers, true, false and null are taken as their text; an object without the key, or
 * whose key holds an object or array, gives no value. See dataset.h. */
#include "dataset.h"

#include <stdlib.h>
#include <string.h>

struct jr {
    const char *p, *end;
    int depth;
};

#define JSON_MAX_DEPTH 64 /* nesting refused past this: a hostile file cannot run us deep */

static void ws(struct jr *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

/* A string at r->p (on its opening quote). out (NULL: skip) receives the unescaped bytes,
 * at most the string's raw length; *outn their count. 0, or -1 when malformed. */
static int string(struct jr *r, char *out, size_t *outn)
{
    size_t k = 0;
    r->p++;
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if (c == '\\') {
            if (r->p >= r->end)
                return -1;
            char e = *r->p++;
            static const char FROM[] = "\"\\/bfnrt", TO[] = "\"\\/\b\f\n\r\t";
            const char *m = strchr(FROM, e);
            if (e && m) {
                c = TO[m - FROM];
            } else if (e == 'u' && r->end - r->p >= 4 && hex4(r->p) >= 0) {
                unsigned u = (unsigned)hex4(r->p); /* a lone code unit: surrogates as is */
                r->p += 4;
                char b[3];
                int nb = u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
                if (nb == 1)
                    b[0] = (char)u;
                else if (nb == 2)
                    b[0] = (char)(0xc0 | u >> 6), b[1] = (char)(0x80 | (u & 0x3f));
                else
                    b[0] = (char)(0xe0 | u >> 12), b[1] = (char)(0x80 | (u >> 6 & 0x3f)),
                    b[2] = (char)(0x80 | (u & 0x3f));
                for (int i = 0; i < nb; i++)
                    if (out)
                        out[k++] = b[i];
                continue; /* 6 escaped characters give at most 3 bytes */
            } else {
                return -1;
            }
        }
        if (out)
            out[k++] = c;
    }
    if (r->p >= r->end)
        return -1;
    r->p++;
    if (outn)
        *outn = k;
    return 0;
}

static int value(struct jr *r);

/* An object or array at r->p; each member/element calls back with the reader on its value
 * (and, for an object, the key). The callback consumes the value. */
typedef int (*member_fn)(struct jr *r, const char *key, size_t keyn, void *arg);

static int compound(struct jr *r, member_fn fn, void *arg)
{
    bool obj = *r->p == '{';
    char close = obj ? '}' : ']';
    if (++r->depth > JSON_MAX_DEPTH)
        return -1;
    r->p++;
    ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        r->depth--;
        return 0;
    }
    for (;;) {
        const char *key = NULL;
        size_t keyn = 0;
        ws(r);
        if (obj) {
            if (r->p >= r->end || *r->p != '"')
                return -1;
            key = r->p + 1;
            if (string(r, NULL, NULL) < 0)
                return -1;
            keyn = (size_t)(r->p - 1 - key); /* raw: keys compared as written */
            ws(r);
            if (r->p >= r->end || *r->p != ':')
                return -1;
            r->p++;
            ws(r);
        }
        if ((fn ? fn(r, key, keyn, arg) : value(r)) < 0)
            return -1;
        ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            r->depth--;
            return 0;
        }
        return -1;
    }
}

/* Skip any value. */
static int value(struct jr *r)
{
    ws(r);
    if (r->p >= r->end)
        return -1;
    if (*r->p == '"')
        return string(r, NULL, NULL);
    if (*r->p == '{' || *r->p == '[')
        return compound(r, NULL, NULL);
    const char *s = r->p;
    while (r->p < r->end && !strchr(",]} \t\r\n", *r->p))
        r->p++;
    return r->p > s ? 0 : -1;
}

/* ---- finding the value of each object ---- */

struct find {
    const char *path; /* dotted, the part still to walk */
    const char *v;    /* found: its start in the text, and what it is */
    bool found;
};

static bool key_is(const char *path, const char *key, size_t keyn, const char **rest)
{
    const char *dot = strchr(path, '.');
    size_t n = dot ? (size_t)(dot - path) : strlen(path);
    if (n != keyn || memcmp(path, key, n))
        return false;
    *rest = dot ? dot + 1 : NULL;
    return true;
}

static int find_member(struct jr *r, const char *key, size_t keyn, void *arg)
{
    struct find *f = arg;
    const char *rest;
    if (f->found || !key_is(f->path, key, keyn, &rest))
        return value(r);
    if (rest) { /* go down into an object, else the path ends here with nothing */
        if (*r->p != '{')
            return value(r);
        const char *saved = f->path;
        f->path = rest;
        int rc = compound(r, find_member, f);
        f->path = saved;
        return rc;
    }
    f->found = true;
    f->v = r->p;
    return value(r);
}

struct each {
    const char *value_key;
    ds_json_value_fn fn;
    void *arg;
    char *tmp; /* room for an unescaped value: the file's length */
};

/* One element: an object (anything else is skipped); its value, if any, to the callback. */
static int element(struct jr *r, const char *key, size_t keyn, void *arg)
{
    (void)key, (void)keyn;
    struct each *e = arg;
    if (*r->p != '{')
        return value(r);
    struct find f = {.path = e->value_key};
    if (compound(r, find_member, &f) < 0)
        return -1;
    if (!f.found || *f.v == '{' || *f.v == '[')
        return 0;
    struct jr v = {f.v, r->end, 0};
    size_t n;
    if (*f.v == '"') {
        if (string(&v, e->tmp, &n) < 0)
            return -1;
        return e->fn(e->arg, e->tmp, n);
    }
    if (value(&v) < 0)
        return -1;
    return e->fn(e->arg, f.v, (size_t)(v.p - f.v));
}

/* The array at the dotted path from the root object (or the root itself). */
struct to_array {
    struct each *e;
    const char *path;
    bool found;
};

static int array_member(struct jr *r, const char *key, size_t keyn, void *arg)
{
    struct to_array *t = arg;
    const char *rest;
    if (t->found || !key_is(t->path, key, keyn, &rest))
        return value(r);
    if (rest) {
        if (*r->p != '{')
            return value(r);
        const char *saved = t->path;
        t->path = rest;
        int rc = compound(r, array_member, t);
        t->path = saved;
        return rc;
    }
    if (*r->p != '[')
        return value(r);
    t->found = true;
    return compound(r, element, t->e);
}

int ds_json_values(const char *text, size_t n, bool ndjson, const char *array_key,
                   const char *value_key, ds_json_value_fn fn, void *arg)
{
    struct each e = {value_key, fn, arg, malloc(n + 1)};
    if (!e.tmp)
        return -1;
    int rc = 0;
    if (ndjson) { /* one object a line; empty lines skipped */
        for (const char *p = text, *end = text + n; p < end && rc == 0;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *le = nl ? nl : end;
            struct jr r = {p, le, 0};
            ws(&r);
            if (r.p < le) {
                rc = element(&r, NULL, 0, &e);
                ws(&r);
                if (rc == 0 && r.p != le)
                    rc = -1;
            }
            p = le + 1;
        }
    } else {
        struct jr r = {text, text + n, 0};
        ws(&r);
        if (r.p >= r.end) {
            rc = -1;
        } else if (array_key) {
            struct to_array t = {&e, array_key, false};
            rc = *r.p == '{' ? compound(&r, array_member, &t) : -1;
            if (rc == 0 && !t.found)
                rc = -1;
        } else {
            rc = *r.p == '[' ? compound(&r, element, &e) : -1;
        }
        ws(&r);
        if (rc == 0 && r.p != r.end)
            rc = -1;
    }
    free(e.tmp);
    return rc;
}
