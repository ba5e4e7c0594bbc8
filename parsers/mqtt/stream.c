/* stream.c — MQTT over TCP: each direction cut into control packets (a fixed header, then
 * its remaining length), and the packets grouped into transactions as Suricata groups them:
 * a CONNECT waits for its CONNACK, a PUBLISH of QoS 1/2 for its PUBACK / PUBREC-PUBREL-
 * PUBCOMP, a SUBSCRIBE / UNSUBSCRIBE for its SUBACK / UNSUBACK (by packet id); every other
 * packet is a transaction alone. A transaction runs `mqtt_tx` once, when complete (or when
 * the flow ends, or when it is shed), with all its packets current: rules see a whole
 * transaction, once, as Suricata's do.
 *
 * Limits: a packet longer than max-msg-length keeps its fixed header only (truncated, the
 * rest skipped, counted); at most max-tx transactions wait for an answer (the oldest is
 * finished with mqtt.too_many_transactions, counted), and they keep at most
 * MQTT_OPEN_BYTES_MAX bytes (the oldest finished early, counted); MQTT_TX_MSGS packets per
 * transaction and MQTT_TOPICS_MAX topics per packet are kept (more: counted). */
#include <stdlib.h>
#include <string.h>

#include "mqtt_int.h"

static struct mqtt_tx *tx_new(struct mqtt_state *st)
{
    struct mqtt_tx *tx = calloc(1, sizeof *tx);
    if (tx)
        tx->id = st->next_id++;
    return tx;
}

static void tx_free(struct mqtt_tx *tx)
{
    for (uint8_t i = 0; i < tx->nmsg; i++)
        mqtt_msg_free(&tx->msg[i]);
    free(tx);
}

/* m (its copies now the transaction's) into tx */
static void tx_add(struct pflow *pf, struct mqtt_tx *tx, struct mqtt_msg *m)
{
    if (m->ntopics > MQTT_TOPICS_MAX)
        pflow_count(pf, MQTT_C_SHED, m->ntopics - MQTT_TOPICS_MAX);
    if (tx->nmsg < MQTT_TX_MSGS) {
        tx->bytes += m->len;
        tx->msg[tx->nmsg++] = *m;
        return;
    }
    pflow_count(pf, MQTT_C_SHED, 1); /* a fifth packet of one transaction: not kept */
    mqtt_msg_free(m);
}

static void anomaly(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_tx *tx,
                    unsigned e)
{
    struct mqtt_state *st = pf->state;
    struct mqtt_tx *saved = st->cur;
    st->cur = tx;
    pflow_anomaly(pf, f, dir, e);
    st->cur = saved;
}

/* tx is complete (and no longer listed): its rules, its record, then it is gone. Its rules
 * run on the side of its first packet: a flow:to_server rule sees a CONNECT with its
 * CONNACK, as Suricata's to_server inspection sees the CONNECT's transaction. */
static void tx_finish(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_tx *tx)
{
    struct mqtt_state *st = pf->state;
    st->cur = tx;
    pflow_count(pf, MQTT_C_TX, 1);
    pflow_raise(pf, f, tx->nmsg ? tx->msg[0].dir : dir, MQTT_EV_TX);
    pflow_tx_done(pf, f);
    st->cur = NULL;
    tx_free(tx);
}

static void tx_unlink(struct mqtt_state *st, struct mqtt_tx *tx)
{
    struct mqtt_tx **pp = &st->open, *prev = NULL;
    while (*pp && *pp != tx)
        prev = *pp, pp = &(*pp)->next;
    if (!*pp)
        return;
    *pp = tx->next;
    if (st->open_tail == tx)
        st->open_tail = prev;
    tx->next = NULL;
    st->nopen--;
    st->open_bytes -= tx->bytes;
}

static struct mqtt_tx *tx_find(struct mqtt_state *st, uint32_t pkt_id)
{
    for (struct mqtt_tx *t = st->open; t; t = t->next)
        if (t->pkt_id == pkt_id)
            return t;
    return NULL;
}

/* Past MQTT_OPEN_BYTES_MAX kept by waiting transactions, the oldest (but keep) are
 * finished early. */
