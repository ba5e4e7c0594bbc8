/* unified2.c — Snort's unified2 record layouts (see osprey_unified2.h). */
#include "osprey_unified2.h"

#include <string.h>

static uint8_t *put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
    return p + 4;
}

static uint8_t *put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return p + 2;
}

static uint8_t *header(uint8_t *p, uint32_t type, uint32_t len)
{
    return put32(put32(p, type), len);
}

int osprey_u2_put_event(uint8_t *buf, size_t cap, size_t *len, const struct osprey_u2_event *e)
{
    size_t alen = e->ipver == 6 ? 16 : 4;
    /* nine 32-bit fields, two addresses, ports, four single bytes, MPLS label, VLAN, pad */
    uint32_t body = (uint32_t)(9 * 4 + 2 * alen + 2 * 2 + 4 + 4 + 2 + 2);
    if (cap - *len < 8 + (size_t)body)
        return -1;
    uint8_t *p = header(buf + *len, e->ipver == 6 ? OSPREY_U2_EVENT_IP6_V2 : OSPREY_U2_EVENT_V2,
                        body);
    p = put32(p, e->sensor_id);
    p = put32(p, e->event_id);
    p = put32(p, e->sec);
    p = put32(p, e->usec);
    p = put32(p, e->sid);
    p = put32(p, e->gid);
    p = put32(p, e->rev);
    p = put32(p, e->class_id);
    p = put32(p, e->priority);
    memcpy(p, e->src, alen);
    p += alen;
    memcpy(p, e->dst, alen);
    p += alen;
    p = put16(p, e->sport);
    p = put16(p, e->dport);
    *p++ = e->proto;
    *p++ = e->impact_flag;
    *p++ = e->impact;
    *p++ = e->blocked;
    p = put32(p, e->mpls_label);
    p = put16(p, e->vlan_id);
    p = put16(p, 0);
    *len = (size_t)(p - buf);
    return 0;
}

int osprey_u2_put_packet(uint8_t *buf, size_t cap, size_t *len, const struct osprey_u2_event *e,
                         uint32_t pkt_sec, uint32_t pkt_usec, uint32_t linktype,
                         const uint8_t *frame, uint32_t caplen)
{
    uint32_t body = 7 * 4 + caplen;
    if (cap - *len < 8 + (size_t)body)
        return -1;
    uint8_t *p = header(buf + *len, OSPREY_U2_PACKET, body);
    p = put32(p, e->sensor_id);
    p = put32(p, e->event_id);
    p = put32(p, e->sec);
    p = put32(p, pkt_sec);
    p = put32(p, pkt_usec);
    p = put32(p, linktype);
    p = put32(p, caplen);
    if (caplen)
        memcpy(p, frame, caplen);
    *len = (size_t)(p + caplen - buf);
    return 0;
}

int osprey_u2_put_extra(uint8_t *buf, size_t cap, size_t *len, const struct osprey_u2_event *e,
                        uint32_t type, const void *data, uint32_t dlen)
{
    /* Snort nests a second header (event type 4 = extra data, its length) before the six
     * 32-bit fields; blob_length counts the data plus its own and data_type's 4 bytes. */
    uint32_t inner = 6 * 4 + dlen;
    uint32_t body = 8 + inner;
    if (cap - *len < 8 + (size_t)body)
        return -1;
    uint8_t *p = header(buf + *len, OSPREY_U2_EXTRA_DATA, body);
    p = put32(p, 4);
    p = put32(p, inner);
    p = put32(p, e->sensor_id);
    p = put32(p, e->event_id);
    p = put32(p, e->sec);
    p = put32(p, type);
    p = put32(p, 1); /* data type: blob */
    p = put32(p, dlen + 8);
    if (dlen)
        memcpy(p, data, dlen);
    *len = (size_t)(p + dlen - buf);
    return 0;
}
