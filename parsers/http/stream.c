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
#include <strings.h>

#include "http_int.h"

static struct http_state *state(struct pflow *pf)
{
    if (!pf->state)
        pf->state = calloc(1, sizeof(struct http_state));
    return pf->state;
}

static void msg_clear(struct http_msg *m)
{
    m->present = m->body_run = m->done_run = m->cut = m->unexpected = false;
    m->wire_len = 0;
    m->file = 0;
    m->file_none = m->files_done = false;
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
    struct http_state *h = ((struct http_state *)pf->state);
    struct http_tx *t = &h->tx[id % HTTP_TX_RING];
    if (t->used && t->id == id)
        return t;
    if (t->used && !t->done) {
        /* more requests outstanding than the ring holds: the oldest is reported as is */
        pflow_count(pf, HTTP_C_TX_DROPPED, 1);
        h->cur = t;
        http_file_close(pf, t, 0, true);
        http_file_close(pf, t, 1, true);
        pflow_tx_done(pf, f);
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
    ((struct http_state *)pf->state)->cur = t;
    pflow_raise(pf, f, dir, dir == 0 ? HTTP_EV_REQUEST_BODY : HTTP_EV_RESPONSE_BODY);
}

static void body_bytes(void *arg, const uint8_t *d, size_t n)
{
    struct body_sink *s = arg;
    struct pflow *pf = s->pf;
    struct http_state *h = ((struct http_state *)pf->state);
    struct http_dir *hd = &h->d[s->dir];
    struct http_tx *t = &h->tx[hd->tx % HTTP_TX_RING];
    if (t->id != hd->tx || !t->used)
        return;
    struct http_msg *m = s->dir == 0 ? &t->req : &t->resp;
    if (m->cut || !n)
        return;
    const struct http_cfg *cfg = pflow_cfg(pf);
    uint32_t max = http_body_keep_limit(&cfg->body, s->dir);
    bool full = false;
    uint32_t before = m->body.len;
    if (hd->z) {
        uint32_t errs = http_body_decoder_errors(hd->z);
        full = http_body_decoder_feed(hd->z, d, n, &m->body, max);
        pflow_count(pf, HTTP_C_GZIP_ERRORS, http_body_decoder_errors(hd->z) - errs);
    }
    else {
        if (!m->body.len && hd->st == HS_BODY_LEN && hd->left > n) {
            /* the announced length, as far as the body is kept (and no more than a MiB on
             * the header's word): one allocation instead of a doubling per few kilobytes */
            uint64_t want = hd->left < (1u << 20) ? hd->left : (1u << 20);
            (void)pbuf_reserve(&m->body, max && want > max ? max : (size_t)want);
        }
        full = pbuf_add(&m->body, d, n, max) < n;
    }
    if (m->body.len > before) /* (nothing decoded yet: the body may not even be allocated) */
        http_file_data(pf, t, s->dir, m->body.p + before, m->body.len - before);
    if (full) {
        m->cut = true;
        http_file_close(pf, t, s->dir, true); /* what the limit let in: cut short */
        pflow_count(pf, HTTP_C_BODY_LIMIT, 1);
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
    struct http_state *h = ((struct http_state *)pf->state);
    struct http_dir *hd = &h->d[dir];
    struct http_tx *t = &h->tx[hd->tx % HTTP_TX_RING];
    http_body_decoder_free(hd->z);
    hd->z = NULL;
    hd->st = HS_HEAD;
    hd->scan = 0;
    if (t->id != hd->tx || !t->used)
        return;
    struct http_msg *m = dir == 0 ? &t->req : &t->resp;
    http_file_close(pf, t, dir, false); /* (one cut short before stays so) */
    run_body(pf, f, dir, t);
    if (!m->done_run && m->present) {
        m->done_run = true;
        h->cur = t;
            pflow_raise(pf, f, dir, dir == 0 ? HTTP_EV_REQUEST_DONE : HTTP_EV_RESPONSE_DONE);
    }
    if (dir == 1 && !t->done) {
        t->done = true;
        h->cur = t;
        pflow_count(pf, HTTP_C_RESPONSES, 1);
        pflow_tx_done(pf, f);
        /* every event of the transaction has run and its record is written: no rule reads
         * its bodies again (a later event is a later transaction's), so they go now rather
         * than stay with the flow (the ring slot would keep their capacity) */
        pbuf_free(&t->req.body);
        pbuf_free(&t->resp.body);
    }
}

/* The Content-Encoding layers to undo, as libhtp picks them: a single known coding as is;
 * a list up to the layer limit (unknown codings count and are skipped), one lzma layer at
 * most and none when lzma is off. */
static struct http_body_decoder *make_decoder(const struct http_cfg *cfg,
                                         const struct http_head_info *info)
{
    uint8_t c[HTTP_BODY_MAX_LAYERS];
    int n = 0, lzma = 0;
    int lzma_max = cfg->lzma_enabled ? 1 : 0;
    for (int i = 0; i < info->ncodings && n < HTTP_BODY_MAX_LAYERS; i++) {
        if (!info->ce_single && (uint32_t)i >= cfg->decompress_layer_limit)
            break;
        if (info->codings[i] == HC_LZMA && ++lzma > lzma_max) {
            if (info->ce_single)
                continue; /* "lzma" alone while lzma is off: the body as sent */
            break;
        }
        if (info->codings[i] != HC_NONE)
            c[n++] = info->codings[i];
    }
    if (!n)
        return NULL;
    uint32_t lim = http_body_keep_limit(&cfg->body, 1);
    struct http_body_decoder_cfg dc = {
        .lzma_enabled = cfg->lzma_enabled,
        .lzma_memlimit = cfg->lzma_memlimit,
        /* what all layers may produce: well above what the body keeps, far below a bomb */
        .work_limit = lim ? 16 * (uint64_t)lim + (1u << 20) : (uint64_t)1 << 30,
    };
    return http_body_decoder_new(c, n, &dc);
}

/* Does a 101 head switch to protocol word (an "Upgrade: <word>" line: h2c, RFC 7540 §3.2;
 * websocket, RFC 6455 §4.2.2, any case)? */
static bool upgrade_to(const uint8_t *d, uint32_t n, const char *word)
{
    size_t wl = strlen(word);
    for (uint32_t i = 0; i < n;) {
        const uint8_t *nl = memchr(d + i, '\n', n - i);
        uint32_t e = nl ? (uint32_t)(nl - d) : n;
        if (e - i > 8 && !strncasecmp((const char *)d + i, "upgrade:", 8)) {
            uint32_t v = i + 8;
            while (v < e && (d[v] == ' ' || d[v] == '\t'))
                v++;
            if (e - v >= wl && !strncasecmp((const char *)d + v, word, wl))
                return true;
        }
        i = e + 1;
    }
    return false;
}

/* After a request (its head, and its body if it has one), libhtp reads the lines that follow
 * in the same chunk: one whose first word is no method it knows is more of that request's
 * body, and says so (http.request_body_unexpected, once per request); the first that names a
 * method starts the next request. Lines of blanks only are passed over (the next head skips
 * them), a line not ended in this chunk is left to the next head. Returns the bytes taken. */
static size_t request_overrun(struct pflow *pf, struct mon_flow *f, const uint8_t *d, size_t n)
{
    struct http_state *h = pf->state;
    struct body_sink sink = {pf, f, 0};
    struct http_msg *m = framed_msg(h, 0);
    size_t i = 0, taken = 0;
    while (i < n) {
        const uint8_t *l = d + i;
        const uint8_t *nl = memchr(l, '\n', n - i);
        if (!nl)
            break;
        size_t e = (size_t)(nl - l) + 1, k = 0;
        while (k < e && http_is_space(l[k]))
            k++;
        size_t w = k;
        while (w < e && !http_is_space(l[w]))
            w++;
        if (w > k && http_method_known(l + k, w - k))
            break;
        if (w > k && m) {
            if (!m->unexpected) {
                m->unexpected = true;
                h->cur = &h->tx[h->d[0].tx % HTTP_TX_RING];
                pflow_anomaly(pf, f, 0, HTTP_AE_BODY_UNEXPECTED);
            }
            count_wire(h, 0, e);
            body_bytes(&sink, l, e);
            taken = i + e;
        }
        i += e;
    }
    return taken;
}

/* A request's head and body are in: HTTP/0.9 and CONNECT requests are complete (libhtp reads
 * no body after them); others look at what follows first (HS_REQ_TAIL). */
static void req_end(struct pflow *pf, struct mon_flow *f, struct http_dir *hd,
                    const struct http_tx *t)
{
    if (t->simple || t->is_connect)
        msg_done(pf, f, 0);
    else
        hd->st = HS_REQ_TAIL;
}

static void head_done(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, uint32_t n,
                      uint32_t avail)
{
    struct http_state *h = ((struct http_state *)pf->state);
    struct http_dir *hd = &h->d[dir];
    struct http_head_info info;
    if (dir == 1) {
        /* an interim 1xx response is not the transaction's answer (one that announces a
         * body is answered with that body, as libhtp reads it) */
        struct http_msg tmp = {0};
        struct http_head_info pre;
        bool interim = http_head_parse(&tmp, false, d, n, avail, &pre) == 0 &&
                       pre.status >= 100 && pre.status < 200 && pre.status != 101 &&
                       !pre.has_te &&
                       (!pre.has_cl || (pre.status == 100 && !(pre.has_length && pre.length)));
        msg_free(&tmp);
        if (interim) {
            if (pre.status == 100 && hd->seen_100) /* libhtp: "Already seen 100-Continue" */
                pflow_anomaly(pf, f, dir, HTTP_AE_CONTINUE_SEEN);
            hd->seen_100 |= pre.status == 100;
            hd->st = HS_HEAD;
            return;
        }
        hd->seen_100 = false;
        /* the client's request begun, its line not complete yet: libhtp's "Request line
         * incomplete" (its transaction exists: the answer is matched to it) */
        const struct pbuf *req = &pf->in[0];
        bool line_cut = h->d[0].st == HS_HEAD && req->len && !memchr(req->p, '\n', req->len);
        if (line_cut)
            pflow_anomaly(pf, f, dir, HTTP_AE_REQUEST_LINE_INCOMPLETE);
        if (h->nresp >= h->nreq) { /* a response to a request we never saw */
            h->nreq = h->nresp + 1;
            if (!line_cut)
                pflow_anomaly(pf, f, dir, HTTP_AE_UNMATCHED_RESPONSE);
        }
    }
    /* a request whose line ran http_request_line already has its transaction: the whole
     * head is parsed into it again */
    bool line_ran = dir == 0 && hd->line_seen;
    hd->line_seen = false;
    uint32_t id = line_ran ? hd->tx : dir == 0 ? h->nreq++ : h->nresp++;
    struct http_tx *t = tx_slot(pf, f, id);
    if (line_ran)
        msg_clear(&t->req);
    hd->tx = id;
    if (http_head_parse(dir == 0 ? &t->req : &t->resp, dir == 0, d, n, avail, &info) != 0) {
        pflow_count(pf, HTTP_C_MALFORMED, 1);
        hd->st = HS_DEAD;
        return;
    }
    if (dir == 0) {
        t->is_head = info.is_head;
        t->is_connect = info.is_connect;
        /* "GET HTTP/1.1" names a protocol, not a URI: only a line without one is 0.9 */
        t->simple = !t->req.sp[HB_PROTOCOL].len && !memmem(d, n, "HTTP/", 5);
        const uint8_t *nl = memchr(d, '\n', n);
        if (t->simple && nl && (size_t)(nl + 1 - d) < n && nl[1] != '\n' && nl[1] != '\r')
            pflow_anomaly(pf, f, dir, HTTP_AE_MISSING_PROTOCOL); /* header lines follow */
        const struct span *ms = &t->req.sp[HB_METHOD];
        if (t->simple && ms->set && t->req.copy.p &&
            !http_method_known(t->req.copy.p + ms->off, ms->len))
            pflow_anomaly(pf, f, dir, HTTP_AE_REQUEST_LINE_INVALID);
        pflow_count(pf, HTTP_C_REQUESTS, 1);
        if (!line_ran) { /* line and head came together */
            h->cur = t;
            pflow_raise(pf, f, dir, HTTP_EV_REQUEST_LINE);
        }
    } else {
        t->status = info.status;
        if ((info.status == 101 && !info.has_te && !info.has_cl) ||
            (t->is_connect && info.status >= 200 && info.status < 300)) {
            /* Switching Protocols, or a tunnel CONNECT opened (a 2xx to CONNECT has no body,
             * RFC 9110 §9.3.6): what follows on both sides is no longer HTTP */
            h->cur = t;
            /* h2c: HTTP/2 from the next byte on; websocket: its frames. Asked before the
             * transaction completes: a flow that is itself a change's outcome, whose first
             * transaction this is, is refused a second change (the transaction carries
             * http.failed_protocol_change, as Suricata's) */
            const char *to = info.status != 101        ? NULL
                             : upgrade_to(d, n, "h2c")       ? "http2"
                             : upgrade_to(d, n, "websocket") ? "websocket"
                                                             : NULL;
            int id = to ? osprey_app_proto_find(to) : -1;
            if (id > OSPREY_APP_PROTO_FAILED && parsers_parses(pf->w->p, (uint16_t)id) &&
                !pflow_upgrade(pf, (uint16_t)id))
                pflow_anomaly(pf, f, dir, HTTP_AE_FAILED_PROTOCOL_CHANGE);
            pflow_raise(pf, f, dir, HTTP_EV_RESPONSE);
            msg_done(pf, f, dir);
            h->d[0].st = h->d[1].st = HS_DEAD;
            pf->dead[0] = true;
            return;
        }
    }
    if (info.malformed)
        pflow_count(pf, HTTP_C_MALFORMED, 1);
    if (info.cl_ambiguous)
        pflow_anomaly(pf, f, dir, dir == 0 ? HTTP_AE_DUP_CL_REQUEST
                                           : HTTP_AE_DUP_CL_RESPONSE);
    if (info.te_invalid)
        pflow_anomaly(pf, f, dir, HTTP_AE_INVALID_TE_REQUEST);
    if (info.auth_unrecognized)
        pflow_anomaly(pf, f, dir, HTTP_AE_AUTH_UNRECOGNIZED);
    http_head_anomalies(pf, f, dir, t, &info);
    h->cur = t;
    pflow_raise(pf, f, dir, dir == 0 ? HTTP_EV_REQUEST : HTTP_EV_RESPONSE);
    /* framing of the body (RFC 9112 §6.3, as libhtp applies it: a 1xx/204/304 that
     * announces a length or a transfer coding has that body anyway) */
    bool no_status_body = (info.status >= 100 && info.status < 200) || info.status == 204 ||
                          info.status == 304;
    bool no_body = dir == 1 &&
                   (t->is_head || (no_status_body && !info.has_te && !info.has_cl));
    memset(&hd->ch, 0, sizeof hd->ch);
    if (no_body) {
        msg_done(pf, f, dir);
    } else if (info.chunked) {
        hd->st = HS_BODY_CHUNKED;
    } else if (info.has_length) {
        hd->left = info.length;
        hd->st = HS_BODY_LEN;
        if (!hd->left && dir == 0)
            req_end(pf, f, hd, t);
        else if (!hd->left)
            msg_done(pf, f, dir);
    } else if (dir == 1) {
        hd->st = HS_BODY_CLOSE; /* until the server closes */
    } else {
        req_end(pf, f, hd, t);
    }
    const struct http_cfg *cfg = pflow_cfg(pf);
    /* more listed codings than the layer limit: decoding stops at the limit (make_decoder),
     * and libhtp says so */
    if (!info.ce_single && (uint32_t)info.ncodings > cfg->decompress_layer_limit)
        pflow_anomaly(pf, f, dir, HTTP_AE_TOO_MANY_LAYERS);
    /* (libhtp stops reading the list at the limit) */
    if (info.ce_abnormal_at >= 0 && (uint32_t)info.ce_abnormal_at < cfg->decompress_layer_limit &&
        cfg->body.decompress)
        pflow_anomaly(pf, f, dir, HTTP_AE_ABNORMAL_CE);
    /* both ways: Suricata has libhtp decompress request bodies too */
    if (hd->st != HS_HEAD && info.ncodings && cfg->body.decompress)
        hd->z = make_decoder(cfg, &info);
}

/* The request line is in, the rest of the head not yet: make its transaction now and run
 * http_request_line, as Suricata inspects the method, URI and protocol from the request line
 * on (libhtp's REQUEST_LINE progress). A line that is not a request line naming its protocol
 * (HTTP/0.9, junk) waits for the head. */
static void request_line(struct pflow *pf, struct mon_flow *f, struct http_dir *hd,
                         const struct pbuf *in)
{
    const uint8_t *nl = memchr(in->p, '\n', in->len);
    if (!nl)
        return;
    uint32_t ll = (uint32_t)(nl + 1 - in->p);
    struct http_msg tmp = {0};
    struct http_head_info info;
    bool ok = http_head_parse(&tmp, true, in->p, ll, ll, &info) == 0 &&
              tmp.sp[HB_PROTOCOL].len;
    msg_free(&tmp);
    if (!ok)
        return;
    struct http_state *h = pf->state;
    uint32_t id = h->nreq++;
    struct http_tx *t = tx_slot(pf, f, id);
    hd->tx = id;
    hd->line_seen = true;
    http_head_parse(&t->req, true, in->p, ll, ll, &info);
    h->cur = t;
    pflow_raise(pf, f, 0, HTTP_EV_REQUEST_LINE);
}

/* Follow the length of the request head's line being received over its new bytes: past
 * HTTP_FIELD_LIMIT, http.request_field_too_long (once per head, on the packet that crossed
 * it). */
static void field_length(struct pflow *pf, struct mon_flow *f, struct http_dir *hd,
                         const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n && !hd->field_long; i++) {
        hd->line_len = d[i] == '\n' ? 0 : hd->line_len + 1;
        if (hd->line_len > HTTP_FIELD_LIMIT) {
            hd->field_long = true;
            pflow_anomaly(pf, f, 0, HTTP_AE_FIELD_TOO_LONG);
        }
    }
}

/* Do the bytes after a request line without protocol look like a header line (libhtp's
 * probe: a ':' comes before a space or tab that is not followed by one)? Then the protocol
 * is missing (http.request_line_missing_protocol) and headers follow: not HTTP/0.9. */
static bool header_follows(const uint8_t *p, size_t n)
{
    bool after_space = false;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ':')
            return i > 0;
        if (p[i] == ' ' || p[i] == '\t')
            after_space = true;
        else if (after_space || (i == 0 && (p[i] == '\r' || p[i] == '\n')))
            return false;
    }
    return false;
}