static void shed_bytes(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_tx *keep)
{
    struct mqtt_state *st = pf->state;
    while (st->open_bytes > MQTT_OPEN_BYTES_MAX && st->open && st->open != keep) {
        struct mqtt_tx *old = st->open;
        tx_unlink(st, old);
        pflow_count(pf, MQTT_C_TX_SHED, 1);
        tx_finish(pf, f, dir, old);
    }
}

/* tx waits for the packet answering pkt_id; past max-tx waiting, the oldest is finished */
static void tx_open(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_tx *tx,
                    uint32_t pkt_id)
{
    struct mqtt_state *st = pf->state;
    tx->pkt_id = pkt_id;
    tx->awaits = true;
    if (st->open_tail)
        st->open_tail->next = tx;
    else
        st->open = tx;
    st->open_tail = tx;
    st->nopen++;
    st->open_bytes += tx->bytes;
    if (st->nopen > ((const struct mqtt_cfg *)pflow_cfg(pf))->max_tx) {
        struct mqtt_tx *old = st->open;
        tx_unlink(st, old);
        pflow_count(pf, MQTT_C_TX_SHED, 1);
        anomaly(pf, f, dir, old, MQTT_AE_TOO_MANY_TX);
        tx_finish(pf, f, dir, old);
    }
    shed_bytes(pf, f, dir, tx);
}

/* a packet that is a transaction alone, with anomaly e (-1: none) */
static void alone(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_msg *m, int e)
{
    struct mqtt_tx *tx = tx_new(pf->state);
    if (!tx) {
        mqtt_msg_free(m);
        return;
    }
    tx_add(pf, tx, m);
    if (e >= 0)
        anomaly(pf, f, dir, tx, (unsigned)e);
    tx_finish(pf, f, dir, tx);
}

/* a packet starting a transaction that waits for pkt_id's answer */
static void opens(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_msg *m,
                  uint32_t pkt_id, int e)
{
    struct mqtt_tx *tx = tx_new(pf->state);
    if (!tx) {
        mqtt_msg_free(m);
        return;
    }
    tx_add(pf, tx, m);
    if (e >= 0)
        anomaly(pf, f, dir, tx, (unsigned)e);
    tx_open(pf, f, dir, tx, pkt_id);
}

/* an answer: into the transaction waiting for it (finished when final), else alone with
 * anomaly missing */
static void answers(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_msg *m,
                    uint32_t pkt_id, bool final, unsigned missing)
{
    struct mqtt_state *st = pf->state;
    struct mqtt_tx *tx = tx_find(st, pkt_id);
    if (!tx) {
        alone(pf, f, dir, m, (int)missing);
        return;
    }
    uint64_t before = tx->bytes;
    tx_add(pf, tx, m);
    st->open_bytes += tx->bytes - before; /* (still listed) */
    if (final) {
        tx_unlink(st, tx);
        tx_finish(pf, f, dir, tx);
    } else {
        shed_bytes(pf, f, dir, tx);
    }
}

static void on_msg(struct pflow *pf, struct mon_flow *f, int dir, struct mqtt_msg *m)
{
    struct mqtt_state *st = pf->state;
    pflow_count(pf, MQTT_C_MESSAGES, 1);
    m->dir = (uint8_t)dir;
    if (m->truncated) { /* only its fixed header: a transaction alone (Suricata's too) */
        alone(pf, f, dir, m, -1);
        return;
    }
    if (m->type == 0) {
        alone(pf, f, dir, m, MQTT_AE_UNASSIGNED_TYPE);
        return;
    }
    if (m->type == MQ_CONNECT) {
        st->version = m->proto_version;
        opens(pf, f, dir, m, MQTT_CONNECT_ID, st->connected ? MQTT_AE_DOUBLE_CONNECT : -1);
        return;
    }
    if (m->type == MQ_CONNACK) {
        if (tx_find(st, MQTT_CONNECT_ID))
            st->connected = true;
        answers(pf, f, dir, m, MQTT_CONNECT_ID, true, MQTT_AE_MISSING_CONNECT);
        return;
    }
    if (!st->connected) { /* anything else before a CONNECT was answered */
        alone(pf, f, dir, m, MQTT_AE_UNINTRODUCED);
        return;
    }
    switch (m->type) {
    case MQ_PUBLISH:
        if (m->qos == 0)
            alone(pf, f, dir, m, -1);
        else if (m->qos <= 2)
            opens(pf, f, dir, m, m->id, -1);
        else
            alone(pf, f, dir, m, MQTT_AE_INVALID_QOS);
        break;
    case MQ_PUBACK: case MQ_PUBREC: case MQ_PUBREL: case MQ_PUBCOMP:
        answers(pf, f, dir, m, m->id, m->type == MQ_PUBACK || m->type == MQ_PUBCOMP,
                MQTT_AE_MISSING_PUBLISH);
        break;
    case MQ_SUBSCRIBE: case MQ_UNSUBSCRIBE:
        opens(pf, f, dir, m, m->id, -1);
        break;
    case MQ_SUBACK:
        answers(pf, f, dir, m, m->id, true, MQTT_AE_MISSING_SUBSCRIBE);
        break;
    case MQ_UNSUBACK:
        answers(pf, f, dir, m, m->id, true, MQTT_AE_MISSING_UNSUBSCRIBE);
        break;
    default: /* PINGREQ, PINGRESP, DISCONNECT, AUTH */
        alone(pf, f, dir, m, -1);
        break;
    }
}

