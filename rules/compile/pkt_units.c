/* pkt_units.c — see pkt_units.h. Everything here reads the decoded packet (mon_packet.h) and
 * the flow's counters (mon_flow.h) only. */
#include "pkt_units.h"

#include <stdio.h>
#include <string.h>

#include "buffers.h"
#include "detect_int.h"
#include "intern.h"
#include "opt_eval.h"

int det_hdr_buffer_of(unsigned rule_buffer)
{
    switch (rule_buffer) {
    case BUF_IPV4_HDR: return DOB_IPV4_HDR;
    case BUF_IPV6_HDR: return DOB_IPV6_HDR;
    case BUF_TCP_HDR: return DOB_TCP_HDR;
    case BUF_UDP_HDR: return DOB_UDP_HDR;
    case BUF_ICMPV4_HDR: return DOB_ICMPV4_HDR;
    case BUF_ICMPV6_HDR: return DOB_ICMPV6_HDR;
    default: return -1;
    }
}

/* The innermost IPv6 header and the extension headers that follow it, as the decoder recorded
 * them (Suricata's ipv6.hdr ends where the transport header starts). */
static uint32_t ipv6_hdr_len(const struct mon_packet *p)
{
    int at = -1;
    for (int i = 0; i < p->nlayers; i++)
        if (p->layer[i].kind == MON_L_IPV6 && p->layer[i].hdr == p->l3)
            at = i;
    if (at < 0)
        return p->l3_len >= 40 ? 40 : 0; /* a datagram defrag rebuilt: its fixed header */
    uint32_t n = p->layer[at].len;
    for (int i = at + 1; i < p->nlayers && p->layer[i].kind == MON_L_IPV6_EXT; i++)
        n += p->layer[i].len;
    return n <= p->l3_len ? n : 0;
}

/* ICMPv4: 8 bytes, and what Suricata's decoder counts as header for timestamps (three more
 * 32-bit fields) and router advertisements (the address entries). */
static uint32_t icmpv4_hdr_len(const struct mon_packet *p)
{
    if (p->l4_len < 8)
        return 0;
    uint32_t n = 8;
    uint8_t type = p->l4[0];
    if ((type == 13 || type == 14) && p->l4_len >= 20)
        n += 12;
    else if (type == 9) {
        uint32_t adv = (uint32_t)p->l4[4] * p->l4[5] * 4;
        if (p->l4_len >= 8 + adv)
            n += adv;
    }
    return n;
}

const uint8_t *det_hdr_buffer(const struct mon_packet *p, uint16_t ob, uint32_t *len)
{
    *len = 0;
    if (!p || !p->ipver || !p->l3)
        return NULL;
    bool l4 = (p->flags & MON_PKT_HAS_L4) && p->l4;
    switch (ob) {
    case DOB_IPV4_HDR:
        if (p->ipver != 4 || p->l3_len < 20)
            return NULL;
        *len = (uint32_t)(p->l3[0] & 0x0f) * 4;
        if (*len < 20 || *len > p->l3_len)
            return *len = 0, NULL;
        return p->l3;
    case DOB_IPV6_HDR:
        if (p->ipver != 6)
            return NULL;
        *len = ipv6_hdr_len(p);
        return *len ? p->l3 : NULL;
    case DOB_TCP_HDR:
        if (p->proto != 6 || !l4 || p->l4_len < 20)
            return NULL;
        *len = (uint32_t)(p->l4[12] >> 4) * 4;
        if (*len < 20 || *len > p->l4_len)
            return *len = 0, NULL;
        return p->l4;
    case DOB_UDP_HDR:
        if (p->proto != 17 || !l4 || p->l4_len < 8)
            return NULL;
        *len = 8;
        return p->l4;
    case DOB_ICMPV4_HDR:
        if (p->proto != 1 || p->ipver != 4 || !l4)
            return NULL;
        *len = icmpv4_hdr_len(p);
        return *len ? p->l4 : NULL;
    case DOB_ICMPV6_HDR:
        if (p->proto != 58 || p->ipver != 6 || !l4 || p->l4_len < 8)
            return NULL;
        *len = 8;
        return p->l4;
    }
    return NULL;
}

/* A TCP option's value (kind 2 MSS: 2 bytes, kind 3 window scale: 1 byte) as the header
 * carries it; false when absent. The walk stops at EOL or a malformed length. */
static bool tcp_option(const struct mon_packet *p, uint8_t kind, uint32_t *v)
{
    uint32_t hlen;
    const uint8_t *h = det_hdr_buffer(p, DOB_TCP_HDR, &hlen);
    if (!h)
        return false;
    uint32_t want = kind == 2 ? 4 : 3;
    for (uint32_t i = 20; i < hlen;) {
        uint8_t k = h[i];
        if (k == 0)
            return false;
        if (k == 1) {
            i++;
            continue;
        }
        if (i + 1 >= hlen || h[i + 1] < 2 || i + h[i + 1] > hlen)
            return false;
        if (k == kind && h[i + 1] == want) {
            *v = kind == 2 ? (uint32_t)(h[i + 2] << 8 | h[i + 3]) : h[i + 2];
            return true;
        }
        i += h[i + 1];
    }
    return false;
}

