/* asn1.c — the asn1 keyword: walk the BER objects of a buffer and test each node.
 *
 * Semantics follow Suricata's (its Rust asn1 module on der-parser), written anew:
 *  - Decoding starts at absolute_offset, at the previous match's end + relative_offset, or
 *    at 0; a start outside the buffer matches nothing.
 *  - Top-level objects are decoded one after the other. A malformed one (bad header,
 *    length past its container or the buffer, a primitive with indefinite length, a
 *    missing end-of-contents, nesting deeper than 30) ends decoding: only the objects
 *    before it are tested. When a 31st object would follow 30, nothing matches.
 *  - Universal SEQUENCE and SET are descended into and their elements tested. Other nodes
 *    are opaque: application, context and private tags are not descended (an indefinite
 *    one is only scanned for its end-of-contents), as der-parser leaves them unparsed.
 *  - oversize_length N: a node whose definite length exceeds N (or an opaque node with
 *    indefinite length whose contents do).
 *    bitstring_overflow: a primitive universal BIT STRING whose unused-bits octet is
 *    greater than its length in bits.
 *    double_overflow: a primitive universal REAL of more than 256 octets in the decimal
 *    encoding (first octet's two top bits 0: the MSASN1 overflow).
 * The walk keeps an explicit stack of at most 30 frames: no recursion, no allocation.
 */
#include "asn1.h"

struct ber_hdr {
    uint8_t cls;       /* 0 universal, 1 application, 2 context, 3 private */
    bool constructed, indefinite;
    uint32_t tag;
    uint64_t len;      /* definite length */
    uint64_t hlen;     /* identifier and length octets */
};

enum { TAG_BIT_STRING = 3, TAG_REAL = 9, TAG_SEQUENCE = 16, TAG_SET = 17 };

/* The header at p, within avail bytes; false when malformed or truncated (a definite
 * length must fit in avail too). */
static bool read_header(const uint8_t *p, uint64_t avail, struct ber_hdr *h)
{
    uint64_t i = 0;
    if (avail < 2)
        return false;
    uint8_t id = p[i++];
    h->cls = id >> 6;
    h->constructed = (id & 0x20) != 0;
    h->tag = id & 0x1f;
    if (h->tag == 0x1f) { /* high tag number: base-128 octets, at most 4 (28 bits) */
        h->tag = 0;
        for (int k = 0;; k++) {
            if (i >= avail || k == 4)
                return false;
            uint8_t b = p[i++];
            h->tag = h->tag << 7 | (b & 0x7f);
            if (!(b & 0x80))
                break;
        }
    }
    if (i >= avail)
        return false;
    uint8_t l = p[i++];
    h->indefinite = l == 0x80;
    h->len = 0;
    if (l < 0x80) {
        h->len = l;
    } else if (l == 0xff) {
        return false; /* reserved */
    } else if (!h->indefinite) {
        unsigned k = l & 0x7f;
        if (k > 8 || k > avail - i)
            return false;
        while (k--)
            h->len = h->len << 8 | p[i++];
    } else if (!h->constructed) {
        return false; /* indefinite length needs a constructed encoding */
    }
    h->hlen = i;
    return h->indefinite || h->len <= avail - i;
}

/* Does node h (contents at c) trip one of a's checks? (Definite lengths only: an opaque
 * indefinite node's length is tested when its end-of-contents is found.) */
static bool node_trips(const struct opt_asn1 *a, const struct ber_hdr *h, const uint8_t *c)
{
    if (h->indefinite)
        return false;
    if (a->has_oversize && h->len > a->oversize_length)
        return true;
    if (h->cls != 0 || h->constructed || h->len == 0)
        return false;
    if (a->bitstring_overflow && h->tag == TAG_BIT_STRING && c[0] > h->len * 8)
        return true;
    return a->double_overflow && h->tag == TAG_REAL && (c[0] & 0xc0) == 0 && h->len > 256;
}

struct frame {
    uint64_t limit;    /* where its contents must end (definite), or its parent's limit */
    uint64_t start;    /* its contents' first byte */
    bool indefinite;
    bool tested;       /* a universal SEQUENCE/SET whose elements are tested */
    bool opaque_tested; /* an opaque indefinite node that is itself tested (its length) */
};

/* One top-level object at *pos: false when malformed; else *pos moves past it and *hit
 * says whether one of its nodes tripped a check. */
static bool walk_object(const struct opt_asn1 *a, const uint8_t *b, uint64_t n, uint64_t *pos,
                        bool *hit)
{
    struct frame st[ASN1_MAX_DEPTH];
    int depth = 0;
    uint64_t p = *pos;
    for (;;) {
        if (depth > 0) {
            struct frame *f = &st[depth - 1];
            bool closed = false;
            if (f->indefinite && f->limit - p >= 2 && b[p] == 0 && b[p + 1] == 0) {
                if (f->opaque_tested && a->has_oversize && p - f->start > a->oversize_length)
                    *hit = true; /* an opaque node: its contents' length is known now */
                p += 2;
                closed = true;
            } else if (!f->indefinite && p == f->limit) {
                closed = true;
            }
            if (closed) {
                if (--depth == 0)
                    break;
                continue;
            }
        }
        if (depth == ASN1_MAX_DEPTH)
            return false;
        uint64_t limit = depth ? st[depth - 1].limit : n;
        bool tested = depth == 0 || st[depth - 1].tested;
        struct ber_hdr h;
        if (!read_header(b + p, limit - p, &h))
            return false;
        uint64_t c = p + h.hlen;
        bool container = h.cls == 0 && (h.tag == TAG_SEQUENCE || h.tag == TAG_SET);
        if (container && !h.constructed)
            return false; /* a SEQUENCE or SET is always constructed */
        if (tested && node_trips(a, &h, b + c))
            *hit = true;
        if (h.indefinite) {
            st[depth++] = (struct frame){limit, c, true, tested && container,
                                         tested && !container};
            p = c;
        } else if (container && tested) {
            st[depth++] = (struct frame){c + h.len, c, false, true, false};
            p = c;
        } else {
            p = c + h.len; /* a primitive or opaque node: its contents are skipped */
        }
        if (depth == 0)
            break;
    }
    *pos = p;
    return true;
}

bool asn1_walk(const struct opt_asn1 *a, const uint8_t *b, uint64_t n)
{
    uint64_t p = 0;
    bool any = false;
    for (int frames = 0; p < n; frames++) {
        if (frames == ASN1_MAX_FRAMES)
            return false; /* more objects than Suricata decodes: it gives up on all */
        bool hit = false;
        if (!walk_object(a, b, n, &p, &hit))
            break; /* a malformed object: the ones before it count */
        any |= hit;
    }
    return any;
}

bool asn1_match(const struct opt_asn1 *a, const uint8_t *buf, int64_t origin, int64_t len,
                int64_t prev_end)
{
    int64_t start = a->has_absolute ? a->offset
                  : a->has_relative ? prev_end + a->offset
                                    : 0;
    if (start < origin || start >= len)
        return false;
    return asn1_walk(a, buf + (start - origin), (uint64_t)(len - start));
}
