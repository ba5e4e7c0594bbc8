/* frames.c — HTTP/2's frame reader, per direction: the client's preface, then frames of 9
 * header bytes and a payload (each frame type read as RFC 9113 §6 says; payloads kept up to
 * H2_FRAME_KEEP, DATA streamed into its stream's body as it comes), header blocks across
 * CONTINUATION frames, the connection's SETTINGS applied (HPACK table size, frame size).
 * Each frame runs its direction's frame event (frame:http2.*); stream 0's frames are each a
 * transaction of their own (as Suricata's), the others' go to their stream (streams.c). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http2_int.h"

#define H2_BLOCK_MAX (100u * 1024) /* bytes of one header block (Suricata's
                                      max-reassembly-size) */

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void dir_init(struct h2_dir *d)
{
    d->max_frame = H2_DEFAULT_MAX_FRAME;
    d->hd = h2_hpack_new();
}

struct http2_state *http2_state_new(struct pflow *pf)
{
    struct http2_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    dir_init(&st->d[0]);
    dir_init(&st->d[1]);
    if (!st->d[0].hd || !st->d[1].hd) {
        http2_free(st);
        return NULL;
    }
    st->d[0].preface = H2_PREFACE_LEN;
    st->frame_dir = -1;
    pf->state = st;
    return st;
}

void http2_free(void *state)
{
    struct http2_state *st = state;
    if (!st)
        return;
    for (uint32_t i = 0; i < st->nst; i++)
        h2_stream_free(st->st[i]);
    free(st->st);
    h2_stream_free(st->last);
    for (int k = 0; k < 2; k++) {
        pbuf_free(&st->d[k].payload);
        h2_hpack_free(st->d[k].hd);
    }
    free(st);
}

uint32_t http2_tx_id(const struct pflow *pf)
{
    const struct http2_state *st = pf->state;
    return st ? st->tx_count : 0;
}

/* A frame of stream 0 (SETTINGS, PING, GOAWAY, its WINDOW_UPDATE): its own transaction,
 * reported at once on its direction's side. fill() puts the frame's facts in. */
static struct h2_stream *ctl_tx(void)
{
    return calloc(1, sizeof(struct h2_stream));
}

static void ctl_done(struct pflow *pf, struct mon_flow *f, int dir, struct h2_stream *s)
{
    struct http2_state *st = pf->state;
    st->cur = s;
    st->cur_dir = dir;
    pflow_raise(pf, f, dir, dir == 0 ? H2_EV_REQUEST_DONE : H2_EV_RESPONSE_DONE);
    pflow_tx_done(pf, f);
    st->tx_count++;
    h2_retire(st, s);
}

/* The block of side `side` of stream id is complete: decode it, run the side's head event
 * on its first block, end the side when the block's HEADERS ended the stream. */
static void block_done(struct pflow *pf, struct mon_flow *f, int dir, uint32_t id, int side,
                       bool end_stream)
{
    struct http2_state *st = pf->state;
    struct h2_stream *s = h2_stream_get(pf, f, id, true);
    if (!s)
        return;
    struct h2_side *sd = &s->s[side];
    sd->in_block = false;
    bool ok = h2_hpack_block(pf, f, dir, sd, sd->block.p ? sd->block.p : (const uint8_t *)"",
                             sd->block.len);
    st->mem -= sd->block.len < st->mem ? sd->block.len : st->mem;
    pbuf_free(&sd->block);
    if (!ok) {
        /* the direction's dynamic table is lost with it: nothing more decodes there */
        pflow_anomaly(pf, f, dir, H2_AE_INVALID_HEADER);
        pflow_count(pf, H2_C_MALFORMED, 1);
        h2_hpack_free(st->d[dir].hd);
        st->d[dir].hd = NULL;
    }
    if (sd->blocks == 1) {
        if (side == 0) {
            uint32_t al, hl;
            const uint8_t *a = h2_header(sd, ":authority", &al);
            const uint8_t *h = h2_header(sd, "host", &hl);
            if (a && memchr(a, '@', al))
                pflow_anomaly(pf, f, dir, H2_AE_USERINFO_IN_URI);
            if (a && h && (al != hl || strncasecmp((const char *)a, (const char *)h, al)))
                pflow_anomaly(pf, f, dir, H2_AE_AUTHORITY_HOST_MISMATCH);
        }
        if (side == 0)
            h2_doh(pf, s, 0); /* a GET's ?dns= (DoH) */
        st->cur = s;
        st->cur_dir = side;
        /* the side's own direction: a PUSH_PROMISE (sent by the server) is a request's head */
        pflow_raise(pf, f, side, side == 0 ? H2_EV_REQUEST : H2_EV_RESPONSE);
        if (side != dir)
            sd->ended = true; /* a promised request has nothing more to come */
    } else if (sd->blocks > 2) {
        pflow_anomaly(pf, f, dir, H2_AE_EXTRA_HEADER_DATA); /* after the trailers */
    }
    if (end_stream)
        h2_side_end(pf, f, s, side);
}

