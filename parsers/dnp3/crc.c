/* crc.c — DNP3's CRC-16 (IEEE 1815 §9.2.3.1: polynomial 0x3D65, bits reflected, initial 0,
 * complemented), over a link header's first 8 bytes and over each data block of up to 16. */
#include "dnp3_int.h"

uint16_t dnp3_crc(const uint8_t *d, size_t n)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        crc ^= d[i];
        for (int b = 0; b < 8; b++)
            crc = crc & 1 ? (uint16_t)(crc >> 1 ^ 0xa6bc) : (uint16_t)(crc >> 1);
    }
    return (uint16_t)~crc;
}
