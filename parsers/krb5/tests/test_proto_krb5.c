/* test_proto_krb5.c — Kerberos 5's descriptor, bytes in, buffers out: an AS-REQ, a KRB-ERROR,
 * an AS-REP over TCP with their record marks cut at every byte, and over UDP; each message a
 * transaction read in the tx callback (cname / sname components, msg type, error code,
 * encryption types and weakness); records too long, a reserved high bit, malformed messages;
 * the probes. */
#include "ber_build.h"
#include "krb5_int.h"
#include "proto_harness.h"
#include "unit.h"

static struct bb principal(int type, const char *a, const char *b)
{
    struct bb names = b ? BB_SEQ(bb_str(0x1b, a), bb_str(0x1b, b)) : BB_SEQ(bb_str(0x1b, a));
    return BB_SEQ(bb_wrap(0xa0, bb_int(0x02, type)), bb_wrap(0xa1, names));
}

static struct bb enc_data(int etype)
{
    return BB_SEQ(bb_wrap(0xa0, bb_int(0x02, etype)), bb_wrap(0xa2, bb_str(0x04, "cipher")));
}

static struct bb as_req(void)
{
    static const uint8_t opts[] = {0x00, 0x40, 0x81, 0x00, 0x10};
    struct bb body = BB_SEQ(bb_wrap(0xa0, bb_tlv(0x03, opts, sizeof opts)),
                            bb_wrap(0xa1, principal(1, "alice", NULL)),
                            bb_wrap(0xa2, bb_str(0x1b, "EXAMPLE.ORG")),
                            bb_wrap(0xa3, principal(2, "krbtgt", "EXAMPLE.ORG")),
                            bb_wrap(0xa7, bb_int(0x02, 12345)));
    return bb_wrap(0x6a, BB_SEQ(bb_wrap(0xa1, bb_int(0x02, 5)), bb_wrap(0xa2, bb_int(0x02, 10)),
                                bb_wrap(0xa4, body)));
}

static struct bb as_rep(int etype, int ticket_etype)
{
    struct bb ticket = bb_wrap(0x61, BB_SEQ(bb_wrap(0xa0, bb_int(0x02, 5)),
                                            bb_wrap(0xa1, bb_str(0x1b, "EXAMPLE.ORG")),
                                            bb_wrap(0xa2, principal(2, "krbtgt", "EXAMPLE.ORG")),
                                            bb_wrap(0xa3, enc_data(ticket_etype))));
    return bb_wrap(0x6b, BB_SEQ(bb_wrap(0xa0, bb_int(0x02, 5)), bb_wrap(0xa1, bb_int(0x02, 11)),
                                bb_wrap(0xa3, bb_str(0x1b, "EXAMPLE.ORG")),
                                bb_wrap(0xa4, principal(1, "alice", NULL)),
                                bb_wrap(0xa5, ticket), bb_wrap(0xa6, enc_data(etype))));
}

static struct bb krb_error(int code)
{
    return bb_wrap(0x7e, BB_SEQ(bb_wrap(0xa0, bb_int(0x02, 5)), bb_wrap(0xa1, bb_int(0x02, 30)),
                                bb_wrap(0xa4, bb_str(0x18, "20260101000000Z")),
                                bb_wrap(0xa5, bb_int(0x02, 0)),
                                bb_wrap(0xa6, bb_int(0x02, code)),
                                bb_wrap(0xa9, bb_str(0x1b, "EXAMPLE.ORG")),
                                bb_wrap(0xaa, principal(2, "krbtgt", "EXAMPLE.ORG"))));
}

static struct bb record(struct bb m)
{
    uint8_t mark[4] = {(uint8_t)(m.n >> 24), (uint8_t)(m.n >> 16), (uint8_t)(m.n >> 8),
                       (uint8_t)m.n};
    struct bb r = bb_empty();
    memcpy(r.p, mark, 4);
    r.n = 4;
    return bb_cat(r, m);
}

/* what each reported transaction held */
struct snap {
    int64_t type, err, tenc, tweak, weak;
    bool has_err, has_tenc;
    char cname[32], sname[64];
    uint32_t ncname, nsname;
};
static struct snap snaps[8];
static uint32_t nsnaps;
static struct ph *cur_h;

static void join(struct ph *h, const char *name, char *out, size_t cap, uint32_t *n)
{
    uint32_t len, i;
    size_t o = 0;
    out[0] = 0;
    for (i = 0; ph_buf(h, name, 1, i, &len); i++) {
        const uint8_t *d = ph_buf(h, name, 1, i, &len);
        if (i && o + 1 < cap)
            out[o++] = '/';
        for (uint32_t k = 0; k < len && o + 1 < cap; k++)
            out[o++] = (char)d[k];
    }
    out[o] = 0;
    *n = i;
}