/* A header block fragment for side `side` of stream id. */
static void fragment(struct pflow *pf, struct mon_flow *f, int dir, uint32_t id, int side,
                     const uint8_t *d, size_t n, bool end_headers, bool end_stream)
{
    struct http2_state *st = pf->state;
    struct h2_stream *s = h2_stream_get(pf, f, id, true);
    if (!s)
        return;
    struct h2_side *sd = &s->s[side];
    sd->in_block = true;
    uint32_t before = sd->block.len;
    if (pbuf_add(&sd->block, d, h2_room(pf, n), H2_BLOCK_MAX) < n)
        pflow_anomaly(pf, f, dir, H2_AE_REASSEMBLY_LIMIT_REACHED);
    st->mem += sd->block.len - before;
    struct h2_dir *hd = &st->d[dir];
    if (end_headers) {
        hd->cont_stream = 0;
        block_done(pf, f, dir, id, side, end_stream);
    } else {
        hd->cont_stream = id;
        hd->cont_side = (uint8_t)side;
        hd->cont_end_stream = end_stream;
    }
}

/* Padding (PADDED): the pad length byte first, the padding last. false: it does not fit. */
static bool unpad(uint8_t flags, const uint8_t **p, uint32_t *n)
{
    if (!(flags & H2F_PADDED))
        return true;
    if (*n < 1 || (*p)[0] >= *n)
        return false;
    uint8_t pad = (*p)[0];
    *p += 1;
    *n -= 1u + pad;
    return true;
}

static void settings(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *p,
                     uint32_t n, uint8_t flags)
{
    struct http2_state *st = pf->state;
    if (n % 6 || ((flags & H2F_ACK) && n)) {
        pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
        return;
    }
    struct h2_stream *s = ctl_tx();
    if (!s)
        return;
    struct h2_side *sd = &s->s[dir];
    h2_fact(pf, sd->types, &sd->ntypes, H2_SETTINGS);
    for (uint32_t i = 0; i + 6 <= n; i += 6) {
        uint16_t id = (uint16_t)(p[i] << 8 | p[i + 1]);
        uint32_t v = be32(p + i + 2);
        if (sd->nsettings < H2_LIST_MAX)
            sd->settings[sd->nsettings++] = (struct h2_setting){id, v};
        else
            pflow_count(pf, H2_C_FACTS_SHED, 1);
        /* what this endpoint accepts applies to what the other one sends */
        if (id == 1)
            h2_hpack_table_size(st->d[!dir].hd, v);
        else if (id == 5 && v >= H2_DEFAULT_MAX_FRAME && v <= 0xffffff)
            st->d[!dir].max_frame = v;
    }
    ctl_done(pf, f, dir, s);
}

/* stream 0's other frames: a transaction with the one fact */
static void ctl_frame(struct pflow *pf, struct mon_flow *f, int dir, uint8_t type, uint32_t *err,
                      uint32_t *window)
{
    struct h2_stream *s = ctl_tx();
    if (!s)
        return;
    struct h2_side *sd = &s->s[dir];
    h2_fact(pf, sd->types, &sd->ntypes, type);
    if (err)
        h2_fact(pf, sd->errors, &sd->nerrors, *err);
    if (window)
        h2_fact(pf, sd->windows, &sd->nwindows, *window);
    ctl_done(pf, f, dir, s);
}

