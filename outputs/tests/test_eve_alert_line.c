/* test_eve_alert_line.c — an EVE alert line as jansson reads it back: the timestamp, a quoted
 * signature, metadata keys grouped into arrays. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_outputs.h"
#include "unit.h"

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
    test_records_parse();
    return unit_report("test_eve_alert_line");
}
