/* message.c — one MQTT control packet (3.1, 3.1.1, 5.0): the fixed header's length, and the
 * variable header and payload of each type into spans of a bounded copy. MQTT 5 fields
 * (properties, reason codes) are read when the flow's CONNECT said version 5. Every read is
 * checked against the packet's length: a field running past it is a malformed packet. */
#include <stdlib.h>
#include <string.h>

#include "mqtt_int.h"

int mqtt_fixed_header(const uint8_t *p, size_t n, uint32_t *hlen, uint32_t *rem)
{
    uint32_t v = 0;
    for (uint32_t i = 1; i <= 4; i++) {
        if (i >= n)
            return 0;
        v |= (uint32_t)(p[i] & 0x7f) << (7 * (i - 1));
        if (!(p[i] & 0x80)) {
            *hlen = i + 1;
            *rem = v;
            return 1;
        }
    }
    return -1; /* a fifth length byte: not MQTT (§1.5.5) */
}

bool mqtt_varint(const uint8_t *p, uint32_t n, uint32_t *off, uint32_t *v)
{
    *v = 0;
    for (uint32_t i = 0; i < 4; i++) {
        if (*off >= n)
            return false;
        uint8_t b = p[(*off)++];
        *v |= (uint32_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* a reader over the packet's body */
struct rd {
    const uint8_t *p;
    uint32_t n, off;
    bool bad;
};

static uint8_t u8(struct rd *r)
{
    if (r->off + 1 > r->n) {
        r->bad = true;
        return 0;
    }
    return r->p[r->off++];
}

static uint16_t u16(struct rd *r)
{
    if (r->off + 2 > r->n) {
        r->bad = true;
        return 0;
    }
    uint16_t v = rd_be16(r->p + r->off);
    r->off += 2;
    return v;
}

/* a two-byte length and its bytes (UTF-8 string or binary data, §1.5.4 / §1.5.6) */
static struct span str(struct rd *r)
{
    uint16_t l = u16(r);
    if (r->bad || r->off + l > r->n) {
        r->bad = true;
        return (struct span){0, 0, false};
    }
    struct span s = {r->off, l, true};
    r->off += l;
    return s;
}

/* MQTT 5 properties: a variable length, then that many bytes of well-formed properties */
static struct span props(struct rd *r)
{
    uint32_t l;
    if (r->bad || !mqtt_varint(r->p, r->n, &r->off, &l) || l > r->n - r->off ||
        !mqtt_props_valid(r->p + r->off, l)) {
        r->bad = true;
        return (struct span){0, 0, false};
    }
    struct span s = {r->off, l, true};
    r->off += l;
    return s;
}

/* the topics of a SUBSCRIBE (with their options byte) or an UNSUBSCRIBE, to the end */
static void topics(struct rd *r, struct mqtt_msg *m, bool options)
{
    uint32_t cap = 0;
    while (!r->bad && r->off < r->n) {
        struct span t = str(r);
        uint8_t o = options ? u8(r) : 0;
        if (r->bad)
            return;
        if (m->ntopics >= MQTT_TOPICS_MAX) {
            m->ntopics++; /* counted past the limit, not kept (stream.c reports it) */
            continue;
        }
        if (m->ntopics == cap) {
            uint32_t nc = cap ? cap * 2 : 4;
            struct span *ts = realloc(m->topics, nc * sizeof *ts);
            if (ts)
                m->topics = ts;
            uint8_t *qs = realloc(m->topic_qos, nc);
            if (qs)
                m->topic_qos = qs;
            if (!ts || !qs)
                return; /* out of memory: the topics so far */
            cap = nc;
        }
        m->topics[m->ntopics] = t;
        m->topic_qos[m->ntopics++] = o & 3;
    }
}

static void connect(struct rd *r, struct mqtt_msg *m)
{
    m->proto_name = str(r);
    m->proto_version = u8(r);
    m->cflags = u8(r);
    u16(r); /* keep alive */
    bool v5 = m->proto_version == 5;
    if (v5)
        m->props = props(r);
    m->client_id = str(r);
    if (m->cflags & MQTT_CF_WILL) {
        if (v5)
            m->will_props = props(r);
        m->will_topic = str(r);
        m->will_msg = str(r);
    }
    if (m->cflags & MQTT_CF_USERNAME)
        m->username = str(r);
    if (m->cflags & MQTT_CF_PASSWORD)
        m->password = str(r);
}

/* PUBACK, PUBREC, PUBREL, PUBCOMP: an id; MQTT 5 a reason code (0 when left out) and
 * properties when there are more bytes */
static void ack(struct rd *r, struct mqtt_msg *m, bool v5)
{
    m->id = u16(r);
    m->has_id = true;
    if (!v5)
        return;
    m->has_reason = true;
    m->reason = r->off < r->n ? u8(r) : 0;
    if (r->off < r->n)
        m->props = props(r);
}

bool mqtt_decode(struct mqtt_msg *m, uint8_t b0, const uint8_t *body, uint32_t len,
                 uint8_t version)
{
    memset(m, 0, sizeof *m);
    m->type = b0 >> 4;
    m->flags = b0 & 0x0f;
    m->qos = (m->flags >> 1) & 3;
    m->len = len;
    if (len && !(m->body = malloc(len)))
        return false;
    if (len)
        memcpy(m->body, body, len);
    struct rd r = {m->body, len, 0, false};
    bool v5 = version == 5;
    switch (m->type) {
    case MQ_CONNECT:
        connect(&r, m);
        v5 = m->proto_version == 5;
        break;
    case MQ_CONNACK:
        m->session_present = u8(&r) & 1;
        m->reason = u8(&r);
        m->has_reason = true;
        if (v5)
            m->props = props(&r);
        break;
    case MQ_PUBLISH:
        m->topic = str(&r);
        if (m->qos > 0) {
            m->id = u16(&r);
            m->has_id = true;
        }
        if (v5)
            m->props = props(&r);
        if (!r.bad)
            m->message = (struct span){r.off, r.n - r.off, true};
        break;
    case MQ_PUBACK: case MQ_PUBREC: case MQ_PUBREL: case MQ_PUBCOMP:
        ack(&r, m, v5);
        break;
    case MQ_SUBSCRIBE: case MQ_UNSUBSCRIBE:
        m->id = u16(&r);
        m->has_id = true;
        if (v5)
            m->props = props(&r);
        topics(&r, m, m->type == MQ_SUBSCRIBE);
        break;
    case MQ_SUBACK: case MQ_UNSUBACK:
        m->id = u16(&r);
        m->has_id = true;
        if (v5)
            m->props = props(&r);
        if (!r.bad)
            m->codes = (struct span){r.off, r.n - r.off, true};
        break;
    case MQ_DISCONNECT: case MQ_AUTH:
        if (!v5)
            break;
        m->has_reason = true; /* a reason code left out is 0 (§3.14.2.1, §3.15.2.1) */
        m->reason = r.off < r.n ? u8(&r) : 0;
        if (r.off < r.n)
            m->props = props(&r);
        break;
    default: /* PINGREQ, PINGRESP: nothing; type 0: not read */
        break;
    }
    m->version = v5 ? 5 : version;
    return !r.bad;
}

void mqtt_msg_free(struct mqtt_msg *m)
{
    free(m->body);
    free(m->topics);
    free(m->topic_qos);
    m->body = NULL, m->topics = NULL, m->topic_qos = NULL;
}
