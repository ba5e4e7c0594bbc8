/* test_proto_ldap.c — LDAP's descriptor, bytes in, buffers out: a bind and a search with
 * two entries and its result over TCP cut at every byte, each request and response read as
 * its event sees it (the request's DN and attributes; the newest response's DN, message and
 * attribute types; the responses' operations and result codes so far, their count); an
 * unsolicited notification; unbind; the limits (max-tx, responses kept, messages too long),
 * malformed messages and the probes; a gap (the direction read again from a chunk that
 * starts with a whole message). */
#include "ber_build.h"
#include "ldap_int.h"
#include "proto_harness.h"
#include "unit.h"

static struct bb msg(int id, struct bb op)
{
    return BB_SEQ(bb_int(0x02, id), op);
}

static struct bb bind_req(int id)
{
    return msg(id, BB_CONS(0x60, bb_int(0x02, 3), bb_str(0x04, "cn=admin,dc=example,dc=com"),
                           bb_str(0x80, "secret")));
}

static struct bb result(int id, uint8_t tag, int code, const char *dn, const char *text)
{
    return msg(id, BB_CONS(tag, bb_int(0x0a, code), bb_str(0x04, dn), bb_str(0x04, text)));
}

static struct bb search_req(int id)
{
    return msg(id, BB_CONS(0x63, bb_str(0x04, "dc=example,dc=com"), bb_int(0x0a, 2),
                           bb_int(0x0a, 0), bb_int(0x02, 0), bb_int(0x02, 0),
                           bb_tlv(0x01, "\x00", 1), bb_str(0x87, "objectClass"),
                           BB_SEQ(bb_str(0x04, "cn"), bb_str(0x04, "mail"))));
}

static struct bb entry(int id, const char *dn)
{
    struct bb attrs = BB_SEQ(BB_SEQ(bb_str(0x04, "cn"), BB_CONS(0x31, bb_str(0x04, "Alice"))),
                             BB_SEQ(bb_str(0x04, "mail"),
                                    BB_CONS(0x31, bb_str(0x04, "a@example.com"),
                                            bb_str(0x04, "alice@example.com"))));
    return msg(id, BB_CONS(0x64, bb_str(0x04, dn), attrs));
}

struct snap {
    int ev;                        /* 0 request, 1 response (from what is in force) */
    int64_t req_op, count, ops[4], codes[4];
    uint32_t nops;
    char req_dn[64], resp_dn[64], resp_msg[64], attrs[64];
};
static struct snap snaps[16];
static uint32_t nsnaps;

static void str_of(struct ph *h, const char *name, int dir, char *out, size_t cap)
{
    uint32_t n, i;
    size_t o = 0;
    out[0] = 0;
    for (i = 0; ph_buf(h, name, dir, i, &n); i++) {
        const uint8_t *d = ph_buf(h, name, dir, i, &n);
        if (i && o + 1 < cap)
            out[o++] = ',';
        for (uint32_t k = 0; k < n && o + 1 < cap; k++)
            out[o++] = (char)d[k];
    }
    out[o] = 0;
}

/* the state as a rule would see it now */
static void snap(struct ph *h)
{
    if (nsnaps >= 16)
        return;
    struct snap *s = &snaps[nsnaps++];
    memset(s, 0, sizeof *s);
    s->req_op = -1;
    ph_field(h, "ldap.request.operation", 0, &s->req_op);
    ph_field(h, "ldap.responses.count", 0, &s->count);
    while (s->nops < 4 && ph_field(h, "ldap.responses.operation", s->nops, &s->ops[s->nops])) {
        ph_field(h, "ldap.responses.result_code", s->nops, &s->codes[s->nops]);
        s->nops++;
    }
    str_of(h, "ldap.request.dn", 0, s->req_dn, sizeof s->req_dn);
    str_of(h, "ldap.responses.dn", 1, s->resp_dn, sizeof s->resp_dn);
    str_of(h, "ldap.responses.message", 1, s->resp_msg, sizeof s->resp_msg);
    str_of(h, "ldap.responses.attribute_type", 1, s->attrs, sizeof s->attrs);
}

static void session(struct ph *h, const struct bb *cli, const struct bb *srv, size_t cut)
{
    for (int k = 0; k < 2; k++) {
        const struct bb *b = k ? srv : cli;
        size_t c = cut % (b->n + 1);
        ph_feed(h, k, b->p, c);
        ph_feed(h, k, b->p + c, b->n - c);
    }
}

