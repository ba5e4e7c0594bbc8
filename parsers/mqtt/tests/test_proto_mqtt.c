/* test_proto_mqtt.c — MQTT's descriptor, bytes in, buffers out: an MQTT 5 session (CONNECT /
 * CONNACK, SUBSCRIBE / SUBACK, two UNSUBSCRIBEs and their UNSUBACKs, DISCONNECT) cut
 * anywhere, each transaction's buffers and fields read when it is reported; an MQTT 3.1.1
 * PUBLISH QoS 2 with its three acks as one transaction; the limits (max-msg-length,
 * max-tx, topics per packet), malformed packets and the probes. */
#include "mqtt_int.h"
#include "proto_harness.h"
#include "unit.h"

/* what a reported transaction held, read in the tx callback (it is gone after) */
struct snap {
    char clientid[64], username[16], password[16], proto[16], topic[32], message[32];
    char sub[4][16], unsub[4][16];
    int64_t type[4], reason[4], qos[4], flags[4], version, cflags, session;
    uint32_t ntype, nreason, nsub, nunsub;
};
static struct snap snaps[16];
static uint32_t nsnaps;
static struct ph *cur_h;

static void str_of(struct ph *h, const char *name, uint32_t i, char *out, size_t cap)
{
    uint32_t n;
    const uint8_t *d = ph_buf(h, name, 0, i, &n);
    out[0] = 0;
    if (!d) {
        strcpy(out, "<none>");
        return;
    }
    if (n >= cap)
        n = (uint32_t)cap - 1;
    memcpy(out, d, n);
    out[n] = 0;
}

static uint32_t fields(struct ph *h, const char *name, int64_t *out, uint32_t max)
{
    uint32_t i = 0;
    while (i < max && ph_field(h, name, i, &out[i]))
        i++;
    return i;
}

static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p, (void)arg;
    struct ph *h = cur_h;
    h->txs++;
    if (nsnaps >= 16)
        return;
    struct snap *s = &snaps[nsnaps++];
    memset(s, 0, sizeof *s);
    str_of(h, "mqtt.connect.clientid", 0, s->clientid, sizeof s->clientid);
    str_of(h, "mqtt.connect.username", 0, s->username, sizeof s->username);
    str_of(h, "mqtt.connect.password", 0, s->password, sizeof s->password);
    str_of(h, "mqtt.connect.protocol_string", 0, s->proto, sizeof s->proto);
    str_of(h, "mqtt.publish.topic", 0, s->topic, sizeof s->topic);
    str_of(h, "mqtt.publish.message", 0, s->message, sizeof s->message);
    s->nsub = ph_nbuf(h, "mqtt.subscribe.topic", 0);
    for (uint32_t i = 0; i < s->nsub && i < 4; i++)
        str_of(h, "mqtt.subscribe.topic", i, s->sub[i], sizeof s->sub[i]);
    s->nunsub = ph_nbuf(h, "mqtt.unsubscribe.topic", 0);
    for (uint32_t i = 0; i < s->nunsub && i < 4; i++)
        str_of(h, "mqtt.unsubscribe.topic", i, s->unsub[i], sizeof s->unsub[i]);
    s->ntype = fields(h, "mqtt.type", s->type, 4);
    s->nreason = fields(h, "mqtt.reason_code", s->reason, 4);
    fields(h, "mqtt.qos", s->qos, 4);
    fields(h, "mqtt.flags", s->flags, 4);
    s->version = -1, s->cflags = -1, s->session = -1;
    ph_field(h, "mqtt.protocol_version", 0, &s->version);
    ph_field(h, "mqtt.connect.flags", 0, &s->cflags);
    ph_field(h, "mqtt.connack.session_present", 0, &s->session);
    CHECK(mqtt_eve(&h->pf, NULL)); /* a record for every transaction */
}

static void start(struct ph *h, uint16_t sport)
{
    ph_init(h, "mqtt", 6, 37932, sport);
    h->w.tx_fn = on_tx;
    cur_h = h;
    nsnaps = 0;
}

static size_t unhex(const char *hex, uint8_t *out)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void feed_hex(struct ph *h, int dir, const char *hex)
{
    uint8_t b[512];
    ph_feed(h, dir, b, unhex(hex, b));
}

/* suricata-verify's mqtt5-unsub-userpass session (its packets) */
static const char CONNECT5[] = "102f00044d51545405c2003c0321001400136d79766f69636569736d7970"
                               "617373706f7274000475736572000470617373";
