/* link.c — DNP3 over TCP: each side's link frames (IEEE 1815 §9: 0x05 0x64, a length of 5 or
 * more, control, destination, source and the header's CRC, then the user data in blocks of
 * 16 bytes each with its CRC), the transport function that joins the frames' segments into
 * application fragments (§8: FIR starts one, FIN ends it), and one transaction per fragment:
 * dnp3_request or dnp3_response runs with it in force, then its EVE record. Bytes before a
 * start are skipped (counted); a header whose CRC fails is dnp3.bad_link_crc (its start is
 * skipped), a data block's dnp3.bad_transport_crc (the frame dropped), a length under 5 or a
 * user-data frame too short for its headers dnp3.len_too_small, a fragment past DNP3_FRAG_MAX
 * dnp3.too_long_reassembly. */
#include <stdlib.h>
#include <string.h>

#include "dnp3_int.h"

static void fragment(struct pflow *pf, struct mon_flow *f, int dir, struct dnp3_state *st,
                     const uint8_t *hdr)
{
    struct dnp3_side *s = &st->side[dir];
    struct dnp3_msg m;
    memset(&m, 0, sizeof m);
    m.link_ctl = hdr[3];
    m.dst = rd_le16(hdr + 4), m.src = rd_le16(hdr + 6);
    bool unknown, many_obj, many_pts;
    if (!dnp3_decode_app(&m, dir, s->frag.p, s->frag.len, &unknown, &many_obj, &many_pts)) {
        pflow_anomaly(pf, f, dir, DNP3_AE_LEN_TOO_SMALL);
        return;
    }
    st->cur = m;
    st->has_cur = true;
    st->cur_id = st->next_id++;
    pbuf_reset(&st->cur_data);
    if (pbuf_add(&st->cur_data, s->frag.p, s->frag.len, DNP3_FRAG_MAX) != s->frag.len)
        pflow_count(pf, DNP3_C_FRAG_SHED, 1);
    bool response = m.func >= 0x81;
    pflow_raise(pf, f, dir, response ? DNP3_EV_RESPONSE : DNP3_EV_REQUEST);
    if (!pf->state)
        return;
    if (unknown)
        pflow_anomaly(pf, f, dir, DNP3_AE_UNKNOWN_OBJECT);
    if (many_obj) {
        pflow_count(pf, DNP3_C_OBJ_SHED, 1);
        pflow_anomaly(pf, f, dir, DNP3_AE_TOO_MANY_OBJECTS);
    }
    if (many_pts)
        pflow_anomaly(pf, f, dir, DNP3_AE_TOO_MANY_POINTS);
    if (response) {
        st->unanswered = 0;
        st->flooded = false;
    } else if (++st->unanswered > DNP3_FLOOD && !st->flooded) {
        st->flooded = true;
        pflow_anomaly(pf, f, dir, DNP3_AE_FLOODED);
    }
    pflow_count(pf, DNP3_C_TX, 1);
    pflow_tx_done(pf, f);
}

/* a user-data frame's data u[0..n) (CRCs removed): its transport segment */
static void segment(struct pflow *pf, struct mon_flow *f, int dir, struct dnp3_state *st,
                    const uint8_t *hdr, const uint8_t *u, size_t n)
{
    struct dnp3_side *s = &st->side[dir];
    if (n < 1) {
        pflow_anomaly(pf, f, dir, DNP3_AE_LEN_TOO_SMALL);
        return;
    }
    uint8_t th = u[0];
    if (th & 0x40) { /* FIR: a new fragment */
        pbuf_reset(&s->frag);
        s->in_frag = true;
        s->frag_over = false;
    }
    if (!s->in_frag || s->frag_over)
        return;
    if (s->frag.len + (n - 1) > DNP3_FRAG_MAX ||
        pbuf_add(&s->frag, u + 1, n - 1, DNP3_FRAG_MAX) != n - 1) {
        s->frag_over = true;
        pflow_count(pf, DNP3_C_FRAG_SHED, 1);
        pflow_anomaly(pf, f, dir, DNP3_AE_TOO_LONG_REASSEMBLY);
        return;
    }
    if (th & 0x80) { /* FIN */
        s->in_frag = false;
        fragment(pf, f, dir, st, hdr);
    }
}

