/* mime.c — the MIME reader's state machine: an entity's headers (folding, the three that
 * shape its body: Content-Type, Content-Transfer-Encoding, Content-Disposition), then its
 * body: a multipart's parts between boundaries (a stack of open multiparts, MIME_DEPTH_MAX
 * deep; a boundary line closes every part nested inside it, so a missing close does not
 * leave the reader lost), an encapsulated message/rfc822 (its own headers next, its encoding
 * reset: the outer declaration does not apply to it), or a leaf: decoded, handed to `file`
 * when it is an attachment, to `text` when it is inline text (and an uuencoded file inside
 * inline text, "begin NNN name" … "end", handed to `file`). Preambles and epilogues are
 * skipped. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "mime.h"

enum { MS_HEADERS, MS_BODY, MS_SKIP };

static void anomaly(struct mime *m, enum mime_anomaly a)
{
    if (m->seen & (1u << a))
        return;
    m->seen |= 1u << a;
    if (m->ops->anomaly)
        m->ops->anomaly(m->arg, a);
}

void mime_init(struct mime *m, const struct mime_ops *ops, void *arg)
{
    memset(m, 0, sizeof *m);
    m->ops = ops;
    m->arg = arg;
    m->state = MS_HEADERS;
}

static void entity_reset(struct mime *m)
{
    memset(&m->ent, 0, sizeof m->ent);
    m->b64n = 0;
    m->in_uu = false;
    m->have_hdr = false;
}

static bool name_is(const uint8_t *n, size_t nl, const char *s)
{
    return strlen(s) == nl && !strncasecmp((const char *)n, s, nl);
}

static void set_fname(struct mime *m, const uint8_t *v, int len)
{
    if (len < 0)
        return;
    size_t n = (size_t)len;
    if (n > MIME_FILENAME_MAX) {
        anomaly(m, MIME_A_LONG_FILENAME);
        n = MIME_FILENAME_MAX;
    }
    memcpy(m->ent.fname, v, n);
    m->ent.fnlen = (uint32_t)n;
    m->ent.attach = true;
}

/* What a header means for the entity's body. */
static void header_apply(struct mime *m, const uint8_t *v, size_t vl)
{
    const uint8_t *p;
    int pl;
    if (name_is(m->hname, m->hnl, "content-type")) {
        size_t k = 0;
        while (k < vl && k + 1 < MIME_TYPE_MAX && v[k] != ';' && v[k] != ' ' && v[k] != '\t') {
            m->ent.type[k] = (char)tolower(v[k]);
            k++;
        }
        m->ent.type[k] = 0;
        if (!strncmp(m->ent.type, "multipart/", 10) && (pl = mime_param(v, vl, "boundary", &p)) > 0) {
            if (pl > MIME_BOUNDARY_MAX) {
                anomaly(m, MIME_A_LONG_BOUNDARY);
            } else {
                memcpy(m->ent.boundary, p, (size_t)pl);
                m->ent.blen = (uint32_t)pl;
            }
        }
        if (!m->ent.fnlen && (pl = mime_param(v, vl, "name", &p)) >= 0)
            set_fname(m, p, pl);
    } else if (name_is(m->hname, m->hnl, "content-transfer-encoding")) {
        while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
            vl--;
        m->ent.enc = name_is(v, vl, "base64")             ? MIME_ENC_BASE64
                     : name_is(v, vl, "quoted-printable") ? MIME_ENC_QP
                                                          : MIME_ENC_PLAIN;
    } else if (name_is(m->hname, m->hnl, "content-disposition")) {
        if (vl >= 10 && !strncasecmp((const char *)v, "attachment", 10))
            m->ent.attach = true;
        if ((pl = mime_param(v, vl, "filename", &p)) >= 0)
            set_fname(m, p, pl);
    }
}

static void header_flush(struct mime *m)
{
    if (!m->have_hdr)
        return;
    m->have_hdr = false;
    const uint8_t *v = m->hval;
    size_t vl = m->hvl;
    while (vl && (*v == ' ' || *v == '\t'))
        v++, vl--;
    while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t' || v[vl - 1] == '\r'))
        vl--;
    header_apply(m, v, vl);
    if (m->ops->header)
        m->ops->header(m->arg, m->level, m->hname, m->hnl, v, vl);
}