static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p, (void)arg;
    struct ph *h = cur_h;
    h->txs++;
    if (nsnaps >= 8)
        return;
    struct snap *s = &snaps[nsnaps++];
    memset(s, 0, sizeof *s);
    ph_field(h, "krb5_msg_type", 0, &s->type);
    s->has_err = ph_field(h, "krb5_err_code", 0, &s->err);
    s->has_tenc = ph_field(h, "krb5.ticket_encryption", 0, &s->tenc);
    ph_field(h, "krb5.ticket_weak_encryption", 0, &s->tweak);
    ph_field(h, "krb5.weak_encryption", 0, &s->weak);
    join(h, "krb5.cname", s->cname, sizeof s->cname, &s->ncname);
    join(h, "krb5.sname", s->sname, sizeof s->sname, &s->nsname);
}

static void start(struct ph *h, uint8_t l4)
{
    ph_init(h, "krb5", l4, 50000, 88);
    h->w.tx_fn = on_tx;
    cur_h = h;
    nsnaps = 0;
}

static void check_exchange(void)
{
    CHECK(nsnaps == 3);
    CHECK(snaps[0].type == KRB5_AS_REQ && !snaps[0].has_err && !snaps[0].has_tenc);
    CHECK(!strcmp(snaps[0].cname, "alice") && !strcmp(snaps[0].sname, "krbtgt/EXAMPLE.ORG"));
    CHECK(snaps[0].nsname == 2 && snaps[0].weak == 0);
    CHECK(snaps[1].type == KRB5_ERROR && snaps[1].has_err && snaps[1].err == 25);
    CHECK(snaps[1].ncname == 0 && !strcmp(snaps[1].sname, "krbtgt/EXAMPLE.ORG"));
    CHECK(snaps[2].type == KRB5_AS_REP && snaps[2].has_tenc && snaps[2].tenc == 23);
    CHECK(snaps[2].tweak == 1 && snaps[2].weak == 0); /* rc4 ticket, aes256 reply */
    CHECK(!strcmp(snaps[2].cname, "alice"));
}

static void tcp_any_cut(void)
{
    struct bb req = record(as_req()), err = record(krb_error(25)), rep = record(as_rep(18, 23));
    struct bb srv = bb_cat(err, rep);
    for (size_t cut = 0; cut <= req.n; cut++) {
        struct ph h;
        start(&h, 6);
        ph_feed(&h, 0, req.p, cut);
        ph_feed(&h, 0, req.p + cut, req.n - cut);
        size_t c2 = cut % srv.n;
        ph_feed(&h, 1, srv.p, c2);
        ph_feed(&h, 1, srv.p + c2, srv.n - c2);
        check_exchange();
        CHECK(ph_count(&h, "krb5_tx") == 3 && ph_count(&h, "krb5_malformed") == 0);
        ph_free(&h);
    }
    /* byte by byte */
    struct ph h;
    start(&h, 6);
    for (size_t i = 0; i < req.n; i++)
        ph_feed(&h, 0, req.p + i, 1);
    for (size_t i = 0; i < srv.n; i++)
        ph_feed(&h, 1, srv.p + i, 1);
    check_exchange();
    ph_free(&h);
}

static void udp(void)
{
    struct ph h;
    start(&h, 17);
    struct bb req = as_req(), err = krb_error(25), rep = as_rep(18, 23);
    ph_feed(&h, 0, req.p, req.n);
    ph_feed(&h, 1, err.p, err.n);
    ph_feed(&h, 1, rep.p, rep.n);
    check_exchange();
    /* a datagram that is no Kerberos message: malformed, counted, the flow goes on */
    ph_feed(&h, 0, "\x30\x03\x02\x01\x05", 5);
    CHECK(ph_count(&h, "krb5_malformed") == 1);
    ph_feed(&h, 0, req.p, req.n);
    CHECK(nsnaps == 4);
    ph_free(&h);
}

