/* osprey_json_writer.h — a small append-only JSON writer for the per-packet and per-flow EVE
 * records (common/: outputs/ and the parsers' EVE objects write with it). jansson builds a tree of allocated nodes for every record; at tens
 * of thousands of flow records a second that dominated the cost, so the hot records are
 * written straight into one growing buffer, keys in the order they are written.
 *
 * Strings are escaped as JSON requires ('"', '\\', control characters); bytes that are not
 * valid UTF-8 are written as \u00XX so a line is always valid JSON. Out of memory is sticky:
 * osprey_jw_finish then returns NULL. */
#ifndef OSPREY_JSON_WRITER_H
#define OSPREY_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OSPREY_JW_MAX_DEPTH 8

struct osprey_jw {
    char *buf;
    size_t len, cap;
    bool oom;
    int depth;
    bool more[OSPREY_JW_MAX_DEPTH]; /* a value was written at this depth: the next needs a comma */
};

void osprey_jw_init(struct osprey_jw *w);
/* key NULL: the root object or an array element. */
void osprey_jw_open(struct osprey_jw *w, const char *key);
void osprey_jw_close(struct osprey_jw *w);
void osprey_jw_array(struct osprey_jw *w, const char *key);
void osprey_jw_array_end(struct osprey_jw *w);
void osprey_jw_str(struct osprey_jw *w, const char *key, const char *s);
void osprey_jw_strn(struct osprey_jw *w, const char *key, const uint8_t *s, size_t n);
void osprey_jw_int(struct osprey_jw *w, const char *key, int64_t v);
void osprey_jw_bool(struct osprey_jw *w, const char *key, bool v);
/* Members written before ("a":1,"b":{…}, as a finished object's text without its braces),
 * added to the open object as they are (kept alerts' application objects). */
void osprey_jw_members(struct osprey_jw *w, const char *members);
/* A number with up to 6 significant digits (not finite: 0). */
void osprey_jw_double(struct osprey_jw *w, const char *key, double v);
/* EVE's timestamp format (osprey_jw_timestamp) as a string value. */
void osprey_jw_time(struct osprey_jw *w, const char *key, uint64_t ts_us);
/* EVE's timestamp: "2024-01-02T03:04:05.000006+0000" (UTC, microseconds) into buf (40 bytes
 * are enough). Every EVE record's timestamp, the jansson-built stats record's too. */
void osprey_jw_timestamp(uint64_t ts_us, char *buf, size_t len);
/* Close the root, append '\n'; the line (malloc'd, the caller frees) or NULL. */
char *osprey_jw_finish(struct osprey_jw *w);

#endif
