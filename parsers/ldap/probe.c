/* probe.c — is this LDAP? An LDAPMessage's start: a SEQUENCE, its message id (a small
 * INTEGER), then a protocolOp (application tag 0-25). Either side on TCP (any port); over
 * UDP (CLDAP) only with port 389 on either end, since SNMP and others also open with a
 * SEQUENCE and an INTEGER. */
#include "ldap_int.h"

enum probe_verdict ldap_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    struct ber_tlv seq, id;
    if (n < 1)
        return DET_NEED_MORE;
    if (d[0] != 0x30)
        return DET_NO;
    enum ber_status s = ber_read(d, n, &seq);
    if (s == BER_BAD)
        return DET_NO;
    if (!seq.hdr)
        return DET_NEED_MORE;
    const uint8_t *p = d + seq.hdr;
    size_t k = n - seq.hdr;
    if (seq.len < 5)
        return DET_NO;
    if (k < 1)
        return DET_NEED_MORE;
    if (p[0] != 0x02)
        return DET_NO;
    s = ber_read(p, k, &id);
    if (s == BER_BAD || (id.hdr && (id.len < 1 || id.len > 4)))
        return DET_NO;
    if (s == BER_MORE)
        return DET_NEED_MORE;
    p += id.hdr + id.len, k -= id.hdr + id.len;
    if (k < 1)
        return DET_NEED_MORE;
    uint8_t b = p[0];
    if ((b & 0xc0) != 0x40 || (b & 0x1f) > 25)
        return DET_NO;
    return DET_YES;
}

enum probe_verdict ldap_probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || (f->sport != 389 && f->cport != 389))
        return DET_NO;
    return ldap_probe(d, n, f) == DET_YES ? DET_YES : DET_NO;
}
