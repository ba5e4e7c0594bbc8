/* xform_args.c — see xform_args.h. Suricata's semantics:
 *   from_base64[: bytes N, offset N, mode M]  decodes N bytes (all by default) from offset;
 *   xor:"hexkey"                              each byte XORed with the key, cyclically;
 *   pcrexform:"regex"                         the first capture group of the first match;
 * from_base64 and pcrexform leave the buffer as it was when they produce nothing;
 *   zlib_deflate / gunzip [: max-size N]      the inflated bytes, at most N (1024 by default);
 *                                             a corrupt or short input keeps what inflated. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "xform_args.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base64.h"
#include "opt_args.h"

static const char *const OWN[] = {"from_base64", "xor", "pcrexform", "zlib_deflate", "gunzip",
                                  "luaxform", NULL};

bool xstep_has_own(const char *name)
{
    for (size_t i = 0; OWN[i]; i++)
        if (!strcmp(OWN[i], name))
            return true;
    return false;
}

static int hexval(uint8_t c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int xstep_prepare(struct det_xstep *s, const char *name, const void *arg)
{
    *s = (struct det_xstep){.name = name, .arg = arg};
    if (!strcmp(name, "xor")) {
        const struct opt_str *k = arg; /* hex digits, an even count (the parser checked) */
        s->keylen = k->len / 2;
        if (!(s->key = malloc(s->keylen ? s->keylen : 1)))
            return -1;
        for (uint32_t i = 0; i < s->keylen; i++)
            s->key[i] = (uint8_t)(hexval(k->bytes[2 * i]) << 4 | hexval(k->bytes[2 * i + 1]));
    } else if (!strcmp(name, "pcrexform")) {
        const struct opt_str *re = arg;
        int err;
        PCRE2_SIZE off;
        s->code = pcre2_compile((PCRE2_SPTR)re->bytes, re->len, 0, &err, &off, NULL);
        if (!s->code)
            return -1;
        pcre2_jit_compile(s->code, PCRE2_JIT_COMPLETE); /* optional: interpreted without */
    }
    return 0;
}

void xstep_free(struct det_xstep *s)
{
    free(s->key);
    pcre2_code_free(s->code);
    s->key = NULL;
    s->code = NULL;
}

uint32_t xstep_out_max(const struct det_xstep *s, uint32_t n)
{
    if (!strcmp(s->name, "zlib_deflate") || !strcmp(s->name, "gunzip"))
        return ((const struct opt_inflate *)s->arg)->max_size;
    if (!strcmp(s->name, "luaxform")) /* a script may grow its input: this much, then cut */
        return n + XFORM_LUA_GROWTH;
    return n + 2; /* base64 decodes to less; xor and pcrexform keep or shrink */
}

static uint32_t inflate_to(const uint8_t *in, uint32_t n, uint8_t *out, uint32_t max, bool gz)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, gz ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
        return 0;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = n;
    z.next_out = out;
    z.avail_out = max;
    inflate(&z, Z_FINISH); /* an error or a short input: keep what came out */
    uint32_t o = max - z.avail_out;
    inflateEnd(&z);
    return o;
}

uint32_t xstep_apply(const struct det_xstep *s, const uint8_t *in, uint32_t n, uint8_t *out,
                     void *md)
{
    if (!strcmp(s->name, "from_base64")) {
        const struct opt_base64 *b = s->arg;
        uint32_t o = 0;
        if (b->offset < n) {
            uint32_t len = n - b->offset;
            if (b->bytes && b->bytes < len)
                len = b->bytes;
            o = b64_decode(in + b->offset, len, out, (enum b64_mode)b->mode);
        }
        return o ? o : (memcpy(out, in, n), n);
    }
    if (!strcmp(s->name, "xor")) {
        for (uint32_t i = 0; i < n; i++)
            out[i] = in[i] ^ (s->keylen ? s->key[i % s->keylen] : 0);
        return n;
    }
    if (!strcmp(s->name, "pcrexform")) {
        int rc = pcre2_match(s->code, in, n, 0, 0, md, NULL);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (rc < 2 || ov[2] == PCRE2_UNSET || ov[3] < ov[2])
            return memcpy(out, in, n), n; /* no match, or the group took no part */
        memcpy(out, in + ov[2], ov[3] - ov[2]);
        return (uint32_t)(ov[3] - ov[2]);
    }
    if (!strcmp(s->name, "zlib_deflate") || !strcmp(s->name, "gunzip"))
        return inflate_to(in, n, out, ((const struct opt_inflate *)s->arg)->max_size,
                          s->name[0] == 'g');
    return 0;
}
