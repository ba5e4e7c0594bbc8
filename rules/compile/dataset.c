/* dataset.c — see dataset.h.
 *
 * A set is a chained hash table of values (hashsize buckets) under one mutex: workers share
 * it, as Suricata's sets are global. Each value costs its node and bytes against the memcap;
 * an add past the memcap is refused and counted (never a crash). Values are kept in their
 * binary form: a string's bytes, 16 (md5) or 32 (sha256) digest bytes, 4 IPv4 bytes, 16 IPv6
 * bytes (an IPv4 address in an ip/ipv6 set is ::ffff:a.b.c.d).
 *
 * Files, one value a line, optionally ",REPUTATION": strings in base64 (as Suricata writes
 * them), digests in hex, addresses in text. `load` reads a file at start; `save` writes the
 * set at exit; `state` does both (a missing state file is an empty set). Suricata 8's
 * `format json` / `ndjson` load files hold objects: the value is each one's `value_key`
 * (dataset_json.c), a string as it is (not base64), digests and addresses as text.
 */
#include "dataset.h"

#include <arpa/inet.h>
#include <errno.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ds_node {
    struct ds_node *next;
    uint16_t rep;
    uint32_t len;
    uint8_t v[];
};

struct det_dataset {
    struct det_dataset *next;
    char *name;
    uint8_t type;
    bool has_rep;               /* a loaded line carried a reputation: saved with it */
    char *save_path;            /* save or state, resolved; NULL: not saved */
    pthread_mutex_t mu;
    struct ds_node **b;
    uint32_t nb;
    uint64_t memuse, memcap, count, full;
};

struct det_datasets {
    struct det_dataset *sets;
    uint64_t memcap;
    uint32_t hashsize;
};

struct det_datasets *det_datasets_create(uint64_t memcap, uint32_t hashsize)
{
    struct det_datasets *all = calloc(1, sizeof *all);
    if (all) {
        all->memcap = memcap ? memcap : DATASET_DEFAULT_MEMCAP;
        all->hashsize = hashsize ? hashsize : DATASET_DEFAULT_HASHSIZE;
    }
    return all;
}

static uint32_t ds_hash(const uint8_t *v, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ v[i]) * 16777619u;
    return h;
}

static struct ds_node **slot_of(struct det_dataset *s, const uint8_t *v, uint32_t len)
{
    struct ds_node **p = &s->b[ds_hash(v, len) % s->nb];
    while (*p && ((*p)->len != len || memcmp((*p)->v, v, len)))
        p = &(*p)->next;
    return p;
}

/* 1 added, 0 present already (its reputation updated when rep_given), -1 memcap. Lock held. */
static int add_locked(struct det_dataset *s, const uint8_t *v, uint32_t len, uint16_t rep,
                      bool rep_given)
{
    struct ds_node **p = slot_of(s, v, len);
    if (*p) {
        if (rep_given)
            (*p)->rep = rep;
        return 0;
    }
    uint64_t cost = sizeof(struct ds_node) + len;
    struct ds_node *n = s->memuse + cost <= s->memcap ? malloc(cost) : NULL;
    if (!n) {
        s->full++;
        return -1;
    }
    n->next = NULL;
    n->rep = rep;
    n->len = len;
    memcpy(n->v, v, len);
    *p = n;
    s->memuse += cost;
    s->count++;
    return 1;
}

/* ---- values: text ⇄ binary ---- */

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* A value of the set's type from text; its length, or -1. out holds at least text length. */
static int value_from_text(uint8_t type, const char *t, size_t n, uint8_t *out)
{
    char tmp[INET6_ADDRSTRLEN + 1];
    switch (type) {
    case DST_STRING: {
        if (n == 0)
            return -1;
        if (n % 4)
            return -1;
        int k = EVP_DecodeBlock(out, (const unsigned char *)t, (int)n);
        if (k < 0)
            return -1;
        /* EVP_DecodeBlock counts the padding's bytes */
        for (size_t i = n; i > 0 && t[i - 1] == '='; i--)
            k--;
        return k;
    }
    case DST_MD5:
    case DST_SHA256: {
        size_t want = type == DST_MD5 ? 16 : 32;
        if (n != 2 * want)
            return -1;
        for (size_t i = 0; i < want; i++) {
            int hi = hexval(t[2 * i]), lo = hexval(t[2 * i + 1]);
            if (hi < 0 || lo < 0)
                return -1;
            out[i] = (uint8_t)(hi << 4 | lo);
        }
        return (int)want;
    }
    case DST_IPV4:
    case DST_IPV6: {
        if (n >= sizeof tmp)
            return -1;
        memcpy(tmp, t, n);
        tmp[n] = 0;
        uint8_t a[16];
        if (inet_pton(AF_INET, tmp, a) == 1) {
            if (type == DST_IPV4) {
                memcpy(out, a, 4);
                return 4;
            }
            static const uint8_t MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
            memcpy(out, MAPPED, 12);
            memcpy(out + 12, a, 4);
            return 16;
        }
        if (type == DST_IPV6 && inet_pton(AF_INET6, tmp, out) == 1)
            return 16;
        return -1;
    }
    }
    return -1;
}

