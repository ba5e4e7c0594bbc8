/* mqtt_int.h — what the MQTT parser's files share: a decoded control packet, the
 * transactions, the flow's state, and its own numbering of events, anomalies, counters,
 * buffers and fields (rows of its descriptor, mqtt.c). Internal to parsers/mqtt. */
#ifndef OSPREY_MQTT_INT_H
#define OSPREY_MQTT_INT_H

#include "framing.h"
#include "parsers_int.h"

extern const struct osprey_proto_def mqtt_proto;

/* rows of mqtt_proto.events / .anomalies / .counters; buffer and field keys */
enum { MQTT_EV_TX };
enum mqtt_anomaly {
    MQTT_AE_MISSING_CONNECT, MQTT_AE_MISSING_PUBLISH, MQTT_AE_MISSING_SUBSCRIBE,
    MQTT_AE_MISSING_UNSUBSCRIBE, MQTT_AE_DOUBLE_CONNECT, MQTT_AE_UNINTRODUCED,
    MQTT_AE_INVALID_QOS, MQTT_AE_MISSING_MSG_ID, MQTT_AE_UNASSIGNED_TYPE,
    MQTT_AE_TOO_MANY_TX, MQTT_AE_MALFORMED,
};
enum { MQTT_C_TX, MQTT_C_MESSAGES, MQTT_C_MALFORMED, MQTT_C_TRUNCATED, MQTT_C_TX_SHED,
       MQTT_C_SHED };
enum mqtt_buf { MB_CLIENTID, MB_USERNAME, MB_PASSWORD, MB_WILLTOPIC, MB_WILLMESSAGE,
                MB_PROTOCOL_STRING, MB_PUB_TOPIC, MB_PUB_MESSAGE, MB_SUB_TOPIC,
                MB_UNSUB_TOPIC };
enum mqtt_field { MF_TYPE, MF_FLAGS, MF_QOS, MF_REASON, MF_VERSION, MF_CONNECT_FLAGS,
                  MF_SESSION_PRESENT };

/* control packet types (MQTT 5.0 §2.1.2); 0 is reserved ("unassigned" for Suricata) */
enum { MQ_CONNECT = 1, MQ_CONNACK, MQ_PUBLISH, MQ_PUBACK, MQ_PUBREC, MQ_PUBREL, MQ_PUBCOMP,
       MQ_SUBSCRIBE, MQ_SUBACK, MQ_UNSUBSCRIBE, MQ_UNSUBACK, MQ_PINGREQ, MQ_PINGRESP,
       MQ_DISCONNECT, MQ_AUTH };

/* fixed-header flag bits as the mqtt.flags field holds them; CONNECT flags (§3.1.2.3) */
#define MQTT_FLAG_RETAIN 0x01
#define MQTT_FLAG_DUP 0x08
#define MQTT_CF_USERNAME 0x80
#define MQTT_CF_PASSWORD 0x40
#define MQTT_CF_WILL_RETAIN 0x20
#define MQTT_CF_WILL 0x04
#define MQTT_CF_CLEAN 0x02

#define MQTT_TOPICS_MAX 64 /* topics of one SUBSCRIBE / UNSUBSCRIBE kept (more: counted) */
#define MQTT_TX_MSGS 4     /* messages of one transaction (PUBLISH, PUBREC, PUBREL, PUBCOMP) */
/* bytes of packets the waiting transactions of one flow keep (max-tx × max-msg-length would
 * be 4 GiB): past it the oldest waiting transaction is finished early (counted) */
#define MQTT_OPEN_BYTES_MAX (16u << 20)

/* One control packet. Spans point into body (its variable header and payload, a bounded
 * copy); a packet longer than max-msg-length keeps only its fixed header (truncated). */
