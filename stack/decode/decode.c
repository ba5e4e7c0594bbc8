/* decode.c — entry point, link-type dispatch and the bookkeeping every decoder shares. */
#include <stddef.h>

#include "decode_internal.h"
#include "mon_defrag.h"

/* AUTO checksum mode: how many checksummed frames are sampled, and the share of bad ones
 * (in per mille) above which validation is switched off. */
#define CSUM_AUTO_SAMPLE 1000u
#define CSUM_AUTO_BAD_PERMILLE 100u

void mon_decode_cfg_defaults(struct mon_decode_cfg *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->checksum_mode = MON_CSUM_AUTO;
    cfg->vxlan_enabled = true;
    cfg->vxlan_ports[0] = 4789;
    cfg->geneve_enabled = true;
    cfg->geneve_ports[0] = 6081;
    cfg->teredo_enabled = true;
    cfg->teredo_ports[0] = 3544;
    cfg->gtpu_enabled = true;
    cfg->gtpu_ports[0] = 2152;
    cfg->gre_udp_enabled = true;
    cfg->gre_udp_ports[0] = 4754;
    cfg->mpls_udp_enabled = true;
    cfg->mpls_udp_ports[0] = 6635;
    cfg->max_tunnel_depth = 8;
}

void mon_decoder_init(struct mon_decoder *d, const struct mon_decode_cfg *cfg,
                      struct mon_defrag *defrag)
{
    memset(d, 0, sizeof(*d));
    if (cfg)
        d->cfg = *cfg;
    else
        mon_decode_cfg_defaults(&d->cfg);
    d->defrag = defrag;
    d->csum_validate = d->cfg.checksum_mode != MON_CSUM_NONE;
}

bool mon_decode_linktype_supported(int linktype)
{
    switch (linktype) {
    case DEC_DLT_NULL: case DEC_DLT_EN10MB: case DEC_DLT_PPP: case DEC_DLT_FDDI:
    case DEC_DLT_RAW: case DEC_DLT_RAW_BSD: case DEC_DLT_PPP_SERIAL: case DEC_DLT_PPP_ETHER:
    case DEC_LINKTYPE_RAW: case DEC_DLT_C_HDLC: case DEC_DLT_LOOP: case DEC_DLT_SLL:
    case DEC_DLT_IPV4: case DEC_DLT_IPV6: case DEC_DLT_NFLOG: case DEC_DLT_SLL2:
        return true;
    default:
        return false;
    }
}

/* ---- bookkeeping ---------------------------------------------------------------------- */

enum dec_rc dec_bad(struct dec *c, enum mon_decode_event e)
{
    c->d->stats.event[e]++;
    c->p->anomaly = (uint16_t)(e + 1);
    return DEC_BAD;
}

void dec_note(struct dec *c, enum mon_decode_event e)
{
    c->d->stats.event[e]++;
    c->p->anomaly = (uint16_t)(e + 1);
}

bool dec_push(struct dec *c, enum mon_layer_kind k, const uint8_t *hdr, uint32_t len)
{
    struct mon_packet *p = c->p;
    if (p->nlayers >= MON_MAX_LAYERS) {
        dec_bad(c, MON_DE_LAYERS_TOO_MANY);
        return false;
    }
    struct mon_layer *l = &p->layer[p->nlayers++];
    l->hdr = hdr;
    l->len = len;
    l->kind = (uint8_t)k;
    return true;
}

bool dec_tunnel(struct dec *c, enum mon_tunnel_kind k)
{
    struct mon_packet *p = c->p;
    unsigned max = c->d->cfg.max_tunnel_depth;
    if (max > MON_MAX_TUNNELS)
        max = MON_MAX_TUNNELS;
    if (p->ntunnels >= max) {
        dec_bad(c, MON_DE_TUNNEL_TOO_DEEP);
        return false;
    }
    p->tunnel[p->ntunnels++] = (uint8_t)k;
    return true;
}

/* A new (inner) IP header starts: whatever an outer transport header left is not ours. */
void dec_ip_enter(struct dec *c)
{
    struct mon_packet *p = c->p;
    p->l4 = NULL;
    p->l4_len = 0;
    p->payload = NULL;
    p->payload_len = 0;
    p->sport = p->dport = 0;
    p->icmp_type = p->icmp_code = 0;
    p->icmp_id = 0;
    p->tcp_flags = 0;
    p->tcp_wscale = 0xff;
    p->tcp_win = 0;
    p->tcp_urp = 0;
    p->tcp_mss = 0;
    p->tcp_seq = p->tcp_ack = 0;
    p->tcp_tsval = p->tcp_tsecr = 0;
    p->flags &= ~(uint32_t)(MON_PKT_HAS_L4 | MON_PKT_TCP_HAS_TS | MON_PKT_TCP_SACKOK);
}

