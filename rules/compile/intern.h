/* intern.h — hash-consing of serialized keys, and the growable byte string they are built
 * in. Identical keys give the same stored pointer: that is what lets mon_define_event see two
 * rules' identical headers and units as one (base, filter, arg). */
#ifndef OSPREY_DETECT_INTERN_H
#define OSPREY_DETECT_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct intern {
    struct ient {
        uint64_t h;
        uint8_t *key;
        size_t len;
        void *val;
    } *t;
    size_t n, cap; /* cap: power of two */
};

/* A growable byte string for keys and labels. */
struct buf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
};

void *intern_get(struct intern *in, const uint8_t *k, size_t n);
int intern_put(struct intern *in, const uint8_t *k, size_t n, void *val);
void intern_free(struct intern *in);

void buf_put(struct buf *b, const void *v, size_t n);
void buf_puts(struct buf *b, const char *s);

#endif
