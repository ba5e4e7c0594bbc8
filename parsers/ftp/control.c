/* control.c — the FTP control connection (RFC 959): lines up to LF (a CR before it dropped),
 * the client's commands and the server's replies, paired into transactions.
 *
 * A command opens a transaction (pipelined commands wait in order, FTP_TX_MAX at most); the
 * server's reply lines go to the oldest one still waiting. A reply is "DDD text" or a
 * multi-line "DDD-text" … "DDD text"; each line's code (when it has one) is an element of
 * ftp.completion_code and its text one of ftp.reply. A preliminary reply (1xx: "150 Opening
 * data connection") leaves the transaction open; any other final line finishes it. A reply
 * with no command waiting (the greeting) is a transaction of its own. A line longer than
 * FTP_LINE_MAX is cut there and flagged (command_truncated / reply_truncated, Suricata's
 * request_command_too_long / response_command_too_long anomalies, once per line).
 * PORT / EPRT commands and 227 / 229 replies give the data connection's port and mode. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ftp_int.h"

/* ---- ports announced ---- */

/* n comma-separated decimal numbers 0-255 from d; the count read. */
static int numbers(const uint8_t *d, size_t n, int *out, int max)
{
    int k = 0;
    size_t i = 0;
    while (k < max) {
        while (i < n && d[i] == ' ')
            i++;
        if (i >= n || !isdigit(d[i]))
            break;
        uint32_t v;
        i += pdec_u32(d + i, n - i, &v);
        if (v > 255)
            return -1;
        out[k++] = (int)v;
        while (i < n && d[i] == ' ')
            i++;
        if (i >= n || d[i] != ',')
            break;
        i++;
    }
    return k;
}

int32_t ftp_port_of_port(const uint8_t *d, size_t n)
{
    int v[6];
    return numbers(d, n, v, 6) == 6 ? v[4] * 256 + v[5] : -1;
}

bool ftp_port_elsewhere(const uint8_t *d, size_t n, const uint8_t *addr)
{
    int v[6];
    if (numbers(d, n, v, 6) != 6)
        return false;
    for (int i = 0; i < 4; i++)
        if (v[i] != addr[i])
            return true;
    return false;
}

int32_t ftp_port_of_227(const uint8_t *d, size_t n)
{
    /* "Entering Passive Mode (h1,h2,h3,h4,p1,p2)": the first run of six numbers */
    for (size_t i = 0; i < n; i++)
        if (isdigit(d[i]) && (i == 0 || !isdigit(d[i - 1]))) {
            int32_t p = ftp_port_of_port(d + i, n - i);
            if (p >= 0)
                return p;
        }
    return -1;
}

/* A decimal port 1-65535 in d[i..] up to the delimiter dl. */
static int32_t port_to(const uint8_t *d, size_t n, size_t i, uint8_t dl)
{
    uint32_t v;
    size_t k = i < n ? pdec_u32(d + i, n - i, &v) : 0;
    i += k;
    return k && i < n && d[i] == dl && v > 0 && v <= 65535 ? (int32_t)v : -1;
}

int32_t ftp_port_of_eprt(const uint8_t *d, size_t n)
{
    /* "<d>proto<d>address<d>port<d>" (RFC 2428), the delimiter any printable byte */
    if (n < 4 || d[0] < 33 || d[0] > 126)
        return -1;
    uint8_t dl = d[0];
    size_t i = 1, fields = 0;
    while (i < n && fields < 2)
        if (d[i++] == dl)
            fields++;
    return fields == 2 ? port_to(d, n, i, dl) : -1;
}

int32_t ftp_port_of_229(const uint8_t *d, size_t n)
{
    /* "Entering Extended Passive Mode (|||port|)" */
    const uint8_t *p = memchr(d, '(', n);
    if (!p || (size_t)(d + n - p) < 5)
        return -1;
    size_t i = (size_t)(p - d) + 1;
    uint8_t dl = d[i];
    if (i + 3 >= n || d[i + 1] != dl || d[i + 2] != dl)
        return -1;
    return port_to(d, n, i + 3, dl);
}

/* ---- transactions ---- */

static void tx_free(struct ftp_tx *t)
{
    if (!t)
        return;
    pbuf_free(&t->cmd);
    pbuf_free(&t->reply);
    free(t);
}

static struct ftp_tx *tx_new(void)
{
    struct ftp_tx *t = calloc(1, sizeof *t);
    if (t)
        t->dyn_port = -1;
    return t;
}

/* The transaction is finished (or the flow ends): its record, then it leaves the queue
 * (it stays readable as `last` until the next one finishes). */
