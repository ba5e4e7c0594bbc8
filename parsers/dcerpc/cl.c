/* cl.c — connectionless DCERPC (C706 §12.5), one PDU per datagram: the 80-byte header names
 * the interface (UUID, version), the activity and sequence number of the call, its opnum and
 * fragment. A request's fragments (flags1 0x04, the last 0x02) are reassembled in the order
 * they come (bounded); a response answers the call of the same sequence number. */
#include <string.h>

#include "dcerpc_int.h"

#define CL_LASTFRAG 0x02
#define CL_FRAG 0x04

void dce_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct dce_state *st = dce_state_of(pf);
    if (!st)
        return;
    if (n < DCE_CL_HDR || d[0] != 4) {
        pflow_count(pf, DCE_C_MALFORMED, 1);
        return;
    }
    bool little = d[4] & 0x10;
    uint8_t type = d[1], flags = d[2];
    uint32_t seq = rd_u32(d + 64, little);
    uint16_t blen = rd_u16(d + 74, little);
    if (blen > n - DCE_CL_HDR)
        blen = (uint16_t)(n - DCE_CL_HDR);
    bool last = !(flags & CL_FRAG) || (flags & CL_LASTFRAG);
    struct dce_side *s = &st->side[dir];
    st->udp = true;
    s->little = little;
    st->last_dir = (uint8_t)dir;
    pflow_count(pf, DCE_C_PDUS, 1);
    pbuf_reset(&s->pdu);
    pbuf_add(&s->pdu, d, n < 65535 ? n : 65535, 65535); /* for its frames */
    if (type == DCE_REQUEST && dir == 0) {
        if (!s->open || st->seqnum != seq) {
            dce_tx_report(pf, f, st); /* a new call: the one in force is over */
            for (int k = 0; k < 2; k++) {
                pbuf_reset(&st->side[k].stub);
                st->side[k].frags = st->side[k].stub_size = 0;
                st->side[k].open = false;
            }
            st->tx_open = true;
            st->tx_reported = false;
            st->req_type = DCE_REQUEST;
            st->has_req = true;
            st->req_done = false;
            st->has_resp = false;
            st->seqnum = seq;
            st->opnum = rd_u16(d + 68, little);
            dce_uuid(st->cl_iface, d + 24, little);
            dce_uuid(st->activity, d + 40, little);
            st->cl_iface_ver = rd_u32(d + 60, little);
            st->first_frag = !(flags & CL_FRAG) || rd_u16(d + 76, little) == 0;
            st->vers = 4;
            st->vers_minor = 0;
            s->open = true;
        }
        dce_stub_add(pf, s, d + DCE_CL_HDR, blen);
        if (last) {
            s->open = false;
            st->req_done = true;
            pflow_raise(pf, f, 0, DCE_EV_REQUEST);
        }
    } else if (type == DCE_RESPONSE && dir == 1 && st->tx_open && st->seqnum == seq) {
        dce_stub_add(pf, s, d + DCE_CL_HDR, blen);
        st->resp_type = type;
        if (last) {
            st->has_resp = true;
            pflow_raise(pf, f, 1, DCE_EV_RESPONSE);
            dce_tx_report(pf, f, st);
        }
    }
    pflow_raise(pf, f, dir, dir == 0 ? DCE_EV_PDU_REQ : DCE_EV_PDU_RESP);
}
