/* files.c — HTTP's files, through the file layer (core/files.h): a response's body, and a
 * POST or PUT request's body, once decoded (chunks and Content-Encoding undone), as
 * Suricata makes files of them. A response's file is named by its Content-Disposition
 * filename, else by the request's URI path (without the query); a request's by its URI path.
 * The file opens with its first decoded byte (an empty body is no file), closes when the
 * message is complete, and is cut short (truncated) when the body limit or a gap cuts the
 * body or the flow ends first. A multipart/form-data request's files are its parts with a
 * filename (multipart.c), each named by it, made when the request is complete or cut.
 * file.data of a request is its files, one element each (http_file_buffer). */
#include <string.h>
#include <strings.h>

#include "files.h"
#include "http_int.h"

static const uint8_t *span(const struct http_msg *m, enum http_buf b, uint32_t *len)
{
    if (!m->present || !m->sp[b].set || !m->copy.p)
        return NULL;
    *len = m->sp[b].len;
    return m->copy.p + m->sp[b].off;
}

/* The filename= parameter of a Content-Disposition header among "Name: value\r\n" lines. */
static const uint8_t *disposition_name(const uint8_t *h, uint32_t n, uint32_t *len)
{
    static const char HDR[] = "content-disposition:", PARAM[] = "filename=";
    /* (also a multipart part's header lines: the same shape) */
    for (uint32_t i = 0; i < n;) {
        const uint8_t *line = h + i, *eol = memchr(line, '\n', n - i);
        uint32_t ll = eol ? (uint32_t)(eol - line) : n - i;
        i += ll + (eol ? 1 : 0);
        if (ll < sizeof HDR - 1 || strncasecmp((const char *)line, HDR, sizeof HDR - 1))
            continue;
        for (uint32_t k = sizeof HDR - 1; k + sizeof PARAM - 1 <= ll; k++) {
            if (strncasecmp((const char *)line + k, PARAM, sizeof PARAM - 1) ||
                (k > 0 && line[k - 1] != ' ' && line[k - 1] != ';' && line[k - 1] != '\t'))
                continue;
            const uint8_t *v = line + k + sizeof PARAM - 1, *e = line + ll;
            if (v < e && *v == '"') {
                v++;
                const uint8_t *q = memchr(v, '"', (size_t)(e - v));
                e = q ? q : e;
            } else {
                const uint8_t *sc = memchr(v, ';', (size_t)(e - v));
                e = sc ? sc : e;
                while (e > v && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
                    e--;
            }
            *len = (uint32_t)(e - v);
            return v;
        }
    }
    return NULL;
}

/* Does this message's body make a file? Responses always; requests when POST or PUT. */
static bool makes_file(const struct http_tx *t, int dir)
{
    if (dir == 1)
        return true;
    uint32_t n = 0;
    const uint8_t *m = span(&t->req, HB_METHOD, &n);
    return m && ((n == 4 && !memcmp(m, "POST", 4)) || (n == 3 && !memcmp(m, "PUT", 3)));
}

static uint32_t open_file(struct pflow *pf, struct http_tx *t, int dir)
{
    uint32_t n = 0;
    const uint8_t *name = NULL;
    if (dir == 1) {
        const uint8_t *h = span(&t->resp, HB_RESPONSE_HEADER, &n);
        name = h ? disposition_name(h, n, &n) : NULL;
    }
    if (!name) { /* the URI's path */
        name = span(&t->req, HB_URI, &n);
        const uint8_t *q = name ? memchr(name, '?', n) : NULL;
        if (q)
            n = (uint32_t)(q - name);
    }
    return pfile_open(pf, dir, t->id, name, name ? n : 0);
}

static bool is_multipart(const struct http_tx *t)
{
    struct http_part p;
    return t->req.body.len && http_multipart(&t->req, &p, 1) >= 0;
}

void http_file_data(struct pflow *pf, struct http_tx *t, int dir, const uint8_t *d, size_t n)
{
    struct http_msg *m = dir == 0 ? &t->req : &t->resp;
    if (!n || m->file_none)
        return;
    if (!m->file && !(m->file_none = !makes_file(t, dir) || (dir == 0 && is_multipart(t))))
        m->file = open_file(pf, t, dir);
    pfile_data(pf, m->file, d, n);
}

/* A multipart request's parts with a filename, as files (once). */
static void multipart_files(struct pflow *pf, struct http_tx *t, bool truncated)
{
    struct http_part parts[HTTP_PARTS_MAX];
    struct http_msg *m = &t->req;
    int np = http_multipart(m, parts, HTTP_PARTS_MAX);
    m->files_done = true;
    for (int k = 0; k < np; k++) {
        uint32_t nl = 0;
        const uint8_t *name = disposition_name(m->body.p + parts[k].hdr_off, parts[k].hdr_len,
                                               &nl);
        if (!name)
            continue; /* a form field, not a file */
        uint32_t id = pfile_open(pf, 0, t->id, name, nl);
        pfile_data(pf, id, m->body.p + parts[k].data_off, parts[k].data_len);
        pfile_close(pf, id, truncated || !parts[k].complete);
    }
}

void http_file_close(struct pflow *pf, struct http_tx *t, int dir, bool truncated)
{
    struct http_msg *m = dir == 0 ? &t->req : &t->resp;
    if (m->file)
        pfile_close(pf, m->file, truncated);
    else if (dir == 0 && m->file_none && !m->files_done && makes_file(t, 0))
        multipart_files(pf, t, truncated);
}

const uint8_t *http_file_buffer(struct pflow *pf, unsigned key, uint32_t i,
                                struct osprey_scratch *s, uint32_t *len)
{
    (void)key, (void)s;
    const struct http_state *h = pf->state;
    const struct http_tx *t = h ? h->cur : NULL;
    if (!t || !t->req.present || !t->req.body.len || !makes_file(t, 0))
        return NULL;
    const struct http_msg *m = &t->req;
    struct http_part parts[HTTP_PARTS_MAX];
    int np = http_multipart(m, parts, HTTP_PARTS_MAX);
    if (np < 0) { /* the whole body is the one file */
        if (i > 0)
            return NULL;
        *len = m->body.len;
        return m->body.p;
    }
    for (int k = 0; k < np; k++) {
        uint32_t nl = 0;
        if (!disposition_name(m->body.p + parts[k].hdr_off, parts[k].hdr_len, &nl) || i-- > 0)
            continue;
        *len = parts[k].data_len;
        return parts[k].data_len ? m->body.p + parts[k].data_off : (const uint8_t *)"";
    }
    return NULL;
}
