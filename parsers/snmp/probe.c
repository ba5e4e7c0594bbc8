/* probe.c — is this SNMP? A datagram to or from port 161 or 162 (Suricata's ports) that opens
 * as a message: a SEQUENCE, then version 0, 1 or 3 (v1, v2c, v3) as an INTEGER, then a
 * community OCTET STRING (v1/v2c) or the v3 header SEQUENCE. */
#include "snmp_int.h"

enum probe_verdict snmp_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || !(f->sport == 161 || f->sport == 162 || f->cport == 161 || f->cport == 162))
        return DET_NO;
    struct ber_tlv seq, ver, next;
    if (ber_read(d, n, &seq) != BER_OK || !ber_is(&seq, BER_UNIVERSAL, BER_SEQUENCE))
        return DET_NO;
    struct ber_cur c = ber_in(&seq);
    int64_t v;
    if (!ber_expect(&c, BER_UNIVERSAL, BER_INTEGER, &ver) || !ber_int(&ver, &v) ||
        !ber_next(&c, &next))
        return DET_NO;
    if ((v == 0 || v == 1) && ber_is(&next, BER_UNIVERSAL, BER_OCTET_STRING))
        return DET_YES;
    if (v == 3 && ber_is(&next, BER_UNIVERSAL, BER_SEQUENCE))
        return DET_YES;
    return DET_NO;
}