static void value_add(struct mime *m, const uint8_t *d, size_t n)
{
    while (!m->hvl && n && (*d == ' ' || *d == '\t')) /* (the value's leading blanks are not */
        d++, n--;                                       /*  its bytes: the limit counts none) */
    size_t room = MIME_VALUE_MAX - m->hvl;
    if (n > room) {
        if (!m->hval_over)
            anomaly(m, MIME_A_LONG_HEADER_VALUE);
        m->hval_over = true;
        n = room;
    }
    memcpy(m->hval + m->hvl, d, n);
    m->hvl += (uint32_t)n;
}

static void file_end(struct mime *m)
{
    if (m->file_open && m->ops->file)
        m->ops->file(m->arg, m->ent.fname, m->ent.fnlen, NULL, 0, true);
    if (m->in_uu && m->ops->file)
        m->ops->file(m->arg, m->uuname, m->uunl, NULL, 0, true);
    m->file_open = m->in_uu = m->crlf_pending = false;
}

static void headers_done(struct mime *m)
{
    if (m->ops->headers_end)
        m->ops->headers_end(m->arg, m->level);
    bool deeper = m->nbnd < MIME_DEPTH_MAX && m->level + 1 < MIME_DEPTH_MAX * 2;
    if (!strncmp(m->ent.type, "multipart/", 10) && m->ent.blen) {
        if (deeper) {
            memcpy(m->bnd[m->nbnd].b, m->ent.boundary, m->ent.blen);
            m->bnd[m->nbnd].n = m->ent.blen;
            m->bnd[m->nbnd].level = m->level;
            m->nbnd++;
            m->state = MS_SKIP; /* the preamble, up to the first boundary */
            return;
        }
        anomaly(m, MIME_A_DEPTH);
    }
    if (!strcmp(m->ent.type, "message/rfc822")) {
        if (deeper) { /* an encapsulated message: its headers, its own encoding */
            m->level++;
            entity_reset(m);
            m->state = MS_HEADERS;
            return;
        }
        anomaly(m, MIME_A_DEPTH);
    }
    m->state = MS_BODY;
    if (m->ent.attach) {
        m->file_open = true;
        if (m->ops->file)
            m->ops->file(m->arg, m->ent.fname, m->ent.fnlen, NULL, 0, false);
    }
}

static void header_line(struct mime *m, const uint8_t *l, size_t n)
{
    if (!n) {
        header_flush(m);
        headers_done(m);
        return;
    }
    if ((l[0] == ' ' || l[0] == '\t') && m->have_hdr) {
        value_add(m, l, n); /* folded: the line break goes, its blanks stay (RFC 5322) */
        return;
    }
    header_flush(m);
    const uint8_t *colon = memchr(l, ':', n);
    if (!colon) {
        anomaly(m, MIME_A_MALFORMED);
        return;
    }
    size_t nl = (size_t)(colon - l);
    while (nl && (l[nl - 1] == ' ' || l[nl - 1] == '\t'))
        nl--;
    if (nl > MIME_NAME_MAX) {
        anomaly(m, MIME_A_LONG_HEADER_NAME);
        nl = MIME_NAME_MAX;
    }
    memcpy(m->hname, l, nl);
    m->hnl = (uint32_t)nl;
    m->hvl = 0;
    m->hval_over = false;
    m->have_hdr = true;
    value_add(m, colon + 1, n - (size_t)(colon - l) - 1);
}

/* A boundary line of an open multipart: the parts inside it end; true when it was one. */
static bool boundary_line(struct mime *m, const uint8_t *l, size_t n)
{
    if (n < 2 || l[0] != '-' || l[1] != '-')
        return false;
    for (unsigned k = m->nbnd; k-- > 0;) {
        uint32_t bn = m->bnd[k].n;
        if (n - 2 < bn || memcmp(l + 2, m->bnd[k].b, bn))
            continue;
        bool close = n - 2 - bn >= 2 && l[2 + bn] == '-' && l[3 + bn] == '-';
        if (m->state == MS_HEADERS) { /* a part without body: its headers end here */
            header_flush(m);
            if (m->ops->headers_end)
                m->ops->headers_end(m->arg, m->level);
        }
        file_end(m);
        if (close) {
            m->nbnd = k; /* the epilogue: skipped up to an outer boundary */
            m->level = m->bnd[k].level;
            m->state = MS_SKIP;
        } else {
            m->nbnd = k + 1;
            m->level = m->bnd[k].level + 1;
            entity_reset(m);
            m->state = MS_HEADERS;
        }
        return true;
    }
    return false;
}