static const char CONNACK5[] = "200600000322000a";

static void test_session_v5(void)
{
    struct ph h;
    start(&h, 1883);
    uint8_t b[512];
    size_t n = unhex(CONNECT5, b);
    for (size_t i = 0; i < n; i++) /* one byte at a time: the fixed header cut too */
        ph_feed(&h, 0, b + i, 1);
    CHECK_EQ_U(h.txs, 0); /* the CONNECT waits for its CONNACK */
    feed_hex(&h, 1, CONNACK5);
    CHECK_EQ_U(h.txs, 1);
    struct snap *s = &snaps[0];
    CHECK(!strcmp(s->clientid, "myvoiceismypassport"));
    CHECK(!strcmp(s->username, "user") && !strcmp(s->password, "pass"));
    CHECK(!strcmp(s->proto, "MQTT"));
    CHECK(!strcmp(s->topic, "<none>"));
    CHECK(s->ntype == 2 && s->type[0] == MQ_CONNECT && s->type[1] == MQ_CONNACK);
    CHECK(s->version == 5 && s->cflags == 0xc2 && s->session == 0);
    CHECK(s->nreason == 1 && s->reason[0] == 0); /* the CONNACK's return code */

    /* SUBSCRIBE and UNSUBSCRIBE (two in one segment) answered by id */
    feed_hex(&h, 0, "820c0001000006746f7069635800");
    feed_hex(&h, 0, "a20b0002000006746f70696358a20b0003000006746f70696359");
    CHECK_EQ_U(h.txs, 1);
    feed_hex(&h, 1, "900400010000");
    CHECK_EQ_U(h.txs, 2);
    CHECK(snaps[1].nsub == 1 && !strcmp(snaps[1].sub[0], "topicX"));
    CHECK(snaps[1].ntype == 2 && snaps[1].type[1] == MQ_SUBACK);
    CHECK(snaps[1].qos[0] == 1 && snaps[1].qos[1] == 0);
    CHECK(snaps[1].nreason == 1 && snaps[1].reason[0] == 0); /* granted QoS 0 */
    feed_hex(&h, 1, "b00400030011" "b00400020000"); /* answered out of order */
    CHECK_EQ_U(h.txs, 4);
    CHECK(snaps[2].nunsub == 1 && !strcmp(snaps[2].unsub[0], "topicY"));
    CHECK(snaps[2].nreason == 1 && snaps[2].reason[0] == 0x11);
    CHECK(!strcmp(snaps[3].unsub[0], "topicX") && snaps[3].reason[0] == 0);
    feed_hex(&h, 0, "e00104"); /* DISCONNECT, reason 4: a transaction alone */
    CHECK_EQ_U(h.txs, 5);
    CHECK(snaps[4].type[0] == MQ_DISCONNECT && snaps[4].reason[0] == 4);
    CHECK(!strcmp(snaps[4].clientid, "<none>"));
    CHECK_EQ_U(ph_count(&h, "mqtt_tx"), 5);
    CHECK_EQ_U(ph_count(&h, "mqtt_messages"), 9);
    CHECK_EQ_U(ph_count(&h, "mqtt_malformed"), 0);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 5);
    ph_free(&h);
}

static void test_publish_v311(void)
{
    struct ph h;
    start(&h, 1883);
    feed_hex(&h, 0, "100e00044d5154540402003c00025031"); /* CONNECT 3.1.1, client id "P1" */
    feed_hex(&h, 1, "20020000");
    CHECK_EQ_U(h.txs, 1);
    CHECK(snaps[0].version == 4 && !strcmp(snaps[0].clientid, "P1"));
    CHECK(!strcmp(snaps[0].username, "<none>"));
    /* PUBLISH QoS 2 id 3 "house/bulbs/bulb1" "OFF", retain: PUBREC, PUBREL, PUBCOMP */
    feed_hex(&h, 0, "35180011686f7573652f62756c62732f62756c623100034f4646");
    feed_hex(&h, 1, "50020003");
    feed_hex(&h, 0, "62020003");
    CHECK_EQ_U(h.txs, 1);
    feed_hex(&h, 1, "70020003");
    CHECK_EQ_U(h.txs, 2);
    struct snap *s = &snaps[1];
    CHECK(!strcmp(s->topic, "house/bulbs/bulb1") && !strcmp(s->message, "OFF"));
    CHECK(s->ntype == 4 && s->type[3] == MQ_PUBCOMP);
    CHECK(s->qos[0] == 2 && s->flags[0] == MQTT_FLAG_RETAIN);
    CHECK_EQ_U(s->nreason, 0); /* 3.1.1 acks carry no reason code */
    /* a QoS 0 PUBLISH is a transaction alone; a PUBACK of no PUBLISH too */
    feed_hex(&h, 1, "30080003742f61686921");
    CHECK_EQ_U(h.txs, 3);
    CHECK(!strcmp(snaps[2].topic, "t/a") && !strcmp(snaps[2].message, "hi!"));
    feed_hex(&h, 0, "40020009");
    CHECK_EQ_U(h.txs, 4);
    /* a QoS 1 PUBLISH left waiting is reported when the flow ends */
    feed_hex(&h, 0, "32080001780007414243");
    CHECK_EQ_U(h.txs, 4);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 5);
    CHECK(!strcmp(snaps[4].topic, "x") && !strcmp(snaps[4].message, "ABC"));
    ph_free(&h);
}

