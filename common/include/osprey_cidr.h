/* osprey_cidr.h — an IP address or CIDR block as written in Osprey's inputs: rule addresses
 * (rules/core/expr.c), threshold.config `suppress … ip` (rules/compile/thresh_conf.c) and
 * host-os-policy (engine/stack_config/stack_config.c).
 *
 * Grammar: ADDRESS [ "/" PREFIX ], ADDRESS an IPv4 dotted quad (exactly four decimal parts, as
 * inet_pton wants) or an IPv6 address (it has a ':'), PREFIX one or more decimal digits, at most
 * 32 (IPv4) or 128 (IPv6). With OSPREY_CIDR_NETMASK an IPv4 block may also be written with a
 * dotted netmask of contiguous ones ("10.0.0.0/255.0.0.0"). No spaces, no signs. The address is
 * kept as written: host bits under the prefix are not cleared.
 */
#ifndef OSPREY_CIDR_H
#define OSPREY_CIDR_H

#include <stddef.h>
#include <stdint.h>

struct osprey_cidr {
    uint8_t ipver;    /* 4 or 6 */
    uint8_t prefix;   /* 0..32 or 0..128; the full length when none was written */
    uint8_t addr[16]; /* network order; IPv4 in addr[0..3], the rest zero */
};

#define OSPREY_CIDR_NETMASK 1u /* accept "/255.255.0.0" after an IPv4 address */

/* What was wrong, so that a caller can say where. */
enum osprey_cidr_err {
    OSPREY_CIDR_EADDR = -1,    /* the address (before any '/') */
    OSPREY_CIDR_EPREFIX = -2,  /* the prefix length: not digits, or too long for the family */
    OSPREY_CIDR_ENETMASK = -3, /* a dotted netmask that is not an IPv4 address */
    OSPREY_CIDR_EGAPS = -4,    /* a dotted netmask whose ones are not contiguous */
};

/* s[0..n) (need not be NUL-terminated) → *out: 0, or an osprey_cidr_err. After EPREFIX,
 * ENETMASK or EGAPS the address is in *out (ipver says which limit the prefix broke). */
int osprey_cidr_parse(const char *s, size_t n, unsigned flags, struct osprey_cidr *out);
/* The ADDRESS alone (no '/'; prefix set to the full length): 0, or OSPREY_CIDR_EADDR. */
int osprey_ip_parse(const char *s, size_t n, struct osprey_cidr *out);

#endif
