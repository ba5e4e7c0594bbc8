/* mon_policy.h — target-based overlap policies, shared by IP defrag and TCP reassembly.
 *
 * When two fragments (or segments) cover the same bytes with different data, the receiving
 * host's OS decides which bytes it keeps; a monitor must keep the same ones or it can be
 * evaded. Which policy applies is chosen per destination host (Suricata's host-os-policy).
 */
#ifndef MON_POLICY_H
#define MON_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "mon_packet.h"

#pragma GCC visibility push(default) /* libmon exports what include/ declares: stack/README.md */

enum mon_overlap_policy {
    MON_POLICY_FIRST,    /* the first copy of a byte wins */
    MON_POLICY_LAST,     /* the last copy of a byte wins */
    MON_POLICY_BSD,
    MON_POLICY_LINUX,
    MON_POLICY_WINDOWS,
    MON_POLICY_SOLARIS,
    MON_POLICY__COUNT
};

/* Name ↔ policy. Also accepts Suricata's OS names (e.g. "macos", "hpux11", "vista", "old-linux"). */
int mon_policy_from_name(const char *name, enum mon_overlap_policy *out);
const char *mon_policy_name(enum mon_overlap_policy p);

/* One host-os-policy entry: addresses within ipver/net/prefix use policy. */
struct mon_host_policy {
    uint8_t ipver;
    uint8_t prefix;
    uint8_t policy;  /* enum mon_overlap_policy */
    struct mon_addr net;
};

/* Longest-prefix match over a small table (config-time sized, read-only at run time). */
struct mon_policy_table {
    enum mon_overlap_policy dflt;
    size_t n;
    const struct mon_host_policy *entries;
};

enum mon_overlap_policy mon_policy_lookup(const struct mon_policy_table *t, uint8_t ipver,
                                          const struct mon_addr *host);

#pragma GCC visibility pop

#endif
