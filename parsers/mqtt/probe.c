/* probe.c — is this MQTT? On port 1883 (MQTT's, either end) a fixed header of an assigned
 * type with a QoS below 3, from either side (Suricata probes the same way on its port);
 * elsewhere only a client's CONNECT naming the protocol ("MQTT" 3.1.1/5.0, "MQIsdp" 3.1)
 * with a version Osprey reads (3, 4, 5). */
#include <string.h>

#include "mqtt_int.h"

#define MQTT_PORT 1883

static enum probe_verdict header_ok(const uint8_t *d, size_t n, uint32_t *hlen)
{
    if (n < 1)
        return DET_NEED_MORE;
    if ((d[0] >> 4) == 0 || ((d[0] >> 1) & 3) == 3)
        return DET_NO;
    uint32_t rem;
    int r = mqtt_fixed_header(d, n, hlen, &rem);
    return r < 0 ? DET_NO : r == 0 ? DET_NEED_MORE : DET_YES;
}

/* a CONNECT: its protocol name and level, as far as the bytes go */
static enum probe_verdict connect_ok(const uint8_t *d, size_t n, uint32_t hlen)
{
    static const uint8_t MQTT[] = {0, 4, 'M', 'Q', 'T', 'T'};
    static const uint8_t MQISDP[] = {0, 6, 'M', 'Q', 'I', 's', 'd', 'p'};
    const uint8_t *p = d + hlen;
    size_t k = n - hlen;
    const uint8_t *name = k >= 2 && p[1] == 6 ? MQISDP : MQTT;
    size_t nl = name == MQISDP ? sizeof MQISDP : sizeof MQTT;
    if (memcmp(p, name, k < nl ? k : nl))
        return DET_NO;
    if (k <= nl)
        return DET_NEED_MORE;
    return p[nl] >= 3 && p[nl] <= 5 ? DET_YES : DET_NO;
}

enum probe_verdict mqtt_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    uint32_t hlen = 0;
    enum probe_verdict v = header_ok(d, n, &hlen);
    if (v != DET_YES)
        return v;
    if (f && (f->sport == MQTT_PORT || f->cport == MQTT_PORT))
        return DET_YES;
    return d[0] == 0x10 ? connect_ok(d, n, hlen) : DET_NO;
}

/* the server's first bytes: MQTT only on its port (a server never sends a CONNECT) */
enum probe_verdict mqtt_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || (f->sport != MQTT_PORT && f->cport != MQTT_PORT))
        return DET_NO;
    uint32_t hlen;
    return header_ok(d, n, &hlen);
}
