/* next_layer.c — the next-layer table: one row per decoder a header can hand on to, indexed
 * by enum dec_next. The only file that names the decoders; they and the dispatch enter each
 * other through it (dec_next()), so no decoder calls another by name. */
#include "decode_internal.h"

const dec_fn dec_next_layer[DEC_NX__COUNT] = {
    [DEC_NX_ETHERNET] = dec_ethernet,
    [DEC_NX_FDDI] = dec_fddi,
    [DEC_NX_VLAN] = dec_vlan,
    [DEC_NX_MPLS] = dec_mpls,
    [DEC_NX_NSH] = dec_nsh,
    [DEC_NX_PPPOE_SESSION] = dec_pppoe_session,
    [DEC_NX_PPPOE_DISCOVERY] = dec_pppoe_discovery,
    [DEC_NX_PPP] = dec_ppp,
    [DEC_NX_PPP_SERIAL] = dec_ppp_serial,
    [DEC_NX_CHDLC] = dec_chdlc,
    [DEC_NX_SLL] = dec_sll,
    [DEC_NX_SLL2] = dec_sll2,
    [DEC_NX_NULL] = dec_null,
    [DEC_NX_NFLOG] = dec_nflog,
    [DEC_NX_RAW] = dec_raw,
    [DEC_NX_IPV4] = dec_ipv4,
    [DEC_NX_IPV6] = dec_ipv6,
    [DEC_NX_GRE] = dec_gre,
    [DEC_NX_VXLAN] = dec_vxlan,
    [DEC_NX_GENEVE] = dec_geneve,
    [DEC_NX_GTPU] = dec_gtpu,
    [DEC_NX_TEREDO] = dec_teredo,
    [DEC_NX_TCP] = dec_tcp,
    [DEC_NX_UDP] = dec_udp,
    [DEC_NX_SCTP] = dec_sctp,
    [DEC_NX_ICMPV4] = dec_icmpv4,
    [DEC_NX_ICMPV6] = dec_icmpv6,
};
