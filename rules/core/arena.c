/* arena.c — chunked bump allocator (see arena.h). */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN (64u * 1024u)
#define ALIGN     alignof(max_align_t)

struct arena_chunk {
    struct arena_chunk *next;
    size_t size; /* usable bytes after the header */
    alignas(max_align_t) char data[];
};

void arena_init(struct arena *a)
{
    memset(a, 0, sizeof *a);
}

void arena_free(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    arena_init(a);
}

void *arena_alloc(struct arena *a, size_t n)
{
    if (n == 0)
        n = 1;
    size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (need < n)
        return NULL;
    if (a->head == NULL || (size_t)(a->end - a->cur) < need) {
        /* Big objects get a chunk of their own size, so a chunk is never mostly wasted. */
        size_t size = need > CHUNK_MIN ? need : CHUNK_MIN;
        struct arena_chunk *c = malloc(sizeof *c + size);
        if (c == NULL)
            return NULL;
        c->next = a->head;
        c->size = size;
        a->head = c;
        a->cur = c->data;
        a->end = c->data + size;
        a->bytes += size;
    }
    void *p = a->cur;
    a->cur += need;
    return p;
}

void *arena_zalloc(struct arena *a, size_t n)
{
    void *p = arena_alloc(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

struct arena_mark arena_mark(const struct arena *a)
{
    return (struct arena_mark){a->head, a->cur};
}

void arena_release(struct arena *a, struct arena_mark m)
{
    while (a->head != m.head) {
        struct arena_chunk *c = a->head;
        a->head = c->next;
        a->bytes -= c->size;
        free(c);
    }
    if (a->head) {
        a->cur = m.cur;
        a->end = a->head->data + a->head->size;
    } else {
        a->cur = a->end = NULL;
    }
}