static void test_limits(void)
{
    struct ph h;
    start(&h, 1883);
    ((struct mqtt_cfg *)ph_cfg(&h))->max_msg_length = 8;
    ((struct mqtt_cfg *)ph_cfg(&h))->max_tx = 2;
    feed_hex(&h, 0, "100e00044d5154540402003c00025031"); /* 14 bytes > 8: truncated */
    CHECK_EQ_U(ph_count(&h, "mqtt_truncated"), 1);
    CHECK_EQ_U(h.txs, 1); /* a transaction alone, header only */
    CHECK(snaps[0].type[0] == MQ_CONNECT && !strcmp(snaps[0].clientid, "<none>"));
    ph_end(&h);
    ph_free(&h);

    /* a truncated packet's rest skipped across segments; the next one read */
    start(&h, 1883);
    ((struct mqtt_cfg *)ph_cfg(&h))->max_msg_length = 8;
    ((struct mqtt_cfg *)ph_cfg(&h))->max_tx = 2;
    feed_hex(&h, 0, "100e00044d51");
    feed_hex(&h, 0, "54540402003c00025031" "c000"); /* the rest, then a PINGREQ */
    CHECK_EQ_U(h.txs, 2);
    CHECK(snaps[1].type[0] == MQ_PINGREQ);
    ph_free(&h);

    /* max-tx: a third SUBSCRIBE waiting sheds the oldest (reported) */
    start(&h, 1883);
    ((struct mqtt_cfg *)ph_cfg(&h))->max_tx = 2;
    feed_hex(&h, 0, "100e00044d5154540402003c00025031");
    feed_hex(&h, 1, "20020000");
    feed_hex(&h, 0, "82060001000161008206000200016200" "8206000300016300");
    CHECK_EQ_U(ph_count(&h, "mqtt_tx_shed"), 1);
    CHECK_EQ_U(h.txs, 2);
    CHECK(!strcmp(snaps[1].sub[0], "a"));
    feed_hex(&h, 1, "9003000300"); /* the third still finds its SUBSCRIBE */
    CHECK_EQ_U(h.txs, 3);
    CHECK(!strcmp(snaps[2].sub[0], "c"));
    ph_end(&h); /* the second, unanswered */
    CHECK_EQ_U(h.txs, 4);
    ph_free(&h);

    /* the bytes waiting transactions keep are bounded: the oldest is finished early */
    start(&h, 1883);
    feed_hex(&h, 0, "100e00044d5154540402003c00025031");
    feed_hex(&h, 1, "20020000");
    uint32_t body = 1000000, total = 4 + body;
    uint8_t *pub = calloc(1, total);
    for (int i = 1; i <= 17; i++) { /* PUBLISH QoS 1, topic "t", id i: never acked */
        pub[0] = 0x32;
        pub[1] = (uint8_t)(0x80 | (body & 0x7f));
        pub[2] = (uint8_t)(0x80 | ((body >> 7) & 0x7f));
        pub[3] = (uint8_t)(body >> 14);
        pub[4] = 0, pub[5] = 1, pub[6] = 't', pub[7] = 0, pub[8] = (uint8_t)i;
        ph_feed(&h, 0, pub, total);
    }
    free(pub);
    CHECK_EQ_U(ph_count(&h, "mqtt_tx_shed"), 1); /* 17 MB > 16 MiB */
    CHECK_EQ_U(h.txs, 2);
    CHECK(((struct mqtt_state *)h.pf.state)->open_bytes <= MQTT_OPEN_BYTES_MAX);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 18);
    CHECK_EQ_U(((struct mqtt_state *)h.pf.state)->open_bytes, 0);
    ph_free(&h);

    /* more topics than kept: counted */
    start(&h, 1883);
    feed_hex(&h, 0, "100e00044d5154540402003c00025031");
    feed_hex(&h, 1, "20020000");
    char hex[2048] = "82";
    char *p = hex + 2;
    unsigned len = 2 + (MQTT_TOPICS_MAX + 2) * 4;
    p += sprintf(p, "%02x%02x0001", (len & 0x7f) | 0x80, len >> 7);
    for (int i = 0; i < MQTT_TOPICS_MAX + 2; i++)
        p += sprintf(p, "00017a00");
    feed_hex(&h, 0, hex);
    feed_hex(&h, 1, "9003000100");
    CHECK_EQ_U(ph_count(&h, "mqtt_shed"), 2);
    CHECK_EQ_U(snaps[1].nsub, MQTT_TOPICS_MAX);
    CHECK_EQ_U(ph_nbuf(&h, "mqtt.subscribe.topic", 0), 0); /* gone after its report */
    ph_free(&h);
}

