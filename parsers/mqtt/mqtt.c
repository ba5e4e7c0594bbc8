/* mqtt.c — MQTT's descriptor: probes (port 1883 as a hint, a CONNECT anywhere), one event per
 * transaction (mqtt_tx), Suricata's sticky buffers (the CONNECT's strings, the PUBLISH's
 * topic and message, the SUBSCRIBE / UNSUBSCRIBE topics as lists), its integer fields
 * (mqtt.type, mqtt.flags, mqtt.qos, mqtt.reason_code … over every packet of the
 * transaction), its app-layer events, counters, configuration keys and EVE object.
 * Registered in core/registry.c. */
#include <stddef.h>

#include "mqtt_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, mqtt_probe}, {6, 1, mqtt_probe_server}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [MQTT_EV_TX] = {"mqtt_tx", 0},
};

static const struct mqtt_tx *cur(struct pflow *pf)
{
    const struct mqtt_state *st = pf->state;
    return st ? st->cur : NULL;
}

/* the transaction's first packet of type t */
static const struct mqtt_msg *msg_of(struct pflow *pf, uint8_t t)
{
    const struct mqtt_tx *tx = cur(pf);
    for (uint8_t i = 0; tx && i < tx->nmsg; i++)
        if (tx->msg[i].type == t && !tx->msg[i].truncated)
            return &tx->msg[i];
    return NULL;
}

static const uint8_t *span_of(const struct mqtt_msg *m, const struct span *s, uint32_t *len)
{
    if (!m || !s->set)
        return NULL;
    *len = s->len;
    return s->len ? m->body + s->off : (const uint8_t *)"";
}

static const uint8_t *buffer(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)s;
    const struct mqtt_msg *c = msg_of(pf, MQ_CONNECT);
    switch (key) {
    case MB_CLIENTID: return span_of(c, c ? &c->client_id : NULL, len);
    case MB_USERNAME: return span_of(c, c ? &c->username : NULL, len);
    case MB_PASSWORD: return span_of(c, c ? &c->password : NULL, len);
    case MB_WILLTOPIC: return span_of(c, c ? &c->will_topic : NULL, len);
    case MB_WILLMESSAGE: return span_of(c, c ? &c->will_msg : NULL, len);
    case MB_PROTOCOL_STRING: return span_of(c, c ? &c->proto_name : NULL, len);
    default: break;
    }
    const struct mqtt_msg *p = msg_of(pf, MQ_PUBLISH);
    if (key == MB_PUB_TOPIC)
        return span_of(p, p ? &p->topic : NULL, len);
    if (key == MB_PUB_MESSAGE)
        return span_of(p, p ? &p->message : NULL, len);
    const struct mqtt_msg *t = msg_of(pf, key == MB_SUB_TOPIC ? MQ_SUBSCRIBE : MQ_UNSUBSCRIBE);
    if (!t || i >= mqtt_nkept(t))
        return NULL;
    return span_of(t, &t->topics[i], len);
}

/* all CONNECT strings and PUBLISH parts are the client's side of the rule (dir 0) */
#define BUF(n, k, m) {.name = n, .dir = 0, .event = "mqtt_tx", .multi = m, .key = k, \
                      .get = buffer}
static const struct proto_buffer BUFFERS[] = {
    BUF("mqtt.connect.clientid", MB_CLIENTID, false),
    BUF("mqtt.connect.username", MB_USERNAME, false),
    BUF("mqtt.connect.password", MB_PASSWORD, false),
    BUF("mqtt.connect.willtopic", MB_WILLTOPIC, false),
    BUF("mqtt.connect.willmessage", MB_WILLMESSAGE, false),
    BUF("mqtt.connect.protocol_string", MB_PROTOCOL_STRING, false),
    BUF("mqtt.publish.topic", MB_PUB_TOPIC, false),
    BUF("mqtt.publish.message", MB_PUB_MESSAGE, false),
    BUF("mqtt.subscribe.topic", MB_SUB_TOPIC, true),
    BUF("mqtt.unsubscribe.topic", MB_UNSUB_TOPIC, true),
};
#undef BUF

/* Element i of a packet's reason codes: CONNACK's return code, a PUB* / DISCONNECT / AUTH
 * reason, each SUBACK granted QoS, each UNSUBACK reason code. */
static bool reason_at(const struct mqtt_msg *m, uint32_t *i, int64_t *out)
{
    if (m->type == MQ_SUBACK || m->type == MQ_UNSUBACK) {
        uint32_t n = m->codes.set ? m->codes.len : 0;
        if (*i < n) {
            *out = m->body[m->codes.off + *i];
            return true;
        }
        *i -= n;
        return false;
    }
    if (!m->has_reason)
        return false;
    if (*i == 0) {
        *out = m->reason;
        return true;
    }
    (*i)--;
    return false;
}

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    const struct mqtt_state *st = pf->state;
    const struct mqtt_tx *tx = cur(pf);
    if (!tx)
        return false;
    if (key == MF_VERSION) { /* the flow's, as its CONNECT said (Suricata's) */
        *out = st->version;
        return i == 0 && st->version;
    }
    if (key == MF_CONNECT_FLAGS || key == MF_SESSION_PRESENT) {
        const struct mqtt_msg *m = msg_of(pf, key == MF_CONNECT_FLAGS ? MQ_CONNECT : MQ_CONNACK);
        if (!m || i > 0)
            return false;
        *out = key == MF_CONNECT_FLAGS ? m->cflags : m->session_present;
        return true;
    }
    if (key == MF_REASON) {
        for (uint8_t k = 0; k < tx->nmsg; k++)
            if (reason_at(&tx->msg[k], &i, out))
                return true;
        return false;
    }
    if (i >= tx->nmsg) /* type, flags, qos: one element per packet */
        return false;
    const struct mqtt_msg *m = &tx->msg[i];
    *out = key == MF_TYPE ? m->type : key == MF_QOS ? m->qos
                                                    : m->flags & (MQTT_FLAG_DUP | MQTT_FLAG_RETAIN);
    return true;
}

