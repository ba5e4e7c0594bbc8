/* probe.c — is this Kerberos 5? An application-tagged message (tag at most 30) holding a
 * SEQUENCE whose first field is pvno 5 (the bytes 02 01 05), as Suricata's probe reads it;
 * over TCP behind a record mark of at most 16384 bytes. Either side, any port. */
#include "krb5_int.h"

enum probe_verdict krb5_probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    (void)f;
    if (n <= 10)
        return DET_NO;
    struct ber_tlv app, seq;
    enum ber_status s = ber_read(d, n, &app);
    if (s == BER_BAD || app.hdr == 0)
        return s == BER_MORE && app.hdr == 0 ? DET_NEED_MORE : DET_NO;
    if (app.cls != BER_APPLICATION || !app.constructed || app.tag > 30)
        return DET_NO;
    const uint8_t *r = d + app.hdr;
    size_t rn = n - app.hdr;
    if (!rn || r[0] != 0x30)
        return DET_NO;
    if (ber_read(r, rn, &seq) == BER_BAD || seq.hdr == 0)
        return DET_NO;
    r += seq.hdr, rn -= seq.hdr;
    /* the first field: [0] or [1] { INTEGER 5 } */
    if (rn > 5 && r[2] == 2 && r[3] == 1 && r[4] == 5)
        return DET_YES;
    return DET_NO;
}

enum probe_verdict krb5_probe_tcp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (n >= 4) {
        uint32_t rec = (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
        if (rec > 16384 || rec < 11)
            return DET_NO;
    }
    if (n >= 5 && (d[4] & 0xe0) != 0x60) /* an application-class constructed value */
        return DET_NO;
    if (n < 15)
        return DET_NEED_MORE;
    return krb5_probe_udp(d + 4, n - 4, f);
}
