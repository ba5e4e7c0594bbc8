/* config_dump.c — the effective configuration as YAML (osprey --dump-config).
 *
 * The output is itself a valid Osprey config that loads to the same values, so it is both a
 * debugging aid and a way to freeze a configuration. Sizes are printed in bytes and durations
 * in seconds so that a reader (or a test) sees numbers, not spellings. Layout follows the
 * schema's row order; sections are derived from the dotted paths.
 */
#include "config_internal.h"
#include "osprey_config.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

static void quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Written plain only when no YAML reader could take it for anything but a word. */
static void word(FILE *out, const char *s)
{
    bool plain = isalnum((unsigned char)*s);
    for (const char *p = s; *p && plain; p++)
        plain = isalnum((unsigned char)*p) || strchr("_./-", *p);
    if (plain)
        fputs(s, out);
    else
        quoted(out, s);
}

static void value(FILE *out, enum cfg_type type, const struct cfg_value *v)
{
    switch (type) {
    case CT_STRING:
        quoted(out, v->text);
        break;
    case CT_LIST:
        fputc('[', out);
        for (size_t i = 0; i < v->nitems; i++) {
            if (i)
                fputs(", ", out);
            word(out, v->items[i]);
        }
        fputc(']', out);
        break;
    default:
        fputs(v->text, out);
        break;
    }
}

/* Component of row path p right after prefix ("" = top level), or NULL if p is not under it. */
static const char *child_of(const char *p, const char *prefix, size_t *len)
{
    size_t plen = strlen(prefix);
    if (plen) {
        if (strncmp(p, prefix, plen) || p[plen] != '.')
            return NULL;
        p += plen + 1;
    }
    *len = strcspn(p, ".");
    return p;
}

/* Whether a section prints anything: a fixed key, or a map that has entries. */
static bool has_content(const struct osprey_config *cfg, const char *prefix)
{
    for (size_t i = 0; i < cfg->nkeys; i++) {
        size_t len;
        if (!child_of(cfg->schema[i].path, prefix, &len))
            continue;
        if (cfg->schema[i].kind == CK_KEY || (cfg->schema[i].kind == CK_MAP && cfg->slot[i].nentries))
            return true;
    }
    return false;
}

static void section(const struct osprey_config *cfg, FILE *out, const char *prefix, int depth)
{
    for (size_t i = 0; i < cfg->nkeys; i++) {
        const struct cfg_key *row = &cfg->schema[i];
        size_t len;
        const char *c = child_of(row->path, prefix, &len);
        if (!c || row->kind == CK_ENTRY)
            continue;
        /* Print each child once, where the first row under it stands. */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            size_t l2;
            const char *c2 = child_of(cfg->schema[j].path, prefix, &l2);
            seen = c2 && cfg->schema[j].kind != CK_ENTRY && l2 == len && !strncmp(c, c2, len);
        }
        if (seen)
            continue;

        if (row->kind == CK_MAP && len == 1 && *c == '*') {
            const struct cfg_slot *s = &cfg->slot[i];
            for (size_t e = 0; e < s->nentries; e++) {
                fprintf(out, "%*s", depth * 2, "");
                word(out, s->entry[e].name);
                fputs(": ", out);
                value(out, row->type, &s->entry[e].value);
                fputc('\n', out);
            }
            continue;
        }
        fprintf(out, "%*s%.*s:", depth * 2, "", (int)len, c);
        if (row->kind == CK_KEY && !c[len]) {
            fputc(' ', out);
            value(out, row->type, &cfg->slot[i].value);
            fputc('\n', out);
            continue;
        }
        char sub[512];
        if (*prefix)
            snprintf(sub, sizeof sub, "%s.%.*s", prefix, (int)len, c);
        else
            snprintf(sub, sizeof sub, "%.*s", (int)len, c);
        if (!has_content(cfg, sub)) {
            fputs(" {}\n", out);
            continue;
        }
        fputc('\n', out);
        section(cfg, out, sub, depth + 1);
    }
}

void osprey_config_dump(const struct osprey_config *cfg, FILE *out)
{
    fputs("%YAML 1.1\n---\n", out);
    section(cfg, out, "", 0);
}