static void search(void)
{
    struct bb cli = bb_cat(bind_req(1), search_req(2));
    struct bb srv = bb_cat(bb_cat(result(1, 0x61, 0, "", ""), entry(2, "cn=alice,dc=example,dc=com")),
                           bb_cat(entry(2, "cn=bob,dc=example,dc=com"),
                                  result(2, 0x65, 4, "dc=example,dc=com", "too many")));
    for (size_t cut = 0; cut <= srv.n; cut += 7) {
        struct ph h;
        ph_init(&h, "ldap", 6, 40000, 389);
        session(&h, &cli, &srv, cut);
        CHECK(h.txs == 2 && ph_count(&h, "ldap_messages") == 6);
        CHECK(ph_count(&h, "ldap_malformed") == 0);
        /* the search, as its last response left it */
        int64_t v;
        CHECK(ph_field(&h, "ldap.request.operation", 0, &v) && v == LOP_SEARCH_REQ);
        CHECK(ph_field(&h, "ldap.responses.count", 0, &v) && v == 3);
        CHECK(ph_field(&h, "ldap.responses.operation", 0, &v) && v == LOP_SEARCH_ENTRY);
        CHECK(ph_field(&h, "ldap.responses.operation", 2, &v) && v == LOP_SEARCH_DONE);
        CHECK(ph_field(&h, "ldap.responses.result_code", 0, &v) && v == -1);
        CHECK(ph_field(&h, "ldap.responses.result_code", 2, &v) && v == 4);
        CHECK(!ph_field(&h, "ldap.responses.operation", 3, &v));
        CHECK(ph_buf_is(&h, "ldap.request.dn", 0, 0, "dc=example,dc=com"));
        CHECK(ph_buf_is(&h, "ldap.request.attribute_type", 0, 1, "mail"));
        CHECK(ph_nbuf(&h, "ldap.request.attribute_type", 0) == 2);
        CHECK(ph_buf_is(&h, "ldap.responses.dn", 1, 0, "dc=example,dc=com"));
        CHECK(ph_buf_is(&h, "ldap.responses.message", 1, 0, "too many"));
        CHECK(ph_nbuf(&h, "ldap.responses.attribute_type", 1) == 0); /* the result has none */
        ph_free(&h);
    }
}

/* each event's view, with the harness reading after each message */
static void views(void)
{
    struct ph h;
    ph_init(&h, "ldap", 6, 40000, 389);
    nsnaps = 0;
    struct bb m[] = {search_req(7), entry(7, "cn=alice,dc=example,dc=com"),
                     result(7, 0x65, 0, "", "")};
    for (int i = 0; i < 3; i++) {
        ph_feed(&h, i ? 1 : 0, m[i].p, m[i].n);
        snap(&h);
    }
    CHECK(snaps[0].req_op == LOP_SEARCH_REQ && snaps[0].count == 0 && snaps[0].nops == 0);
    CHECK(!strcmp(snaps[0].req_dn, "dc=example,dc=com"));
    CHECK(snaps[1].count == 1 && snaps[1].nops == 1 && snaps[1].ops[0] == LOP_SEARCH_ENTRY);
    CHECK(!strcmp(snaps[1].resp_dn, "cn=alice,dc=example,dc=com"));
    CHECK(!strcmp(snaps[1].attrs, "cn,mail") && snaps[1].resp_msg[0] == 0);
    CHECK(snaps[2].count == 2 && snaps[2].ops[1] == LOP_SEARCH_DONE && snaps[2].codes[1] == 0);
    CHECK(snaps[2].resp_dn[0] == 0 && snaps[2].attrs[0] == 0); /* the newest: the result */
    CHECK(h.txs == 1);
    /* an unsolicited notification (id 0): a transaction without request */
    struct bb note = msg(0, BB_CONS(0x78, bb_int(0x0a, 52), bb_str(0x04, ""),
                                    bb_str(0x04, "shutting down"),
                                    bb_str(0x8a, "1.3.6.1.4.1.1466.20036")));
    ph_feed(&h, 1, note.p, note.n);
    int64_t v;
    CHECK(h.txs == 2 && !ph_field(&h, "ldap.request.operation", 0, &v));
    CHECK(ph_field(&h, "ldap.responses.result_code", 0, &v) && v == 52);
    /* unbind: finished at once */
    struct bb unbind = msg(9, bb_tlv(0x42, "", 0));
    ph_feed(&h, 0, unbind.p, unbind.n);
    CHECK(h.txs == 3 && ph_field(&h, "ldap.request.operation", 0, &v) && v == LOP_UNBIND_REQ);
    ph_free(&h);
}

