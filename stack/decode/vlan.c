/* vlan.c — 802.1Q / 802.1ad tags, stacked (QinQ, QinQinQ). Up to three IDs are kept. */
#include "decode_internal.h"

#define VLAN_HLEN 4u
#define VLAN_MAX 3u  /* like Suricata: a fourth tag is an anomaly */

enum dec_rc dec_vlan(struct dec *c, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (len < VLAN_HLEN)
        return dec_bad(c, MON_DE_VLAN_TRUNCATED);
    if (p->nvlan >= VLAN_MAX)
        return dec_bad(c, MON_DE_VLAN_TOO_MANY);
    /* A run of tags is one encapsulation; a tag inside e.g. VXLAN starts a new one. */
    bool first = p->nlayers == 0 || p->layer[p->nlayers - 1].kind != MON_L_VLAN;
    if (first && !dec_tunnel(c, MON_T_VLAN))
        return DEC_BAD;
    p->vlan[p->nvlan++] = rd16(b) & 0x0fff;
    if (!dec_push(c, MON_L_VLAN, b, VLAN_HLEN))
        return DEC_BAD;
    bool unknown;
    enum dec_rc rc = dec_ethertype(c, rd16(b + 2), b + VLAN_HLEN, len - VLAN_HLEN, &unknown);
    if (unknown && !dec_ethertype_known(rd16(b + 2))) {
        dec_mark(c, MON_DN_VLAN_UNKNOWN_TYPE);
        dec_mark(c, MON_DN_ETH_UNKNOWN_TYPE); /* (Suricata's shared ethertype dispatch) */
    }
    return unknown ? dec_non_ip(c, b + VLAN_HLEN, len - VLAN_HLEN) : rc;
}
