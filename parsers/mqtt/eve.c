/* eve.c — MQTT's EVE object, as Suricata writes it: mqtt{<type>{qos, retain, dup, …}} with
 * one object per packet of the transaction (connect and connack, publish and its acks …),
 * each with the fields of its type (the names of Suricata's logger and
 * ../shared/conformance/eve-schema.json: a key the schema does not list is not written). */
#include "mqtt_int.h"
#include "osprey_json_writer.h"

static const char *const NAMES[16] = {
    NULL, "connect", "connack", "publish", "puback", "pubrec", "pubrel", "pubcomp",
    "subscribe", "suback", "unsubscribe", "unsuback", "pingreq", "pingresp", "disconnect",
    "auth"};

const char *mqtt_type_name(uint8_t type)
{
    return type < 16 ? NAMES[type] : NULL;
}

static void strspan(struct osprey_jw *w, const char *key, const struct mqtt_msg *m,
                    const struct span *s)
{
    if (s->set)
        osprey_jw_strn(w, key, m->body + s->off, s->len);
}

static void props(struct osprey_jw *w, const struct mqtt_msg *m, const struct span *s)
{
    if (s->set && s->len)
        mqtt_props_eve(w, m->body + s->off, s->len);
}

static void connect(struct osprey_jw *w, const struct mqtt_msg *m)
{
    strspan(w, "protocol_string", m, &m->proto_name);
    osprey_jw_int(w, "protocol_version", m->proto_version);
    osprey_jw_open(w, "flags");
    osprey_jw_bool(w, "username", m->cflags & MQTT_CF_USERNAME);
    osprey_jw_bool(w, "password", m->cflags & MQTT_CF_PASSWORD);
    osprey_jw_bool(w, "will_retain", m->cflags & MQTT_CF_WILL_RETAIN);
    osprey_jw_bool(w, "will", m->cflags & MQTT_CF_WILL);
    osprey_jw_bool(w, "clean_session", m->cflags & MQTT_CF_CLEAN);
    osprey_jw_close(w);
    strspan(w, "client_id", m, &m->client_id);
    strspan(w, "username", m, &m->username);
    strspan(w, "password", m, &m->password);
    if (m->will_topic.set) {
        osprey_jw_open(w, "will");
        strspan(w, "topic", m, &m->will_topic);
        strspan(w, "message", m, &m->will_msg);
        props(w, m, &m->will_props);
        osprey_jw_close(w);
    }
    props(w, m, &m->props);
}

/* the byte codes of a SUBACK / UNSUBACK as an array */
static void codes(struct osprey_jw *w, const char *key, const struct mqtt_msg *m)
{
    if (!m->codes.set || !m->codes.len)
        return;
    osprey_jw_array(w, key);
    for (uint32_t i = 0; i < m->codes.len; i++)
        osprey_jw_int(w, NULL, m->body[m->codes.off + i]);
    osprey_jw_array_end(w);
}

static void topics(struct osprey_jw *w, const struct mqtt_msg *m, bool with_qos)
{
    if (!mqtt_nkept(m))
        return;
    osprey_jw_array(w, "topics");
    for (uint32_t i = 0; i < mqtt_nkept(m); i++) {
        const struct span *t = &m->topics[i];
        if (!with_qos) {
            osprey_jw_strn(w, NULL, m->body + t->off, t->len);
            continue;
        }
        osprey_jw_open(w, NULL);
        osprey_jw_strn(w, "topic", m->body + t->off, t->len);
        osprey_jw_int(w, "qos", m->topic_qos[i]);
        osprey_jw_close(w);
    }
    osprey_jw_array_end(w);
}

static void message(struct osprey_jw *w, const struct mqtt_msg *m)
{
    const char *name = mqtt_type_name(m->type);
    if (!name || m->type == MQ_AUTH) /* (EVE has no auth object) */
        return;
    osprey_jw_open(w, name);
    osprey_jw_int(w, "qos", m->qos);
    osprey_jw_bool(w, "retain", m->flags & MQTT_FLAG_RETAIN);
    osprey_jw_bool(w, "dup", m->flags & MQTT_FLAG_DUP);
    bool has_id = m->has_id && m->type != MQ_PUBLISH; /* a PUBLISH's after its topic */
    if (has_id)
        osprey_jw_int(w, "message_id", m->id);
    if (m->truncated) {
        if (m->type == MQ_PUBLISH) {
            osprey_jw_bool(w, "truncated", true);
            osprey_jw_int(w, "skipped_length", m->skipped);
        }
        osprey_jw_close(w);
        return;
    }
    switch (m->type) {
    case MQ_CONNECT:
        connect(w, m);
        break;
    case MQ_CONNACK:
        osprey_jw_bool(w, "session_present", m->session_present);
        osprey_jw_int(w, "return_code", m->reason);
        props(w, m, &m->props);
        break;
    case MQ_PUBLISH:
        strspan(w, "topic", m, &m->topic);
        if (m->has_id)
            osprey_jw_int(w, "message_id", m->id);
        strspan(w, "message", m, &m->message);
        props(w, m, &m->props);
        break;
    case MQ_PUBACK: case MQ_PUBREC: case MQ_PUBREL: case MQ_PUBCOMP:
        if (m->has_reason)
            osprey_jw_int(w, "reason_code", m->reason);
        break;
    case MQ_SUBSCRIBE:
        topics(w, m, true);
        break;
    case MQ_UNSUBSCRIBE:
        topics(w, m, false);
        break;
    case MQ_SUBACK:
        codes(w, "qos_granted", m);
        break;
    case MQ_UNSUBACK:
        codes(w, "reason_codes", m);
        break;
    case MQ_DISCONNECT:
        if (m->has_reason)
            osprey_jw_int(w, "reason_code", m->reason);
        props(w, m, &m->props);
        break;
    default: /* PINGREQ, PINGRESP: the header's */
        break;
    }
    osprey_jw_close(w);
}

bool mqtt_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct mqtt_state *st = pf->state;
    if (!st || !st->cur)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "mqtt");
    for (uint8_t i = 0; i < st->cur->nmsg; i++)
        message(w, &st->cur->msg[i]);
    osprey_jw_close(w);
    return true;
}
