/* opt_mqtt.c — Suricata's MQTT integer keywords (the buffers are sticky: opt_buffers.c).
 * Each is a comparison on the MQTT parser's field of the same name (det_unit_field), true
 * when any packet of the transaction matches:
 *
 *   mqtt.type:[!]CONNECT|…|AUTH|N     mqtt.qos:0|1|2            mqtt.reason_code:<cmp>
 *   mqtt.flags:[!]dup,[!]retain       mqtt.protocol_version:<cmp>
 *   mqtt.connect.flags:[!]username,[!]password,[!]will,[!]will_retain,[!]clean_session
 *   mqtt.connack.session_present:true|false
 *
 * Names (types, flags) are the values the parser's fields register (osprey_field_value). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "buffers.h"
#include "opt_util.h"
#include "osprey_parsers.h"
#include "registry.h"
#include "text.h"

/* field's value named s[0..n) (case-insensitive); false when it has none */
static bool named(const char *field, const char *s, size_t n, int64_t *v)
{
    char w[32];
    int fld = osprey_field_find(field);
    if (fld < 0 || n == 0 || n >= sizeof w)
        return false;
    for (size_t i = 0; i < n; i++)
        w[i] = (char)tolower((unsigned char)s[i]);
    w[n] = 0;
    return osprey_field_value((uint16_t)fld, w, v);
}

/* Suricata's integers: N, !N, <N, >N …, A-B meaning A < x < B */
static int parse_uint(struct rule_ctx *c, char *val, int64_t max)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    return cm ? parse_cmp(c, val, strlen(val), 0, max, CMP_DASH_EXCL, cm) : -1;
}

static int parse_type(struct rule_ctx *c, char *val)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    const char *v = val;
    while (isspace((unsigned char)*v))
        v++;
    bool neg = *v == '!';
    size_t n = strlen(v + neg);
    while (n && isspace((unsigned char)v[neg + n - 1]))
        n--;
    int64_t t;
    if (named("mqtt.type", v + neg, n, &t)) {
        cm->op = neg ? CMP_NE : CMP_EQ;
        cm->lo = t;
        return 0;
    }
    if (isalpha((unsigned char)v[neg]))
        return opt_error(c, v + neg, "unknown type '%.*s' (CONNECT … AUTH, or 0..15)", (int)n,
                         v + neg);
    return parse_cmp(c, val, strlen(val), 0, 15, CMP_DASH_EXCL, cm);
}

static int parse_qos(struct rule_ctx *c, char *val) { return parse_uint(c, val, 2); }
static int parse_reason(struct rule_ctx *c, char *val) { return parse_uint(c, val, 255); }
static int parse_version(struct rule_ctx *c, char *val) { return parse_uint(c, val, 255); }

/* "[!]flag, [!]flag …" of field's named bits: CMP_MASK over the bits named, those without
 * '!' wanted set */
static int parse_flags(struct rule_ctx *c, char *val, const char *field)
{
    struct opt_cmp *cm = opt_arg_new(c, sizeof *cm);
    if (!cm)
        return -1;
    cm->op = CMP_MASK;
    struct list_iter it;
    const char *item;
    size_t n;
    list_init(&it, val, strlen(val), ',');
    while (list_next(&it, &item, &n)) {
        bool neg = n && *item == '!';
        int64_t bit;
        if (!named(field, item + neg, n - neg, &bit))
            return opt_error(c, item, "unknown flag '%.*s'", (int)n, item);
        if (cm->hi & bit)
            return opt_error(c, item, "flag '%.*s' named twice", (int)(n - neg), item + neg);
        cm->hi |= bit;
        if (!neg)
            cm->lo |= bit;
    }
    if (!cm->hi)
        return opt_error(c, val, "no flag");
    return 0;
}

static int parse_mqtt_flags(struct rule_ctx *c, char *val)
{
    return parse_flags(c, val, "mqtt.flags");
}

static int parse_connect_flags(struct rule_ctx *c, char *val)
{
    return parse_flags(c, val, "mqtt.connect.flags");
}

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
