/* policy.c — overlap policy names and the per-host policy lookup (mon_policy.h).
 *
 * Configurations name either a policy or, as Suricata's host-os-policy does, the target's
 * OS. The OS names map the way Suricata's defrag maps them (DefragGetOsPolicy), so a
 * Suricata configuration reassembles the same bytes here.
 */
#include <strings.h>

#include "mon_policy.h"

static const char *const policy_names[MON_POLICY__COUNT] = {
    [MON_POLICY_FIRST] = "first",     [MON_POLICY_LAST] = "last",
    [MON_POLICY_BSD] = "bsd",         [MON_POLICY_LINUX] = "linux",
    [MON_POLICY_WINDOWS] = "windows", [MON_POLICY_SOLARIS] = "solaris",
};

static const struct {
    const char *name;
    enum mon_overlap_policy policy;
} os_names[] = {
    {"hpux10", MON_POLICY_BSD},
    {"irix", MON_POLICY_BSD},
    /* Suricata keeps a "bsd-right" policy of its own (HP JetDirect); the nearest of ours. */
    {"bsd-right", MON_POLICY_BSD},
    {"old-linux", MON_POLICY_LINUX},
    /* Suricata's defrag treats these as "first": the original fragment always wins. */
    {"old-solaris", MON_POLICY_FIRST},
    {"hpux11", MON_POLICY_FIRST},
    {"macos", MON_POLICY_FIRST},
    {"vista", MON_POLICY_WINDOWS},
    {"windows2k3", MON_POLICY_WINDOWS},
};

int mon_policy_from_name(const char *name, enum mon_overlap_policy *out)
{
    if (!name)
        return -1;
    for (int p = 0; p < MON_POLICY__COUNT; p++) {
        if (strcasecmp(name, policy_names[p]) == 0) {
            *out = (enum mon_overlap_policy)p;
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof os_names / sizeof os_names[0]; i++) {
        if (strcasecmp(name, os_names[i].name) == 0) {
            *out = os_names[i].policy;
            return 0;
        }
    }
    return -1;
}

const char *mon_policy_name(enum mon_overlap_policy p)
{
    return (unsigned)p < MON_POLICY__COUNT ? policy_names[p] : "unknown";
}

/* Do the first prefix bits of a and b agree? */
static int prefix_match(const uint8_t *a, const uint8_t *b, unsigned prefix)
{
    unsigned full = prefix / 8, rest = prefix % 8;
    for (unsigned i = 0; i < full; i++)
        if (a[i] != b[i])
            return 0;
    if (rest) {
        uint8_t mask = (uint8_t)(0xffu << (8 - rest));
        if ((a[full] & mask) != (b[full] & mask))
            return 0;
    }
    return 1;
}

enum mon_overlap_policy mon_policy_lookup(const struct mon_policy_table *t, uint8_t ipver,
                                          const struct mon_addr *host)
{
    unsigned maxbits = ipver == 4 ? 32 : 128;
    int best = -1;
    unsigned best_prefix = 0;
    /* A linear scan: tables are a handful of configured networks, read-only at run time,
     * and looked up once per fragmented datagram or TCP session, not per packet. On equal
     * prefixes the entry listed first wins. */
    for (size_t i = 0; i < t->n; i++) {
        const struct mon_host_policy *e = &t->entries[i];
        if (e->ipver != ipver || e->policy >= MON_POLICY__COUNT)
            continue;
        unsigned prefix = e->prefix > maxbits ? maxbits : e->prefix;
        if ((best < 0 || prefix > best_prefix) && prefix_match(e->net.b, host->b, prefix)) {
            best = (int)i;
            best_prefix = prefix;
        }
    }
    return best < 0 ? t->dflt : (enum mon_overlap_policy)t->entries[best].policy;
}
