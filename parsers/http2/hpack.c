/* hpack.c — header blocks decoded by libnghttp2's HPACK inflater (one per direction: the
 * dynamic table is per connection and direction), into a side's headers: names and values
 * copied into its bounded copy. Dynamic table size updates at the block's start are kept as
 * frame facts (http2.size_update). No HPACK is decoded here by hand. */
#include <nghttp2/nghttp2.h>
#include <stdlib.h>
#include <string.h>

#include "http2_int.h"

#define H2_TABLE_MAX 65536u  /* the largest dynamic table allowed (Suricata's max-table-size) */
#define H2_COPY_MAX (256u * 1024) /* bytes of names and values kept per side */

void *h2_hpack_new(void)
{
    nghttp2_hd_inflater *hd = NULL;
    if (nghttp2_hd_inflate_new(&hd) != 0)
        return NULL;
    return hd;
}

void h2_hpack_free(void *hd)
{
    if (hd)
        nghttp2_hd_inflate_del(hd);
}

void h2_hpack_table_size(void *hd, uint32_t size)
{
    if (hd)
        nghttp2_hd_inflate_change_table_size(hd, size < H2_TABLE_MAX ? size : H2_TABLE_MAX);
}

/* The size updates (001xxxxx, a 5-bit prefix integer) a block starts with. */
static void size_updates(struct pflow *pf, struct h2_side *side, const uint8_t *d, size_t n)
{
    size_t i = 0;
    while (i < n && (d[i] & 0xe0) == 0x20) {
        uint64_t v = d[i++] & 0x1f;
        if (v == 0x1f) {
            unsigned shift = 0;
            for (;;) {
                if (i >= n || shift > 28)
                    return; /* cut or overflowing: the inflater says what is wrong */
                uint8_t b = d[i++];
                v += (uint64_t)(b & 0x7f) << shift;
                shift += 7;
                if (!(b & 0x80))
                    break;
            }
        }
        h2_fact(pf, side->updates, &side->nupdates, v > UINT32_MAX ? UINT32_MAX : (uint32_t)v);
    }
}

static void add_header(struct pflow *pf, struct h2_side *side, const nghttp2_nv *nv)
{
    size_t need = nv->namelen + nv->valuelen;
    if (side->nh >= H2_HEADERS_MAX || side->copy.len + need > H2_COPY_MAX ||
        h2_room(pf, need) < need) {
        pflow_count(pf, H2_C_HEADERS_SHED, 1);
        return;
    }
    ((struct http2_state *)pf->state)->mem += need;
    if (!side->h && !(side->h = calloc(H2_HEADERS_MAX, sizeof *side->h)))
        return;
    struct h2_header *h = &side->h[side->nh];
    h->no = side->copy.len;
    h->nl = pbuf_add(&side->copy, nv->name, nv->namelen, H2_COPY_MAX);
    h->vo = side->copy.len;
    h->vl = pbuf_add(&side->copy, nv->value, nv->valuelen, H2_COPY_MAX);
    if (h->nl == nv->namelen && h->vl == nv->valuelen)
        side->nh++;
}

bool h2_hpack_block(struct pflow *pf, struct mon_flow *f, int dir, struct h2_side *side,
                    const uint8_t *d, size_t n)
{
    (void)f;
    struct http2_state *st = pf->state;
    nghttp2_hd_inflater *hd = st->d[dir].hd;
    if (!hd)
        return false;
    size_updates(pf, side, d, n);
    for (;;) {
        nghttp2_nv nv;
        int flags = 0;
        ssize_t r = nghttp2_hd_inflate_hd2(hd, &nv, &flags, d, n, 1);
        if (r < 0)
            return false;
        d += r, n -= (size_t)r;
        if (flags & NGHTTP2_HD_INFLATE_EMIT)
            add_header(pf, side, &nv);
        if (flags & NGHTTP2_HD_INFLATE_FINAL) {
            nghttp2_hd_inflate_end_headers(hd);
            break;
        }
        if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && r == 0)
            return false; /* no progress */
    }
    side->blocks++;
    return true;
}

const uint8_t *h2_header(const struct h2_side *side, const char *name, uint32_t *len)
{
    size_t nl = strlen(name);
    for (uint32_t i = 0; i < side->nh; i++) {
        const struct h2_header *h = &side->h[i];
        if (h->nl == nl && !memcmp(h2_copy(side) + h->no, name, nl)) {
            *len = h->vl;
            return h2_copy(side) + h->vo;
        }
    }
    return NULL;
}