/* An HTTP/0.9 request: its first line is complete and names no protocol (and no header
 * line follows it). Its head is that line alone. Returns the offset past it, or 0. */
static uint32_t simple_request_end(const struct pbuf *b)
{
    const uint8_t *nl = memchr(b->p, '\n', b->len);
    if (!nl)
        return 0;
    uint32_t e = (uint32_t)(nl - b->p);
    for (uint32_t i = 0; i + 5 <= e; i++)
        if (!memcmp(b->p + i, "HTTP/", 5))
            return 0;
    if (header_follows(b->p + e + 1, b->len - e - 1))
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
        pflow_count(pf, HTTP_C_MALFORMED, 1);
        if (((struct http_state *)pf->state)->nresp < ((struct http_state *)pf->state)->nreq)
            ((struct http_state *)pf->state)->nresp++;
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

/* After a response body ends (by its length or its last chunk), libhtp takes the lines
 * that follow for more of that body as long as they do not look like a status line (a
 * Content-Length shorter than the body sent does not hide its end). Absorbs such lines of
 * d into the body; returns the bytes taken. Lines of CR/LF only are left to the head
 * parser, which skips them between messages. */
static size_t body_overrun(struct pflow *pf, struct mon_flow *f, const uint8_t *d, size_t n)
{
    struct body_sink sink = {pf, f, 1};
    size_t i = 0;
    while (i < n) {
        const uint8_t *l = d + i;
        const uint8_t *nl = memchr(l, '\n', n - i);
        size_t e = nl ? (size_t)(nl - l) + 1 : n - i, k = 0;
        while (k < e && (http_is_space(l[k]) || !l[k]))
            k++;
        if (k == e)
            break; /* blank so far: nothing to decide on */
        if (!nl && e - k < 4 && !strncasecmp((const char *)l + k, "http", e - k))
            break; /* may still become a status line */
        if (http_resp_line_is_http(l, (uint32_t)e))
            break;
        count_wire(((struct http_state *)pf->state), 1, e);
        body_bytes(&sink, l, e);
        i += e;
    }
    return i;
}

/* The staged response bytes are no response head (the server answered without a status
 * line, or with something libhtp does not take for one): they and all that follows until
 * the connection closes are the body of the oldest waiting request's response. */
static void headless_response(struct pflow *pf, struct mon_flow *f)
{
    struct http_state *h = ((struct http_state *)pf->state);
    struct http_dir *hd = &h->d[1];
    struct pbuf *in = &pf->in[1];
    if (h->nresp >= h->nreq)
        h->nreq = h->nresp + 1;
    struct http_tx *t = tx_slot(pf, f, h->nresp);
    hd->tx = h->nresp++;
    t->resp.present = true;
    memset(&hd->ch, 0, sizeof hd->ch);
    hd->st = HS_BODY_CLOSE;
    hd->scan = 0;
    struct body_sink sink = {pf, f, 1};
    pflow_count(pf, HTTP_C_MALFORMED, 1);
    count_wire(h, 1, in->len);
    body_bytes(&sink, in->p, in->len);
    pbuf_reset(in);
}

/* Where the staged response head stands: 1 complete (*end: past its empty line), 0 more
 * bytes needed, -1 its first line is no status line (*end: past that line, *le: its text's
 * end). hd->scan keeps where to read on: 0 before the status line, else the first header
 * not read completely yet. */
static int response_scan(const struct pbuf *in, uint32_t *scan, uint32_t *end, uint32_t *le)
{
    if (*scan == 0) {
        int r = http_resp_line(in->p, in->len, 0, le);
        if (r < 0)
            return 0;
        if (!http_resp_line_is_http(in->p, *le)) {
            *end = (uint32_t)r;
            return -1;
        }
        *scan = (uint32_t)r;
    }
    uint32_t pos = *scan;
    if (http_resp_headers(in->p, in->len, &pos, NULL) == RH_DONE) {
        *end = pos;
        return 1;
    }
    *scan = pos;
    return 0;
}

/* Stage n bytes of a response head and act on what they complete. Returns the bytes of d
 * used (the rest is the body, or the next message). */
/* A response head d[0..n) with a line longer than libhtp's field limit: libhtp's
 * "Response buffer over the limit" (http.response_field_too_long), raised with the head. */
static void response_field_length(struct pflow *pf, struct mon_flow *f, const uint8_t *d,
                                  uint32_t n)
{
    for (uint32_t s = 0; s < n;) {
        const uint8_t *nl = memchr(d + s, '\n', n - s);
        uint32_t e = nl ? (uint32_t)(nl - d) : n;
        if (e - s > HTTP_FIELD_LIMIT) {
            pflow_anomaly(pf, f, 1, HTTP_AE_RESP_FIELD_TOO_LONG);
            return;
        }
        s = e + 1;
    }
}

static size_t response_head_bytes(struct pflow *pf, struct mon_flow *f, const uint8_t *d,
                                  size_t n)
{
    struct http_state *h = ((struct http_state *)pf->state);
    struct http_dir *hd = &h->d[1];
    struct pbuf *in = &pf->in[1];
    const struct http_cfg *cfg = pflow_cfg(pf);
    uint32_t limit = cfg->header_limit;
    int64_t base = in->len; /* where this chunk's first byte is in the staged bytes */
    uint32_t room = limit > in->len ? limit - in->len : 0;
    uint32_t took = pbuf_add(in, d, n < room ? n : room, 0);
    for (;;) {
        uint32_t end = 0, le = 0;
        int st = response_scan(in, &hd->scan, &end, &le);
        if (st == 1) {
            response_field_length(pf, f, in->p, end);
            head_done(pf, f, 1, in->p, end, in->len);
            /* the bytes staged past the head are the body's: those of this chunk are
             * handed back; the few of an earlier chunk a late line end left are dropped */
            size_t used = (int64_t)end > base ? (size_t)((int64_t)end - base) : 0;
            pbuf_reset(in);
            hd->scan = 0;
            return used;
        }
        if (st == -1) {
            /* libhtp skips such a line when a line starting with 'H' follows it, or when
             * it is two bytes or less; otherwise the answer has no head at all */
            uint32_t text = le;
            if (in->len > end + 1 && (in->p[end] == 'H' || text <= 2)) {
                pflow_count(pf, HTTP_C_MALFORMED, 1);
                pbuf_consume(in, end);
                base -= end;
                continue;
            }
            if (in->len <= end + 1 && took == n)
                return took; /* what follows the line decides: wait for it */
            headless_response(pf, f);
            return took;
        }
        break;
    }
    if (in->len >= limit || took == 0) {
        /* no end within the limit: report what we have, then stop on this side */
        pflow_count(pf, HTTP_C_HEADER_LIMIT, 1);
        response_field_length(pf, f, in->p, in->len);
        head_done(pf, f, 1, in->p, in->len, in->len);
        pbuf_reset(in);
        hd->st = HS_DEAD;
    }
    return took;
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
    const struct http_cfg *cfg = pflow_cfg(pf);
    uint32_t limit = cfg->header_limit;
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
                if (dir == 1 && hd->lost && !resync(pf, hd, &d, &n))
                    return;
            }
            if (dir == 1) {
                size_t k = response_head_bytes(pf, f, d, n);
                d += k, n -= k;
                break;
            }
            uint32_t before = in->len;
            uint32_t room = limit > in->len ? limit - in->len : 0;
            uint32_t took = pbuf_add(in, d, n < room ? n : room, 0);
            /* restart the search a little before the new bytes: the end may straddle */
            uint32_t e = simple_request_end(in);
            if (!e)
                e = head_end(in, hd->scan);
            if (!before) /* a new head */
                hd->line_len = 0, hd->field_long = false, hd->line_seen = false;
            field_length(pf, f, hd, d, e ? e - before : took); /* the head's bytes only */
            hd->scan = in->len > 3 ? in->len - 3 : 0;
            if (e) {
                uint32_t used = e - before; /* of this chunk's bytes, those of the head */
                head_done(pf, f, dir, in->p, e, e);
                pbuf_reset(in);
                hd->scan = 0;
                d += used, n -= used;
                break;
            }
            if (!hd->line_seen)
                request_line(pf, f, hd, in);
            d += took, n -= took;
            if (in->len >= limit || took == 0) {
                /* no end within the limit: report what we have, then stop on this side */
                pflow_count(pf, HTTP_C_HEADER_LIMIT, 1);
                head_done(pf, f, dir, in->p, in->len, in->len);
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
            if (!hd->left) {
                if (dir == 1) {
                    size_t more = body_overrun(pf, f, d, n);
                    d += more, n -= more;
                }
                if (dir == 0)
                    hd->st = HS_REQ_TAIL;
                else
                    msg_done(pf, f, dir);
            }
            break;
        }
        case HS_REQ_TAIL: {
            size_t more = request_overrun(pf, f, d, n);
            d += more, n -= more;
            msg_done(pf, f, dir);
            break;
        }
        case HS_BODY_CHUNKED: {
            bool done, bad, plain = hd->ch.plain;
            uint64_t framed = hd->ch.framed;
            size_t k = http_chunked_feed(&hd->ch, d, n, body_bytes, &sink, &done, &bad);
            if (hd->ch.plain && !plain) { /* not chunked after all: read as it comes */
                pflow_count(pf, HTTP_C_MALFORMED, 1);
                pflow_anomaly(pf, f, dir, dir == 0 ? HTTP_AE_INVALID_REQUEST_CHUNK_LEN
                                                   : HTTP_AE_INVALID_RESPONSE_CHUNK_LEN);
            }
            count_wire(h, dir, (size_t)(hd->ch.framed - framed));
            d += k, n -= k;
            if (bad) {
                pflow_count(pf, HTTP_C_MALFORMED, 1);
                pflow_anomaly(pf, f, dir, dir == 0 ? HTTP_AE_INVALID_REQUEST_CHUNK_LEN
                                                   : HTTP_AE_INVALID_RESPONSE_CHUNK_LEN);
                msg_done(pf, f, dir);
                hd->st = HS_DEAD;
            } else if (done) {
                if (dir == 1) {
                    size_t more = body_overrun(pf, f, d, n);
                    d += more, n -= more;
                }
                if (dir == 0)
                    hd->st = HS_REQ_TAIL;
                else
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
    if (hd->st == HS_REQ_TAIL) /* the chunk ended with the request: it is complete */
        msg_done(pf, f, dir);
    if (hd->st == HS_DEAD)
        pf->dead[dir] = true;
    if (pf->upgrade && n)
        pflow_upgrade_rest(pf, dir, d, n); /* the new protocol's first bytes */
}

void http_gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    struct http_state *h = state(pf);
    if (!h)
        return;
    struct http_dir *hd = &h->d[dir];
    if (hd->st == HS_DEAD)
        return;
    pflow_count(pf, HTTP_C_MALFORMED, 1);
    struct http_tx *ft = &h->tx[hd->tx % HTTP_TX_RING];
    if (hd->st != HS_HEAD && ft->used && ft->id == hd->tx)
        http_file_close(pf, ft, dir, true); /* its file lost bytes */
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
    struct http_state *h = ((struct http_state *)pf->state);
    if (!h)
        return;
    if (h->d[0].st == HS_HEAD && pf->in[0].len && memchr(pf->in[0].p, '\n', pf->in[0].len)) {
        /* a request whose head the flow's end cut short: its request line is whole, and
         * libhtp's request-line buffers (http.uri, http.method …) are inspected from there */
        head_done(pf, f, 0, pf->in[0].p, pf->in[0].len, pf->in[0].len);
        pbuf_reset(&pf->in[0]);
        h->d[0].st = HS_DEAD;
    }
    if (h->d[1].st == HS_HEAD && pf->in[1].len) {
        /* a response cut short in its first line: not a status line, it is a body */
        uint32_t le = 0;
        int r = http_resp_line(pf->in[1].p, pf->in[1].len, 0, &le);
        if (r < 0)
            le = pf->in[1].len;
        if (!http_resp_line_is_http(pf->in[1].p, le)) {
            headless_response(pf, f);
        } else if (r >= 0) {
            /* a head the end cut short after its status line (or one whose last line end
             * waited for what would follow it: "\n\n" ending the segment): libhtp completes
             * the headers at the stream's close, and so the response */
            head_done(pf, f, 1, pf->in[1].p, pf->in[1].len, pf->in[1].len);
            pbuf_reset(&pf->in[1]);
            h->d[1].scan = 0;
        }
    }
    for (int dir = 0; dir < 2; dir++) {
        struct http_tx *ft = &h->tx[h->d[dir].tx % HTTP_TX_RING];
        if (ft->used && ft->id == h->d[dir].tx &&
            (h->d[dir].st == HS_BODY_LEN || h->d[dir].st == HS_BODY_CHUNKED))
            http_file_close(pf, ft, dir, true); /* the end came before the body's */
        if (h->d[dir].st == HS_BODY_CLOSE || h->d[dir].st == HS_BODY_LEN ||
            h->d[dir].st == HS_BODY_CHUNKED)
            msg_done(pf, f, dir);
    }
    for (uint32_t id = h->nresp; id < h->nreq; id++) {
        struct http_tx *t = &h->tx[id % HTTP_TX_RING];
        if (t->used && t->id == id && !t->done) {
            t->done = true;
            h->cur = t;
            pflow_tx_done(pf, f);
        }
    }
}

const uint8_t *http_buffer(struct pflow *pf, enum http_buf b, uint32_t *len)
{
    struct http_state *h = pf->state;
    struct http_tx *t = h ? h->cur : NULL;
    if (!t)
        return NULL;
    const struct http_msg *m = http_buf_is_response(b) ? &t->resp : &t->req;
    if (!m->present)
        return NULL;
    if (b == HB_REQUEST_BODY || b == HB_RESPONSE_BODY) {
        /* what rules inspect: up to the inspection limit (the rest is kept for the file) */
        uint32_t lim = http_body_inspect_limit(&((const struct http_cfg *)pflow_cfg(pf))->body,
                                               b == HB_RESPONSE_BODY);
        *len = lim && m->body.len > lim ? lim : m->body.len;
        return m->body.len ? m->body.p : NULL;
    }
    if (!m->sp[b].set)
        return NULL;
    *len = m->sp[b].len;
    return m->copy.p ? m->copy.p + m->sp[b].off : (const uint8_t *)"";
}

int http_status(const struct pflow *pf)
{
    const struct http_state *h = pf->state;
    return h && h->cur ? h->cur->status : 0;
}

uint64_t http_response_wire_len(const struct pflow *pf)
{
    const struct http_state *h = pf->state;
    return h && h->cur ? h->cur->resp.wire_len : 0;
}

uint32_t http_tx_id(const struct pflow *pf)
{
    const struct http_state *h = pf->state;
    return h && h->cur ? h->cur->id : 0;
}

void http_trim(void *state)
{
    struct http_state *h = state;
    for (int i = 0; i < HTTP_TX_RING; i++) {
        pbuf_free(&h->tx[i].req.body);
        pbuf_free(&h->tx[i].resp.body);
    }
    for (int i = 0; i < 2; i++) {
        http_body_decoder_free(h->d[i].z);
        h->d[i].z = NULL;
        h->d[i].st = HS_DEAD;
    }
}

void http_free(void *state)
{
    struct http_state *h = state;
    if (!h)
        return;
    for (int i = 0; i < HTTP_TX_RING; i++) {
        msg_free(&h->tx[i].req);
        msg_free(&h->tx[i].resp);
    }
    http_body_decoder_free(h->d[0].z);
    http_body_decoder_free(h->d[1].z);
    free(h);
}
