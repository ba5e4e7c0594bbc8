/* mon_packet.h — one decoded packet: views into the captured frame, never a copy.
 *
 * The decoder fills a caller-owned struct mon_packet (no malloc per packet). Every pointer
 * here points into the frame, or into a defrag output buffer that stays valid until the
 * next packet is decoded by the same decoder.
 */
#ifndef MON_PACKET_H
#define MON_PACKET_H

#include <stdbool.h>
#include <stdint.h>

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

#define MON_MAX_LAYERS 24  /* headers recorded per packet; deeper stacks are an anomaly */
#define MON_MAX_TUNNELS 8  /* encapsulations recorded per packet */

/* Header kinds a layer can be. Order is ABI for the name table in decode_names.c. */
enum mon_layer_kind {
    MON_L_ETH, MON_L_VLAN, MON_L_MPLS, MON_L_PPPOE, MON_L_PPP, MON_L_SLL, MON_L_SLL2,
    MON_L_NULL, MON_L_IPV4, MON_L_IPV6, MON_L_IPV6_EXT, MON_L_GRE, MON_L_ERSPAN,
    MON_L_VXLAN, MON_L_GENEVE, MON_L_GTPU, MON_L_TEREDO, MON_L_TCP, MON_L_UDP,
    MON_L_ICMP, MON_L_ICMPV6, MON_L_NFLOG, MON_L_ARP, MON_L_OTHER, MON_L_FDDI, MON_L_CHDLC,
    MON_L_SCTP, MON_L_NSH, MON_L_WLAN, MON_L_VNTAG, MON_L_PBB,
    MON_L__COUNT
};

/* Encapsulations a packet travelled through, outermost first (flow records report them). */
enum mon_tunnel_kind {
    MON_T_VLAN, MON_T_MPLS, MON_T_PPPOE, MON_T_GRE, MON_T_ERSPAN, MON_T_IPIP,
    MON_T_VXLAN, MON_T_GENEVE, MON_T_GTPU, MON_T_TEREDO,
    MON_T__COUNT
};

struct mon_layer {
    const uint8_t *hdr;  /* first byte of this header */
    uint32_t len;        /* bytes of header (not payload) */
    uint8_t kind;        /* enum mon_layer_kind */
};

/* An IPv4 address is stored in the first 4 bytes, the rest zero. */
struct mon_addr {
    uint8_t b[16];
};

/* Packet flags. */
enum {
    MON_PKT_FRAGMENT = 1u << 0,     /* an IP fragment (not yet reassembled) */
    MON_PKT_REASSEMBLED = 1u << 1,  /* the innermost IP datagram came out of defrag */
    MON_PKT_BAD_IP_CSUM = 1u << 2,  /* IPv4 header checksum wrong (only when validating) */
    MON_PKT_BAD_L4_CSUM = 1u << 3,  /* TCP/UDP/ICMP checksum wrong (only when validating) */
    MON_PKT_TCP_HAS_TS = 1u << 4,   /* tcp_tsval/tcp_tsecr hold a timestamp option */
    MON_PKT_TCP_SACKOK = 1u << 5,   /* SYN carried SACK-permitted */
    MON_PKT_HAS_L4 = 1u << 6,       /* sport/dport (or ICMP type/code) are valid */
    MON_PKT_DROPPED = 1u << 7,      /* a sender-side handler dropped it (mon_drop) */
    MON_PKT_MODIFIED = 1u << 8,     /* a sender-side handler rewrote bytes (mon_setlastpkt) */
    MON_PKT_PSEUDO = 1u << 9,       /* no frame: the flow-end packet mon_getlastpkt gives
                                       while a flow ends (timeout, eviction, flush): the
                                       flow's addresses client -> server, no payload, the
                                       time of the end, num one past the last frame's */
    MON_PKT_ACK_VIEW = 1u << 10,    /* ack delivery: the packet being processed seen from the
                                       direction whose bytes it acknowledged (mon_ack_view):
                                       addresses and ports swapped, no payload, its own time
                                       and num */
};