static void test_malformed(void)
{
    struct ph h;
    start(&h, 1883);
    feed_hex(&h, 0, "30ffffffff7f"); /* a fifth length byte */
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(ph_count(&h, "mqtt_malformed"), 1);
    feed_hex(&h, 1, "20020000"); /* the other side still read: a CONNACK without CONNECT */
    CHECK_EQ_U(h.txs, 1);
    ph_free(&h);

    /* suricata-verify mqtt5-excessiveproplen: properties longer than the packet */
    start(&h, 1883);
    feed_hex(&h, 0, "102f00044d51545405c2003cff21001400136d79766f69636569736d79706173"
                    "73706f7274000475736572000470617373");
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(ph_count(&h, "mqtt_malformed"), 1);
    CHECK_EQ_U(h.txs, 0);
    ph_free(&h);

    /* an unknown property id cannot be skipped */
    CHECK(!mqtt_props_valid((const uint8_t *)"\x04\x00", 2));
    CHECK(mqtt_props_valid((const uint8_t *)"\x21\x00\x14", 3));
    CHECK(!mqtt_props_valid((const uint8_t *)"\x21\x00", 2)); /* cut */
}

static void test_probes(void)
{
    struct mon_flow on = {0}, off = {0};
    on.sport = 1883, on.cport = 40000;
    off.sport = 8080, off.cport = 40000;
    const uint8_t connack[] = {0x20, 0x02, 0x00, 0x00};
    CHECK(mqtt_probe_server(connack, 4, &on) == DET_YES);
    CHECK(mqtt_probe_server(connack, 4, &off) == DET_NO);
    CHECK(mqtt_probe(connack, 4, &off) == DET_NO);        /* off port: a CONNECT only */
    CHECK(mqtt_probe((const uint8_t *)"\x30", 1, &on) == DET_NEED_MORE);
    CHECK(mqtt_probe((const uint8_t *)"\x36\x02", 2, &on) == DET_NO); /* QoS 3 */
    CHECK(mqtt_probe((const uint8_t *)"\x06\x02", 2, &on) == DET_NO); /* type 0 */
    uint8_t b[64];
    size_t n = unhex(CONNECT5, b);
    CHECK(mqtt_probe(b, n, &off) == DET_YES);
    CHECK(mqtt_probe(b, 6, &off) == DET_NEED_MORE);
    b[4] = 'X';
    CHECK(mqtt_probe(b, n, &off) == DET_NO);
    n = unhex("102d00064d514973647003c2", b); /* MQTT 3.1: "MQIsdp" */
    CHECK(mqtt_probe(b, n, &off) == DET_YES);
    CHECK(osprey_app_proto_has_eve((uint16_t)osprey_app_proto_find("mqtt")));
    CHECK(osprey_buffer_is_multi((uint16_t)osprey_buffer_find("mqtt.subscribe.topic", 0)));
    int64_t v;
    CHECK(osprey_field_value((uint16_t)osprey_field_find("mqtt.type"), "unsuback", &v) &&
          v == MQ_UNSUBACK);
}

int main(void)
{
    test_session_v5();
    test_publish_v311();
    test_limits();
    test_malformed();
    test_probes();
    return unit_report("test_proto_mqtt");
}
