/* decode_internal.h — what the per-protocol decoders share. Not part of the public API.
 *
 * Every decoder has the shape  enum dec_rc dec_<proto>(struct dec *c, const uint8_t *b,
 * uint32_t len): b points at its header, len is how many bytes of it (and what follows)
 * belong to this header's frame/datagram and are captured. A decoder checks every length
 * against len before reading, records itself with dec_push(), and hands the rest to the
 * next decoder. On a malformed header it returns dec_bad(c, reason), which counts exactly
 * one anomaly; nothing after that touches the packet.
 */
#ifndef MON_DECODE_INTERNAL_H
#define MON_DECODE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mon_decode.h"

/* Result of one decoder. The public outcome (IP / non-IP) is settled once at the end:
 * a frame that went through any valid IP header is MON_DEC_IP. */
enum dec_rc {
    DEC_OK,    /* valid as far as we decode it */
    DEC_HELD,  /* an IP fragment kept by defrag */
    DEC_BAD,   /* one anomaly counted, stop */
};

/* Per-frame decoding state, on the stack of mon_decode(). */
struct dec {
    struct mon_decoder *d;
    struct mon_packet *p;
    bool csum_on;       /* validate checksums for this frame */
    bool l4_csum_on;    /* ... and TCP/UDP ones: not when the sender's kernel left them to an
                           offload that never ran (mon_packet.offload: only a partial sum) */
    bool csum_checked;  /* some checksum of this frame was validated */
    bool csum_bad;      /* ... and one of them was wrong */
};

/* Link types (pcap LINKTYPE_/DLT_ values as libpcap reports them). */
enum {
    DEC_DLT_NULL = 0, DEC_DLT_EN10MB = 1, DEC_DLT_PPP = 9, DEC_DLT_FDDI = 10,
    DEC_DLT_RAW = 12, DEC_DLT_RAW_BSD = 14, DEC_DLT_PPP_SERIAL = 50, DEC_DLT_PPP_ETHER = 51,
    DEC_LINKTYPE_RAW = 101, DEC_DLT_C_HDLC = 104, DEC_DLT_LOOP = 108, DEC_DLT_SLL = 113,
    DEC_DLT_IPV4 = 228, DEC_DLT_IPV6 = 229, DEC_DLT_NFLOG = 239, DEC_DLT_SLL2 = 276,
};

/* Ethertypes the decoders dispatch on. */
enum {
    DEC_ETH_IPV4 = 0x0800, DEC_ETH_ARP = 0x0806, DEC_ETH_IPV6 = 0x86dd,
    DEC_ETH_VLAN = 0x8100, DEC_ETH_QINQ = 0x88a8, DEC_ETH_QINQ_OLD1 = 0x9100,
    DEC_ETH_QINQ_OLD2 = 0x9200, DEC_ETH_MPLS_UC = 0x8847, DEC_ETH_MPLS_MC = 0x8848,
    DEC_ETH_PPPOE_DISC = 0x8863, DEC_ETH_PPPOE_SESS = 0x8864, DEC_ETH_TEB = 0x6558,
    DEC_ETH_ERSPAN2 = 0x88be, DEC_ETH_ERSPAN3 = 0x22eb, DEC_ETH_PPP = 0x880b,
    DEC_ETH_WCCP = 0x883e, DEC_ETH_NSH = 0x894f, DEC_ETH_VNTAG = 0x8926, DEC_ETH_PBB = 0x88e7,
};

/* IP protocol numbers. */
enum {
    DEC_IP_HOPOPTS = 0, DEC_IP_ICMP = 1, DEC_IP_IPIP = 4, DEC_IP_TCP = 6, DEC_IP_UDP = 17,
    DEC_IP_IPV6 = 41, DEC_IP_ROUTING = 43, DEC_IP_FRAGMENT = 44, DEC_IP_GRE = 47,
    DEC_IP_ESP = 50, DEC_IP_AH = 51, DEC_IP_ICMPV6 = 58, DEC_IP_NONE = 59, DEC_IP_SCTP = 132,
    DEC_IP_DSTOPTS = 60, DEC_IP_MOBILITY = 135, DEC_IP_HIP = 139, DEC_IP_SHIM6 = 140,
};