static void limits(void)
{
    struct ph h;
    ph_init(&h, "ldap", 6, 40000, 389);
    ((struct ldap_cfg *)parsers_proto_cfg(&h.p.cfg, h.pf.proto))->max_tx = 2;
    for (int id = 1; id <= 4; id++) {
        struct bb s = search_req(id);
        ph_feed(&h, 0, s.p, s.n);
    }
    CHECK(h.txs == 2 && ph_count(&h, "ldap_tx_shed") == 2); /* the two oldest finished */
    /* responses past LDAP_RESP_MAX: counted, still numbered */
    for (int i = 0; i < LDAP_RESP_MAX + 2; i++) {
        struct bb e = entry(4, "cn=x");
        ph_feed(&h, 1, e.p, e.n);
    }
    int64_t v;
    CHECK(ph_field(&h, "ldap.responses.count", 0, &v) && v == LDAP_RESP_MAX + 2);
    CHECK(ph_nbuf(&h, "ldap.responses.dn", 1) == 0); /* the newest was not kept */
    CHECK(ph_count(&h, "ldap_shed") == 2);
    /* a message longer than LDAP_MSG_MAX is skipped */
    uint8_t hdr[] = {0x30, 0x84, 0x00, 0x20, 0x00, 0x00};
    ph_feed(&h, 0, hdr, sizeof hdr);
    static uint8_t zero[4096];
    for (uint32_t left = 0x200000; left;) {
        uint32_t k = left < sizeof zero ? left : sizeof zero;
        ph_feed(&h, 0, zero, k);
        left -= k;
    }
    struct bb b = bind_req(50);
    ph_feed(&h, 0, b.p, b.n);
    CHECK(ph_count(&h, "ldap_skipped") == 1 && ph_field(&h, "ldap.request.operation", 0, &v) &&
          v == LOP_BIND_REQ);
    ph_free(&h);
    /* not LDAP after all: malformed, that side given up */
    ph_init(&h, "ldap", 6, 40000, 389);
    struct bb bad = BB_SEQ(bb_int(0x02, 1), bb_str(0x04, "x"));
    ph_feed(&h, 0, bad.p, bad.n);
    CHECK(h.pf.dead[0] && ph_count(&h, "ldap_malformed") == 1);
    ph_free(&h);
    /* CLDAP: a datagram's messages */
    ph_init(&h, "ldap", 17, 40000, 389);
    struct bb d = bb_cat(search_req(3), search_req(4));
    ph_feed(&h, 0, d.p, d.n);
    CHECK(ph_count(&h, "ldap_messages") == 2);
    ph_free(&h);
}

/* the connection closed with a message half in: its bytes are dropped (state_trim), the
 * transaction waiting is still finished at the end */
static void trim(void)
{
    struct ph h;
    ph_init(&h, "ldap", 6, 40000, 389);
    struct bb s = search_req(5), e = entry(5, "cn=x");
    ph_feed(&h, 0, s.p, s.n);
    ph_feed(&h, 1, e.p, e.n / 2);
    const struct ldap_state *st = h.pf.state;
    CHECK(st->dir[1].buf.len == e.n / 2);
    h.def->state_trim(h.pf.state);
    CHECK(st->dir[1].buf.p == NULL && h.txs == 0);
    ph_end(&h);
    CHECK(h.txs == 1);
    ph_free(&h);
}

static void probes(void)
{
    struct bb b = bind_req(1);
    struct mon_flow f = {.proto = 17, .cport = 5000, .sport = 389};
    CHECK(ldap_probe(b.p, b.n, NULL) == DET_YES);
    CHECK(ldap_probe(b.p, 3, NULL) == DET_NEED_MORE);
    CHECK(ldap_probe_udp(b.p, b.n, &f) == DET_YES);
    f.sport = 161;
    CHECK(ldap_probe_udp(b.p, b.n, &f) == DET_NO);
    static const uint8_t snmp[] = {0x30, 0x0c, 0x02, 0x01, 0x01, 0x04, 0x07,
                                   'p', 'u', 'b', 'l', 'i', 'c', 0xa0};
    CHECK(ldap_probe(snmp, sizeof snmp, NULL) == DET_NO);
    CHECK(ldap_probe((const uint8_t *)"SSH-2.0", 7, NULL) == DET_NO);
    CHECK(!strcmp(ldap_op_name(LOP_SEARCH_DONE), "search_result_done"));
    CHECK(!strcmp(ldap_result_name(4), "size_limit_exceeded"));
}

/* Bytes lost on TCP: the search request is cut by the hole; chunks that do not start with a
 * whole LDAPMessage are passed over (no invalid_data), the next that does is read. */
static void gap(void)
{
    struct ph h;
    ph_init(&h, "ldap", 6, 40000, 389);
    struct bb b = bind_req(1), s = search_req(2), r = result(1, 0x61, 0, "", "");
    ph_feed(&h, 0, b.p, b.n);
    ph_feed(&h, 0, s.p, 9);
    h.def->gap(&h.pf, &h.f, 0);
    ph_feed(&h, 0, s.p + 20, s.n - 20); /* the search's tail */
    struct bb u = msg(3, bb_tlv(0x42, "", 0)); /* unbind */
    ph_feed(&h, 0, u.p, u.n - 1);            /* a message not whole in its chunk: passed over */
    CHECK(!h.pf.dead[0] && ph_count(&h, "ldap_messages") == 1);
    CHECK(ph_count(&h, "ldap_malformed") == 0 && h.txs == 0);
    ph_feed(&h, 0, u.p, u.n);
    CHECK(ph_count(&h, "ldap_messages") == 2 && h.txs == 1); /* the unbind, finished */
    /* the server's side: its answer cut, then a whole one resyncs */
    ph_feed(&h, 1, r.p, 4);
    h.def->gap(&h.pf, &h.f, 1);
    ph_feed(&h, 1, r.p, r.n);
    CHECK(ph_count(&h, "ldap_messages") == 3 && h.txs == 2 && !h.pf.dead[1]);
    ph_free(&h);
}

int main(void)
{
    search();
    gap();
    views();
    limits();
    trim();
    probes();
    return unit_report("test_proto_ldap");
}