struct mqtt_msg {
    uint8_t type, flags;            /* the fixed header's type and low nibble */
    uint8_t qos;                    /* (flags >> 1) & 3 */
    uint8_t version;                /* the protocol version it was read with */
    uint8_t dir;                    /* 0: the client's, 1: the server's */
    bool truncated;
    uint32_t skipped;               /* truncated: the bytes not read */
    uint8_t *body;
    uint32_t len;
    bool has_id, has_reason;
    uint16_t id;
    uint8_t reason;                 /* CONNACK return code; PUB* / DISCONNECT / AUTH reason */
    struct span props;              /* MQTT 5 properties of the variable header (bytes) */
    /* CONNECT */
    struct span proto_name, client_id, will_props, will_topic, will_msg, username, password;
    uint8_t proto_version, cflags;
    /* CONNACK */
    bool session_present;
    /* PUBLISH */
    struct span topic, message;
    /* SUBSCRIBE / UNSUBSCRIBE: topics (and the subscription options' QoS); SUBACK's granted
     * QoS, UNSUBACK's reason codes: one byte each */
    struct span *topics;
    uint8_t *topic_qos;
    uint32_t ntopics;
    struct span codes;
};
/* the topics kept (ntopics also counts those past MQTT_TOPICS_MAX) */
static inline uint32_t mqtt_nkept(const struct mqtt_msg *m)
{
    return m->ntopics < MQTT_TOPICS_MAX ? m->ntopics : MQTT_TOPICS_MAX;
}

/* One transaction: Suricata's — a CONNECT and its CONNACK, a PUBLISH and its acks, a
 * SUBSCRIBE and its SUBACK …, or one message alone. */
struct mqtt_tx {
    struct mqtt_tx *next;
    struct mqtt_msg msg[MQTT_TX_MSGS];
    uint8_t nmsg;
    bool awaits;                    /* incomplete: waiting for the message matching pkt_id */
    uint32_t pkt_id;                /* the packet id awaited (MQTT_CONNECT_ID for a CONNACK) */
    uint64_t id;
    uint64_t bytes;                 /* its packets' copies */
};
#define MQTT_CONNECT_ID 0x10000u

/* MQTT's settings (app-layer.protocols.mqtt.*; the slot pflow_cfg reads). */
struct mqtt_cfg {
    uint32_t max_msg_length; /* packet bytes read; longer: truncated (1 MiB) */
    uint32_t max_tx;         /* transactions waiting for an answer (4096) */
};

struct mqtt_state {
    struct pframe dir[2];           /* each direction's packets (core/framing.h) */
    struct mqtt_tx *open, *open_tail; /* incomplete transactions, oldest first */
    uint32_t nopen;
    uint64_t open_bytes;            /* the waiting transactions' bytes */
    struct mqtt_tx *cur;            /* the transaction rules and EVE read now */
    uint64_t next_id;
    uint8_t version;                /* from the CONNECT (0: none seen; read as 3.1.1) */
    bool connected;                 /* a CONNACK answered a CONNECT */
};

/* message.c: decode one packet's variable header and payload (body, len: copied into m);
 * false when it does not decode (malformed). version: the flow's protocol version. */
bool mqtt_decode(struct mqtt_msg *m, uint8_t b0, const uint8_t *body, uint32_t len,
                 uint8_t version);
void mqtt_msg_free(struct mqtt_msg *m);
/* The fixed header at p: 1 with *hlen (header bytes) and *rem (remaining length), 0 when more
 * bytes are needed, -1 when the remaining length is more than 4 bytes. */
int mqtt_fixed_header(const uint8_t *p, size_t n, uint32_t *hlen, uint32_t *rem);
/* A variable byte integer (§1.5.5) at p[*off..n); false when cut or longer than 4 bytes. */
bool mqtt_varint(const uint8_t *p, uint32_t n, uint32_t *off, uint32_t *v);
/* props.c: MQTT 5 properties (§2.2.2.2): are they well formed? And write them as EVE's
 * "properties" object (Suricata's names). */
bool mqtt_props_valid(const uint8_t *p, uint32_t n);
void mqtt_props_eve(struct osprey_jw *w, const uint8_t *p, uint32_t n);
/* stream.c */
void mqtt_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void mqtt_end(struct pflow *pf, struct mon_flow *f);
void mqtt_free(void *state);
uint32_t mqtt_tx_id(const struct pflow *pf);
/* probe.c */
enum probe_verdict mqtt_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict mqtt_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool mqtt_eve(struct pflow *pf, struct osprey_jw *w);
const char *mqtt_type_name(uint8_t type); /* "connect" …; NULL for 0 */

#endif
