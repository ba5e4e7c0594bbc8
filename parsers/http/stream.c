/* stream.c — HTTP/1.x over one TCP flow: each direction's bytes framed into messages
 * (head, then a body by Content-Length, chunked, or until the connection closes), messages
 * paired into transactions (request i with response i: pipelining), and the app events run
 * once per message with its buffers current.
 *
 * Bounded: a head is staged up to the header limit (over it: counted, the truncated head
 * is still reported, and that direction is given up); bodies are kept up to their limits
 * (over: counted, the body event runs with what was kept, framing goes on so the next
 * pipelined message is still found). */
#include <stdlib.h>
#include <string.h>

#include "http_int.h"

static struct http_state *state(struct pflow *pf)
{
    if (!pf->http)
        pf->http = calloc(1, sizeof *pf->http);
    return pf->http;
}

static void msg_clear(struct http_msg *m)
{
    m->present = m->body_run = m->cut = false;
    m->wire_len = 0;
    pbuf_reset(&m->copy);
    pbuf_reset(&m->body);
    memset(m->sp, 0, sizeof m->sp);
}

static void msg_free(struct http_msg *m)
{
    pbuf_free(&m->copy);
    pbuf_free(&m->body);
}

/* The ring slot of transaction id, made fresh when it holds another one. */
static struct http_tx *tx_slot(struct pflow *pf, struct mon_flow *f, uint32_t id)
{
    struct http_state *h = pf->http;
    struct http_tx *t = &h->tx[id % HTTP_TX_RING];
    if (t->used && t->id == id)
        return t;
    if (t->used && !t->done) {
        /* more requests outstanding than the ring holds: the oldest is reported as is */
        pf->w->st.http_tx_dropped++;
        h->cur = t;
        pflow_tx_done(pf, f, OSPREY_APP_HTTP);
    }
    msg_clear(&t->req);
    msg_clear(&t->resp);
    t->id = id;
    t->used = true;
    t->is_head = t->is_connect = t->simple = t->done = false;
    t->status = 0;
    return t;
}

struct body_sink {
    struct pflow *pf;
    struct mon_flow *f;
    int dir;
};

static void run_body(struct pflow *pf, struct mon_flow *f, int dir, struct http_tx *t)
{
    struct http_msg *m = dir == 0 ? &t->req : &t->resp;
    if (m->body_run || !m->body.len)
        return;
    m->body_run = true;
    pf->http->cur = t;
    const struct osprey_parser_events *ev = &pf->w->p->ev;
    pflow_run(pf, f, dir, dir == 0 ? ev->http_request_body : ev->http_response_body);
}

static void body_bytes(void *arg, const uint8_t *d, size_t n)
{
    struct body_sink *s = arg;
    struct pflow *pf = s->pf;
    struct http_state *h = pf->http;
    struct http_dir *hd = &h->d[s->dir];
    struct http_tx *t = &h->tx[hd->tx % HTTP_TX_RING];
    if (t->id != hd->tx || !t->used)
        return;
    struct http_msg *m = s->dir == 0 ? &t->req : &t->resp;
    if (m->cut || !n)
        return;
    const struct osprey_parsers_cfg *cfg = &pf->w->p->cfg;
    uint32_t max = s->dir == 0 ? cfg->http_request_body_limit : cfg->http_response_body_limit;
    bool full = false;
    if (hd->z) {
        if (http_inflate_feed(hd->z, d, n, &m->body, max, &full) != 0) {
            pf->w->st.http_gzip_errors++;
            http_inflate_free(hd->z);
            hd->z = NULL; /* keep what was decoded; the rest of this body is not */
            m->cut = true;
        }
    } else {
        full = pbuf_add(&m->body, d, n, max) < n;
    }
    if (full) {
        m->cut = true;
        pf->w->st.http_body_limit++;
        run_body(pf, s->f, s->dir, t); /* inspect what the limit let in, now */
    }
}

/* The message whose body this side is framing now, or NULL. */
static struct http_msg *framed_msg(struct http_state *h, int dir)
{
    struct http_tx *t = &h->tx[h->d[dir].tx % HTTP_TX_RING];
    if (t->id != h->d[dir].tx || !t->used)
        return NULL;
    return dir == 0 ? &t->req : &t->resp;
}

static void count_wire(struct http_state *h, int dir, size_t n)
{
    struct http_msg *m = framed_msg(h, dir);
    if (m)
        m->wire_len += n;
}

