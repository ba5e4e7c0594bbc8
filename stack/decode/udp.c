/* udp.c — UDP (RFC 768), and the UDP-borne tunnels chosen by configured destination port
 * (Teredo, whose server port may be either side, by either port). Source ports are not
 * used otherwise: a DNS query from port 2152 is not GTP-U. */
#include "decode_internal.h"

#define UDP_HLEN 8u

static bool port_in(const uint16_t *ports, unsigned n, uint16_t port)
{
    for (unsigned i = 0; i < n && ports[i] != 0; i++)
        if (ports[i] == port)
            return true;
    return false;
}

#define PORT_IN(list, port) port_in((list), sizeof(list) / sizeof((list)[0]), (port))

static enum dec_rc udp_tunnel(struct dec *c, const uint8_t *b, uint32_t len)
{
    const struct mon_decode_cfg *cfg = &c->d->cfg;
    uint16_t sp = c->p->sport, dp = c->p->dport;

    if (cfg->vxlan_enabled && PORT_IN(cfg->vxlan_ports, dp))
        return dec_next(c, DEC_NX_VXLAN, b, len);
    if (cfg->geneve_enabled && PORT_IN(cfg->geneve_ports, dp))
        return dec_next(c, DEC_NX_GENEVE, b, len);
    if (cfg->gtpu_enabled && PORT_IN(cfg->gtpu_ports, dp))
        return dec_next(c, DEC_NX_GTPU, b, len);
    if (cfg->gre_udp_enabled && PORT_IN(cfg->gre_udp_ports, dp))
        return dec_next(c, DEC_NX_GRE, b, len);
    if (cfg->mpls_udp_enabled && PORT_IN(cfg->mpls_udp_ports, dp))
        return dec_next(c, DEC_NX_MPLS, b, len);
    if (cfg->teredo_enabled &&
        (PORT_IN(cfg->teredo_ports, dp) || PORT_IN(cfg->teredo_ports, sp)))
        return dec_next(c, DEC_NX_TEREDO, b, len);
    return DEC_OK;
}

enum dec_rc dec_udp(struct dec *c, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (len < UDP_HLEN)
        return dec_bad(c, MON_DE_UDP_TRUNCATED);
    uint32_t ulen = rd16(b + 4);
    if (ulen == 0 && p->ipver == 6 && len > 0xffff)
        ulen = len;  /* UDP in a jumbogram (RFC 2675 §4) */
    /* The IP layer already bounded len by what was captured, so a UDP length that
     * disagrees with it is a malformed header, not a short capture. */
    if (ulen < UDP_HLEN || ulen != len) {
        if (ulen > len) /* Suricata tells this one apart */
            p->decode_notes |= 1ull << MON_DN_UDP_PKT_TOO_SMALL;
        return dec_bad(c, MON_DE_UDP_BAD_LEN);
    }
    if (!dec_push(c, MON_L_UDP, b, UDP_HLEN))
        return DEC_BAD;
    p->sport = rd16(b);
    p->dport = rd16(b + 2);
    p->flags |= MON_PKT_HAS_L4;
    p->l4 = b;
    p->l4_len = ulen;
    p->payload = b + UDP_HLEN;
    p->payload_len = ulen - UDP_HLEN;

    uint16_t csum = rd16(b + 6);
    /* Over IPv4 a zero checksum means "not computed"; over IPv6 it is mandatory. */
    if (c->l4_csum_on && !(csum == 0 && p->ipver == 4)) {
        bool ok = csum != 0 &&
                  csum_fold(csum_add(csum_pseudo(p, DEC_IP_UDP, ulen), b, ulen)) == 0;
        dec_csum_result(c, ok, MON_DE_UDP_BAD_CSUM, MON_PKT_BAD_L4_CSUM);
    }
    if (p->payload_len == 0)
        return DEC_OK;
    return udp_tunnel(c, p->payload, p->payload_len);
}
