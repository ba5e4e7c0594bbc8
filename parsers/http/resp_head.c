/* resp_head.c — where a response's status line and header lines end, read as leniently as
 * browsers and libhtp read them (Suricata's alerts depend on it):
 *  - a line ends at CR LF, LF CR, LF or a lone CR; a few mangled ends count as one
 *    ("\n\r\r\n" before another line end, "\r\n\r" followed by CR/SP/HT);
 *  - a line end followed by SP, HT or NUL folds the next line into the value, unless that
 *    line reads "token:" (then it is a header of its own, its leading space dropped);
 *  - a header name may itself be folded ("Name\r\n :value"), is trimmed of whitespace
 *    (VT and FF included), and a line without a colon is a header with an empty name;
 *  - the headers end at the first line end that follows a header line.
 * Only where things end and what they hold is decided here; head.c builds the buffers.
 * Incomplete input is reported as such so the caller waits for more bytes (nothing here
 * depends on more than a few bytes of lookahead). */
#include <string.h>
#include <strings.h>

#include "http_int.h"

#define E_ERR (-1)
#define E_INC (-2)
#define MAX_FOLDS 128

static bool sp_tab(uint8_t c) { return c == ' ' || c == '\t'; }

bool http_is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0x0b || c == 0x0c;
}

static bool at(const uint8_t *d, uint32_t n, uint32_t p, const char *s)
{
    size_t k = strlen(s);
    return p + k <= n && !memcmp(d + p, s, k);
}

/* A regular line end at p: its length, or 0. */
static int eol_regular(const uint8_t *d, uint32_t n, uint32_t p)
{
    if (at(d, n, p, "\r\n") || at(d, n, p, "\n\r"))
        return 2;
    if (p < n && (d[p] == '\n' || d[p] == '\r'))
        return 1;
    return 0;
}

/* A mangled line end at p: its length, 0 when none, E_INC when undecided. */
static int eol_deformed(const uint8_t *d, uint32_t n, uint32_t p)
{
    if (at(d, n, p, "\n\r\r\n") && (at(d, n, p + 4, "\n") || at(d, n, p + 4, "\r\n")))
        return 4;
    if (at(d, n, p, "\r\n\r")) {
        uint32_t q = p + 3;
        while (q < n && (d[q] == '\r' || sp_tab(d[q])))
            q++;
        if (q == p + 3)
            return 0;
        if (q == n)
            return E_INC;
        if (d[q] == '\n')
            q++;
        if (at(d, n, q, "\n") || at(d, n, q, "\r\n"))
            return 0;
        return (int)(q - p);
    }
    return 0;
}

/* Folding whitespace at p: 1, 0, or E_INC at the end of the input. */
static int lws(const uint8_t *d, uint32_t n, uint32_t p)
{
    if (p >= n)
        return E_INC;
    return d[p] == ' ' || d[p] == '\t' || d[p] == 0;
}

/* What ends a value at p (p is at a CR or LF). *fold: the fold byte, or -1 for a plain
 * end. Returns the bytes consumed (the line end, plus the fold byte), or E_ERR / E_INC. */
static int value_end(const uint8_t *d, uint32_t n, uint32_t p, int *fold)
{
    int e = eol_regular(d, n, p);
    if (e > 0) {
        int w = lws(d, n, p + (uint32_t)e);
        if (w == E_INC)
            return E_INC;
        if (w == 1) {
            *fold = d[p + (uint32_t)e];
            return e + 1;
        }
    }
    *fold = -1;
    int k = eol_deformed(d, n, p);
    if (k == E_INC)
        return E_INC;
    if (k == 0)
        k = e;
    if (k == 0)
        return E_ERR;
    int w = lws(d, n, p + (uint32_t)k);
    if (w == E_INC)
        return E_INC;
    return w ? E_ERR : k;
}

/* The bytes of one line of a value from p: [p, *ve), then its end. Returns the position
 * after the end (and the fold byte), or E_INC. *eol_len: the line end's length. */
static int value_line(const uint8_t *d, uint32_t n, uint32_t p, uint32_t *ve, int *fold,
                      int *eol_len)
{
    /* the first CR or LF: the LF (two vector scans, not a byte loop: most lines end
     * "\r\n"), then a CR before it */
    const uint8_t *lf = p < n ? memchr(d + p, '\n', n - p) : NULL;
    uint32_t upto = lf ? (uint32_t)(lf - d) : n;
    const uint8_t *cr = upto > p ? memchr(d + p, '\r', upto - p) : NULL;
    uint32_t q = cr ? (uint32_t)(cr - d) : upto;
    if (q == n)
        return E_INC;
    *ve = q;
    int k = value_end(d, n, q, fold);
    if (k < 0)
        return k;
    *eol_len = *fold >= 0 ? k - 1 : k;
    return (int)(q + (uint32_t)k);
}

/* "token:" ahead (spaces allowed around the token): a header, not a folded line. 1, 0, or
 * E_INC. */
static int header_ahead(const uint8_t *d, uint32_t n, uint32_t p)
{
    while (p < n && sp_tab(d[p]))
        p++;
    uint32_t t = p;
    while (p < n && http_is_tchar(d[p]))
        p++;
    uint32_t te = p;
    while (p < n && sp_tab(d[p]))
        p++;
    if (p == n)
        return E_INC;
    return te > t && d[p] == ':';
}

static void add(struct rh_out *o, const uint8_t *s, uint32_t k)
{
    if (o)
        pbuf_add(o->copy, s, k, 0);
}