/* Decoded bytes of a leaf body; eol: a line end follows them. */
static void deliver(struct mime *m, const uint8_t *d, size_t n, bool eol)
{
    if (m->file_open) {
        if (m->ops->file) {
            if (m->crlf_pending && (n || eol))
                m->ops->file(m->arg, m->ent.fname, m->ent.fnlen, (const uint8_t *)"\r\n", 2,
                             false);
            if (n)
                m->ops->file(m->arg, m->ent.fname, m->ent.fnlen, d, n, false);
        }
        /* the line end before a boundary is the boundary's (RFC 2046): owed, not given */
        m->crlf_pending = eol;
        return;
    }
    if (m->ent.type[0] && strncmp(m->ent.type, "text/", 5))
        return; /* inline but not text: nothing reads it */
    if (m->in_uu) {
        if (n == 3 && !memcmp(d, "end", 3)) {
            file_end(m);
            return;
        }
        uint8_t out[MIME_PIECE_MAX + 8];
        long k = n <= MIME_PIECE_MAX ? mime_uu(d, n, out) : -1;
        if (k > 0 && m->ops->file)
            m->ops->file(m->arg, m->uuname, m->uunl, out, (size_t)k, false);
        return;
    }
    if (n > 10 && !memcmp(d, "begin ", 6) && isdigit(d[6]) && isdigit(d[7]) && isdigit(d[8]) &&
        d[9] == ' ') {
        m->in_uu = true;
        m->uunl = (uint32_t)(n - 10 < MIME_FILENAME_MAX ? n - 10 : MIME_FILENAME_MAX);
        memcpy(m->uuname, d + 10, m->uunl);
        if (m->ops->file)
            m->ops->file(m->arg, m->uuname, m->uunl, NULL, 0, false);
        return;
    }
    if (m->ops->text && n)
        m->ops->text(m->arg, d, n);
}

/* eol: the piece ends its line (a line end follows it) */
static void body_piece(struct mime *m, const uint8_t *l, size_t n, bool eol)
{
    bool bad = false, soft = false;
    size_t k;
    switch (m->ent.enc) {
    case MIME_ENC_BASE64:
        if (n > MIME_ENC_LINE_MAX)
            anomaly(m, MIME_A_LONG_ENC_LINE);
        k = mime_b64(l, n, m->b64, &m->b64n, m->out, &bad);
        if (bad)
            anomaly(m, MIME_A_INVALID_BASE64);
        if (k)
            deliver(m, m->out, k, false);
        break;
    case MIME_ENC_QP:
        if (n > MIME_ENC_LINE_MAX)
            anomaly(m, MIME_A_LONG_ENC_LINE);
        k = mime_qp(l, n, m->out, &soft, &bad);
        if (bad)
            anomaly(m, MIME_A_INVALID_QP);
        deliver(m, m->out, k, eol && !soft);
        break;
    default:
        deliver(m, l, n, eol);
    }
}

static void line(struct mime *m, const uint8_t *l, size_t n, bool eol)
{
    bool cont = m->mid_line; /* the rest of a body line: no boundary, no header */
    m->mid_line = false;
    if (!cont || m->state != MS_BODY) {
        if (n > MIME_LINE_MAX)
            anomaly(m, MIME_A_LONG_LINE);
        if (m->nbnd && boundary_line(m, l, n))
            return;
        if (m->state == MS_HEADERS) {
            header_line(m, l, n);
            return;
        }
        if (m->state == MS_SKIP)
            return;
    }
    m->mid_line = !eol;
    do { /* decoded in pieces of MIME_PIECE_MAX: one line all the same */
        size_t k = n < MIME_PIECE_MAX ? n : MIME_PIECE_MAX;
        body_piece(m, l, k, eol && k == n);
        l += k, n -= k;
    } while (n);
}

void mime_line(struct mime *m, const uint8_t *l, size_t n)
{
    line(m, l, n, true);
}

void mime_part(struct mime *m, const uint8_t *l, size_t n)
{
    line(m, l, n, false);
}

void mime_end(struct mime *m)
{
    if (m->state == MS_HEADERS) {
        header_flush(m);
        if (m->ops->headers_end)
            m->ops->headers_end(m->arg, m->level);
        m->state = MS_SKIP;
    }
    file_end(m);
}
