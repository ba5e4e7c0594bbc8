/* decode.c — entry point: configuration defaults, the decoder object, the link-type dispatch
 * and the per-frame accounting (outcome, layer counts, AUTO checksum sampling). */
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

/* Link type → its first decoder (a row of the next-layer table). */
static enum dec_rc dec_link(struct dec *c, int linktype, const uint8_t *b, uint32_t len)
{
    switch (linktype) {
    case DEC_DLT_EN10MB:
        return dec_next(c, DEC_NX_ETHERNET, b, len);
    case DEC_DLT_RAW: case DEC_DLT_RAW_BSD: case DEC_LINKTYPE_RAW:
        return dec_next(c, DEC_NX_RAW, b, len);
    case DEC_DLT_IPV4:
        return dec_next(c, DEC_NX_IPV4, b, len);
    case DEC_DLT_IPV6:
        return dec_next(c, DEC_NX_IPV6, b, len);
    case DEC_DLT_SLL:
        return dec_next(c, DEC_NX_SLL, b, len);
    case DEC_DLT_SLL2:
        return dec_next(c, DEC_NX_SLL2, b, len);
    case DEC_DLT_NULL: case DEC_DLT_LOOP:
        return dec_next(c, DEC_NX_NULL, b, len);
    case DEC_DLT_PPP:
        return dec_next(c, DEC_NX_PPP, b, len);
    case DEC_DLT_PPP_SERIAL:
        return dec_next(c, DEC_NX_PPP_SERIAL, b, len);
    case DEC_DLT_C_HDLC:
        return dec_next(c, DEC_NX_CHDLC, b, len);
    case DEC_DLT_PPP_ETHER:  /* PPPoE session header without the Ethernet header */
        return dec_next(c, DEC_NX_PPPOE_SESSION, b, len);
    case DEC_DLT_NFLOG:
        return dec_next(c, DEC_NX_NFLOG, b, len);
    case DEC_DLT_FDDI:
        return dec_next(c, DEC_NX_FDDI, b, len);
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
