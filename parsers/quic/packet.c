/* packet.c — QUIC over UDP: each datagram's packets (several may be coalesced in one), as
 * Suricata 8 reads them. Every long-header packet is a transaction of its own (its version,
 * and what an Initial's frames carried), run under quic_packet_to_server / _to_client and
 * reported (the EVE quic record); a short-header packet is encrypted beyond reach and makes
 * none, and once a direction's TLS hello was read, the rest of that direction is not read
 * either. The Initial keys come from the first Initial's Destination Connection ID (either
 * direction); a protected packet that does not authenticate is quic.failed_decrypt, frames
 * that do not decode quic.error_on_data, a header that does not parse (after the flow was
 * found to be QUIC) quic.error_on_header — each on a transaction of its own, and the rest of
 * the datagram is dropped. */
#include <stdlib.h>
#include <string.h>

#include "quic_int.h"

static struct quic_state *state_of(struct pflow *pf)
{
    if (!pf->state)
        pf->state = calloc(1, sizeof(struct quic_state));
    return pf->state;
}

/* A new transaction in force: this packet (the memory of its copies is reused). */
static void tx_begin(struct quic_state *st, int dir, const struct quic_hdr *h)
{
    struct quic_tx *tx = &st->tx;
    struct pbuf sni = tx->sni, ua = tx->ua, cyu = tx->cyu;
    memset(tx, 0, sizeof *tx);
    tx->sni = sni, tx->ua = ua, tx->cyu = cyu;
    pbuf_reset(&tx->sni);
    pbuf_reset(&tx->ua);
    pbuf_reset(&tx->cyu);
    tx->id = ++st->ntx;
    tx->dir = dir;
    if (h)
        tx->h = *h;
}

/* The transaction's anomalies, its event (its buffers current), its record. */
static void tx_done(struct pflow *pf, struct mon_flow *f, struct quic_state *st)
{
    struct quic_tx *tx = &st->tx;
    for (unsigned e = 0; e < 32; e++)
        if (tx->events & 1u << e)
            pflow_anomaly(pf, f, tx->dir, e);
    pflow_raise(pf, f, tx->dir, tx->dir == 0 ? QUIC_EV_TS : QUIC_EV_TC);
    pflow_count(pf, QUIC_C_TXS, 1);
    pflow_tx_done(pf, f);
}

/* A transaction that is only an anomaly (Suricata's "event without transaction"). */
static void tx_anomaly(struct pflow *pf, struct mon_flow *f, struct quic_state *st, int dir,
                       const struct quic_hdr *h, unsigned e)
{
    tx_begin(st, dir, h);
    st->tx.events |= 1u << e;
    tx_done(pf, f, st);
}

/* Initial, 0-RTT and Handshake packets are protected; version negotiation and Retry are not,
 * nor is gQUIC before Q050. */
static bool is_protected(const struct quic_hdr *h)
{
    return !h->gquic && h->is_long && h->type != QT_VN && h->type != QT_RETRY;
}

void quic_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n)
{
    struct quic_state *st = state_of(pf);
    if (!st)
        return;
    pflow_count(pf, QUIC_C_PACKETS, 1);
    for (size_t at = 0; at < n;) {
        struct quic_hdr h;
        if (!quic_header(d + at, n - at, &h)) {
            pflow_count(pf, QUIC_C_MALFORMED, 1);
            tx_anomaly(pf, f, st, dir, NULL, QUIC_AE_ERROR_ON_HEADER);
            return;
        }
        if (st->d[dir].hello_done || h.type == QT_SHORT)
            return; /* encrypted from here on */
        if (!st->keys_set && h.type == QT_INITIAL && !h.gquic)
            st->keys_set = quic_initial_keys(h.version, h.dcid, h.dcid_len, st->keys);
        const uint8_t *pkt = d + at, *pay = pkt + h.hlen;
        size_t pl = h.length;
        at += h.hlen + h.length;
        uint8_t *clear = NULL;
        if (st->keys_set && is_protected(&h)) {
            clear = malloc(pl ? pl : 1);
            size_t cl = 0;
            if (!clear || !quic_decrypt(&st->keys[dir], pkt, h.hlen, pl, clear, &cl)) {
                free(clear);
                pflow_count(pf, QUIC_C_FAILED_DECRYPT, 1);
                tx_anomaly(pf, f, st, dir, &h, QUIC_AE_FAILED_DECRYPT);
                return;
            }
            pflow_count(pf, QUIC_C_DECRYPTED, 1);
            pay = clear, pl = cl;
        }
        tx_begin(st, dir, &h);
        bool ok = true;
        if (h.type == QT_INITIAL) /* (only an Initial's frames are read) */
            ok = h.gquic ? quic_gquic_frames(pf, st, pay, pl) : quic_frames(pf, st, dir, pay, pl);
        free(clear);
        if (!ok) {
            pflow_count(pf, QUIC_C_MALFORMED, 1);
            st->tx.events |= 1u << QUIC_AE_ERROR_ON_DATA;
            tx_done(pf, f, st);
            return;
        }
        tx_done(pf, f, st);
    }
}

void quic_free(void *state)
{
    struct quic_state *st = state;
    if (!st)
        return;
    pbuf_free(&st->tx.sni);
    pbuf_free(&st->tx.ua);
    pbuf_free(&st->tx.cyu);
    for (int k = 0; k < 2; k++) {
        free(st->d[k].buf);
        free(st->d[k].have);
    }
    tls_wire_free(st->tls);
    free(st);
}

uint32_t quic_tx_id(const struct pflow *pf)
{
    const struct quic_state *st = pf->state;
    return st ? (uint32_t)st->tx.id : 0;
}