static void tx_finish(struct pflow *pf, struct mon_flow *f, struct ftp_state *st,
                      struct ftp_tx *t)
{
    st->cur = t;
    pflow_count(pf, FTP_C_TXS, 1);
    pflow_tx_done(pf, f);
    for (uint32_t i = 0; i < st->nq; i++)
        if (st->q[i] == t) {
            memmove(&st->q[i], &st->q[i + 1], (st->nq - i - 1) * sizeof st->q[0]);
            st->nq--;
            break;
        }
    if (st->last)
        tx_free(st->last);
    st->last = t;
}

static bool is_verb(const struct ftp_tx *t, const char *v)
{
    return t->verb_len == strlen(v) && !strncasecmp((const char *)t->cmd.p, v, t->verb_len);
}

/* RETR / STOR: the data connection to the port last announced will carry that file. Without
 * a file name, or before any port was announced, there is none to expect: Suricata's
 * ftp.file_without_name / ftp.file_before_port. */
static void expect_data(struct pflow *pf, struct mon_flow *f, struct ftp_state *st,
                        const struct ftp_tx *t, const uint8_t *arg, size_t an)
{
    int id = osprey_app_proto_find(ftp_data_proto.name);
    if (!an) {
        pflow_anomaly(pf, f, 0, FTP_A_FILE_WITHOUT_NAME);
        return;
    }
    if (st->dyn_port <= 0) {
        pflow_anomaly(pf, f, 0, FTP_A_FILE_BEFORE_PORT);
        return;
    }
    if (id <= OSPREY_APP_PROTO_FAILED)
        return;
    struct ftp_data_state *ds = calloc(1, sizeof *ds);
    if (!ds || pbuf_add(&ds->name, arg, an, 0) != an) {
        ftp_data_free(ds);
        return;
    }
    ds->command = is_verb(t, "RETR") ? FD_CMD_RETR : FD_CMD_STOR;
    pflow_count(pf, FTP_C_EXPECT, 1);
    if (pexpect_add(pf->w, f, (uint16_t)st->dyn_port, (uint16_t)id, ds, ftp_data_free))
        pflow_count(pf, FTP_C_EXPECT_SHED, 1);
}

static void command_line(struct pflow *pf, struct mon_flow *f, struct ftp_state *st,
                         const uint8_t *l, uint32_t n, bool trunc)
{
    uint32_t max = ((const struct ftp_cfg *)pflow_cfg(pf))->max_tx;
    if (st->nq >= (max && max < FTP_TX_MAX ? max : FTP_TX_MAX)) {
        /* more commands waiting than allowed: Suricata's too_many_transactions, and the
         * client's side is not parsed further (what waits is still answered) */
        pflow_count(pf, FTP_C_TX_SHED, 1);
        pflow_anomaly(pf, f, 0, FTP_A_TOO_MANY_TX);
        pf->dead[0] = true;
        return;
    }
    struct ftp_tx *t = tx_new();
    if (!t || pbuf_add(&t->cmd, l, n, 0) != n) {
        tx_free(t);
        pf->dead[0] = true;
        return;
    }
    t->has_cmd = true;
    t->cmd_trunc = trunc;
    while (t->verb_len < n && l[t->verb_len] != ' ')
        t->verb_len++;
    const uint8_t *arg = l + t->verb_len + (t->verb_len < n);
    size_t an = n - t->verb_len - (t->verb_len < n);
    if (is_verb(t, "PORT")) {
        t->dyn_port = ftp_port_of_port(arg, an);
        t->mode = FTP_MODE_ACTIVE;
        t->is_port = true;
        /* the data connection sent to a third host: an FTP bounce (IPv4's PORT only) */
        t->bounce = f->ipver == 4 && ftp_port_elsewhere(arg, an, f->cli.b);
    } else if (is_verb(t, "EPRT")) {
        t->dyn_port = ftp_port_of_eprt(arg, an);
        t->mode = FTP_MODE_ACTIVE;
    } else if (is_verb(t, "PASV") || is_verb(t, "EPSV")) {
        t->mode = FTP_MODE_PASSIVE;
    }
    st->q[st->nq++] = t;
    st->cur = t;
    if (t->mode == FTP_MODE_ACTIVE && t->dyn_port >= 0)
        st->dyn_port = t->dyn_port;
    if (is_verb(t, "RETR") || is_verb(t, "STOR"))
        expect_data(pf, f, st, t, arg, an);
    if (trunc)
        pflow_anomaly(pf, f, 0, FTP_A_REQ_TOO_LONG);
    pflow_raise(pf, f, 0, FTP_EV_REQUEST);
}

