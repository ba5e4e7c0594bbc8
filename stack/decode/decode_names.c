/* decode_names.c — the names stats, EVE records and tests use for layers, tunnels,
 * anomalies and outcomes. Tables are indexed by the enums, so their order is the enums'. */
#include "decode_internal.h"

static const char *const layer_names[MON_L__COUNT] = {
    [MON_L_ETH] = "ethernet", [MON_L_VLAN] = "vlan", [MON_L_MPLS] = "mpls",
    [MON_L_PPPOE] = "pppoe", [MON_L_PPP] = "ppp", [MON_L_SLL] = "sll", [MON_L_SLL2] = "sll2",
    [MON_L_NULL] = "null", [MON_L_IPV4] = "ipv4", [MON_L_IPV6] = "ipv6",
    [MON_L_IPV6_EXT] = "ipv6_ext", [MON_L_GRE] = "gre", [MON_L_ERSPAN] = "erspan",
    [MON_L_VXLAN] = "vxlan", [MON_L_GENEVE] = "geneve", [MON_L_GTPU] = "gtpu",
    [MON_L_TEREDO] = "teredo", [MON_L_TCP] = "tcp", [MON_L_UDP] = "udp",
    [MON_L_ICMP] = "icmp", [MON_L_ICMPV6] = "icmpv6", [MON_L_NFLOG] = "nflog",
    [MON_L_ARP] = "arp", [MON_L_OTHER] = "other", [MON_L_FDDI] = "fddi",
    [MON_L_CHDLC] = "chdlc", [MON_L_SCTP] = "sctp",
    [MON_L_NSH] = "nsh", [MON_L_WLAN] = "ieee80211",
    [MON_L_VNTAG] = "vntag", [MON_L_PBB] = "ieee8021ah",
};

static const char *const tunnel_names[MON_T__COUNT] = {
    [MON_T_VLAN] = "vlan", [MON_T_MPLS] = "mpls", [MON_T_PPPOE] = "pppoe",
    [MON_T_GRE] = "gre", [MON_T_ERSPAN] = "erspan", [MON_T_IPIP] = "ipip",
    [MON_T_VXLAN] = "vxlan", [MON_T_GENEVE] = "geneve", [MON_T_GTPU] = "gtpu",
    [MON_T_TEREDO] = "teredo",
};

static const char *const event_names[MON_DE__COUNT] = {
#define MON_X_NAME(e, name) [MON_DE_##e] = name,
    MON_DECODE_EVENTS(MON_X_NAME)
#undef MON_X_NAME
};

static const char *const note_names[MON_DN__COUNT] = {
#define MON_X_NAME(e, name) [MON_DN_##e] = name,
    MON_DECODE_NOTES(MON_X_NAME)
#undef MON_X_NAME
};

static const char *const outcome_names[MON_DEC__COUNT] = {
    [MON_DEC_IP] = "ip", [MON_DEC_NON_IP] = "non_ip", [MON_DEC_FRAG_HELD] = "frag_held",
    [MON_DEC_INVALID] = "invalid",
};

const char *mon_layer_name(enum mon_layer_kind k)
{
    return (unsigned)k < MON_L__COUNT && layer_names[k] ? layer_names[k] : "unknown";
}

const char *mon_tunnel_name(enum mon_tunnel_kind k)
{
    return (unsigned)k < MON_T__COUNT && tunnel_names[k] ? tunnel_names[k] : "unknown";
}

const char *mon_decode_event_name(enum mon_decode_event e)
{
    return (unsigned)e < MON_DE__COUNT ? event_names[e] : "unknown";
}

const char *mon_decode_note_name(enum mon_decode_note n)
{
    return (unsigned)n < MON_DN__COUNT ? note_names[n] : "unknown";
}

const char *mon_decode_outcome_name(enum mon_decode_outcome o)
{
    return (unsigned)o < MON_DEC__COUNT ? outcome_names[o] : "unknown";
}
