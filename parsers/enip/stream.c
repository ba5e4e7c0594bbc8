/* stream.c — EtherNet/IP's messages and transactions: on TCP each side's messages by their
 * header's length (held whole, ENIP_MSG_MAX), on UDP one per datagram. A request opens a
 * transaction and the next reply of its command completes it (its record); a request while
 * another waits
 * ends that one unanswered first, a reply without a request is a transaction of its own.
 * A reply of another command than the request's does not answer it (the request ends
 * unanswered, the reply is a transaction alone). Something that is no ENIP message is enip.invalid_pdu (TCP: that side is no longer read).
 * Each request runs enip_request, each reply enip_response. Bytes lost on TCP (enip_gap): the
 * message cut by the hole is dropped and the side is read again from the first chunk that
 * starts with a plausible header (Suricata's resync), the chunks before it passed over. */
#include <stdlib.h>
#include <string.h>

#include "enip_int.h"

static void done(struct pflow *pf, struct mon_flow *f, struct enip_state *st)
{
    st->open = false;
    pflow_count(pf, ENIP_C_TX, 1);
    pflow_tx_done(pf, f);
}

/* one whole message m[0..n) of side dir; false when it is none */
static bool message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *m, size_t n)
{
    struct enip_state *st = pf->state;
    struct enip_msg msg;
    uint32_t shed = 0;
    if (!enip_decode(&msg, dir, m, n, &shed)) {
        pflow_count(pf, ENIP_C_MALFORMED, 1);
        pflow_anomaly(pf, f, dir, ENIP_AE_INVALID_PDU);
        return false;
    }
    pflow_count(pf, ENIP_C_CIP_SHED, shed);
    if (dir == 0) {
        if (st->open) /* the one before was never answered */
            done(pf, f, st);
        if (!pf->state)
            return true;
        memset(&st->cur, 0, sizeof st->cur);
        st->cur.req = msg, st->cur.has_req = true;
        st->cur.id = st->next_id++;
        st->has_cur = st->open = true;
        st->last = 0;
        pflow_raise(pf, f, 0, ENIP_EV_REQUEST);
        return true;
    }
    if (st->open && st->cur.req.command != msg.command) { /* not its reply: it ends alone */
        done(pf, f, st);
        if (!pf->state)
            return true;
    }
    if (!st->open) {
        memset(&st->cur, 0, sizeof st->cur);
        st->cur.id = st->next_id++;
    }
    st->cur.resp = msg, st->cur.has_resp = true;
    st->has_cur = true;
    st->last = 1;
    pflow_raise(pf, f, 1, ENIP_EV_RESPONSE);
    if (pf->state)
        done(pf, f, st);
    return true;
}

static struct enip_state *state(struct pflow *pf, int dir)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct enip_state))))
        pf->dead[dir] = true;
    return pf->state;
}

/* Does a chunk after a gap start with a message header? A known command and status, and the
 * lengths and options the fixed commands have (the checks Suricata's resync makes). */
static bool resyncs(const uint8_t *d, size_t n)
{
    if (n < ENIP_HDR_LEN || !enip_command_known(rd_le16(d)) ||
        !strcmp(enip_status_name(rd_le32(d + 8)), "Unknown"))
        return false;
    uint16_t len = rd_le16(d + 2);
    switch (rd_le16(d)) {
    case ENIP_CMD_NOP: return rd_le32(d + 20) == 0;
    case ENIP_CMD_REGISTER: return len == 4;
    case ENIP_CMD_UNREGISTER: return len == 4 || len == 0;
    default: return true;
    }
}

void enip_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct enip_state *st = state(pf, dir);
    if (!st)
        return;
    pbuf_reset(&st->in[dir]); /* the message the hole cut is lost */
    st->gap[dir] = true;
}

void enip_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct enip_state *st = state(pf, dir);
    if (!st)
        return;
    if (st->gap[dir]) {
        if (!resyncs(d, n))
            return; /* not in step yet: this chunk is passed over */
        st->gap[dir] = false;
    }
    struct pbuf *b = &st->in[dir];
    while (n && !pf->dead[dir]) {
        size_t want = b->len < ENIP_HDR_LEN ? ENIP_HDR_LEN : ENIP_HDR_LEN + rd_le16(b->p + 2);
        size_t k = want - b->len < n ? want - b->len : n;
        if (pbuf_add(b, d, k, ENIP_MSG_MAX) != k) {
            pf->dead[dir] = true;
            return;
        }
        d += k, n -= k;
        if (b->len < ENIP_HDR_LEN || b->len < ENIP_HDR_LEN + (size_t)rd_le16(b->p + 2))
            continue;
        if (!message(pf, f, dir, b->p, b->len) && pf->state)
            pf->dead[dir] = true; /* lost framing: this side is not read further */
        if (!pf->state)
            return;
        pbuf_reset(b);
    }
}

void enip_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n)
{
    if (state(pf, dir))
        message(pf, f, dir, d, n);
}

void enip_end(struct pflow *pf, struct mon_flow *f)
{
    struct enip_state *st = pf->state;
    if (st && st->open)
        done(pf, f, st);
}

void enip_free(void *state)
{
    struct enip_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->in[0]);
    pbuf_free(&st->in[1]);
    free(st);
}
