/* ber.h — one small bounded BER TLV reader shared by the BER-encoded protocols (Kerberos 5,
 * LDAP, SNMP). It reads a value's identifier and definite length (X.690 §8.1) and never
 * looks past the bytes it is given; the protocols walk their messages with it. Internal to
 * parsers/. (libtasn1, Debian's generic decoder, needs compiled ASN.1 modules and a whole
 * DER value: ber/README.md.) */
#ifndef OSPREY_BER_H
#define OSPREY_BER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* identifier classes (X.690 §8.1.2.2), as the top two bits of the first octet */
enum { BER_UNIVERSAL = 0, BER_APPLICATION = 1, BER_CONTEXT = 2, BER_PRIVATE = 3 };
/* universal tags used by the protocols */
enum { BER_BOOLEAN = 1, BER_INTEGER = 2, BER_OCTET_STRING = 4, BER_NULL = 5, BER_OID = 6,
       BER_ENUMERATED = 10, BER_SEQUENCE = 16, BER_SET = 17, BER_GENERAL_STRING = 27,
       BER_GENERALIZED_TIME = 24 };

#define BER_TAG_MAX 0xffffffu   /* larger tag numbers are refused */
#define BER_DEPTH_MAX 32        /* how deep a protocol may nest (recursive structures) */

/* One value: its identifier, and where its contents lie in the buffer read. */
struct ber_tlv {
    uint8_t cls;                /* BER_UNIVERSAL … */
    bool constructed;
    uint32_t tag;
    uint32_t hdr;               /* identifier + length octets */
    uint32_t len;               /* contents octets */
    const uint8_t *v;           /* the contents (v[0..len)) */
};

enum ber_status {
    BER_OK = 1,                 /* a whole value */
    BER_MORE = 0,               /* a prefix of a value: more bytes needed */
    BER_BAD = -1,               /* not BER this reader takes (indefinite length, a length of
                                   more than 4 octets, a tag number past BER_TAG_MAX) */
};

/* The value at the start of p[0..n). BER_MORE also when the header is whole but the contents
 * are not (t->hdr and t->len are then set: the caller may know the whole size). */
enum ber_status ber_read(const uint8_t *p, size_t n, struct ber_tlv *t);

/* A cursor over consecutive values (a constructed value's contents). */
struct ber_cur {
    const uint8_t *p;
    size_t n;
};
static inline struct ber_cur ber_in(const struct ber_tlv *t)
{
    return (struct ber_cur){t->v, t->len};
}
/* The next value into t; false at the end or on a value that does not fit (c is then
 * emptied, so a walk stops). */
bool ber_next(struct ber_cur *c, struct ber_tlv *t);
/* The next value, which must be [cls tag]; false otherwise (c is left where it was). */
bool ber_expect(struct ber_cur *c, uint8_t cls, uint32_t tag, struct ber_tlv *t);
/* An INTEGER / ENUMERATED contents (two's complement, 1..8 octets) into *v. */
bool ber_int(const struct ber_tlv *t, int64_t *v);
/* Is t [cls tag]? */
static inline bool ber_is(const struct ber_tlv *t, uint8_t cls, uint32_t tag)
{
    return t->cls == cls && t->tag == tag;
}
/* An explicitly tagged context value [tag] { inner }: the inner value into in. */
bool ber_explicit(const struct ber_tlv *t, struct ber_tlv *in);

#endif
