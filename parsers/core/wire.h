/* wire.h — reading integers off the wire, bounds checked by the caller: big-endian (DNS,
 * TLS, MQTT …) and little-endian (SMB, DCERPC's little-endian data representation). One
 * copy for every protocol, header-only so the readers inline on the hot path. Internal to
 * parsers/ (parsers_int.h includes it). */
#ifndef OSPREY_PARSERS_WIRE_H
#define OSPREY_PARSERS_WIRE_H

#include <stdbool.h>
#include <stdint.h>

static inline uint16_t rd_be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd_be24(const uint8_t *p) /* TLS handshake, NetBIOS lengths */
{
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t rd_be32(const uint8_t *p)
{
    return (uint32_t)rd_be16(p) << 16 | rd_be16(p + 2);
}

static inline uint16_t rd_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rd_le32(const uint8_t *p)
{
    return (uint32_t)rd_le16(p) | (uint32_t)rd_le16(p + 2) << 16;
}

static inline uint64_t rd_le64(const uint8_t *p)
{
    return (uint64_t)rd_le32(p) | (uint64_t)rd_le32(p + 4) << 32;
}

/* either order, as a header's flag says (DCERPC's data representation) */
static inline uint16_t rd_u16(const uint8_t *p, bool little)
{
    return little ? rd_le16(p) : rd_be16(p);
}

static inline uint32_t rd_u32(const uint8_t *p, bool little)
{
    return little ? rd_le32(p) : rd_be32(p);
}

#endif
