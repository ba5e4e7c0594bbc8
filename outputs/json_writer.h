/* json_writer.h — a small append-only JSON writer for the per-packet and per-flow EVE records
 * (private to outputs/). jansson builds a tree of allocated nodes for every record; at tens
 * of thousands of flow records a second that dominated the cost, so the hot records are
 * written straight into one growing buffer, keys in the order they are written.
 *
 * Strings are escaped as JSON requires ('"', '\\', control characters); bytes that are not
 * valid UTF-8 are written as \u00XX so a line is always valid JSON. Out of memory is sticky:
 * jw_finish then returns NULL. */
#ifndef OSPREY_JSON_WRITER_H
#define OSPREY_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JW_MAX_DEPTH 8

struct jw {
    char *buf;
    size_t len, cap;
    bool oom;
    int depth;
    bool more[JW_MAX_DEPTH]; /* a value was written at this depth: the next needs a comma */
};

void jw_init(struct jw *w);
/* key NULL: the root object or an array element. */
void jw_open(struct jw *w, const char *key);
void jw_close(struct jw *w);
void jw_array(struct jw *w, const char *key);
void jw_array_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *s);
void jw_strn(struct jw *w, const char *key, const uint8_t *s, size_t n);
void jw_int(struct jw *w, const char *key, int64_t v);
void jw_bool(struct jw *w, const char *key, bool v);
/* EVE's timestamp format (osprey_eve_timestamp) as a string value. */
void jw_time(struct jw *w, const char *key, uint64_t ts_us);
/* Close the root, append '\n'; the line (malloc'd, the caller frees) or NULL. */
char *jw_finish(struct jw *w);

#endif