/* A message (head and body) is complete. */
static void msg_done(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct http_state *h = pf->http;
    struct http_dir *hd = &h->d[dir];
    struct http_tx *t = &h->tx[hd->tx % HTTP_TX_RING];
    http_inflate_free(hd->z);
    hd->z = NULL;
    hd->st = HS_HEAD;
    hd->scan = 0;
    if (t->id != hd->tx || !t->used)
        return;
    run_body(pf, f, dir, t);
    if (dir == 1 && !t->done) {
        t->done = true;
        h->cur = t;
        pf->w->st.http_responses++;
        pflow_tx_done(pf, f, OSPREY_APP_HTTP);
    }
}

static void head_done(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, uint32_t n)
{
    struct http_state *h = pf->http;
    struct http_dir *hd = &h->d[dir];
    const struct osprey_parser_events *ev = &pf->w->p->ev;
    struct http_head_info info;
    if (dir == 1) {
        /* an interim 1xx response is not the transaction's answer */
        struct http_msg tmp = {0};
        struct http_head_info pre;
        bool interim = http_head_parse(&tmp, false, d, n, &pre) == 0 && pre.status >= 100 &&
                       pre.status < 200 && pre.status != 101;
        msg_free(&tmp);
        if (interim) {
            hd->st = HS_HEAD;
            return;
        }
        if (h->nresp >= h->nreq)
            h->nreq = h->nresp + 1; /* a response to a request we never saw */
    }
    uint32_t id = dir == 0 ? h->nreq++ : h->nresp++;
    struct http_tx *t = tx_slot(pf, f, id);
    hd->tx = id;
    if (http_head_parse(dir == 0 ? &t->req : &t->resp, dir == 0, d, n, &info) != 0) {
        pf->w->st.http_malformed++;
        hd->st = HS_DEAD;
        return;
    }
    if (dir == 0) {
        t->is_head = info.is_head;
        t->is_connect = info.is_connect;
        /* "GET HTTP/1.1" names a protocol, not a URI: only a line without one is 0.9 */
        t->simple = !t->req.sp[OB_HTTP_PROTOCOL].len && !memmem(d, n, "HTTP/", 5);
        pf->w->st.http_requests++;
    } else {
        t->status = info.status;
        if (info.status == 101 || (t->is_connect && info.status >= 200 && info.status < 300)) {
            /* Switching Protocols, or a tunnel CONNECT opened (a 2xx to CONNECT has no body,
             * RFC 9110 §9.3.6): what follows on both sides is no longer HTTP */
            h->cur = t;
            pflow_run(pf, f, dir, ev->http_response);
            msg_done(pf, f, dir);
            h->d[0].st = h->d[1].st = HS_DEAD;
            pf->dead[0] = true;
            return;
        }
    }
    if (info.malformed)
        pf->w->st.http_malformed++;
    if (info.cl_ambiguous)
        pflow_anomaly(pf, f, dir, dir == 0 ? OSPREY_AE_HTTP_DUP_CL_REQUEST
                                           : OSPREY_AE_HTTP_DUP_CL_RESPONSE);
    h->cur = t;
    pflow_run(pf, f, dir, dir == 0 ? ev->http_request : ev->http_response);
    /* framing of the body (RFC 9112 §6.3) */
    bool no_body = dir == 1 && (t->is_head || info.status == 204 || info.status == 304 ||
                                (info.status >= 100 && info.status < 200));
    memset(&hd->ch, 0, sizeof hd->ch);
    if (no_body) {
        msg_done(pf, f, dir);
    } else if (info.chunked) {
        hd->st = HS_BODY_CHUNKED;
    } else if (info.has_length) {
        hd->left = info.length;
        hd->st = HS_BODY_LEN;
        if (!hd->left)
            msg_done(pf, f, dir);
    } else if (dir == 1) {
        hd->st = HS_BODY_CLOSE; /* until the server closes */
    } else {
        msg_done(pf, f, dir);
    }
    if (hd->st != HS_HEAD && dir == 1 && info.encoding && pf->w->p->cfg.http_decompress)
        hd->z = http_inflate_new(info.encoding == 1);
}

/* An HTTP/0.9 request: its first line is complete and names no protocol. Its head is that
 * line alone. Returns the offset past it, or 0. */
