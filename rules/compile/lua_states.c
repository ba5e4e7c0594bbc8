/* lua_states.c — a worker's Lua states, one per script, made at the script's first run
 * (rules/lua/ run.c), and luaxform's runs in them. A leaf below the lua unit (unit_lua.c)
 * and the transform chain (app.c). */
#include <stdlib.h>

#include "detect_int.h"

/* A worker's states, found by script (a few scripts per ruleset: a short list). */
struct det_lua_states {
    uint32_t n, cap;
    struct det_lua_entry *v;
};

void det_lua_states_free(struct det_lua_states *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->n; i++)
        rlua_state_free(s->v[i].st);
    free(s->v);
    free(s);
}

struct det_lua_entry *det_lua_entry(struct osprey_detect_worker *w, const struct rlua_script *s)
{
    struct det_lua_states *ls = w->lua;
    if (!ls && !(ls = w->lua = calloc(1, sizeof *ls)))
        return NULL;
    for (uint32_t i = 0; i < ls->n; i++)
        if (ls->v[i].s == s)
            return &ls->v[i];
    if (ls->n == ls->cap) {
        uint32_t cap = ls->cap ? ls->cap * 2 : 4;
        void *v = realloc(ls->v, cap * sizeof *ls->v);
        if (!v)
            return NULL;
        ls->v = v;
        ls->cap = cap;
    }
    struct rlua_state *st = rlua_state_new(s);
    if (!st)
        return NULL;
    ls->v[ls->n] = (struct det_lua_entry){.s = s, .st = st};
    return &ls->v[ls->n++];
}

int det_lua_xform(struct osprey_detect_worker *w, const void *arg, const uint8_t *b, uint32_t n,
                  uint8_t *out, uint32_t cap, uint32_t *outlen)
{
    const struct opt_lua *a = arg;
    struct det_lua_entry *e = det_lua_entry(w, a->script);
    if (!e)
        return -1;
    return rlua_transform(e->st, b, n, a->args, a->nargs, out, cap, outlen, &w->lua_stats);
}

