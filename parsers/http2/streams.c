/* streams.c — HTTP/2 streams as transactions: the live ones of a flow (at most
 * app-layer.protocols.http2.max-streams: past it a new stream is shed, counted and reported as
 * http2.too_many_streams), each side's end (its body event), the transaction's end (its done
 * events and record), and DATA into a side's body — decoded through the HTTP folder's
 * Content-Encoding decoder (../http_body/decoder.c) when the side's headers name gzip, deflate …,
 * bounded by the HTTP body limits. A side's DATA is also a file of the file layer (filemd5 …,
 * fileinfo, filestore: core/files.h), named by the request's :path, as Suricata makes files
 * of HTTP/2 bodies. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "http2_int.h"

void h2_fact(struct pflow *pf, uint32_t *list, uint32_t *n, uint32_t v)
{
    if (*n < H2_LIST_MAX)
        list[(*n)++] = v;
    else
        pflow_count(pf, H2_C_FACTS_SHED, 1);
}

uint32_t h2_room(struct pflow *pf, size_t n)
{
    const struct http2_state *st = pf->state;
    uint64_t left = st->mem < H2_FLOW_MEMCAP ? H2_FLOW_MEMCAP - st->mem : 0;
    if (n <= left)
        return (uint32_t)n;
    pflow_count(pf, H2_C_MEMCAP_SHED, n - left);
    return (uint32_t)left;
}

/* what a stream keeps against the flow's memcap */
static uint64_t stream_mem(const struct h2_stream *s)
{
    uint64_t m = 0;
    for (int k = 0; k < 2; k++)
        m += (uint64_t)s->s[k].copy.len + s->s[k].block.len + s->s[k].body.len;
    return m;
}

void h2_stream_free(struct h2_stream *s)
{
    if (!s)
        return;
    for (int k = 0; k < 2; k++) {
        pbuf_free(&s->s[k].copy);
        pbuf_free(&s->s[k].block);
        pbuf_free(&s->s[k].body);
        free(s->s[k].h);
        http_body_decoder_free(s->s[k].z);
        h2_doh_free(&s->s[k]);
    }
    free(s);
}

struct h2_stream *h2_stream_get(struct pflow *pf, struct mon_flow *f, uint32_t id, bool make)
{
    struct http2_state *st = pf->state;
    for (uint32_t i = 0; i < st->nst; i++)
        if (st->st[i]->id == id)
            return st->st[i];
    if (!make)
        return NULL;
    uint32_t *max = id & 1 ? &st->max_client_id : &st->max_server_id;
    if (id <= *max)
        pflow_anomaly(pf, f, id & 1 ? 0 : 1, H2_AE_STREAM_ID_REUSE);
    else
        *max = id;
    if (st->nst >= ((const struct http2_cfg *)pflow_cfg(pf))->max_streams) {
        pflow_anomaly(pf, f, id & 1 ? 0 : 1, H2_AE_TOO_MANY_STREAMS);
        pflow_count(pf, H2_C_STREAMS_SHED, 1);
        return NULL;
    }
    if (st->nst == st->capst) {
        uint32_t cap = st->capst ? 2 * st->capst : 8;
        struct h2_stream **v = realloc(st->st, cap * sizeof *v);
        if (!v)
            return NULL;
        st->st = v;
        st->capst = cap;
    }
    struct h2_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->id = id;
    st->st[st->nst++] = s;
    pflow_count(pf, H2_C_STREAMS, 1);
    return s;
}

/* The side's file takes the transaction id the stream is reported with (the next), and is
 * done: complete when its side ended, else cut short (a reset, the flow's end). */
static void file_done(struct pflow *pf, struct h2_side *sd)
{
    const struct http2_state *st = pf->state;
    if (!sd->file_open)
        return;
    pfile_set_tx(pf, sd->file, st->tx_count);
    pfile_close(pf, sd->file, sd->file_cut || !sd->ended);
}

void h2_stream_close(struct pflow *pf, struct mon_flow *f, struct h2_stream *s)
{
    struct http2_state *st = pf->state;
    for (int k = 0; k < 2; k++) {
        struct h2_side *sd = &s->s[k];
        file_done(pf, sd);
        if (sd->body.len && !sd->body_run) { /* a body the end of the stream cut short */
            sd->body_run = true;
            st->cur = s;
            st->cur_dir = k;
            pflow_raise(pf, f, k, k == 0 ? H2_EV_REQUEST_BODY : H2_EV_RESPONSE_BODY);
        }
    }
    st->cur = s;
    st->cur_dir = 0;
    pflow_raise(pf, f, 0, H2_EV_REQUEST_DONE);
    st->cur_dir = 1;
    pflow_raise(pf, f, 1, H2_EV_RESPONSE_DONE);
    pflow_tx_done(pf, f);
    st->tx_count++;
    for (uint32_t i = 0; i < st->nst; i++)
        if (st->st[i] == s) {
            memmove(&st->st[i], &st->st[i + 1], (st->nst - i - 1) * sizeof *st->st);
            st->nst--;
            break;
        }
    h2_retire(st, s);
}

void h2_retire(struct http2_state *st, struct h2_stream *s)
{
    if (st->last && st->last != s) {
        uint64_t m = stream_mem(st->last);
        st->mem = st->mem > m ? st->mem - m : 0;
        h2_stream_free(st->last);
    }
    st->last = s;
    st->cur = s;
    st->cur_dir = 0;
}