static const struct proto_value TYPES[] = {
    {"connect", MQ_CONNECT}, {"connack", MQ_CONNACK}, {"publish", MQ_PUBLISH},
    {"puback", MQ_PUBACK}, {"pubrec", MQ_PUBREC}, {"pubrel", MQ_PUBREL},
    {"pubcomp", MQ_PUBCOMP}, {"subscribe", MQ_SUBSCRIBE}, {"suback", MQ_SUBACK},
    {"unsubscribe", MQ_UNSUBSCRIBE}, {"unsuback", MQ_UNSUBACK}, {"pingreq", MQ_PINGREQ},
    {"pingresp", MQ_PINGRESP}, {"disconnect", MQ_DISCONNECT}, {"auth", MQ_AUTH},
    {"unassigned", 0}, {NULL, 0}};
static const struct proto_value FLAGS[] = {
    {"dup", MQTT_FLAG_DUP}, {"retain", MQTT_FLAG_RETAIN}, {NULL, 0}};
static const struct proto_value CONNECT_FLAGS[] = {
    {"username", MQTT_CF_USERNAME}, {"password", MQTT_CF_PASSWORD},
    {"will_retain", MQTT_CF_WILL_RETAIN}, {"will", MQTT_CF_WILL},
    {"clean_session", MQTT_CF_CLEAN}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"mqtt.type", MF_TYPE, field, TYPES},             /* multi: each packet's */
    {"mqtt.flags", MF_FLAGS, field, FLAGS},           /* multi: dup and retain bits */
    {"mqtt.qos", MF_QOS, field, NULL},                /* multi */
    {"mqtt.reason_code", MF_REASON, field, NULL},     /* multi (reason_at) */
    {"mqtt.connack.return_code", MF_REASON, field, NULL}, /* Suricata's alias of it */
    {"mqtt.protocol_version", MF_VERSION, field, NULL},
    {"mqtt.connect.flags", MF_CONNECT_FLAGS, field, CONNECT_FLAGS},
    {"mqtt.connack.session_present", MF_SESSION_PRESENT, field, NULL},
};

static const char *const ANOMALIES[] = {
    [MQTT_AE_MISSING_CONNECT] = "mqtt.missing_connect",   /* a CONNACK without CONNECT */
    [MQTT_AE_MISSING_PUBLISH] = "mqtt.missing_publish",   /* a PUB* ack of no PUBLISH */
    [MQTT_AE_MISSING_SUBSCRIBE] = "mqtt.missing_subscribe",
    [MQTT_AE_MISSING_UNSUBSCRIBE] = "mqtt.missing_unsubscribe",
    [MQTT_AE_DOUBLE_CONNECT] = "mqtt.double_connect",     /* a CONNECT once connected */
    [MQTT_AE_UNINTRODUCED] = "mqtt.unintroduced_message", /* before a CONNECT was answered */
    [MQTT_AE_INVALID_QOS] = "mqtt.invalid_qos_level",     /* a PUBLISH of QoS 3 */
    /* Suricata's name, for its rules: never raised here, a QoS 1/2 PUBLISH without its
     * packet id does not decode (mqtt.malformed_traffic) */
    [MQTT_AE_MISSING_MSG_ID] = "mqtt.missing_msg_id",
    [MQTT_AE_UNASSIGNED_TYPE] = "mqtt.unassigned_msg_type", /* type 0 */
    [MQTT_AE_TOO_MANY_TX] = "mqtt.too_many_transactions", /* past max-tx waiting */
    [MQTT_AE_MALFORMED] = "mqtt.malformed_traffic",       /* does not decode: side given up */
};

static const char *const COUNTERS[] = {
    [MQTT_C_TX] = "mqtt_tx",
    [MQTT_C_MESSAGES] = "mqtt_messages",
    [MQTT_C_MALFORMED] = "mqtt_malformed",
    [MQTT_C_TRUNCATED] = "mqtt_truncated",   /* packets past max-msg-length */
    [MQTT_C_TX_SHED] = "mqtt_tx_shed",       /* waiting transactions finished past max-tx */
    [MQTT_C_SHED] = "mqtt_shed",             /* packets / topics past the per-tx limits */
};

#define MQTT_KEY "app-layer.protocols.mqtt."
#define CFG(k, kd, member, lo) \
    {.key = k, .kind = kd, .offset = offsetof(struct mqtt_cfg, member), .min = lo}
static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    CFG(MQTT_KEY "max-msg-length", OSPREY_CFG_SIZE, max_msg_length, 1),
    CFG(MQTT_KEY "max-tx", OSPREY_CFG_UINT, max_tx, 1),
};
#undef CFG

static void mqtt_cfg_defaults(void *v)
{
    struct mqtt_cfg *c = v;
    c->max_msg_length = 1u << 20;
    c->max_tx = 4096;
}

const struct osprey_proto_def mqtt_proto = {
    .name = "mqtt",
    .flow_stat = "flow.mqtt",
    .l4 = 6,
    .probes = PROBES,
    .parse = mqtt_parse,
    .end = mqtt_end,
    .state_free = mqtt_free,
    .tx_id = mqtt_tx_id,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = MQTT_C_TX,
    .eve = mqtt_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct mqtt_cfg), .cfg_defaults = mqtt_cfg_defaults,
};
