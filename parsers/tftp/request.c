/* request.c — TFTP requests on the server's port (RFC 1350 §5): RRQ / WRQ with a file name
 * and a mode, each one transaction (tftp_request runs with it current, then its record:
 * EVE tftp{packet "read" / "write", file, mode}, as Suricata writes it). Each request also
 * announces its transfer: the UDP flow from the server's new port back to the client's port
 * (core/expect.c) is tftp-data, its blocks a file (transfer.c). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "osprey_json_writer.h"
#include "tftp_int.h"

/* a NUL-terminated string at d[at..n): its length, or -1 */
static long cstr(const uint8_t *d, size_t n, size_t at)
{
    const uint8_t *z = at < n ? memchr(d + at, 0, n - at) : NULL;
    return z ? (long)(z - (d + at)) : -1;
}

static bool mode_ok(const uint8_t *m, size_t n)
{
    static const char *const M[] = {"netascii", "octet", "mail"};
    for (size_t i = 0; i < 3; i++)
        if (n == strlen(M[i]) && !strncasecmp((const char *)m, M[i], n))
            return true;
    return false;
}

/* RRQ / WRQ: opcode, file name, NUL, mode, NUL. */
static bool request(const uint8_t *d, size_t n, long *fl, long *ml)
{
    if (n < 4 || d[0] != 0 || (d[1] != TFTP_RRQ && d[1] != TFTP_WRQ))
        return false;
    *fl = cstr(d, n, 2);
    if (*fl < 1)
        return false;
    *ml = cstr(d, n, 2 + (size_t)*fl + 1);
    return *ml > 0 && mode_ok(d + 2 + *fl + 1, (size_t)*ml);
}

enum probe_verdict tftp_probe(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    long fl, ml;
    if (!f || f->sport != 69) /* the server's well-known port (Suricata registers 69) */
        return DET_NO;
    return request(d, n, &fl, &ml) ? DET_YES : DET_NO;
}

void tftp_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n)
{
    long fl, ml;
    if (dir != 0)
        return; /* (the server answers from its new port: another flow) */
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct tftp_state))))
        return;
    struct tftp_state *st = pf->state;
    if (!request(d, n, &fl, &ml)) {
        pflow_count(pf, TFTP_C_MALFORMED, 1);
        return;
    }
    st->opcode = d[1];
    pbuf_reset(&st->file);
    pbuf_reset(&st->mode);
    pbuf_add(&st->file, d + 2, (size_t)fl, TFTP_NAME_MAX);
    pbuf_add(&st->mode, d + 2 + fl + 1, (size_t)ml, TFTP_NAME_MAX);
    st->txs++;
    pflow_count(pf, TFTP_C_TX, 1);
    pflow_raise(pf, f, 0, TFTP_EV_REQUEST);
    pflow_tx_done(pf, f);
    /* its transfer: from the server's new port to the client's */
    struct tftp_data_state *ds = calloc(1, sizeof *ds);
    int id = osprey_app_proto_find("tftp-data");
    if (!ds || id < 0) {
        free(ds);
        return;
    }
    pbuf_add(&ds->name, st->file.p, st->file.len, TFTP_NAME_MAX);
    ds->write = st->opcode == TFTP_WRQ;
    ds->blksize = TFTP_BLOCK;
    if (pexpect_add_l4(pf->w, f, 17, f->cport, (uint16_t)id, ds, tftp_data_free))
        pflow_count(pf, TFTP_C_EXPECT_SHED, 1);
}

void tftp_free(void *state)
{
    struct tftp_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->file);
    pbuf_free(&st->mode);
    free(st);
}

bool tftp_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct tftp_state *st = pf->state;
    if (!st || !st->opcode)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "tftp");
    osprey_jw_str(w, "packet", st->opcode == TFTP_RRQ ? "read" : "write");
    osprey_jw_strn(w, "file", st->file.p ? st->file.p : (const uint8_t *)"", st->file.len);
    osprey_jw_strn(w, "mode", st->mode.p ? st->mode.p : (const uint8_t *)"", st->mode.len);
    osprey_jw_close(w);
    return true;
}
