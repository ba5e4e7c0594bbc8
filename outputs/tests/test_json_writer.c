/* test_json_writer.c — json_writer.c: nesting and commas, escapes, bytes that are not UTF-8,
 * and records as jansson reads them back. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../stack/tests/unit.h"
#include "../json_writer.h"
#include "osprey_outputs.h"

static void test_shape(void)
{
    struct jw w;
    jw_init(&w);
    jw_open(&w, NULL);
    jw_str(&w, "a", "x");
    jw_int(&w, "n", -5);
    jw_open(&w, "o");
    jw_bool(&w, "t", true);
    jw_array(&w, "l");
    jw_int(&w, NULL, 1);
    jw_str(&w, NULL, "two");
    jw_open(&w, NULL);
    jw_close(&w);
    jw_array_end(&w);
    jw_close(&w);
    jw_bool(&w, "f", false);
    char *s = jw_finish(&w);
    CHECK(s && !strcmp(s, "{\"a\":\"x\",\"n\":-5,\"o\":{\"t\":true,\"l\":[1,\"two\",{}]},"
                          "\"f\":false}\n"));
    free(s);
}

static void test_escapes(void)
{
    struct jw w;
    jw_init(&w);
    jw_open(&w, NULL);
    const uint8_t raw[] = "q\"b\\n\n\x01\x7f/é\xff\xc3(\xed\xa0\x80\xf0\x9f\x98\x80";
    jw_strn(&w, "s", raw, sizeof raw - 1);
    char *s = jw_finish(&w);
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

static void test_records_parse(void)
{
    struct osprey_eve_meta meta[] = {{"k", "1"}, {"j", "x"}, {"k", "2"}};
    struct osprey_eve_alert a = {
        .ts_us = 1600000000123456ull, .flow_id = 7, .pcap_cnt = 3, .src_ip = "10.0.0.1",
        .dest_ip = "10.0.0.2", .src_port = 1, .dest_port = 2, .proto = "TCP",
        .action = "allowed", .gid = 1, .sid = 9, .rev = 2, .signature = "sig \"q\"",
        .category = "", .severity = 3, .nmeta = 3, .meta = meta,
    };
    char *s = osprey_eve_alert_line(&a);
    json_error_t err;
    json_t *o = s ? json_loads(s, 0, &err) : NULL;
    CHECK(o != NULL);
    CHECK(!strcmp(json_string_value(json_object_get(o, "timestamp")),
                  "2020-09-13T12:26:40.123456+0000"));
    json_t *al = json_object_get(o, "alert");
    CHECK(!strcmp(json_string_value(json_object_get(al, "signature")), "sig \"q\""));
    json_t *md = json_object_get(al, "metadata");
    CHECK(json_array_size(json_object_get(md, "k")) == 2 &&
          json_array_size(json_object_get(md, "j")) == 1);
    CHECK(!strcmp(json_string_value(json_array_get(json_object_get(md, "k"), 1)), "2"));
    json_decref(o);
    free(s);
}

int main(void)
{
    test_shape();
    test_escapes();
    test_records_parse();
    return unit_report("test_json_writer");
}
