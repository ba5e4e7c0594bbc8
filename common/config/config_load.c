/* config_load.c — defaults, then the file, then --set: the three layers of osprey_config_load.
 *
 * Every error is reported and loading goes on to the end, so one run shows the user all the
 * mistakes in a file; only then does a load with errors fail. Unknown keys only warn: a file
 * written for a newer Osprey (or a suricata.yaml) still loads.
 */
#include "config_internal.h"
#include "osprey_config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct loader {
    struct osprey_config *cfg;
    FILE *diag;
    int errors;
};

static void label_of(const struct cfg_node *node, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d", node->file, node->line);
}

static void warn_unknown(struct loader *L, const char *label, const char *key)
{
    fprintf(L->diag, "warning: %s: unknown key '%s'\n", label, key);
}

static void warn_again(struct loader *L, const char *label, const char *key,
                       const struct cfg_value *prev)
{
    fprintf(L->diag, "warning: %s: %s: set again (first at line %d); the last one wins\n", label,
            key, prev->origin.line);
}

static void count_error(struct loader *L, int rc)
{
    if (rc < 0)
        L->errors++;
}

/* Entry `name` of map row m, from node (file) or a --set scalar. */
static void set_entry(struct loader *L, long m, const char *name, const char *fullkey,
                      const struct cfg_node *val, const char *keylabel, const char *label)
{
    const struct cfg_key *row = &L->cfg->schema[m];
    struct cfg_slot *slot = &L->cfg->slot[m];
    char canon[64];

    if (row->words) {
        /* Only these names mean something (host-os-policy.*); any other is a typo. */
        size_t n = strlen(name);
        const char *w = row->words;
        bool found = false;
        while (*w && !found) {
            size_t wl = strcspn(w, "|");
            if (wl == n && wl < sizeof canon && !strncasecmp(w, name, n)) {
                memcpy(canon, w, wl);
                canon[wl] = '\0';
                found = true;
            }
            w += wl + (w[wl] == '|');
        }
        if (!found) {
            warn_unknown(L, keylabel, fullkey);
            return;
        }
        name = canon;
    }
    if (val->kind == CFG_SCALAR && val->null && row->type != CT_LIST)
        return; /* "KEY:" with nothing after it keeps what was there */

    struct cfg_entry *e = cfg_find_entry(slot, name);
    if (e && L->cfg->path && e->value.origin.file == L->cfg->path && val->file == L->cfg->path)
        warn_again(L, label, fullkey, &e->value);
    if (!e) {
        if (slot->nentries == slot->cap) {
            size_t cap = slot->cap ? slot->cap * 2 : 16;
            struct cfg_entry *grown = realloc(slot->entry, cap * sizeof *grown);
            if (!grown) {
                fprintf(L->diag, "%s: %s: out of memory\n", label, fullkey);
                L->errors++;
                return;
            }
            slot->entry = grown;
            slot->cap = cap;
        }
        e = &slot->entry[slot->nentries];
        memset(e, 0, sizeof *e);
        if (!(e->name = strdup(name))) {
            fprintf(L->diag, "%s: %s: out of memory\n", label, fullkey);
            L->errors++;
            return;
        }
        slot->nentries++;
        if (cfg_value_parse(&e->value, row, fullkey, val, label, L->diag) < 0) {
            free(e->name);
            slot->nentries--;
            L->errors++;
        }
        return;
    }
    count_error(L, cfg_value_parse(&e->value, row, fullkey, val, label, L->diag));
}

static void set_key(struct loader *L, long k, const char *fullkey, const struct cfg_node *val,
                    const char *label);

/* The options of suricata.yaml's eve-log record types (- anomaly: {types: {decode: yes}}),
 * read as keys beside the list (outputs.eve-log.anomaly.types.decode) where the schema has
 * them; the others are not read, as before. */
static void place_known(struct loader *L, const char *prefix, const struct cfg_node *map)
{
    for (size_t i = 0; i < map->n; i++) {
        char *k, label[4200];
        if (asprintf(&k, "%s.%s", prefix, map->key[i]->text) < 0) {
            L->errors++;
            return;
        }
        long row = cfg_find_key(L->cfg, k);
        label_of(map->item[i], label, sizeof label);
        if (row >= 0)
            set_key(L, row, k, map->item[i], label);
        else if (map->item[i]->kind == CFG_MAP)
            place_known(L, k, map->item[i]);
        free(k);
    }
}