/* Work the sending host's kernel left to a NIC that a veth or virtual NIC never did
 * (checksum and segmentation offload), as an AF_PACKET socket with offload metadata reports
 * it (PACKET_VNET_HDR; the fields are those of struct virtio_net_hdr, host order). With
 * MON_OFL_CSUM_PARTIAL the checksum at csum_start + csum_offset holds only the pseudo-header
 * sum: the rest is summed over frame[csum_start..] when the frame is sent on. A gso_type
 * other than 0 marks a segmentation super-frame (larger than the MTU), cut into gso_size
 * pieces on the way out. All zero for every other source, and for frames that are complete. */
struct mon_offload {
    uint8_t flags;        /* MON_OFL_* */
    uint8_t gso_type;     /* 0 none, 1 TCPv4, 3 UDP, 4 TCPv6, 5 UDP_L4; | 0x80 ECN */
    uint16_t hdr_len;     /* bytes of headers (GSO) */
    uint16_t gso_size;    /* payload bytes per segment (GSO) */
    uint16_t csum_start;  /* frame offset where the checksummed bytes start */
    uint16_t csum_offset; /* the checksum field, from csum_start */
};
enum {
    MON_OFL_CSUM_PARTIAL = 1u << 0, /* VIRTIO_NET_HDR_F_NEEDS_CSUM */
    MON_OFL_CSUM_VALID = 1u << 1,   /* VIRTIO_NET_HDR_F_DATA_VALID: checked by the NIC */
};

struct mon_packet {
    /* --- filled by the packet source --- */
    const uint8_t *frame;
    uint32_t caplen;    /* bytes captured: nothing past frame[caplen-1] is read */
    uint32_t wirelen;   /* bytes on the wire */
    int linktype;       /* DLT_* of the capture */
    uint64_t ts_us;     /* capture time, microseconds since the epoch */
    uint64_t num;       /* 1-based position in the capture (Suricata's pcap_cnt) */
    struct mon_offload offload; /* AF_PACKET inline: offload work left undone (else zero) */

    /* --- filled by the decoder --- */
    struct mon_layer layer[MON_MAX_LAYERS];
    uint8_t nlayers;
    uint8_t tunnel[MON_MAX_TUNNELS];  /* enum mon_tunnel_kind, outermost first */
    uint8_t ntunnels;
    uint8_t nvlan;
    uint16_t vlan[3];                 /* outermost first */

    uint8_t ipver;   /* 4 or 6 for the innermost IP header; 0 = not IP */
    uint8_t proto;   /* innermost transport protocol number */
    uint8_t ttl;     /* TTL / hop limit of the innermost IP header */
    uint32_t flags;  /* MON_PKT_* */
    uint16_t anomaly; /* 1 + enum mon_decode_event of the last anomaly seen; 0 = none */
    uint64_t decode_notes; /* 1 << enum mon_decode_note: what decoding noted on the way */
    struct mon_addr src, dst;
    const uint8_t *l3;  /* innermost IP header */
    uint32_t l3_len;    /* innermost IP datagram length (header + payload, as captured) */
    const uint8_t *l4;  /* transport header */
    uint32_t l4_len;    /* transport header + payload bytes available */
    const uint8_t *payload;
    uint32_t payload_len;

    uint16_t sport, dport;  /* TCP/UDP/SCTP ports */
    uint8_t icmp_type, icmp_code;
    uint16_t icmp_id;       /* echo/timestamp/info id, when the type has one */

    uint8_t tcp_flags;
    uint8_t tcp_wscale;     /* window scale option, 0xff = absent */
    uint16_t tcp_win;
    uint16_t tcp_urp;       /* urgent pointer (meaningful with MON_TH_URG) */
    uint16_t tcp_mss;       /* 0 = absent */
    uint32_t tcp_seq, tcp_ack;
    uint32_t tcp_tsval, tcp_tsecr;

    /* --- filled by the TCP sender-side update (libmon's packet path) --- */
    uint64_t tcp_events;    /* 1 << enum mon_tcp_event (mon_tcp.h) this packet raised */
};

/* TCP flag bits as on the wire. */
enum {
    MON_TH_FIN = 0x01, MON_TH_SYN = 0x02, MON_TH_RST = 0x04, MON_TH_PUSH = 0x08,
    MON_TH_ACK = 0x10, MON_TH_URG = 0x20, MON_TH_ECE = 0x40, MON_TH_CWR = 0x80,
};

const char *mon_layer_name(enum mon_layer_kind k);
const char *mon_tunnel_name(enum mon_tunnel_kind k);

#pragma GCC visibility pop

#endif