static uint32_t simple_request_end(const struct pbuf *b)
{
    const uint8_t *nl = memchr(b->p, '\n', b->len);
    if (!nl)
        return 0;
    uint32_t e = (uint32_t)(nl - b->p);
    for (uint32_t i = 0; i + 5 <= e; i++)
        if (!memcmp(b->p + i, "HTTP/", 5))
            return 0;
    return e + 1;
}

/* The end of a head in the staged bytes from `from`: offset just past "\n\r\n" or "\n\n". */
static uint32_t head_end(const struct pbuf *b, uint32_t from)
{
    for (uint32_t i = from; i < b->len; i++) {
        if (b->p[i] != '\n')
            continue;
        if (i + 1 < b->len && b->p[i + 1] == '\n')
            return i + 2;
        if (i + 2 < b->len && b->p[i + 1] == '\r' && b->p[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

/* A response head must start with "HTTP/". When it does not (the capture lost the start of
 * a response, or bytes after a gap), skip to the next line that does, taking the lost bytes
 * for the answer to the oldest waiting request. false: nothing left in this chunk. */
static bool resync(struct pflow *pf, struct http_dir *hd, const uint8_t **d, size_t *n)
{
    size_t k = *n < 5 ? *n : 5;
    if (!memcmp(*d, "HTTP/", k)) {
        hd->lost = false;
        return true;
    }
    if (!hd->lost) {
        hd->lost = true;
        pf->w->st.http_malformed++;
        if (pf->http->nresp < pf->http->nreq)
            pf->http->nresp++;
    }
    /* anywhere, not only at a line start: the lost bytes may end mid-line */
    const uint8_t *at = memmem(*d, *n, "HTTP/1.", 7);
    if (!at)
        return false; /* a next segment that starts a response is found on its own */
    *n -= (size_t)(at - *d);
    *d = at;
    hd->lost = false;
    return true;
}

/* The answer to an HTTP/0.9 request has no status line or headers: all the server sends
 * until it closes is the body. true when the oldest waiting request is such a request and
 * its response, d, now starts (a server that answers with a status line anyway is read as
 * usual). */
static bool simple_response(struct http_state *h, const uint8_t *d, size_t n)
{
    struct http_tx *t = &h->tx[h->nresp % HTTP_TX_RING];
    if (h->nresp >= h->nreq || !t->used || t->id != h->nresp || !t->simple)
        return false;
    if (!memcmp(d, "HTTP/", n < 5 ? n : 5))
        return false;
    struct http_dir *hd = &h->d[1];
    hd->tx = h->nresp++;
    h->cur = t;
    hd->st = HS_BODY_CLOSE;
    return true;
}

void http_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct http_state *h = state(pf);
    if (!h) {
        pf->dead[dir] = true;
        return;
    }
    struct http_dir *hd = &h->d[dir];
    struct pbuf *in = &pf->in[dir];
    uint32_t limit = pf->w->p->cfg.http_header_limit;
    struct body_sink sink = {pf, f, dir};
    while (n && hd->st != HS_DEAD) {
        switch (hd->st) {
        case HS_HEAD: {
            if (dir == 1 && !in->len && simple_response(h, d, n))
                break;
            if (!in->len) {
                while (n && (*d == '\r' || *d == '\n'))
                    d++, n--; /* empty lines between messages */
                if (!n)
                    return;
                if (dir == 1 && !resync(pf, hd, &d, &n))
                    return;
            }
            uint32_t before = in->len;
            uint32_t room = limit > in->len ? limit - in->len : 0;
            uint32_t took = pbuf_add(in, d, n < room ? n : room, 0);
            /* restart the search a little before the new bytes: the end may straddle */
            uint32_t e = dir == 0 ? simple_request_end(in) : 0;
            if (!e)
                e = head_end(in, hd->scan);
            hd->scan = in->len > 3 ? in->len - 3 : 0;
            if (e) {
                uint32_t used = e - before; /* of this chunk's bytes, those of the head */
                head_done(pf, f, dir, in->p, e);
                pbuf_reset(in);
                hd->scan = 0;
                d += used, n -= used;
                break;
            }
            d += took, n -= took;
            if (in->len >= limit || took == 0) {
                /* no end within the limit: report what we have, then stop on this side */
                pf->w->st.http_header_limit++;
                head_done(pf, f, dir, in->p, in->len);
                pbuf_reset(in);
                hd->st = HS_DEAD;
            }
            break;
        }
        case HS_BODY_LEN: {
            size_t k = n < hd->left ? n : (size_t)hd->left;
            count_wire(h, dir, k);
            body_bytes(&sink, d, k);
            d += k, n -= k;
            hd->left -= k;
            if (!hd->left)
                msg_done(pf, f, dir);
            break;
        }
        case HS_BODY_CHUNKED: {
            bool done, bad;
            uint64_t framed = hd->ch.framed;
            size_t k = http_chunked_feed(&hd->ch, d, n, body_bytes, &sink, &done, &bad);
            count_wire(h, dir, (size_t)(hd->ch.framed - framed));
            d += k, n -= k;
            if (bad) {
                pf->w->st.http_malformed++;
                pflow_anomaly(pf, f, dir, dir == 0 ? OSPREY_AE_HTTP_INVALID_REQUEST_CHUNK_LEN
                                                   : OSPREY_AE_HTTP_INVALID_RESPONSE_CHUNK_LEN);
                msg_done(pf, f, dir);
                hd->st = HS_DEAD;
            } else if (done) {
                msg_done(pf, f, dir);
            }
            break;
        }
        case HS_BODY_CLOSE:
            count_wire(h, dir, n);
            body_bytes(&sink, d, n);
            n = 0;
            break;
        default:
            return;
        }
    }
    if (hd->st == HS_DEAD)
        pf->dead[dir] = true;
}

void http_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct http_state *h = state(pf);
    if (!h)
        return;
    struct http_dir *hd = &h->d[dir];
    if (hd->st == HS_DEAD)
        return;
    pf->w->st.http_malformed++;
    if (hd->st != HS_HEAD)
        msg_done(pf, f, dir); /* the body so far is what there is */
    else if (dir == 1 && h->nresp < h->nreq)
        h->nresp++; /* the hole swallowed the start of a response: its request goes unanswered */
    hd->lost = dir == 1; /* the resync counts nothing more for this hole */
    pbuf_reset(&pf->in[dir]);
    hd->st = HS_HEAD;
    hd->scan = 0;
}

/* The flow ends: a response delimited by the close is complete; what is left unanswered
 * is reported as it is. */
void http_end(struct pflow *pf, struct mon_flow *f)
{
    struct http_state *h = pf->http;
    if (!h)
        return;
    for (int dir = 0; dir < 2; dir++)
        if (h->d[dir].st == HS_BODY_CLOSE || h->d[dir].st == HS_BODY_LEN ||
            h->d[dir].st == HS_BODY_CHUNKED)
            msg_done(pf, f, dir);
    for (uint32_t id = h->nresp; id < h->nreq; id++) {
        struct http_tx *t = &h->tx[id % HTTP_TX_RING];
        if (t->used && t->id == id && !t->done) {
            t->done = true;
            h->cur = t;
            pflow_tx_done(pf, f, OSPREY_APP_HTTP);
        }
    }
}

const uint8_t *http_buffer(struct pflow *pf, enum osprey_buf b, uint32_t *len)
{
    struct http_state *h = pf->http;
    struct http_tx *t = h ? h->cur : NULL;
    if (!t)
        return NULL;
    const struct http_msg *m = buf_is_response(b) ? &t->resp : &t->req;
    if (!m->present)
        return NULL;
    if (b == OB_HTTP_REQUEST_BODY || b == OB_HTTP_RESPONSE_BODY) {
        *len = m->body.len;
        return m->body.len ? m->body.p : NULL;
    }
    if (!m->sp[b].set)
        return NULL;
    *len = m->sp[b].len;
    return m->copy.p ? m->copy.p + m->sp[b].off : (const uint8_t *)"";
}

int http_status(const struct pflow *pf)
{
    return pf->http && pf->http->cur ? pf->http->cur->status : 0;
}

uint64_t http_response_wire_len(const struct pflow *pf)
{
    return pf->http && pf->http->cur ? pf->http->cur->resp.wire_len : 0;
}

uint32_t http_tx_id(const struct pflow *pf)
{
    return pf->http && pf->http->cur ? pf->http->cur->id : 0;
}

void http_free(struct http_state *h)
{
    if (!h)
        return;
    for (int i = 0; i < HTTP_TX_RING; i++) {
        msg_free(&h->tx[i].req);
        msg_free(&h->tx[i].resp);
    }
    http_inflate_free(h->d[0].z);
    http_inflate_free(h->d[1].z);
    free(h);
}
