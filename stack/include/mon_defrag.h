/* mon_defrag.h — IPv4 and IPv6 fragment reassembly for one worker.
 *
 * The decoder hands every fragment here. When a datagram completes, defrag returns a
 * buffer holding the whole datagram (IP header first), and decoding continues on it as on
 * any packet. Output buffers stay valid until mon_defrag_begin_packet() is called for the
 * next packet, so a tunnel whose inner packet is fragmented too can nest reassemblies.
 */
#ifndef MON_DEFRAG_H
#define MON_DEFRAG_H

#include <stddef.h>
#include <stdint.h>

#include "mon_decode.h"
#include "mon_policy.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

struct mon_defrag_cfg {
    struct mon_policy_table policy;  /* chosen by the datagram's destination address */
    size_t memcap;                   /* bytes held in fragments + trackers; default 32 MiB */
    uint32_t timeout_s;              /* a datagram not complete by then is dropped; default 60 */
    uint32_t max_frags;              /* fragments per datagram; default 8192 */
    uint32_t max_trackers;           /* datagrams in reassembly at once; default 65536 */
};

struct mon_defrag_stats {
    uint64_t fragments;           /* fragments received */
    uint64_t reassembled;         /* datagrams completed */
    uint64_t timeouts;            /* datagrams dropped incomplete on timeout */
    uint64_t memcap_drops;        /* fragments dropped because the memcap was reached */
    uint64_t overlaps;            /* overlapping fragments (same or different data) */
    uint64_t trackers_active;
    uint64_t memuse;              /* bytes held now */
    uint64_t memuse_peak;
};

struct mon_defrag;

void mon_defrag_cfg_defaults(struct mon_defrag_cfg *cfg);
/* NULL on allocation failure. cfg->policy.entries is copied. */
struct mon_defrag *mon_defrag_create(const struct mon_defrag_cfg *cfg);
void mon_defrag_destroy(struct mon_defrag *df);

/* Release the output buffers handed out for the previous packet. */
void mon_defrag_begin_packet(struct mon_defrag *df);

/* Feed one IPv4 fragment: iph points at its IPv4 header, len = bytes of the datagram
 * available (header + fragment data). Returns 1 and sets *out, *out_len when the datagram is
 * complete, 0 when the fragment was kept (or dropped, with an anomaly counted in st), -1
 * when the fragment is invalid (anomaly counted in st). */
int mon_defrag_ipv4(struct mon_defrag *df, const uint8_t *iph, uint32_t len, uint64_t ts_us,
                    struct mon_decode_stats *st, const uint8_t **out, uint32_t *out_len);

/* Feed one IPv6 fragment: ip6h points at the IPv6 header, unfrag_len = bytes from ip6h to
 * the Fragment header (the unfragmentable part), prev_nh_off = offset from ip6h of the
 * next-header byte that names the Fragment header (6 for the fixed header), len = bytes
 * available from ip6h. The output is the unfragmentable part followed by the reassembled
 * payload, with the Fragment header removed and payload length fixed. Returns as above. */
int mon_defrag_ipv6(struct mon_defrag *df, const uint8_t *ip6h, uint32_t unfrag_len,
                    uint32_t prev_nh_off, uint32_t len, uint64_t ts_us,
                    struct mon_decode_stats *st, const uint8_t **out, uint32_t *out_len);

/* Drop datagrams whose first fragment is older than the timeout. */
void mon_defrag_expire(struct mon_defrag *df, uint64_t now_us, struct mon_decode_stats *st);

const struct mon_defrag_stats *mon_defrag_stats(const struct mon_defrag *df);

#pragma GCC visibility pop

#endif