static void type_options(struct loader *L, const char *fullkey, const struct cfg_node *val)
{
    size_t n = strlen(fullkey);
    if (strncmp(fullkey, "outputs.", 8) || n < 6 || strcmp(fullkey + n - 6, ".types") ||
        val->kind != CFG_SEQ)
        return;
    for (size_t j = 0; j < val->n; j++) {
        const struct cfg_node *it = val->item[j];
        if (it->kind != CFG_MAP || it->n != 1 || it->item[0]->kind != CFG_MAP)
            continue;
        char *prefix;
        if (asprintf(&prefix, "%.*s.%s", (int)(n - 6), fullkey, it->key[0]->text) < 0) {
            L->errors++;
            return;
        }
        place_known(L, prefix, it->item[0]);
        free(prefix);
    }
}

static void set_key(struct loader *L, long k, const char *fullkey, const struct cfg_node *val,
                    const char *label)
{
    struct cfg_value *v = &L->cfg->slot[k].value;
    if (val->kind == CFG_SCALAR && val->null && L->cfg->schema[k].type != CT_LIST)
        return; /* "KEY:" with nothing after it keeps the default, as in Suricata */
    if (L->cfg->path && v->origin.file == L->cfg->path && val->file == L->cfg->path)
        warn_again(L, label, fullkey, v);
    count_error(L, cfg_value_parse(v, &L->cfg->schema[k], fullkey, val, label, L->diag));
    if (L->cfg->schema[k].type == CT_LIST)
        type_options(L, fullkey, val);
}

static void bad_shape(struct loader *L, const char *label, const char *key,
                      const struct cfg_node *val)
{
    char got[80];
    cfg_node_describe(val, got, sizeof got);
    fprintf(L->diag, "%s: %s: expected a map, got %s\n", label, key, got);
    L->errors++;
}

static void walk_map(struct loader *L, const struct cfg_node *map, const char *prefix);

/* One "key: value" of the file at dotted path fullkey. */
static void place(struct loader *L, const char *fullkey, const struct cfg_node *keynode,
                  const struct cfg_node *val)
{
    char label[4200], keylabel[4200];
    label_of(val, label, sizeof label);
    label_of(keynode, keylabel, sizeof keylabel);
    bool empty = val->kind == CFG_SCALAR && val->null;
    long i;

    if ((i = cfg_find_key(L->cfg, fullkey)) >= 0) {
        set_key(L, i, fullkey, val, label);
    } else if ((i = cfg_find_map(L->cfg, fullkey)) >= 0) {
        if (empty)
            return;
        if (val->kind != CFG_MAP) {
            bad_shape(L, label, fullkey, val);
            return;
        }
        for (size_t j = 0; j < val->n; j++) {
            char *entkey;
            if (asprintf(&entkey, "%s.%s", fullkey, val->key[j]->text) < 0) {
                L->errors++;
                return;
            }
            label_of(val->item[j], label, sizeof label);
            long k = cfg_find_key(L->cfg, entkey); /* a fixed key beside the entries */
            if (k >= 0) {
                set_key(L, k, entkey, val->item[j], label);
            } else {
                label_of(val->key[j], keylabel, sizeof keylabel);
                set_entry(L, i, val->key[j]->text, entkey, val->item[j], keylabel, label);
            }
            free(entkey);
        }
    } else if (cfg_is_section(L->cfg, fullkey)) {
        if (empty)
            return;
        bool maps = val->kind == CFG_SEQ && val->n > 0;
        for (size_t j = 0; maps && j < val->n; j++)
            maps = val->item[j]->kind == CFG_MAP;
        if (maps) {
            /* suricata.yaml's `outputs:` is a list of one-key maps (- fast: {...}); each
             * item is read as if it were a key of one map: outputs.fast.enabled … */
            for (size_t j = 0; j < val->n; j++)
                walk_map(L, val->item[j], fullkey);
            return;
        }
        if (val->kind != CFG_MAP) {
            bad_shape(L, label, fullkey, val);
            return;
        }
        walk_map(L, val, fullkey);
    } else {
        warn_unknown(L, keylabel, fullkey);
    }
}

static void walk_map(struct loader *L, const struct cfg_node *map, const char *prefix)
{
    for (size_t i = 0; i < map->n; i++) {
        char *fullkey;
        int rc = prefix ? asprintf(&fullkey, "%s.%s", prefix, map->key[i]->text)
                        : asprintf(&fullkey, "%s", map->key[i]->text);
        if (rc < 0) {
            fprintf(L->diag, "%s: out of memory\n", map->file);
            L->errors++;
            return;
        }
        place(L, fullkey, map->key[i], map->item[i]);
        free(fullkey);
    }
}