/* The value as the file holds it. */
static void value_to_text(uint8_t type, const struct ds_node *n, FILE *out)
{
    if (type == DST_STRING) {
        size_t cap = 4 * ((n->len + 2) / 3) + 1;
        unsigned char *b = malloc(cap);
        if (!b)
            return;
        EVP_EncodeBlock(b, n->v, (int)n->len);
        fputs((char *)b, out);
        free(b);
    } else if (type == DST_MD5 || type == DST_SHA256) {
        for (uint32_t i = 0; i < n->len; i++)
            fprintf(out, "%02x", n->v[i]);
    } else {
        char t[INET6_ADDRSTRLEN];
        inet_ntop(n->len == 4 ? AF_INET : AF_INET6, n->v, t, sizeof t);
        fputs(t, out);
    }
}

/* The buffer as a value of the set's type: its bytes, or NULL when it cannot be one (a
 * digest of another length, an address of neither length). */
static const uint8_t *value_from_buffer(uint8_t type, const uint8_t *buf, uint32_t len,
                                        uint8_t mapped[16], uint32_t *vlen)
{
    *vlen = len;
    switch (type) {
    case DST_MD5:
        return len == 16 ? buf : NULL;
    case DST_SHA256:
        return len == 32 ? buf : NULL;
    case DST_IPV4:
        return len == 4 ? buf : NULL;
    case DST_IPV6:
        if (len == 4) {
            memset(mapped, 0, 10);
            mapped[10] = mapped[11] = 0xff;
            memcpy(mapped + 12, buf, 4);
            *vlen = 16;
            return mapped;
        }
        return len == 16 ? buf : NULL;
    }
    return buf;
}

/* ---- files ---- */

/* name relative to the rule file's directory unless absolute. malloc'd. */
static char *resolve(const char *name, const char *rule_file)
{
    const char *slash = rule_file && name[0] != '/' ? strrchr(rule_file, '/') : NULL;
    size_t dn = slash ? (size_t)(slash - rule_file) + 1 : 0;
    char *p = malloc(dn + strlen(name) + 1);
    if (p) {
        memcpy(p, rule_file, dn);
        strcpy(p + dn, name);
    }
    return p;
}

