/* fuzz_harness.h — what the protocols' libFuzzer targets share: a flow of one protocol set up
 * without libmon (proto_harness.h's struct ph: ph_init, ph_feed, ph_end, ph_free), and
 * reading back everything its descriptor serves — every element of every buffer and field,
 * its EVE object, its transaction id — so the sanitizers see every getter run on whatever
 * state the input left. Header-only, for parsers/<proto>/fuzz/fuzz_<proto>.c. */
#ifndef OSPREY_FUZZ_HARNESS_H
#define OSPREY_FUZZ_HARNESS_H

#include "osprey_json_writer.h"
#include "proto_harness.h"

#define FZ_ELEMENTS_MAX 1000 /* elements read per multi-buffer or field */

static volatile uint32_t fz_sink;

/* Everything pf's protocol serves now (nothing without state). */
static inline void fz_read_all(struct pflow *pf)
{
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    if (!d || !pf->state)
        return;
    struct osprey_scratch s;
    memset(&s, 0, sizeof s);
    for (size_t b = 0; b < d->nbuffers; b++)
        for (uint32_t i = 0; i < (d->buffers[b].multi ? FZ_ELEMENTS_MAX : 1u); i++) {
            uint32_t len = 0;
            const uint8_t *x = d->buffers[b].get(pf, d->buffers[b].key, i, &s, &len);
            if (!x)
                break;
            for (uint32_t k = 0; k < len; k++)
                fz_sink += x[k];
        }
    for (size_t fl = 0; fl < d->nfields; fl++) {
        int64_t v;
        for (uint32_t i = 0; i < FZ_ELEMENTS_MAX && d->fields[fl].get(pf, d->fields[fl].key, i, &v);
             i++)
            fz_sink += (uint32_t)v;
    }
    osprey_scratch_free(&s);
    if (d->eve) {
        struct osprey_jw w;
        osprey_jw_init(&w);
        osprey_jw_open(&w, NULL);
        d->eve(pf, &w);
        char *line = osprey_jw_finish(&w);
        fz_sink += line ? (uint32_t)strlen(line) : 0;
        free(line);
    }
    if (d->tx_id)
        fz_sink += d->tx_id(pf);
}

/* The tx callback: a transaction is reported (arg: its struct pflow). */
static inline void fz_on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p;
    fz_read_all(arg);
}

/* A flow of protocol name over l4, every transaction read back when reported. */
static inline void fz_init(struct ph *h, const char *name, uint8_t l4)
{
    ph_init(h, name, l4, 0, 0);
    h->w.tx_fn = fz_on_tx;
    h->w.tx_arg = &h->pf;
}

/* The input's records "direction byte, length byte, bytes" from data[at..size), each fed to
 * the flow (ph_feed: a segment, or a datagram on UDP) of at most scale * length bytes, with
 * everything read back after each when read_each. On TCP, the direction byte's bit 1 is a
 * gap before the record for a protocol that resyncs (its descriptor's gap: SMB, DCERPC, NFS,
 * sunrpc), as drivers.c calls it for bytes lost. */
static inline void fz_records(struct ph *h, const uint8_t *data, size_t size, size_t at,
                              size_t scale, bool read_each)
{
    while (at + 2 <= size) {
        int dir = data[at] & 1;
        bool gap = h->f.proto == 6 && (data[at] & 2);
        size_t n = (size_t)data[at + 1] * scale;
        at += 2;
        if (n > size - at)
            n = size - at;
        if (gap && h->def && h->def->gap && h->pf.state && !h->pf.dead[dir])
            h->def->gap(&h->pf, &h->f, dir);
        ph_feed(h, dir, data + at, n);
        if (read_each)
            fz_read_all(&h->pf);
        at += n;
    }
}

/* The mail protocols' driver (SMTP, POP3, IMAP: fuzz_smtp.c, fuzz_pop3.c, fuzz_imap.c). The
 * first byte picks the configuration (bit 0: a 64-byte attachment limit, the uint32_t at
 * limit_off in the protocol's settings; bit 1 with FZ_MAIL_FILES: every hash asked of the file
 * layer); then records "direction byte (bit 1 with FZ_MAIL_GAPS: a gap before them), length
 * byte, bytes" are fed as segments of either side to the flow's protocol's parser — the mail
 * protocol's, or TLS's after an accepted STARTTLS / STLS (so not ph_feed, which keeps the
 * first descriptor); the flow then ends. Each finished transaction, and the flow at the end,
 * has everything read back. */
#define FZ_MAIL_FILES 1u
#define FZ_MAIL_GAPS 2u
static inline int fz_mail(struct ph *h, const char *name, uint16_t port, size_t limit_off,
                          unsigned opts, const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    fz_init(h, name, 6);
    h->f.cport = 40000, h->f.sport = port;
    if (data[0] & 1)
        *(uint32_t *)((char *)parsers_proto_cfg(&h->p.cfg, h->pf.proto) + limit_off) = 64;
    if ((opts & FZ_MAIL_FILES) && (data[0] & 2))
        h->p.files = OSPREY_FILES_MD5 | OSPREY_FILES_SHA1 | OSPREY_FILES_SHA256;
    for (size_t at = 1; at + 2 <= size;) {
        int dir = data[at] & 1;
        bool gap = (opts & FZ_MAIL_GAPS) && (data[at] & 2);
        size_t n = data[at + 1];
        at += 2;
        if (n > size - at)
            n = size - at;
        const struct osprey_proto_def *d = reg_proto(h->pf.proto);
        if (gap && d && d->gap && !h->pf.dead[dir]) /* bytes lost before these */
            d->gap(&h->pf, &h->f, dir);
        if (h->pf.proto == OSPREY_APP_PROTO_UNKNOWN) /* a change under way (STARTTLS): */
            parsers_feed(&h->pf, &h->f, dir, data + at, n); /* detection again, as drivers.c */
        else if (d && d->parse && !h->pf.dead[dir])
            d->parse(&h->pf, &h->f, dir, data + at, n);
        at += n;
    }
    fz_read_all(&h->pf);
    h->def = reg_proto(h->pf.proto); /* (the flow's protocol now: its end, its state_free) */
    ph_end(h);
    ph_free(h);
    return 0;
}

#endif