void h2_side_end(struct pflow *pf, struct mon_flow *f, struct h2_stream *s, int side)
{
    struct http2_state *st = pf->state;
    struct h2_side *sd = &s->s[side];
    if (sd->ended)
        return;
    sd->ended = true;
    file_done(pf, sd);
    h2_doh(pf, s, side); /* a DNS message in its DATA (DoH) */
    if (sd->body.len && !sd->body_run) {
        sd->body_run = true;
        st->cur = s;
        st->cur_dir = side;
        pflow_raise(pf, f, side, side == 0 ? H2_EV_REQUEST_BODY : H2_EV_RESPONSE_BODY);
    }
    if (s->s[0].ended && s->s[1].ended)
        h2_stream_close(pf, f, s);
    else if (sd->file_open) /* (another stream may be reported before this one) */
        pfile_set_tx(pf, sd->file, H2_FILE_TX | s->id);
}

/* Content-Encoding's codings, in the order listed; 0 when none is one we decode. */
static int codings(const struct h2_side *sd, uint8_t *out, int max)
{
    uint32_t n;
    const uint8_t *v = h2_header(sd, "content-encoding", &n);
    int k = 0;
    while (v && n && k < max) {
        while (n && (*v == ' ' || *v == ',' || *v == '\t'))
            v++, n--;
        uint32_t w = 0;
        while (w < n && v[w] != ',' && v[w] != ' ' && v[w] != '\t')
            w++;
        if ((w == 4 && !strncasecmp((const char *)v, "gzip", 4)) ||
            (w == 6 && !strncasecmp((const char *)v, "x-gzip", 6)))
            out[k++] = HC_GZIP;
        else if (w == 7 && !strncasecmp((const char *)v, "deflate", 7))
            out[k++] = HC_DEFLATE;
        v += w, n -= w;
    }
    return k;
}

/* HTTP's settings struct begins with the shared body settings (../http/http_int.h says so):
 * HTTP/2 reads them by HTTP's registered name, not through HTTP's private header */
const struct http_body_cfg *h2_http_cfg(const struct pflow *pf)
{
    int http = osprey_app_proto_find("http");
    return (const struct http_body_cfg *)(pf->w->p->cfg.proto + pf->w->p->base[http].cfg);
}

/* The side's file: opened with its first byte, named by the request's :path (no query). */
static void file_open(struct pflow *pf, struct h2_stream *s, struct h2_side *sd, int side)
{
    if (sd->file_open)
        return;
    sd->file_open = true;
    uint32_t n = 0;
    const uint8_t *p = h2_header(&s->s[0], ":path", &n);
    const uint8_t *q = p ? memchr(p, '?', n) : NULL;
    if (q)
        n = (uint32_t)(q - p);
    sd->file = pfile_open(pf, side, H2_FILE_TX | s->id, p, p ? n : 0);
}

void h2_body_add(struct pflow *pf, struct mon_flow *f, struct h2_stream *s, int side,
                 const uint8_t *d, size_t n)
{
    const struct http_body_cfg *cfg = h2_http_cfg(pf);
    struct h2_side *sd = &s->s[side];
    if (n)
        file_open(pf, s, sd, side);
    uint32_t lim = http_body_keep_limit(cfg, side); /* kept (for its file), as HTTP/1's */
    sd->wire += n;
    uint32_t tl;
    const uint8_t *ct = h2_header(sd, "content-type", &tl);
    if (!sd->dns_long && sd->wire > H2_DNS_MAX && ct && tl >= 23 &&
        !strncasecmp((const char *)ct, "application/dns-message", 23)) {
        /* a DNS message is at most what one UDP datagram holds */
        sd->dns_long = true;
        pflow_anomaly(pf, f, side, side == 0 ? H2_AE_DNS_REQUEST_TOO_LONG
                                             : H2_AE_DNS_RESPONSE_TOO_LONG);
    }
    if (!sd->z_set) {
        sd->z_set = true;
        uint8_t c[8];
        int k = cfg->decompress ? codings(sd, c, 8) : 0;
        if (k) {
            struct http_body_decoder_cfg dc = {
                .lzma_enabled = false,
                .work_limit = lim ? 16 * (uint64_t)lim + (1u << 20) : (uint64_t)1 << 30,
            };
            sd->z = http_body_decoder_new(c, k, &dc);
        }
    }
    if (!sd->z) /* a plain body: the file is all of it, past the body limit too */
        pfile_data(pf, sd->file, d, n);
    if (lim && sd->body.len >= lim) {
        sd->file_cut |= sd->z != NULL;
        return;
    }
    /* the body's own limit, and what the flow's memcap leaves */
    struct http2_state *st = pf->state;
    uint32_t before = sd->body.len;
    uint64_t cap = (uint64_t)before + h2_room(pf, lim ? lim - before : n);
    uint32_t max = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    if (!max) {
        sd->file_cut |= sd->z != NULL;
        return;
    }
    if (sd->z) { /* an encoded body's file is what is decoded of it (within the limits) */
        uint32_t errs = http_body_decoder_errors(sd->z);
        if (http_body_decoder_feed(sd->z, d, n, &sd->body, max)) {
            pflow_count(pf, H2_C_BODY_LIMIT, 1);
            sd->file_cut = true;
        }
        if (http_body_decoder_errors(sd->z) > errs)
            pflow_anomaly(pf, f, side, H2_AE_FAILED_DECOMPRESSION);
        if (sd->body.len > before) /* (nothing decoded yet: the body may have no bytes) */
            pfile_data(pf, sd->file, sd->body.p + before, sd->body.len - before);
    } else if (pbuf_add(&sd->body, d, n, max) < n) {
        pflow_count(pf, H2_C_BODY_LIMIT, 1);
    }
    st->mem += sd->body.len - before;
}