/* A value from p, unfolded into o's copy. Returns the position after it, E_INC or E_ERR. */
static int value(const uint8_t *d, uint32_t n, uint32_t p, struct rh_out *o)
{
    uint32_t ve;
    int fold, el;
    int r = value_line(d, n, p, &ve, &fold, &el);
    if (r < 0)
        return r;
    uint32_t start = o ? o->copy->len : 0;
    add(o, d + p, ve - p);
    uint32_t rest = (uint32_t)r, i = (uint32_t)r;
    for (int nf = 0; fold >= 0; nf++) {
        int h = header_ahead(d, n, i);
        if (h == E_INC)
            return E_INC;
        if (h)
            return (int)i; /* "Name: v\r\n Other: w": Other is a header, its space dropped */
        uint32_t s = i;
        int fold2;
        r = value_line(d, n, s, &ve, &fold2, &el);
        if (r < 0)
            return r;
        i = (uint32_t)r;
        bool empty = !o || o->copy->len == start;
        if (o && !empty) {
            uint8_t fb = (uint8_t)fold;
            add(o, &fb, 1);
        }
        if (ve > s || el > 1) {
            rest = i;
            add(o, d + s, ve - s);
        } else if (ve == s && el == 1 && i < n && d[i] == '\n') {
            rest = i;
        }
        if (nf + 1 >= MAX_FOLDS)
            break;
        fold = fold2;
    }
    return (int)rest;
}

/* The name of a header line from p: [p, *ne). The name may continue on a folded line.
 * Returns the position of its colon, or E_ERR when the line has none. */
static int name(const uint8_t *d, uint32_t n, uint32_t p)
{
    uint8_t term = 0;
    for (uint32_t i = p; i < n; i++) {
        uint8_t c = d[i];
        if (!term) {
            if (c == ':')
                return (int)i;
            if (c == '\n' || c == '\r')
                term = c;
        } else if (c == ' ') {
            term = 0;
        } else if (c == '\n' && term == '\r') {
            term = c;
        } else {
            return E_ERR;
        }
    }
    return E_ERR;
}

/* One header from p. Returns the position after it, E_ERR or E_INC. */
static int header(const uint8_t *d, uint32_t n, uint32_t p, struct rh_out *o)
{
    uint32_t keep = o ? o->copy->len : 0;
    struct rh_header h = {0};
    int c = name(d, n, p);
    int r = E_ERR;
    if (c >= 0) {
        uint32_t v = (uint32_t)c + 1;
        while (v < n && sp_tab(d[v]))
            v++;
        h = (struct rh_header){p, (uint32_t)c, keep, 0, false};
        r = v == n ? E_INC : value(d, n, v, o);
    }
    if (r < 0) { /* no colon (or an unfinished value): the whole line is the value */
        if (o)
            o->copy->len = keep;
        if (at(d, n, p, "\r\n"))
            return E_ERR;
        h = (struct rh_header){p, p, keep, 0, true};
        r = value(d, n, p, o);
        if (r < 0) {
            if (o)
                o->copy->len = keep;
            return r;
        }
    }
    if (o && o->nh < o->max) {
        /* trimmed as libhtp trims (VT and FF are whitespace too) */
        uint32_t vs = keep, ve = o->copy->len;
        while (vs < ve && http_is_space(o->copy->p[vs]))
            vs++;
        while (ve > vs && http_is_space(o->copy->p[ve - 1]))
            ve--;
        while (h.ns < h.ne && http_is_space(d[h.ns]))
            h.ns++;
        while (h.ne > h.ns && http_is_space(d[h.ne - 1]))
            h.ne--;
        h.val = vs;
        h.vlen = ve - vs;
        o->h[o->nh++] = h;
    }
    return r;
}

int http_resp_headers(const uint8_t *d, uint32_t n, uint32_t *pos, struct rh_out *o)
{
    uint32_t i = *pos;
    bool any = false;
    for (;;) {
        uint32_t start = i;
        int r = header(d, n, i, o);
        if (r >= 0) {
            i = (uint32_t)r;
            any = true;
            *pos = i;
            int e = eol_regular(d, n, i);
            if (e == 1 && i + 1 == n) {
                /* a lone CR or LF last: "\r\n" / "\n\r" may follow. Read again from the
                 * header before it (a line end is no header to resume at: an LF-only head
                 * whose empty line ends a segment would take the body for headers) */
                *pos = start;
                return RH_MORE;
            }
            if (e) {
                *pos = i + (uint32_t)e;
                return RH_DONE;
            }
            continue;
        }
        if (r == E_INC)
            return RH_MORE; /* *pos: the first header not read yet */
        if (!any) {
            int k = eol_deformed(d, n, i);
            if (k == 0)
                k = eol_regular(d, n, i);
            if (k == 1 && i + 1 == n)
                return RH_MORE;
            if (k > 0) {
                *pos = i + (uint32_t)k;
                return RH_DONE;
            }
        }
        return RH_MORE; /* libhtp keeps waiting here too: the head limit ends it */
    }
}

int http_resp_line(const uint8_t *d, uint32_t n, uint32_t p, uint32_t *le)
{
    uint32_t q = p;
    while (q < n && d[q] != '\n' && d[q] != '\r')
        q++;
    if (q == n || (d[q] == '\r' && q + 1 == n))
        return -1;
    *le = q;
    return (int)(q + (at(d, n, q, "\r\n") ? 2 : 1));
}

bool http_resp_line_is_http(const uint8_t *l, uint32_t n)
{
    uint32_t i = 0;
    while (i < n && (http_is_space(l[i]) || l[i] == 0))
        i++;
    return n - i >= 4 && !strncasecmp((const char *)l + i, "http", 4);
}
