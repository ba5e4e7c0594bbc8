/* opt_mqtt.c — Suricata's MQTT integer keywords (the buffers are sticky: opt_buffers.c).
 * Each is a comparison on the MQTT parser's field of the same name (det_unit_field), true
 * when any packet of the transaction matches:
 *
 *   mqtt.type:[!]CONNECT|…|AUTH|N     mqtt.qos:0|1|2            mqtt.reason_code:<cmp>
 *   mqtt.flags:[!]dup,[!]retain       mqtt.protocol_version:<cmp>
 *   mqtt.connect.flags:[!]username,[!]password,[!]will,[!]will_retain,[!]clean_session
 *   mqtt.connack.session_present:true|false
 *
 * Names (types, flags) are the values the parser's fields register (osprey_field_value); the
 * grammar is the integer keywords' one (OPT_INT_PARSER, opt_int.c) but for session_present. */
#include <string.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"

/* the integer grammar (opt_int.c): comparisons, named values, named flags */
OPT_INT_PARSER(parse_type, 15, INT_CMP | INT_NAMES, "type", " (CONNECT … AUTH, or 0..15)")
OPT_INT_PARSER(parse_qos, 2, INT_CMP, "value", "")
OPT_INT_PARSER(parse_reason, 255, INT_CMP, "value", "")
OPT_INT_PARSER(parse_version, 255, INT_CMP, "value", "")
OPT_INT_PARSER(parse_mqtt_flags, 0, INT_FLAGS, "flag", "")
OPT_INT_PARSER(parse_connect_flags, 0, INT_FLAGS, "flag", "")

static int parse_session_present(struct rule_ctx *c, char *val)
{
    static const char *const B[] = {"false", "true", "no", "yes", NULL};
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    int i = parse_choice(c, val, strlen(val), B, "value");
    if (i < 0)
        return -1;
    cm->op = CMP_EQ;
    cm->lo = i & 1;
    return 0;
}

/* The MQTT fields are read under its transaction event, the one its sticky buffers run under:
 * the row's buffer names it (det_app_match_buffer). */
#define MQTT_FIELD(name, parse)                                                            \
    {name, OPT_MATCH, D_SURI, ARG_REQUIRED, BUF_MQTT_PUBLISH_TOPIC, parse, true, NULL}
static const struct opt_def DEFS[] = {
    MQTT_FIELD("mqtt.type", parse_type),
    MQTT_FIELD("mqtt.flags", parse_mqtt_flags),
    MQTT_FIELD("mqtt.qos", parse_qos),
    MQTT_FIELD("mqtt.reason_code", parse_reason),
    MQTT_FIELD("mqtt.connack.return_code", parse_reason),
    MQTT_FIELD("mqtt.protocol_version", parse_version),
    MQTT_FIELD("mqtt.connect.flags", parse_connect_flags),
    MQTT_FIELD("mqtt.connack.session_present", parse_session_present),
};
OPT_TABLE(opt_table_mqtt, DEFS);