static void frame_done(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct http2_state *st = pf->state;
    struct h2_dir *hd = &st->d[dir];
    uint8_t type = hd->hdr[3], flags = hd->hdr[4];
    uint32_t id = be32(hd->hdr + 5) & 0x7fffffffu;
    const uint8_t *p = hd->payload.p ? hd->payload.p : (const uint8_t *)"";
    uint32_t n = hd->payload.len;
    bool whole = n == hd->len;
    pflow_count(pf, H2_C_FRAMES, 1);
    /* its frame event: frame:http2.hdr / .data / .pdu */
    st->frame_dir = dir;
    pflow_raise(pf, f, dir, dir == 0 ? H2_EV_FRAME_TS : H2_EV_FRAME_TC);
    st->frame_dir = -1;
    if (hd->cont_stream && (type != H2_CONTINUATION || id != hd->cont_stream)) {
        /* a header block must go on in CONTINUATION frames of its stream alone */
        pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_HEADER);
        hd->cont_stream = 0;
    }
    struct h2_stream *s = NULL;
    switch (type) {
    case H2_DATA:
        if (!id) {
            pflow_anomaly(pf, f, dir, H2_AE_DATA_STREAM_ZERO);
            break;
        }
        s = h2_stream_get(pf, f, id, false);
        if (!s)
            break;
        h2_fact(pf, s->s[dir].types, &s->s[dir].ntypes, type);
        if (flags & H2F_PADDED) { /* held back until the padding is known */
            if (!unpad(flags, &p, &n) || !whole)
                pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_DATA);
            else
                h2_body_add(pf, f, s, dir, p, n);
        }
        if (flags & H2F_END_STREAM)
            h2_side_end(pf, f, s, dir);
        break;
    case H2_HEADERS: {
        if (!id || !whole || !unpad(flags, &p, &n)) {
            pflow_anomaly(pf, f, dir, id ? H2_AE_INVALID_FRAME_DATA : H2_AE_INVALID_FRAME_HEADER);
            break;
        }
        s = h2_stream_get(pf, f, id, true);
        if (!s)
            break;
        struct h2_side *sd = &s->s[dir];
        h2_fact(pf, sd->types, &sd->ntypes, type);
        if (flags & H2F_PRIORITY) {
            if (n < 5) {
                pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
                break;
            }
            h2_fact(pf, sd->prios, &sd->nprios, p[4]);
            p += 5, n -= 5;
        }
        hd->cont_target = 0;
        fragment(pf, f, dir, id, dir, p, n, flags & H2F_END_HEADERS, flags & H2F_END_STREAM);
        break;
    }
    case H2_CONTINUATION:
        if (!hd->cont_stream || id != hd->cont_stream) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_HEADER);
            break;
        }
        fragment(pf, f, dir, hd->cont_target ? hd->cont_target : id, hd->cont_side, p, n,
                 flags & H2F_END_HEADERS, hd->cont_end_stream);
        break;
    case H2_PUSH_PROMISE: {
        /* the server's promise: the request headers of the stream it reserves */
        if (dir != 1 || !id || !whole || !unpad(flags, &p, &n) || n < 4) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_DATA);
            break;
        }
        uint32_t promised = be32(p) & 0x7fffffffu;
        if (!promised) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_DATA);
            break;
        }
        hd->cont_target = promised;
        fragment(pf, f, dir, promised, 0, p + 4, n - 4, flags & H2F_END_HEADERS, false);
        break;
    }
    case H2_PRIORITY:
        if (hd->len != 5) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
            break;
        }
        if (id && (s = h2_stream_get(pf, f, id, true))) {
            h2_fact(pf, s->s[dir].types, &s->s[dir].ntypes, type);
            h2_fact(pf, s->s[dir].prios, &s->s[dir].nprios, p[4]);
        }
        break;
    case H2_RST_STREAM:
        if (hd->len != 4) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
            break;
        }
        if (id && (s = h2_stream_get(pf, f, id, false))) {
            h2_fact(pf, s->s[dir].types, &s->s[dir].ntypes, type);
            h2_fact(pf, s->s[dir].errors, &s->s[dir].nerrors, be32(p));
            h2_stream_close(pf, f, s); /* the stream is over for both */
        }
        break;
    case H2_SETTINGS:
        if (id) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_HEADER);
            break;
        }
        settings(pf, f, dir, p, n, flags);
        break;
    case H2_PING:
        if (hd->len != 8) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
            break;
        }
        ctl_frame(pf, f, dir, type, NULL, NULL);
        break;
    case H2_GOAWAY: {
        if (hd->len < 8 || n < 8) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
            break;
        }
        uint32_t err = be32(p + 4);
        ctl_frame(pf, f, dir, type, &err, NULL);
        break;
    }
    case H2_WINDOW_UPDATE: {
        if (hd->len != 4) {
            pflow_anomaly(pf, f, dir, H2_AE_INVALID_FRAME_LENGTH);
            break;
        }
        uint32_t inc = be32(p) & 0x7fffffffu;
        if (!id) {
            ctl_frame(pf, f, dir, type, NULL, &inc);
        } else if ((s = h2_stream_get(pf, f, id, false))) {
            h2_fact(pf, s->s[dir].types, &s->s[dir].ntypes, type);
            h2_fact(pf, s->s[dir].windows, &s->s[dir].nwindows, inc);
        }
        break;
    }
    default: /* an unknown type is ignored (RFC 9113 §5.5) */
        break;
    }
}