/* A whole packet: its fixed header, its body. false: malformed (the direction is given up). */
static bool packet(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                   uint32_t hlen, uint32_t body)
{
    struct mqtt_state *st = pf->state;
    struct mqtt_msg m;
    if (!mqtt_decode(&m, p[0], p + hlen, body, st->version)) {
        mqtt_msg_free(&m);
        pflow_count(pf, MQTT_C_MALFORMED, 1);
        anomaly(pf, f, dir, NULL, MQTT_AE_MALFORMED);
        return false;
    }
    on_msg(pf, f, dir, &m);
    return true;
}

/* A packet longer than max-msg-length: its fixed header only, the rest skipped (framing). */
static void truncated(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                      uint32_t hlen, uint64_t rem)
{
    (void)hlen;
    struct mqtt_msg m;
    memset(&m, 0, sizeof m);
    m.type = p[0] >> 4;
    m.flags = p[0] & 0x0f;
    m.qos = (m.flags >> 1) & 3;
    m.truncated = true;
    m.skipped = (uint32_t)rem;
    pflow_count(pf, MQTT_C_TRUNCATED, 1);
    on_msg(pf, f, dir, &m);
}

static void malformed_header(struct pflow *pf, struct mon_flow *f, int dir)
{
    pflow_count(pf, MQTT_C_MALFORMED, 1);
    anomaly(pf, f, dir, NULL, MQTT_AE_MALFORMED);
}

static int fixed_header(const uint8_t *p, size_t n, uint32_t *hlen, uint64_t *body)
{
    uint32_t rem;
    int r = mqtt_fixed_header(p, n, hlen, &rem);
    *body = rem;
    return r;
}

void mqtt_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct mqtt_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct mqtt_state *st = pf->state;
    /* a fixed header is 2 to 5 bytes; max-msg-length counts the remaining length only */
    const struct pframe_ops ops = {
        .header = fixed_header, .header_max = 8,
        .max = ((const struct mqtt_cfg *)pflow_cfg(pf))->max_msg_length, .max_is_body = true,
        .message = packet, .over_long = truncated, .bad = malformed_header,
    };
    pframe_feed(&st->dir[dir], &ops, pf, f, dir, d, n);
}

/* The flow ends: what still waits for an answer is finished as it is. */
void mqtt_end(struct pflow *pf, struct mon_flow *f)
{
    struct mqtt_state *st = pf->state;
    while (st && st->open) {
        struct mqtt_tx *tx = st->open;
        tx_unlink(st, tx);
        tx_finish(pf, f, 0, tx);
    }
}

void mqtt_free(void *state)
{
    struct mqtt_state *st = state;
    if (!st)
        return;
    while (st->open) {
        struct mqtt_tx *tx = st->open;
        st->open = tx->next;
        tx_free(tx);
    }
    pframe_free(&st->dir[0]);
    pframe_free(&st->dir[1]);
    free(st);
}

uint32_t mqtt_tx_id(const struct pflow *pf)
{
    const struct mqtt_state *st = pf->state;
    return st && st->cur ? (uint32_t)st->cur->id : 0;
}
