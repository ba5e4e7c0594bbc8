/* osprey_unified2.h — Snort's unified2 binary records, as its readers (barnyard2, idstools'
 * u2json) expect them: each record is an 8-byte serial header (type, length; big-endian)
 * followed by its body, all fields big-endian.
 *
 * An alert is an event record (type 104 for IPv4, 105 for IPv6: the "v2" events with MPLS
 * label and VLAN id), then a packet record (type 2) with the alerting frame, then optional
 * extra-data records (type 110). The builders append into a caller buffer; the caller writes
 * the whole group in one osprey_log_write so a rollover never separates them.
 */
#ifndef OSPREY_UNIFIED2_H
#define OSPREY_UNIFIED2_H

#include <stddef.h>
#include <stdint.h>

enum {
    OSPREY_U2_PACKET = 2,
    OSPREY_U2_EVENT_V2 = 104,
    OSPREY_U2_EVENT_IP6_V2 = 105,
    OSPREY_U2_EXTRA_DATA = 110,
};

/* Extra-data kinds (Snort's EVENT_INFO_* numbers). */
enum {
    OSPREY_U2_XDATA_XFF_IPV4 = 1,
    OSPREY_U2_XDATA_XFF_IPV6 = 2,
    OSPREY_U2_XDATA_HTTP_URI = 9,
    OSPREY_U2_XDATA_HTTP_HOSTNAME = 10,
    OSPREY_U2_XDATA_IPV6_SRC = 11,
    OSPREY_U2_XDATA_IPV6_DST = 12,
};

struct osprey_u2_event {
    uint32_t sensor_id, event_id, sec, usec;
    uint32_t sid, gid, rev, class_id, priority;
    uint8_t ipver;             /* 4 or 6 */
    uint8_t src[16], dst[16];  /* 4 or 16 bytes used, network order */
    uint16_t sport, dport;     /* ICMP: type and code */
    uint8_t proto;
    uint8_t impact_flag, impact;
    uint8_t blocked;           /* 0 allowed, 1 blocked, 2 would have been blocked */
    uint32_t mpls_label;
    uint16_t vlan_id;
};

/* Each builder appends one record at buf[*len] (capacity cap) and advances *len.
 * Returns 0, or -1 when it does not fit (nothing appended). */
int osprey_u2_put_event(uint8_t *buf, size_t cap, size_t *len, const struct osprey_u2_event *e);
int osprey_u2_put_packet(uint8_t *buf, size_t cap, size_t *len, const struct osprey_u2_event *e,
                         uint32_t pkt_sec, uint32_t pkt_usec, uint32_t linktype,
                         const uint8_t *frame, uint32_t caplen);
int osprey_u2_put_extra(uint8_t *buf, size_t cap, size_t *len, const struct osprey_u2_event *e,
                        uint32_t type, const void *data, uint32_t dlen);

#endif