static void reply_line(struct pflow *pf, struct mon_flow *f, struct ftp_state *st,
                       const uint8_t *l, uint32_t n, bool trunc)
{
    struct ftp_tx *t = NULL;
    for (uint32_t i = 0; i < st->nq && !t; i++)
        t = st->q[i];
    if (!t) { /* a reply nobody asked for: the greeting, or a second reply */
        if (!(t = tx_new())) {
            pf->dead[1] = true;
            return;
        }
        st->q[st->nq++] = t; /* (the queue is never full here: it was empty) */
    }
    bool coded = n >= 3 && isdigit(l[0]) && isdigit(l[1]) && isdigit(l[2]) &&
                 (n == 3 || l[3] == ' ' || l[3] == '-');
    bool last = false;
    if (coded && st->in_multi)
        last = !memcmp(l, st->multi, 3) && (n == 3 || l[3] == ' ');
    else if (coded && n > 3 && l[3] == '-') {
        st->in_multi = true;
        memcpy(st->multi, l, 3);
    } else if (coded) {
        last = true;
    }
    if (last)
        st->in_multi = false;
    uint32_t skip = coded ? (n > 3 ? 4 : 3) : 0;
    if (t->nlines < FTP_REPLY_LINES) {
        uint32_t k = t->nlines;
        t->off[k] = t->reply.len;
        t->len[k] = pbuf_add(&t->reply, l + skip, n - skip, 0);
        t->has_code[k] = coded;
        if (coded)
            memcpy(t->code[k], l, 3);
        t->nlines++;
    } else {
        pflow_count(pf, FTP_C_LINES_SHED, 1);
    }
    t->reply_received = true;
    t->reply_trunc |= trunc;
    if (coded && !memcmp(l, "227", 3) && t->dyn_port < 0) {
        t->dyn_port = ftp_port_of_227(l + skip, n - skip);
        t->mode = FTP_MODE_PASSIVE;
    } else if (coded && !memcmp(l, "229", 3) && t->dyn_port < 0) {
        t->dyn_port = ftp_port_of_229(l + skip, n - skip);
        t->mode = FTP_MODE_PASSIVE;
    }
    if (t->mode == FTP_MODE_PASSIVE && t->dyn_port >= 0)
        st->dyn_port = t->dyn_port;
    st->cur = t;
    if (trunc)
        pflow_anomaly(pf, f, 1, FTP_A_RESP_TOO_LONG);
    if (!last || l[0] == '1') /* more lines, or a preliminary reply: more to come */
        return;
    pflow_raise(pf, f, 1, FTP_EV_REPLY);
    if (t->has_cmd)
        pflow_raise(pf, f, 0, FTP_EV_DONE);
    tx_finish(pf, f, st, t);
}

static void line_done(struct pflow *pf, struct mon_flow *f, int dir, struct ftp_state *st)
{
    struct ftp_side *s = &st->side[dir];
    uint32_t n = s->line.len;
    if (!s->over && n && s->line.p[n - 1] == '\r')
        n--;
    bool trunc = s->over;
    s->over = false;
    if (dir == 0)
        command_line(pf, f, st, s->line.p ? s->line.p : (const uint8_t *)"", n, trunc);
    else
        reply_line(pf, f, st, s->line.p ? s->line.p : (const uint8_t *)"", n, trunc);
    pbuf_reset(&st->side[dir].line);
}

void ftp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct ftp_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct ftp_state *st = pf->state;
    struct ftp_side *s = &st->side[dir];
    uint32_t max = ((const struct ftp_cfg *)pflow_cfg(pf))->max_line;
    if (!max)
        max = FTP_LINE_MAX;
    while (n && !pf->dead[dir]) {
        const uint8_t *lf = memchr(d, '\n', n);
        size_t k = lf ? (size_t)(lf - d) : n;
        if (!s->over) {
            uint32_t room = max - s->line.len;
            size_t take = k < room ? k : room;
            if (pbuf_add(&s->line, d, take, max) != take) {
                pf->dead[dir] = true;
                return;
            }
            if (take < k)
                s->over = true; /* the rest of this line is skipped */
        }
        if (!lf)
            return;
        d += k + 1, n -= k + 1;
        line_done(pf, f, dir, st);
    }
}

void ftp_end(struct pflow *pf, struct mon_flow *f)
{
    struct ftp_state *st = pf->state;
    while (st && st->nq)
        tx_finish(pf, f, st, st->q[0]);
}

void ftp_free(void *state)
{
    struct ftp_state *st = state;
    if (!st)
        return;
    for (uint32_t i = 0; i < st->nq; i++)
        tx_free(st->q[i]);
    tx_free(st->last);
    pbuf_free(&st->side[0].line);
    pbuf_free(&st->side[1].line);
    free(st);
}