/* The 9 header bytes are in: check the frame before its payload comes. */
static void frame_begin(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct http2_state *st = pf->state;
    struct h2_dir *hd = &st->d[dir];
    hd->len = (uint32_t)hd->hdr[0] << 16 | (uint32_t)hd->hdr[1] << 8 | hd->hdr[2];
    hd->got = 0;
    pbuf_reset(&hd->payload);
    if (hd->len > hd->max_frame)
        pflow_anomaly(pf, f, dir, H2_AE_LONG_FRAME_DATA);
}

/* payload bytes of the frame being read */
static void payload(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct http2_state *st = pf->state;
    struct h2_dir *hd = &st->d[dir];
    pbuf_add(&hd->payload, d, n, H2_FRAME_KEEP);
    hd->got += (uint32_t)n;
    uint32_t id = be32(hd->hdr + 5) & 0x7fffffffu;
    if (hd->hdr[3] == H2_DATA && !(hd->hdr[4] & H2F_PADDED) && id) {
        /* unpadded DATA goes to its stream's body as it comes, whatever its length */
        struct h2_stream *s = h2_stream_get(pf, f, id, false);
        if (s)
            h2_body_add(pf, f, s, dir, d, n);
    }
}

void http2_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct http2_state *st = pf->state ? pf->state : http2_state_new(pf);
    if (!st) { /* out of memory */
        pf->dead[dir] = true;
        return;
    }
    struct h2_dir *hd = &st->d[dir];
    while (n && !pf->dead[dir]) {
        if (dir == 0 && hd->preface) {
            uint32_t at = H2_PREFACE_LEN - hd->preface;
            size_t k = n < hd->preface ? n : hd->preface;
            if (memcmp(d, H2_PREFACE + at, k)) {
                pflow_anomaly(pf, f, dir, H2_AE_INVALID_CLIENT_MAGIC);
                pf->dead[dir] = true;
                return;
            }
            hd->preface -= (uint32_t)k;
            d += k, n -= k;
            continue;
        }
        if (hd->nhdr < H2_HDR) {
            size_t k = H2_HDR - hd->nhdr < n ? H2_HDR - hd->nhdr : n;
            memcpy(hd->hdr + hd->nhdr, d, k);
            hd->nhdr += (uint32_t)k;
            d += k, n -= k;
            if (hd->nhdr < H2_HDR)
                break;
            frame_begin(pf, f, dir);
        } else {
            size_t k = hd->len - hd->got < n ? hd->len - hd->got : n;
            payload(pf, f, dir, d, k);
            d += k, n -= k;
        }
        if (hd->nhdr == H2_HDR && hd->got == hd->len) {
            frame_done(pf, f, dir);
            if (!pf->state) /* (never freed while parsing; be safe) */
                return;
            hd->nhdr = 0;
        }
    }
}

void http2_upgraded(struct pflow *pf, struct mon_flow *f)
{
    if (!http2_state_new(pf))
        return;
    /* the HTTP/1 request that asked for h2c is stream 1's (RFC 7540 §3.2): its response
     * comes as HTTP/2 on stream 1, its request side is over */
    struct h2_stream *s = h2_stream_get(pf, f, 1, true);
    if (s)
        s->s[0].ended = true;
}

void http2_end(struct pflow *pf, struct mon_flow *f)
{
    struct http2_state *st = pf->state;
    if (!st)
        return;
    /* what is still open is reported as it stands, oldest first */
    while (st->nst)
        h2_stream_close(pf, f, st->st[0]);
}
