/* rrtype.c — the record types' names as Suricata writes them in EVE (DNS's and mDNS's
 * records; a type without a name is written as its number by the caller). */
#include "dns_wire.h"

/* Suricata 7's names (none for SVCB: a number). */
const char *dns_wire_rrtype_name(uint16_t t)
{
    static const char *const low[] = {
        [1] = "A", [2] = "NS", [3] = "MD", [4] = "MF", [5] = "CNAME", [6] = "SOA", [7] = "MB",
        [8] = "MG", [9] = "MR", [10] = "NULL", [11] = "WKS", [12] = "PTR", [13] = "HINFO",
        [14] = "MINFO", [15] = "MX", [16] = "TXT", [17] = "RP", [18] = "AFSDB", [19] = "X25",
        [20] = "ISDN", [21] = "RT", [22] = "NSAP", [23] = "NSAPPTR", [24] = "SIG", [25] = "KEY",
        [26] = "PX", [27] = "GPOS", [28] = "AAAA", [29] = "LOC", [30] = "NXT", [33] = "SRV",
        [34] = "ATMA", [35] = "NAPTR", [36] = "KX", [37] = "CERT", [38] = "A6", [39] = "DNAME",
        [41] = "OPT", [42] = "APL", [43] = "DS", [44] = "SSHFP", [45] = "IPSECKEY",
        [46] = "RRSIG", [47] = "NSEC", [48] = "DNSKEY", [49] = "DHCID", [50] = "NSEC3",
        [51] = "NSEC3PARAM", [52] = "TLSA", [55] = "HIP", [59] = "CDS", [60] = "CDNSKEY",
        [65] = "HTTPS", [99] = "SPF",
    };
    switch (t) {
    case 249: return "TKEY";
    case 250: return "TSIG";
    case 254: return "MAILA";
    case 255: return "ANY";
    case 256: return "URI";
    default: return t < sizeof low / sizeof low[0] ? low[t] : NULL;
    }
}

