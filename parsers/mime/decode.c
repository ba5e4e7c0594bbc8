/* decode.c — MIME's content transfer decodings: base64 (RFC 2045 §6.8, the 4-character
 * quantum carried across lines), quoted-printable (§6.7, soft line breaks) and uuencode
 * lines. Each writes into a caller's buffer sized from its input: nothing here allocates. */
#include <ctype.h>

#include "mime.h"

static int b64v(uint8_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

size_t mime_b64(const uint8_t *in, size_t n, uint8_t *q, unsigned *qn, uint8_t *out,
                bool *bad)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = in[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        if (c == '=') { /* padding: the quantum ends with what it has */
            if (*qn >= 2)
                out[o++] = (uint8_t)(q[0] << 2 | q[1] >> 4);
            if (*qn >= 3)
                out[o++] = (uint8_t)(q[1] << 4 | q[2] >> 2);
            *qn = 0;
            continue;
        }
        int v = b64v(c);
        if (v < 0) {
            *bad = true;
            continue;
        }
        q[(*qn)++] = (uint8_t)v;
        if (*qn == 4) {
            out[o++] = (uint8_t)(q[0] << 2 | q[1] >> 4);
            out[o++] = (uint8_t)(q[1] << 4 | q[2] >> 2);
            out[o++] = (uint8_t)(q[2] << 6 | q[3]);
            *qn = 0;
        }
    }
    return o;
}

static int hexv(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (uint8_t)toupper(c);
    return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

size_t mime_qp(const uint8_t *in, size_t n, uint8_t *out, bool *soft, bool *bad)
{
    size_t o = 0;
    *soft = false;
    /* trailing blanks are not part of the line (§6.7 rule 3) */
    while (n && (in[n - 1] == ' ' || in[n - 1] == '\t'))
        n--;
    for (size_t i = 0; i < n; i++) {
        if (in[i] != '=') {
            out[o++] = in[i];
            continue;
        }
        if (i + 1 == n) { /* "=" last: a soft line break */
            *soft = true;
            break;
        }
        int hi = i + 1 < n ? hexv(in[i + 1]) : -1;
        int lo = i + 2 < n ? hexv(in[i + 2]) : -1;
        if (hi < 0 || lo < 0) { /* kept as it is, as decoders do */
            *bad = true;
            out[o++] = '=';
            continue;
        }
        out[o++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    return o;
}

long mime_uu(const uint8_t *in, size_t n, uint8_t *out)
{
    if (!n)
        return -1;
    size_t len = (size_t)((in[0] - ' ') & 0x3f);
    if (in[0] < ' ' || in[0] > 'a' || (len + 2) / 3 * 4 > n - 1 + 2)
        return -1;
    size_t o = 0;
    for (size_t i = 1; o < len && i < n; i += 4) {
        uint8_t c[4];
        for (int k = 0; k < 4; k++)
            c[k] = i + (size_t)k < n ? (uint8_t)((in[i + (size_t)k] - ' ') & 0x3f) : 0;
        uint8_t b[3] = {(uint8_t)(c[0] << 2 | c[1] >> 4), (uint8_t)(c[1] << 4 | c[2] >> 2),
                        (uint8_t)(c[2] << 6 | c[3])};
        for (int k = 0; k < 3 && o < len; k++)
            out[o++] = b[k];
    }
    return (long)o;
}