/* Valid frame that carries something other than IP: record where it starts. */
enum dec_rc dec_non_ip(struct dec *c, const uint8_t *b, uint32_t len)
{
    return dec_push(c, MON_L_OTHER, b, len) ? DEC_OK : DEC_BAD;
}

/* ---- dispatch ------------------------------------------------------------------------- */

/* Payload named by an ethertype (Ethernet, VLAN, SLL, GRE, Geneve …). Unknown types set
 * *unknown and return DEC_OK without recording anything: the caller decides whether that is
 * a valid non-IP frame or an anomaly. */
enum dec_rc dec_ethertype(struct dec *c, uint16_t type, const uint8_t *b, uint32_t len,
                          bool *unknown)
{
    *unknown = false;
    switch (type) {
    case DEC_ETH_IPV4:
        return dec_ipv4(c, b, len);
    case DEC_ETH_IPV6:
        return dec_ipv6(c, b, len);
    case DEC_ETH_VLAN: case DEC_ETH_QINQ: case DEC_ETH_QINQ_OLD1: case DEC_ETH_QINQ_OLD2:
        return dec_vlan(c, b, len);
    case DEC_ETH_NSH:
        return dec_nsh(c, b, len);
    case DEC_ETH_VNTAG:
        return dec_vntag(c, b, len);
    case DEC_ETH_PBB:
        return dec_pbb(c, b, len);
    case DEC_ETH_MPLS_UC: case DEC_ETH_MPLS_MC:
        return dec_mpls(c, b, len);
    case DEC_ETH_PPPOE_SESS:
        return dec_pppoe_session(c, b, len);
    case DEC_ETH_PPPOE_DISC:
        return dec_pppoe_discovery(c, b, len);
    case DEC_ETH_ARP:
        return dec_push(c, MON_L_ARP, b, len) ? DEC_OK : DEC_BAD;
    default:
        *unknown = true;
        return DEC_OK;
    }
}

/* Raw IP where only the version nibble says which (raw link types, MPLS, GTP-U, ERSPAN). */
enum dec_rc dec_ip_by_version(struct dec *c, const uint8_t *b, uint32_t len, bool *unknown)
{
    *unknown = false;
    if (len >= 1 && b[0] >> 4 == 4)
        return dec_ipv4(c, b, len);
    if (len >= 1 && b[0] >> 4 == 6)
        return dec_ipv6(c, b, len);
    *unknown = true;
    return DEC_OK;
}

/* What an IPv4 protocol / IPv6 next header names, after the IP header (and any IPv6
 * extension headers). p already describes that IP header. */
enum dec_rc dec_ip_payload(struct dec *c, uint8_t proto, const uint8_t *b, uint32_t len)
{
    struct mon_packet *p = c->p;
    /* Until a transport header says otherwise, the datagram's payload is all there is
     * (ESP, SCTP, OSPF, an undecoded GRE payload …). */
    p->payload = b;
    p->payload_len = len;
    switch (proto) {
    case DEC_IP_TCP:
        return dec_tcp(c, b, len);
    case DEC_IP_UDP:
        return dec_udp(c, b, len);
    case DEC_IP_SCTP:
        return dec_sctp(c, b, len);
    case DEC_IP_ICMP:
        if (p->ipver == 4)
            return dec_icmpv4(c, b, len);
        break;
    case DEC_IP_ICMPV6:
        if (p->ipver == 6)
            return dec_icmpv6(c, b, len);
        break;
    case DEC_IP_IPIP:
        /* IPv6 names the wrong inner version its own way (Suricata's ipv6.*_in_ipv6_*) */
        if (p->ipver == 6 && len >= 20 && b[0] >> 4 != 4) /* a whole header */
            return dec_bad(c, MON_DE_IPV6_IPV4_IN_IPV6_BAD_VERSION);
        if (!dec_tunnel(c, MON_T_IPIP))
            return DEC_BAD;
        return dec_ipv4(c, b, len);
    case DEC_IP_IPV6:
        if (p->ipver == 6 && len >= 40 && b[0] >> 4 != 6)
            return dec_bad(c, MON_DE_IPV6_IPV6_IN_IPV6_BAD_VERSION);
        if (!dec_tunnel(c, MON_T_IPIP))
            return DEC_BAD;
        return dec_ipv6(c, b, len);
    case DEC_IP_GRE:
        return dec_gre(c, b, len);
    default:
        break;
    }
    return DEC_OK;
}