static bool flow_count(const struct opt_pktprop *pp, const struct mon_flow *f)
{
    if (!f)
        return false;
    int64_t ts, tc;
    if (pp->kind == PP_FLOW_PKTS) {
        ts = f->pkts[MON_FLOW_TO_SERVER];
        tc = f->pkts[MON_FLOW_TO_CLIENT];
    } else {
        ts = (int64_t)f->bytes[MON_FLOW_TO_SERVER];
        tc = (int64_t)f->bytes[MON_FLOW_TO_CLIENT];
    }
    switch (pp->dir) {
    case PP_DIR_TOSERVER: return cmp_match(&pp->cmp, ts);
    case PP_DIR_TOCLIENT: return cmp_match(&pp->cmp, tc);
    default: return cmp_match(&pp->cmp, ts) || cmp_match(&pp->cmp, tc);
    }
}

/* ipv4-csum, tcpv4-csum …: the decoder's checksum verdict on a packet of that IP version and
 * protocol (none for another). When checksums are not validated (-k none, or `auto` gave up)
 * the decoder flags nothing: every checksum is valid, as Suricata's keywords answer for a
 * packet whose checksum it ignores. */
static bool csum_match(const struct opt_pktprop *pp, const struct mon_packet *p)
{
    if (p->ipver != pp->dir)
        return false;
    bool bad;
    if (pp->layer == 0) {
        bad = (p->flags & MON_PKT_BAD_IP_CSUM) != 0;
    } else {
        if (p->proto != (uint8_t)pp->layer || !(p->flags & MON_PKT_HAS_L4))
            return false;
        bad = (p->flags & MON_PKT_BAD_L4_CSUM) != 0;
    }
    return bad == (pp->cmp.lo == 1);
}

bool det_pktprop_match(const struct opt_pktprop *pp, const struct mon_packet *p,
                       const struct mon_flow *f)
{
    if (!p || !p->ipver)
        return false;
    uint32_t v;
    switch (pp->kind) {
    case PP_TCP_MSS:
        return tcp_option(p, 2, &v) && cmp_match(&pp->cmp, v);
    case PP_TCP_WSCALE:
        return tcp_option(p, 3, &v) && cmp_match(&pp->cmp, v);
    case PP_ICMPV6_MTU:
        /* the MTU field of a Packet Too Big message */
        if (p->proto != 58 || !(p->flags & MON_PKT_HAS_L4) || p->l4_len < 8 ||
            p->l4[0] != 2 || p->l4[1] != 0)
            return false;
        v = (uint32_t)p->l4[4] << 24 | (uint32_t)p->l4[5] << 16 | (uint32_t)p->l4[6] << 8 |
            p->l4[7];
        return cmp_match(&pp->cmp, v);
    case PP_VLAN_ID:
        return pktprop_vlan_match(pp, p->vlan, p->nvlan);
    case PP_VLAN_LAYERS:
        return cmp_match(&pp->cmp, p->nvlan);
    case PP_FLOW_PKTS:
    case PP_FLOW_BYTES:
        return flow_count(pp, f);
    case PP_FLOW_AGE:
        /* whole seconds, as Suricata subtracts the seconds of both times */
        return f && cmp_match(&pp->cmp, (int64_t)(p->ts_us / 1000000) -
                                            (int64_t)(f->first_us / 1000000));
    case PP_IPVER:
        return cmp_match(&pp->cmp, p->ipver);
    case PP_CSUM:
        return csum_match(pp, p);
    }
    return false;
}

static const struct opt_pktprop IPV4 = {.kind = PP_IPVER, .cmp = {.op = CMP_EQ, .lo = 4}};
static const struct opt_pktprop IPV6 = {.kind = PP_IPVER, .cmp = {.op = CMP_EQ, .lo = 6}};

bool det_hdr_proto_of(const char *proto, struct det_hdr_proto *out)
{
    static const struct {
        const char *name;
        struct det_hdr_proto hp;
    } P[] = {
        {"tcp-pkt", {6, true, false, NULL}},    {"tcp-stream", {6, false, true, NULL}},
        {"ipv4", {0, false, false, &IPV4}},     {"ipv6", {0, false, false, &IPV6}},
        /* the header filter's ICMP (1) covers ICMPv4 and ICMPv6 */
        {"icmpv4", {1, false, false, &IPV4}},   {"icmpv6", {1, false, false, &IPV6}},
    };
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
        if (!strcmp(P[i].name, proto)) {
            *out = P[i].hp;
            return true;
        }
    return false;
}

/* ---- the unit (struct det_unit_ops) ---- */

static bool pktprop_eval(const struct det_unit *u, struct mon_ctx *ctx, struct mon_flow *f,
                         int side)
{
    (void)side;
    return det_pktprop_match(u->pp, mon_getlastpkt(ctx), f);
}

static void pktprop_key(struct buf *k, const struct det_unit *u)
{
    const struct opt_pktprop *pp = u->pp;
    uint8_t fl[3] = {pp->kind, pp->dir, (uint8_t)pp->layer};
    buf_put(k, fl, sizeof fl);
    buf_put(k, &pp->cmp.op, sizeof pp->cmp.op);
    buf_put(k, &pp->cmp.lo, sizeof pp->cmp.lo);
    buf_put(k, &pp->cmp.hi, sizeof pp->cmp.hi);
}

/* the rule protocols' IP version ("ip version 4"); the keywords' are labelled by their text */
static void pktprop_dump(struct buf *out, const struct det_unit *u)
{
    char v[32];
    if (u->pp->kind == PP_IPVER)
        snprintf(v, sizeof v, "ip version %lld", (long long)u->pp->cmp.lo);
    else
        snprintf(v, sizeof v, "packet property");
    buf_puts(out, v);
}

const struct det_unit_ops det_unit_pktprop = {
    .name = "packet property", .eval = pktprop_eval, .key = pktprop_key, .dump = pktprop_dump,
    .packet_only = true};
