/* hash.c — MD5 (JA3, JA3S) and SHA-256 (JA4) through OpenSSL's libcrypto EVP interface. */
#include <openssl/evp.h>
#include <stdio.h>

#include "tls_wire.h"

static int digest_hex(const EVP_MD *md, const void *d, size_t n, char *out)
{
    unsigned char dig[EVP_MAX_MD_SIZE];
    unsigned int dl = 0;
    if (!EVP_Digest(d, n, dig, &dl, md, NULL))
        return -1;
    phex(out, dig, dl);
    return 0;
}

int tls_wire_md5_hex(const void *d, size_t n, char out[33])
{
    return digest_hex(EVP_md5(), d, n, out);
}

int tls_wire_sha256_hex(const void *d, size_t n, char out[65])
{
    return digest_hex(EVP_sha256(), d, n, out);
}

int tls_wire_sha1_colon_hex(const void *d, size_t n, char out[60])
{
    unsigned char dig[EVP_MAX_MD_SIZE];
    unsigned int dl = 0;
    if (!EVP_Digest(d, n, dig, &dl, EVP_sha1(), NULL) || dl != 20)
        return -1;
    for (unsigned i = 0; i < dl; i++)
        snprintf(out + 3 * i, 4, i + 1 < dl ? "%02x:" : "%02x", dig[i]);
    return 0;
}