enum dec_rc dec_defrag_result(struct dec *c, int r, const uint64_t *before)
{
    if (r == 1)
        return DEC_OK;
    int ev = -1;
    for (int i = 0; i < MON_DE__COUNT; i++)
        if (c->d->stats.event[i] != before[i])
            ev = i;
    if (ev >= 0)
        c->p->anomaly = (uint16_t)(ev + 1);
    if (r == 0)  /* kept (or dropped with its anomaly counted): nothing more to decode */
        return DEC_HELD;
    if (ev < 0)  /* invalid, but defrag did not say why: still exactly one anomaly */
        return dec_bad(c, MON_DE_FRAG_INVALID);
    return DEC_BAD;
}

static enum dec_rc dec_link(struct dec *c, int linktype, const uint8_t *b, uint32_t len)
{
    switch (linktype) {
    case DEC_DLT_EN10MB:
        return dec_ethernet(c, b, len);
    case DEC_DLT_RAW: case DEC_DLT_RAW_BSD: case DEC_LINKTYPE_RAW:
        return dec_raw(c, b, len);
    case DEC_DLT_IPV4:
        return dec_ipv4(c, b, len);
    case DEC_DLT_IPV6:
        return dec_ipv6(c, b, len);
    case DEC_DLT_SLL:
        return dec_sll(c, b, len);
    case DEC_DLT_SLL2:
        return dec_sll2(c, b, len);
    case DEC_DLT_NULL: case DEC_DLT_LOOP:
        return dec_null(c, b, len);
    case DEC_DLT_PPP:
        return dec_ppp(c, b, len);
    case DEC_DLT_PPP_SERIAL:
        return dec_ppp_serial(c, b, len);
    case DEC_DLT_C_HDLC:
        return dec_chdlc(c, b, len);
    case DEC_DLT_PPP_ETHER:  /* PPPoE session header without the Ethernet header */
        return dec_pppoe_session(c, b, len);
    case DEC_DLT_NFLOG:
        return dec_nflog(c, b, len);
    case DEC_DLT_FDDI:
        return dec_fddi(c, b, len);
    default:
        return dec_bad(c, MON_DE_LINK_UNSUPPORTED);
    }
}

/* ---- entry ---------------------------------------------------------------------------- */

static void reset_packet(struct mon_packet *p)
{
    /* Everything from nlayers on is decoder output; layer[] entries past nlayers are
     * never read, so they need no clearing. */
    memset(&p->nlayers, 0, sizeof(*p) - offsetof(struct mon_packet, nlayers));
    p->tcp_wscale = 0xff;
}

/* AUTO mode: sample the first checksummed frames; too many bad ones means the capture was
 * taken before checksum offload filled them in, so validating would only produce noise. */
static void csum_auto_account(struct mon_decoder *d, const struct dec *c)
{
    if (d->cfg.checksum_mode != MON_CSUM_AUTO || !c->csum_checked || !d->csum_validate ||
        d->csum_sampled >= CSUM_AUTO_SAMPLE)
        return;
    d->csum_sampled++;
    if (c->csum_bad)
        d->csum_sampled_bad++;
    if (d->csum_sampled == CSUM_AUTO_SAMPLE &&
        (uint64_t)d->csum_sampled_bad * 1000u > (uint64_t)CSUM_AUTO_SAMPLE * CSUM_AUTO_BAD_PERMILLE)
        d->csum_validate = false;
}

enum mon_decode_outcome mon_decode(struct mon_decoder *d, struct mon_packet *p)
{
    reset_packet(p);
    struct dec c = {
        .d = d,
        .p = p,
        .csum_on = d->cfg.checksum_mode == MON_CSUM_ALL ||
                   (d->cfg.checksum_mode == MON_CSUM_AUTO && d->csum_validate),
    };
    c.l4_csum_on = c.csum_on && !(p->offload.flags & MON_OFL_CSUM_PARTIAL);
    if (d->defrag)
        mon_defrag_begin_packet(d->defrag);

    d->stats.pkts++;
    d->stats.bytes += p->caplen;

    enum dec_rc rc;
    if (p->caplen > 0 && p->frame == NULL)
        rc = dec_bad(&c, MON_DE_LINK_TRUNCATED);
    else
        rc = dec_link(&c, p->linktype, p->frame, p->caplen);

    enum mon_decode_outcome o;
    switch (rc) {
    case DEC_OK:
        o = p->ipver ? MON_DEC_IP : MON_DEC_NON_IP;
        break;
    case DEC_HELD:
        o = MON_DEC_FRAG_HELD;
        break;
    default:
        o = MON_DEC_INVALID;
        break;
    }
    for (unsigned i = 0; i < p->nlayers; i++)
        d->stats.layer[p->layer[i].kind]++;
    csum_auto_account(d, &c);
    d->stats.outcome[o]++;
    return o;
}