static int load_defaults(struct loader *L)
{
    const struct osprey_config *cfg = L->cfg;
    for (size_t i = 0; i < cfg->nkeys; i++) {
        const struct cfg_key *row = &cfg->schema[i];
        if (row->kind == CK_MAP)
            continue;
        struct cfg_node *node = cfg_node_scalar(row->def, CFG_ORIGIN_DEFAULT, 0);
        if (!node)
            return -1;
        if (row->kind == CK_KEY) {
            set_key(L, (long)i, row->path, node, "internal error: schema default");
        } else {
            const char *name;
            long m = cfg_find_map_of_entry(cfg, row->path, &name);
            if (m < 0 || m > (long)i) {
                fprintf(L->diag, "internal error: schema entry %s before its map\n", row->path);
                L->errors++;
            } else {
                set_entry(L, m, name, row->path, node, "internal error: schema default",
                          "internal error: schema default");
            }
        }
        cfg_node_free(node);
    }
    return L->errors ? -1 : 0;
}

static void load_file(struct loader *L)
{
    struct cfg_node *root;
    if (cfg_tree_load(L->cfg->path, &root, L->diag) < 0) {
        L->errors++;
        return;
    }
    if (root && root->kind == CFG_MAP) {
        walk_map(L, root, NULL);
    } else if (root && !(root->kind == CFG_SCALAR && root->null)) {
        char got[80];
        cfg_node_describe(root, got, sizeof got);
        fprintf(L->diag, "%s:%d: expected a map of settings at the top level, got %s\n",
                root->file, root->line, got);
        L->errors++;
    }
    cfg_node_free(root);
}

/* One "--set key.path=value". */
static void apply_set(struct loader *L, const char *arg)
{
    char label[4200];
    snprintf(label, sizeof label, "--set %s", arg);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        fprintf(L->diag, "%s: expected key.path=value\n", label);
        L->errors++;
        return;
    }
    char *key = strndup(arg, (size_t)(eq - arg));
    struct cfg_node *val = cfg_node_scalar(eq + 1, CFG_ORIGIN_SET, 0);
    const char *name;
    long i;
    if (!key || !val) {
        fprintf(L->diag, "%s: out of memory\n", label);
        L->errors++;
    } else if ((i = cfg_find_key(L->cfg, key)) >= 0) {
        set_key(L, i, key, val, label);
    } else if (cfg_find_map(L->cfg, key) >= 0 || cfg_is_section(L->cfg, key)) {
        fprintf(L->diag, "%s: %s: is a section; set one key below it, as %s.NAME=VALUE\n",
                label, key, key);
        L->errors++;
    } else if ((i = cfg_find_map_of_entry(L->cfg, key, &name)) >= 0) {
        set_entry(L, i, name, key, val, label, label);
    } else {
        warn_unknown(L, label, key);
    }
    cfg_node_free(val);
    free(key);
}

int osprey_config_load(struct osprey_config **out, const char *path, const char *const *sets,
                       int nsets, FILE *diag)
{
    *out = NULL;
    struct loader L = {.diag = diag ? diag : stderr};
    struct osprey_config *cfg = L.cfg = calloc(1, sizeof *cfg);
    if (!cfg) {
        fprintf(L.diag, "out of memory loading the configuration\n");
        return -1;
    }
    cfg->schema = cfg_schema(&cfg->nkeys);
    cfg->slot = calloc(cfg->nkeys, sizeof *cfg->slot);
    if (!cfg->slot || (path && !(cfg->path = strdup(path)))) {
        fprintf(L.diag, "out of memory loading the configuration\n");
        osprey_config_free(cfg);
        return -1;
    }

    if (load_defaults(&L) == 0) {
        if (path)
            load_file(&L);
        for (int i = 0; i < nsets; i++)
            apply_set(&L, sets[i]);
    }
    if (L.errors) {
        osprey_config_free(cfg);
        return -1;
    }
    *out = cfg;
    return 0;
}

void osprey_config_free(struct osprey_config *cfg)
{
    if (!cfg)
        return;
    for (size_t i = 0; cfg->slot && i < cfg->nkeys; i++) {
        struct cfg_slot *s = &cfg->slot[i];
        cfg_value_clear(&s->value);
        for (size_t j = 0; j < s->nentries; j++) {
            free(s->entry[j].name);
            cfg_value_clear(&s->entry[j].value);
        }
        free(s->entry);
    }
    free(cfg->slot);
    free(cfg->path);
    free(cfg);
}
