/* test_json_writer.c — json_writer.c: nesting and commas, escapes, bytes that are not UTF-8
 * (jansson reads the line back), EVE's timestamp format. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_json_writer.h"
#include "unit.h"

static void test_shape(void)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    osprey_jw_str(&w, "a", "x");
    osprey_jw_int(&w, "n", -5);
    osprey_jw_open(&w, "o");
    osprey_jw_bool(&w, "t", true);
    osprey_jw_array(&w, "l");
    osprey_jw_int(&w, NULL, 1);
    osprey_jw_str(&w, NULL, "two");
    osprey_jw_open(&w, NULL);
    osprey_jw_close(&w);
    osprey_jw_array_end(&w);
    osprey_jw_close(&w);
    osprey_jw_bool(&w, "f", false);
    osprey_jw_double(&w, "p", 3.72);
    osprey_jw_double(&w, "z", 1.0 / 0.0);
    char *s = osprey_jw_finish(&w);
    CHECK(s && !strcmp(s, "{\"a\":\"x\",\"n\":-5,\"o\":{\"t\":true,\"l\":[1,\"two\",{}]},"
                          "\"f\":false,\"p\":3.72,\"z\":0}\n"));
    free(s);
}

static void test_escapes(void)
{
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    const uint8_t raw[] = "q\"b\\n\n\x01\x7f/é\xff\xc3(\xed\xa0\x80\xf0\x9f\x98\x80";
    osprey_jw_strn(&w, "s", raw, sizeof raw - 1);
    char *s = osprey_jw_finish(&w);
    /* \xff, a cut-short \xc3, and a UTF-16 surrogate encoded as UTF-8 are not UTF-8: escaped
     * byte by byte; é and the emoji are kept as they are */
    CHECK(s && !strcmp(s, "{\"s\":\"q\\\"b\\\\n\\n\\u0001\x7f/é\\u00ff\\u00c3(\\u00ed\\u00a0"
                          "\\u0080\xf0\x9f\x98\x80\"}\n"));
    json_error_t err;
    json_t *o = s ? json_loads(s, 0, &err) : NULL;
    CHECK(o != NULL); /* valid JSON whatever the bytes */
    json_decref(o);
    free(s);
}

/* the 16-byte scan: a byte to escape at every position of a long string is found; keys
 * with something to escape are escaped too */
static void test_long_strings_and_keys(void)
{
    for (size_t at = 0; at < 40; at++) {
        char in[41], want[96];
        memset(in, 'a', 40);
        in[40] = 0;
        in[at] = at % 3 == 0 ? '"' : at % 3 == 1 ? '\x01' : '\xff';
        const char *esc = at % 3 == 0 ? "\\\"" : at % 3 == 1 ? "\\u0001" : "\\u00ff";
        static const char as[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        snprintf(want, sizeof want, "\"%.*s%s%.*s\"", (int)at, as, esc, (int)(39 - at), as);
        struct osprey_jw w;
        osprey_jw_init(&w);
        osprey_jw_str(&w, NULL, in);
        char *s = osprey_jw_finish(&w);
        CHECK(s && !strncmp(s, want, strlen(want)) && s[strlen(want)] == '\n');
        free(s);
    }
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    osprey_jw_int(&w, "a\"b", 1);
    osprey_jw_int(&w, "plain_key", 2);
    char *s = osprey_jw_finish(&w);
    CHECK(s && !strcmp(s, "{\"a\\\"b\":1,\"plain_key\":2}\n"));
    free(s);
}

static void test_timestamp(void)
{
    char ts[40];
    osprey_jw_timestamp(1600000000123456ull, ts, sizeof ts);
    CHECK(!strcmp(ts, "2020-09-13T12:26:40.123456+0000"));
    /* the same second again (the cached date part), then the next one and an earlier one */
    osprey_jw_timestamp(1600000000000001ull, ts, sizeof ts);
    CHECK(!strcmp(ts, "2020-09-13T12:26:40.000001+0000"));
    osprey_jw_timestamp(1600000001999999ull, ts, sizeof ts);
    CHECK(!strcmp(ts, "2020-09-13T12:26:41.999999+0000"));
    osprey_jw_timestamp(0, ts, sizeof ts);
    CHECK(!strcmp(ts, "1970-01-01T00:00:00.000000+0000"));
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    osprey_jw_time(&w, "t", 1600000000123456ull);
    char *s = osprey_jw_finish(&w);
    CHECK(s && !strcmp(s, "{\"t\":\"2020-09-13T12:26:40.123456+0000\"}\n"));
    free(s);
}

int main(void)
{
    test_shape();
    test_escapes();
    test_long_strings_and_keys();
    test_timestamp();
    return unit_report("test_json_writer");
}
