/* tpkt.c — RDP's connection sequence (MS-RDPBCGR 1.3.1.1) as Suricata follows it: TPKTs of
 * each side (RFC 1006: version 3, a 16-bit length) held until whole; the client's X.224
 * Connection Request with its cookie ("Cookie: mstshash=NAME" CR LF, kept up to
 * RDP_COOKIE_MAX) and negotiation request, the server's Connection Confirm and its
 * negotiation response: a protocol other than standard RDP security (TLS, CredSSP …) means
 * the rest of the flow is TLS — parsing stops there (one tls_handshake transaction when the
 * server's first TLS bytes come). On standard security the client's MCS Connect Initial
 * (in an X.224 Data TPDU) gives the client data (mcs.c) and the server's Connect Response
 * ends what is read. Each message is a transaction (its event, then its EVE record). */
#include <stdlib.h>
#include <string.h>

#include "rdp_int.h"

static void tx(struct pflow *pf, struct mon_flow *f, int dir, struct rdp_state *st, uint8_t ev)
{
    st->cur = ev;
    st->ntx++;
    pflow_count(pf, RDP_C_SHED, st->shed);
    st->shed = 0;
    pflow_count(pf, RDP_C_TXS, 1);
    pflow_raise(pf, f, dir, ev);
    if (pf->state)
        pflow_tx_done(pf, f);
}

static void malformed(struct pflow *pf, int dir)
{
    pflow_count(pf, RDP_C_MALFORMED, 1);
    pf->dead[dir] = true;
}

/* The cookie of a Connection Request's variable part v[0..n) ("Cookie: mstshash=" up to CR LF) */
static void cookie(struct rdp_state *st, const uint8_t *v, size_t n)
{
    static const char pre[] = "Cookie: mstshash=";
    size_t pl = sizeof pre - 1;
    if (n < pl || memcmp(v, pre, pl))
        return;
    size_t e = pl;
    while (e + 1 < n && !(v[e] == '\r' && v[e + 1] == '\n'))
        e++;
    if (e + 1 >= n)
        e = n; /* no CR LF: to the end */
    pbuf_reset(&st->cookie);
    pbuf_add(&st->cookie, v + pl, e - pl, RDP_COOKIE_MAX); /* (an X.224 header holds less) */
}

/* One whole TPKT p[0..n) of direction dir. */
static void tpkt(struct pflow *pf, struct mon_flow *f, int dir, struct rdp_state *st,
                 const uint8_t *p, size_t n)
{
    if (n < 7 || p[4] + 5u > n) {
        malformed(pf, dir);
        return;
    }
    uint8_t li = p[4], code = p[5] & 0xf0;
    const uint8_t *x = p + 5;     /* the X.224 TPDU from its code byte (li bytes) */
    if (code == 0xe0 && dir == 0 && li >= 6) { /* Connection Request */
        cookie(st, x + 6, li - 6u);
        tx(pf, f, dir, st, RDP_EV_INITIAL_REQUEST);
    } else if (code == 0xd0 && dir == 1 && li >= 6) { /* Connection Confirm */
        const uint8_t *v = x + 6;
        size_t vn = li - 6u;
        /* RDP_NEG_RSP (type 2, length 8): the protocol the server selected */
        if (vn >= 8 && v[0] == 0x02 && rd_le32(v + 4) != 0)
            st->tls = true;
        tx(pf, f, dir, st, RDP_EV_INITIAL_RESPONSE);
    } else if (code == 0xf0 && li >= 2) { /* Data: MCS (T.125) */
        const uint8_t *m = p + 5 + li; /* past LI and the TPDU header (li bytes) */
        size_t mn = n - (5u + li);
        if (dir == 0 && !st->client.set && mn >= 2 && m[0] == 0x7f && m[1] == 0x65) {
            if (rdp_connect_initial(st, m, mn))
                tx(pf, f, dir, st, RDP_EV_CONNECT_REQUEST);
            else
                pflow_count(pf, RDP_C_MALFORMED, 1);
        } else if (dir == 1 && mn >= 2 && m[0] == 0x7f && m[1] == 0x66) {
            tx(pf, f, dir, st, RDP_EV_CONNECT_RESPONSE);
            pf->dead[0] = pf->dead[1] = true; /* the rest is encrypted RDP: not read */
        }
    }
}

/* TLS bytes (after a Connection Confirm that picked TLS or CredSSP): the server's first
 * handshake record is the tls_handshake transaction; a side is not read once its TLS starts. */
static void tls_bytes(struct pflow *pf, struct mon_flow *f, int dir, struct rdp_state *st,
                      const uint8_t *d, size_t n)
{
    if (!n)
        return;
    pf->dead[dir] = true;
    if (dir == 1 && d[0] == 0x16)
        tx(pf, f, dir, st, RDP_EV_TLS_HANDSHAKE);
}

void rdp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct rdp_state)))) {
        pf->dead[dir] = true;
        return;
    }
    struct rdp_state *st = pf->state;
    if (st->tls) {
        tls_bytes(pf, f, dir, st, d, n);
        return;
    }
    struct pbuf *b = &st->in[dir];
    while (n && !pf->dead[dir]) {
        /* the header first, then the rest of the TPKT it announces */
        size_t want = b->len < 4 ? 4 : rd_be16(b->p + 2);
        size_t k = want - b->len < n ? want - b->len : n;
        if (pbuf_add(b, d, k, RDP_PDU_MAX) != k) {
            malformed(pf, dir);
            return;
        }
        d += k, n -= k;
        if (b->len < 4)
            continue;
        if (b->p[0] != 3 || rd_be16(b->p + 2) < 7) { /* no TPKT header */
            malformed(pf, dir);
            return;
        }
        if (b->len < rd_be16(b->p + 2))
            continue;
        tpkt(pf, f, dir, st, b->p, b->len);
        if (!pf->state)
            return;
        pbuf_reset(b);
        if (st->tls) { /* the bytes after the confirm are the server's TLS */
            tls_bytes(pf, f, dir, st, d, n);
            return;
        }
    }
}

void rdp_free(void *state)
{
    struct rdp_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->in[0]);
    pbuf_free(&st->in[1]);
    pbuf_free(&st->cookie);
    free(st);
}