/* one whole frame p[0..n) whose header checked */
static void frame(struct pflow *pf, struct mon_flow *f, int dir, struct dnp3_state *st,
                  const uint8_t *p, size_t n)
{
    size_t dlen = p[2] - 5u;
    uint8_t ctl = p[3];
    bool user = (ctl & 0x40) && ((ctl & 0x0f) == 3 || (ctl & 0x0f) == 4);
    if (!dlen) {
        if (user)
            pflow_anomaly(pf, f, dir, DNP3_AE_LEN_TOO_SMALL);
        return;
    }
    uint8_t u[250];
    size_t un = 0, at = DNP3_LINK_HDR;
    while (un < dlen) {
        size_t b = dlen - un < 16 ? dlen - un : 16;
        if (at + b + 2 > n)
            return;
        if (dnp3_crc(p + at, b) != rd_le16(p + at + b)) {
            pflow_count(pf, DNP3_C_BAD_CRC, 1);
            pflow_anomaly(pf, f, dir, DNP3_AE_BAD_TRANSPORT_CRC);
            return;
        }
        memcpy(u + un, p + at, b);
        un += b, at += b + 2;
    }
    if (user)
        segment(pf, f, dir, st, p, u, un);
}

static size_t frame_len(uint8_t len)
{
    size_t d = len - 5u;
    return DNP3_LINK_HDR + d + 2 * ((d + 15) / 16);
}

void dnp3_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct dnp3_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct dnp3_state *st = pf->state;
    struct pbuf *b = &st->side[dir].in;
    while ((n || b->len >= DNP3_LINK_HDR) && !pf->dead[dir]) {
        /* take what completes the header or the frame it announces */
        size_t want = b->len < DNP3_LINK_HDR || b->p[2] < 5 ? DNP3_LINK_HDR : frame_len(b->p[2]);
        if (b->len < want) {
            if (!n)
                break;
            size_t k = want - b->len < n ? want - b->len : n;
            if (pbuf_add(b, d, k, DNP3_FRAME_MAX) != k) {
                pf->dead[dir] = true;
                return;
            }
            d += k, n -= k;
            if (b->len < want)
                continue;
        }
        /* resynchronise on a start: bytes before it are not DNP3 */
        size_t s = 0;
        while (s + 1 < b->len && !(b->p[s] == 0x05 && b->p[s + 1] == 0x64))
            s++;
        if (s) {
            pflow_count(pf, DNP3_C_SKIPPED, s);
            pbuf_consume(b, (uint32_t)s);
            continue;
        }
        if (b->len < DNP3_LINK_HDR)
            continue;
        if (dnp3_crc(b->p, 8) != rd_le16(b->p + 8)) {
            pflow_count(pf, DNP3_C_BAD_CRC, 1);
            pflow_anomaly(pf, f, dir, DNP3_AE_BAD_LINK_CRC);
            if (!pf->state)
                return;
            pbuf_consume(b, 2); /* past this start */
            continue;
        }
        if (b->p[2] < 5) {
            pflow_anomaly(pf, f, dir, DNP3_AE_LEN_TOO_SMALL);
            if (!pf->state)
                return;
            pbuf_consume(b, DNP3_LINK_HDR);
            continue;
        }
        size_t fl = frame_len(b->p[2]);
        if (b->len < fl)
            continue;
        frame(pf, f, dir, st, b->p, fl);
        if (!pf->state)
            return;
        pbuf_consume(b, (uint32_t)fl);
    }
}

void dnp3_free(void *state)
{
    struct dnp3_state *st = state;
    if (!st)
        return;
    for (int i = 0; i < 2; i++) {
        pbuf_free(&st->side[i].in);
        pbuf_free(&st->side[i].frag);
    }
    pbuf_free(&st->cur_data);
    free(st);
}
