/* arena.h — bump allocation for a ruleset's AST.
 *
 * Why: a ruleset is ~30k rules of a dozen small objects each, all freed together. One arena per
 * ruleset makes that a handful of mallocs, lets a rejected rule give its memory back
 * (arena_mark/arena_release) and makes leaks impossible by construction.
 */
#ifndef RULES_ARENA_H
#define RULES_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
    struct arena_chunk *head; /* newest chunk first */
    char *cur, *end;          /* free space in head */
    size_t bytes;             /* bytes of all chunks, for the memory figure */
};

struct arena_mark {
    struct arena_chunk *head;
    char *cur;
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);
/* n bytes aligned for any object; NULL when out of memory. */
void *arena_alloc(struct arena *a, size_t n);
void *arena_zalloc(struct arena *a, size_t n);
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);

/* Everything allocated after a mark is given back by release. */
struct arena_mark arena_mark(const struct arena *a);
void arena_release(struct arena *a, struct arena_mark m);

#endif
