/* vars.c — the variable table (see vars.h). Resolution lives in expr.c with the grammar. */
#include "vars.h"

#include <string.h>

#include "osprey_config.h"

int vars_set(struct vars *vs, bool is_port, const char *name, const char *value,
             const char *file, int line)
{
    struct rule_var *v = vars_find(vs, is_port, name, strlen(name));
    if (v == NULL) {
        if (vs->n == vs->cap) {
            uint32_t cap = vs->cap ? vs->cap * 2 : 64;
            struct rule_var *nv = arena_alloc(&vs->ar, cap * sizeof *nv);
            if (nv == NULL)
                return -1;
            if (vs->n)
                memcpy(nv, vs->v, vs->n * sizeof *nv);
            vs->v = nv;
            vs->cap = cap;
        }
        v = &vs->v[vs->n++];
        memset(v, 0, sizeof *v);
        v->name = arena_strdup(&vs->ar, name);
        v->is_port = is_port;
    } else {
        memset(&v->set, 0, sizeof v->set);
        v->state = VAR_UNRESOLVED;
        v->ipset = NULL;
        v->portset = NULL;
        v->error = NULL;
    }
    v->value = arena_strdup(&vs->ar, value);
    v->file = arena_strdup(&vs->ar, file ? file : "");
    v->line = line;
    return v->name && v->value && v->file ? 0 : -1;
}

struct load_arg {
    struct vars *vs;
    bool is_port;
    int rc;
};

static void add_entry(const char *key, const char *value, const char *file, int line, void *arg)
{
    struct load_arg *la = arg;
    if (vars_set(la->vs, la->is_port, key, value ? value : "", file, line) < 0)
        la->rc = -1;
}

int vars_load(struct vars *vs, const struct osprey_config *cfg)
{
    memset(vs, 0, sizeof *vs);
    arena_init(&vs->ar);
    if (cfg == NULL)
        return 0;
    struct load_arg la = {vs, false, 0};
    osprey_config_each(cfg, "vars.address-groups", add_entry, &la);
    la.is_port = true;
    osprey_config_each(cfg, "vars.port-groups", add_entry, &la);
    return la.rc;
}

void vars_free(struct vars *vs)
{
    arena_free(&vs->ar);
    memset(vs, 0, sizeof *vs);
}

struct rule_var *vars_find(struct vars *vs, bool is_port, const char *name, size_t n)
{
    for (uint32_t i = 0; i < vs->n; i++) {
        struct rule_var *v = &vs->v[i];
        if (v->is_port == is_port && strncmp(v->name, name, n) == 0 && v->name[n] == '\0')
            return v;
    }
    return NULL;
}
