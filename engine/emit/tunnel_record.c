/* tunnel_record.c — pkt_src and the tunnel object of an alert (tunnel_record.h), from the
 * packet's layers: every IP header after the first one starts a packet of its own in
 * Suricata's decoder (its tunnel pseudo-packets), so the depth is the count of IP headers
 * less one, the root is the outermost IP header, and the decoder that made the innermost
 * packet is the tunnel layer between the last two IP headers. */
#include <string.h>

#include "flow_record.h"
#include "tunnel_record.h"

static bool is_ip(uint8_t k)
{
    return k == MON_L_IPV4 || k == MON_L_IPV6;
}

/* Indices of the outermost IP layer, of the one before the innermost, and the count. */
struct ip_layers {
    int first, prev, last, n;
};

static struct ip_layers ip_layers(const struct mon_packet *p)
{
    struct ip_layers r = {-1, -1, -1, 0};
    for (int i = 0; i < p->nlayers; i++) {
        if (!is_ip(p->layer[i].kind))
            continue;
        if (r.first < 0)
            r.first = i;
        r.prev = r.last;
        r.last = i;
        r.n++;
    }
    return r;
}

const char *osprey_pkt_src(const struct mon_packet *p)
{
    if (p->flags & MON_PKT_PSEUDO)
        return "stream (flow timeout)";
    if (p->flags & MON_PKT_REASSEMBLED)
        return "defrag";
    struct ip_layers ip = ip_layers(p);
    if (ip.n < 2)
        return "wire/pcap";
    for (int i = ip.last - 1; i > ip.prev; i--) {
        switch (p->layer[i].kind) {
        case MON_L_TEREDO: return "teredo tunnel";
        case MON_L_VXLAN: return "vxlan encapsulation";
        case MON_L_GENEVE: return "geneve encapsulation";
        case MON_L_GRE: /* fall through: ERSPAN rides on GRE */
        case MON_L_ERSPAN: return "gre tunnel";
        case MON_L_GTPU: return "gtpu tunnel";
        default: break;
        }
    }
    /* nothing but (MPLS, Ethernet …) between: IP in IP, named by the carrier */
    return p->layer[ip.prev].kind == MON_L_IPV4 ? "ipv4 tunnel" : "ipv6 tunnel";
}

bool osprey_tunnel_record(const struct mon_packet *p, struct osprey_tunnel_text *t,
                          struct osprey_eve_tunnel *out)
{
    if (p->flags & MON_PKT_PSEUDO)
        return false;
    struct ip_layers ip = ip_layers(p);
    if (ip.n < 2 && !(p->flags & MON_PKT_REASSEMBLED))
        return false;
    if (ip.first < 0)
        return false;
    const struct mon_layer *root = &p->layer[ip.first];
    struct mon_addr src = {{0}}, dst = {{0}};
    uint8_t proto;
    int v = root->kind == MON_L_IPV4 ? 4 : 6, next = ip.first + 1;
    if (v == 4) {
        memcpy(src.b, root->hdr + 12, 4);
        memcpy(dst.b, root->hdr + 16, 4);
        proto = root->hdr[9];
    } else {
        memcpy(src.b, root->hdr + 8, 16);
        memcpy(dst.b, root->hdr + 24, 16);
        proto = root->hdr[6];
        for (; next < p->nlayers && p->layer[next].kind == MON_L_IPV6_EXT; next++)
            proto = p->layer[next].hdr[0]; /* each extension header names the next one */
    }
    osprey_addr_str(&src, v, t->src, sizeof t->src);
    osprey_addr_str(&dst, v, t->dst, sizeof t->dst);
    *out = (struct osprey_eve_tunnel){
        .src_ip = t->src,
        .dest_ip = t->dst,
        .proto = osprey_proto_name(proto, t->proto, sizeof t->proto),
        .depth = ip.n - 1,
        .pcap_cnt = p->num,
        .pkt_src = "wire/pcap",
    };
    /* the root's own ports when it was decoded as far (a fragment's are not: 0, as Suricata) */
    if (ip.n >= 2 && next < p->nlayers && p->layer[next].len >= 4 &&
        (p->layer[next].kind == MON_L_TCP || p->layer[next].kind == MON_L_UDP ||
         p->layer[next].kind == MON_L_SCTP)) {
        const uint8_t *h = p->layer[next].hdr;
        out->src_port = h[0] << 8 | h[1];
        out->dest_port = h[2] << 8 | h[3];
    }
    return true;
}