static void limits(void)
{
    struct ph h;
    start(&h, 6);
    /* a record longer than KRB5_RECORD_MAX is skipped, the next one read */
    uint32_t big = KRB5_RECORD_MAX + 1;
    uint8_t mark[4] = {(uint8_t)(big >> 24), (uint8_t)(big >> 16), (uint8_t)(big >> 8),
                       (uint8_t)big};
    ph_feed(&h, 0, mark, 4);
    static uint8_t junk[4096];
    for (uint32_t left = big; left;) {
        uint32_t k = left < sizeof junk ? left : sizeof junk;
        ph_feed(&h, 0, junk, k);
        left -= k;
    }
    struct bb req = record(as_req());
    ph_feed(&h, 0, req.p, req.n);
    CHECK(ph_count(&h, "krb5_skipped") == 1 && nsnaps == 1 && snaps[0].type == KRB5_AS_REQ);
    /* the reserved high bit: malformed, that side given up */
    ph_feed(&h, 1, "\x80\x00\x00\x10", 4);
    CHECK(h.pf.dead[1] && ph_count(&h, "krb5_malformed") == 1);
    ph_free(&h);
    /* a record that does not decode gives the side up */
    start(&h, 6);
    struct bb bad = record(bb_str(0x04, "not kerberos"));
    ph_feed(&h, 0, bad.p, bad.n);
    CHECK(h.pf.dead[0] && nsnaps == 0);
    ph_free(&h);
    /* names with more components than kept: counted */
    start(&h, 17);
    struct bb many = bb_empty();
    for (int i = 0; i < KRB5_NAME_PARTS + 3; i++)
        many = bb_cat(many, bb_str(0x1b, "p"));
    struct bb pn = BB_SEQ(bb_wrap(0xa0, bb_int(0x02, 1)), bb_wrap(0xa1, bb_wrap(0x30, many)));
    struct bb body = BB_SEQ(bb_wrap(0xa1, pn), bb_wrap(0xa2, bb_str(0x1b, "R")));
    struct bb m = bb_wrap(0x6c, BB_SEQ(bb_wrap(0xa1, bb_int(0x02, 5)),
                                       bb_wrap(0xa2, bb_int(0x02, 12)), bb_wrap(0xa4, body)));
    ph_feed(&h, 0, m.p, m.n);
    CHECK(nsnaps == 1 && snaps[0].type == KRB5_TGS_REQ && ph_count(&h, "krb5_shed") == 3);
    ph_free(&h);
}

/* the connection closed with a record half in: its bytes are dropped (state_trim) */
static void trim(void)
{
    struct ph h;
    start(&h, 6);
    struct bb req = record(as_req());
    ph_feed(&h, 0, req.p, req.n / 2);
    const struct krb5_state *st = h.pf.state;
    CHECK(st->dir[0].buf.len == req.n / 2);
    h.def->state_trim(h.pf.state);
    CHECK(st->dir[0].buf.p == NULL && st->dir[0].buf.len == 0 && nsnaps == 0);
    ph_free(&h);
}

static void probes(void)
{
    struct bb req = as_req(), rec = record(as_req());
    CHECK(krb5_probe_udp(req.p, req.n, NULL) == DET_YES);
    CHECK(krb5_probe_tcp(rec.p, rec.n, NULL) == DET_YES);
    CHECK(krb5_probe_tcp(rec.p, 6, NULL) == DET_NEED_MORE);
    CHECK(krb5_probe_tcp((const uint8_t *)"GET / HTTP/1.1\r\n", 16, NULL) == DET_NO);
    CHECK(krb5_probe_udp((const uint8_t *)"\x30\x0c\x02\x01\x01\x04\x07public", 14, NULL) ==
          DET_NO);
    struct bb v4 = bb_wrap(0x6a, BB_SEQ(bb_wrap(0xa1, bb_int(0x02, 4)), bb_str(0x04, "xxxxxxx")));
    CHECK(krb5_probe_udp(v4.p, v4.n, NULL) == DET_NO); /* pvno 4 */
}

static void names(void)
{
    CHECK(!strcmp(krb5_etype_name(23), "rc4-hmac"));
    CHECK(!strcmp(krb5_etype_name(18), "aes256-cts-hmac-sha1-96"));
    CHECK(krb5_etype_name(99) == NULL);
    CHECK(krb5_weak(23) && krb5_weak(3) && !krb5_weak(17) && !krb5_weak(26));
    CHECK(!strcmp(krb5_error_name(25), "KDC_ERR_PREAUTH_REQUIRED"));
    CHECK(krb5_error_name(30) == NULL && krb5_error_name(-1) == NULL);
    CHECK(!strcmp(krb5_msg_type_name(KRB5_TGS_REP), "KRB_TGS_REP"));
}

int main(void)
{
    tcp_any_cut();
    udp();
    limits();
    trim();
    probes();
    names();
    return unit_report("test_proto_krb5");
}