/* Big-endian (network order) and little-endian reads; no unaligned access. */
static inline uint16_t rd16(const uint8_t *b) { return (uint16_t)(b[0] << 8 | b[1]); }
static inline uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}
static inline uint16_t rd16le(const uint8_t *b) { return (uint16_t)(b[1] << 8 | b[0]); }
static inline uint32_t rd32le(const uint8_t *b)
{
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* The next-layer table: every decoder a header can hand on to, one row each (next_layer.c).
 * A decoder enters the next one through dec_next(), never by its name, so the decoders and
 * the dispatch (dispatch.c) form no call circle: only the table names them. */
enum dec_next {
    DEC_NX_ETHERNET, DEC_NX_FDDI, DEC_NX_VLAN, DEC_NX_MPLS, DEC_NX_NSH, DEC_NX_VNTAG, DEC_NX_PBB,
    DEC_NX_WLAN,
    DEC_NX_PPPOE_SESSION, DEC_NX_PPPOE_DISCOVERY, DEC_NX_PPP, DEC_NX_PPP_SERIAL,
    DEC_NX_CHDLC, DEC_NX_SLL, DEC_NX_SLL2, DEC_NX_NULL, DEC_NX_NFLOG, DEC_NX_RAW,
    DEC_NX_IPV4, DEC_NX_IPV6,
    DEC_NX_GRE, DEC_NX_VXLAN, DEC_NX_GENEVE, DEC_NX_GTPU, DEC_NX_TEREDO,
    DEC_NX_TCP, DEC_NX_UDP, DEC_NX_SCTP, DEC_NX_ICMPV4, DEC_NX_ICMPV6,
    DEC_NX__COUNT
};
typedef enum dec_rc (*dec_fn)(struct dec *c, const uint8_t *b, uint32_t len);
extern const dec_fn dec_next_layer[DEC_NX__COUNT];

/* One table load and an indirect call: the same cost as the switch it replaced. */
static inline enum dec_rc dec_next(struct dec *c, enum dec_next k, const uint8_t *b,
                                   uint32_t len)
{
    return dec_next_layer[k](c, b, len);
}

/* bookkeeping.c — what every decoder records; calls no decoder. */
enum dec_rc dec_bad(struct dec *c, enum mon_decode_event e);
void dec_note(struct dec *c, enum mon_decode_event e);  /* anomaly that does not stop */
/* A decoder note (mon_decode.h MON_DECODE_NOTES): recorded, nothing else changes. */
static inline void dec_mark(struct dec *c, enum mon_decode_note n)
{
    c->p->decode_notes |= 1ull << n;
}
bool dec_push(struct dec *c, enum mon_layer_kind k, const uint8_t *hdr, uint32_t len);
bool dec_tunnel(struct dec *c, enum mon_tunnel_kind k);
void dec_ip_enter(struct dec *c);
enum dec_rc dec_non_ip(struct dec *c, const uint8_t *b, uint32_t len);
/* Map mon_defrag_ipv4/6()'s answer r; before = d->stats.event[] ahead of the call, to
 * find the anomaly defrag counted itself. DEC_OK means "decode the returned datagram". */
enum dec_rc dec_defrag_result(struct dec *c, int r, const uint64_t *before);

/* dispatch.c — numbers in headers to next-layer rows. */
enum dec_rc dec_ethertype(struct dec *c, uint16_t type, const uint8_t *b, uint32_t len,
                          bool *unknown);
bool dec_ethertype_known(uint16_t type); /* a type dec_ethertype leaves unknown, Suricata not */
enum dec_rc dec_ip_by_version(struct dec *c, const uint8_t *b, uint32_t len, bool *unknown);
enum dec_rc dec_ip_payload(struct dec *c, uint8_t proto, const uint8_t *b, uint32_t len);

/* The decoders (rows of dec_next_layer[]; ERSPAN is entered from GRE only). Link layers. */
enum dec_rc dec_ethernet(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_vlan(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_mpls(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_nsh(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_pppoe_session(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_pppoe_discovery(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_ppp(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_ppp_serial(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_chdlc(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_sll(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_sll2(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_null(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_nflog(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_fddi(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_wlan(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_vntag(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_pbb(struct dec *c, const uint8_t *b, uint32_t len);
/* LLC/SNAP with an ethertype-style OUI (ethernet.c): *type, or false for anything else. */
#define SNAP_HLEN 8u  /* DSAP 0xaa, SSAP 0xaa, control 0x03, OUI, ethertype */
bool dec_snap_ethertype(const uint8_t *llc, uint32_t len, uint16_t *type);
enum dec_rc dec_raw(struct dec *c, const uint8_t *b, uint32_t len);

/* Network layer. */
enum dec_rc dec_ipv4(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_ipv6(struct dec *c, const uint8_t *b, uint32_t len);
/* ipv6_notes.c: the notes one extension header h[0..size) of type nh adds, counting the
 * headers of the chain seen so far in s. */
struct ipv6_seen {
    uint8_t hh, dh, rh, ah;
};
void dec_ipv6_ext_note(struct mon_packet *p, struct ipv6_seen *s, uint8_t nh, const uint8_t *h,
                       uint32_t size);

/* Tunnels. */
enum dec_rc dec_gre(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_erspan2(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_erspan3(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_vxlan(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_geneve(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_gtpu(struct dec *c, const uint8_t *b, uint32_t len);
/* Teredo is accepted only when the payload is a whole IPv6 packet; otherwise it returns
 * DEC_OK without a layer: not Teredo, the bytes stay UDP payload (no anomaly). */
enum dec_rc dec_teredo(struct dec *c, const uint8_t *b, uint32_t len);

/* Transport. */
enum dec_rc dec_tcp(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_udp(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_sctp(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_icmpv4(struct dec *c, const uint8_t *b, uint32_t len);
enum dec_rc dec_icmpv6(struct dec *c, const uint8_t *b, uint32_t len);

/* checksum.c */
uint64_t csum_add(uint64_t sum, const uint8_t *b, uint32_t len);
uint16_t csum_fold(uint64_t sum);  /* one's complement of the folded sum: 0 = valid */
/* Pseudo-header sum of the innermost IP header in p (IPv4 or IPv6). */
uint64_t csum_pseudo(const struct mon_packet *p, uint8_t proto, uint32_t len);
/* Record a validated checksum: on failure count e and set flag; never stops decoding. */
void dec_csum_result(struct dec *c, bool ok, enum mon_decode_event e, uint32_t flag);

#endif