/* Read a load/state file into the set. 0, or -1 with why. missing_ok: a state file. */
static int load_file(struct det_dataset *s, const char *path, bool missing_ok, char *why,
                     size_t whylen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        if (missing_ok && errno == ENOENT)
            return 0;
        snprintf(why, whylen, "set %s: cannot read %s: %s", s->name, path,
                 strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint32_t lineno = 0;
    int rc = 0;
    uint8_t *v = NULL;
    while ((n = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = 0;
        if (n == 0)
            continue;
        char *comma = strrchr(line, ',');
        size_t vn = comma ? (size_t)(comma - line) : (size_t)n;
        long rep = 0;
        if (comma) {
            char *e;
            errno = 0;
            rep = strtol(comma + 1, &e, 10);
            if (e == comma + 1 || *e || errno || rep < 0 || rep > 65535) {
                snprintf(why, whylen, "set %s: %s:%u: bad reputation '%s'", s->name, path,
                         lineno, comma + 1);
                rc = -1;
                break;
            }
            s->has_rep = true;
        }
        uint8_t *nv = realloc(v, vn + 16);
        if (!nv) {
            rc = -1;
            snprintf(why, whylen, "out of memory");
            break;
        }
        v = nv;
        int len = value_from_text(s->type, line, vn, v);
        if (len < 0) {
            snprintf(why, whylen, "set %s: %s:%u: bad value '%.*s'", s->name, path, lineno,
                     (int)(vn > 80 ? 80 : vn), line);
            rc = -1;
            break;
        }
        add_locked(s, v, (uint32_t)len, (uint16_t)rep, comma != NULL);
    }
    free(v);
    free(line);
    fclose(fp);
    return rc;
}

struct json_load {
    struct det_dataset *s;
    const char *path;
    uint8_t *v; /* room for one value (the file's length + 16) */
    char *why;
    size_t whylen;
};

static int json_value(void *arg, const char *t, size_t n)
{
    struct json_load *l = arg;
    int len = (int)n;
    if (l->s->type == DST_STRING && n > 0)
        memcpy(l->v, t, n);
    else
        len = n ? value_from_text(l->s->type, t, n, l->v) : -1;
    if (len < 0) {
        snprintf(l->why, l->whylen, "set %s: %s: bad value '%.*s'", l->s->name, l->path,
                 (int)(n > 80 ? 80 : n), t);
        return -1;
    }
    add_locked(l->s, l->v, (uint32_t)len, 0, false);
    return 0;
}

/* Read a `format json` / `ndjson` load file into the set. 0, or -1 with why. */
static int load_json(struct det_dataset *s, const struct opt_dataset *o, const char *path,
                     char *why, size_t whylen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(why, whylen, "set %s: cannot read %s: %s", s->name, path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (n + 4096 > cap) {
            char *t = realloc(text, cap = cap * 2 + 8192);
            if (!t) {
                rc = -1;
                break;
            }
            text = t;
        }
        size_t k = fread(text + n, 1, cap - n, fp);
        n += k;
        if (k == 0)
            break;
    }
    fclose(fp);
    struct json_load l = {s, path, rc == 0 ? malloc(n + 16) : NULL, why, whylen};
    why[0] = 0;
    if (!l.v || ds_json_values(text, n, o->format == DSF_NDJSON, o->array_key, o->value_key,
                               json_value, &l) < 0) {
        if (!l.v)
            snprintf(why, whylen, "out of memory");
        else if (!why[0]) /* (a bad value wrote its own) */
            snprintf(why, whylen, "set %s: %s: not the JSON of format %s%s%s", s->name, path,
                     o->format == DSF_NDJSON ? "ndjson" : "json",
                     o->array_key ? " with array_key " : "", o->array_key ? o->array_key : "");
        rc = -1;
    }
    free(l.v);
    free(text);
    return rc;
}

static void save_file(const struct det_dataset *s, FILE *diag)
{
    char *tmp = malloc(strlen(s->save_path) + 5);
    if (!tmp)
        return;
    sprintf(tmp, "%s.tmp", s->save_path);
    FILE *fp = fopen(tmp, "w");
    if (!fp) {
        if (diag)
            fprintf(diag, "osprey: dataset %s: cannot write %s: %s\n", s->name, tmp,
                    strerror(errno));
        free(tmp);
        return;
    }
    for (uint32_t i = 0; i < s->nb; i++)
        for (const struct ds_node *n = s->b[i]; n; n = n->next) {
            value_to_text(s->type, n, fp);
            if (s->has_rep)
                fprintf(fp, ",%u", n->rep);
            fputc('\n', fp);
        }
    bool ok = fclose(fp) == 0 && rename(tmp, s->save_path) == 0;
    if (!ok && diag)
        fprintf(diag, "osprey: dataset %s: cannot write %s\n", s->name, s->save_path);
    free(tmp);
}

/* ---- sets ---- */

static void set_free(struct det_dataset *s)
{
    for (uint32_t i = 0; s->b && i < s->nb; i++)
        for (struct ds_node *n = s->b[i], *nx; n; n = nx) {
            nx = n->next;
            free(n);
        }
    free(s->b);
    free(s->name);
    free(s->save_path);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

void det_datasets_free(struct det_datasets *all, FILE *diag)
{
    if (!all)
        return;
    for (struct det_dataset *s = all->sets, *nx; s; s = nx) {
        nx = s->next;
        if (s->save_path)
            save_file(s, diag);
        if (s->full && diag)
            fprintf(diag, "osprey: dataset %s: memcap reached, %llu values not added\n",
                    s->name, (unsigned long long)s->full);
        set_free(s);
    }
    free(all);
}

static const char *type_name(uint8_t t)
{
    static const char *const N[] = {"none", "string", "md5", "sha256", "ipv4", "ip"};
    return t < sizeof N / sizeof N[0] ? N[t] : "?";
}

struct det_dataset *det_dataset_open(struct det_datasets *all, const struct opt_dataset *o,
                                     const char *rule_file, char *why, size_t whylen)
{
    for (struct det_dataset *s = all->sets; s; s = s->next) {
        if (strcmp(s->name, o->name))
            continue;
        if (o->type != DST_NONE && o->type != s->type) {
            snprintf(why, whylen, "set %s is of type %s already", s->name,
                     type_name(s->type));
            return NULL;
        }
        return s;
    }
    if (o->type == DST_NONE) {
        snprintf(why, whylen, "set %s has no type (give 'type T')", o->name);
        return NULL;
    }
    struct det_dataset *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    s->type = o->type;
    s->memcap = o->memcap ? o->memcap : all->memcap;
    s->nb = o->hashsize ? o->hashsize : all->hashsize;
    s->name = strdup(o->name);
    s->b = calloc(s->nb, sizeof *s->b);
    const char *keep = o->state ? o->state : o->save;
    if (keep)
        s->save_path = resolve(keep, rule_file);
    if (!s->name || !s->b || (keep && !s->save_path)) {
        set_free(s);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    const char *in = o->state ? o->state : o->load;
    char *path = in ? resolve(in, rule_file) : NULL;
    int loaded = !path                   ? 0
                 : o->format != DSF_CSV ? load_json(s, o, path, why, whylen)
                                        : load_file(s, path, o->state != NULL, why, whylen);
    if ((in && !path) || loaded < 0) {
        if (!path)
            snprintf(why, whylen, "out of memory");
        free(path);
        set_free(s);
        return NULL;
    }
    free(path);
    s->next = all->sets;
    all->sets = s;
    return s;
}

static bool rep_holds(uint8_t op, uint16_t rep, uint16_t want)
{
    switch (op) {
    case DSR_GT:
        return rep > want;
    case DSR_LT:
        return rep < want;
    case DSR_GE:
        return rep >= want;
    case DSR_LE:
        return rep <= want;
    }
    return rep == want;
}

bool det_dataset_match(struct det_dataset *s, const struct opt_dataset *o, const uint8_t *buf,
                       uint32_t len)
{
    uint8_t mapped[16];
    uint32_t vlen;
    const uint8_t *v = value_from_buffer(s->type, buf, len, mapped, &vlen);
    if (!v) /* not a value of this type: in no set */
        return o->cmd == DS_ISNOTSET;
    bool r = false;
    pthread_mutex_lock(&s->mu);
    struct ds_node **p = slot_of(s, v, vlen);
    switch (o->cmd) {
    case DS_SET:
        r = add_locked(s, v, vlen, 0, false) == 1;
        break;
    case DS_UNSET:
        if ((r = *p != NULL)) {
            struct ds_node *n = *p;
            *p = n->next;
            s->memuse -= sizeof *n + n->len;
            s->count--;
            free(n);
        }
        break;
    case DS_ISSET:
        r = *p != NULL;
        break;
    case DS_ISNOTSET:
        r = *p == NULL;
        break;
    case DS_REP:
        r = *p && rep_holds(o->rep_op, (*p)->rep, o->rep_value);
        break;
    }
    pthread_mutex_unlock(&s->mu);
    return r;
}

/* ---- edits from outside the rules (the control socket's dataset-add/-remove/-lookup) ---- */

int det_dataset_edit(struct det_datasets *all, enum osprey_dataset_op op, const char *name,
                     const char *type, const char *value, char *why, size_t whylen)
{
    struct det_dataset *s = all ? all->sets : NULL;
    while (s && strcmp(s->name, name))
        s = s->next;
    if (!s) {
        snprintf(why, whylen, "set %s not found (no rule names it)", name);
        return -1;
    }
    if (strcmp(type, type_name(s->type))) {
        snprintf(why, whylen, "set %s is of type %s, not %s", name, type_name(s->type), type);
        return -1;
    }
    size_t n = strlen(value);
    uint8_t *v = malloc(n + 32);
    int len = v ? value_from_text(s->type, value, n, v) : -1;
    if (len < 0) {
        free(v);
        snprintf(why, whylen, "'%.64s' is not a %s value%s", value, type,
                 s->type == DST_STRING ? " (strings are given in base64)" : "");
        return -1;
    }
    int rc;
    pthread_mutex_lock(&s->mu);
    struct ds_node **p = slot_of(s, v, (uint32_t)len);
    if (op == OSPREY_DATASET_ADD) {
        rc = add_locked(s, v, (uint32_t)len, 0, false);
        if (rc < 0)
            snprintf(why, whylen, "set %s is full (its memcap)", name);
    } else if (op == OSPREY_DATASET_REMOVE && *p) {
        struct ds_node *gone = *p;
        *p = gone->next;
        s->memuse -= sizeof *gone + gone->len;
        s->count--;
        free(gone);
        rc = 1;
    } else {
        rc = *p != NULL;
    }
    pthread_mutex_unlock(&s->mu);
    free(v);
    return rc;
}
