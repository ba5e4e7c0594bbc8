/* test_proto_dcerpc.c — DCERPC's descriptor, bytes in, buffers out: a bind and its ack
 * (contexts, results), a request in two fragments reassembled into dcerpc.stub_data with its
 * opnum and interface fields, its response, a bind without PFC_FIRST_FRAG binding nothing,
 * PDUs split anywhere, the frames, the stub limit, big-endian PDUs, connectionless over UDP,
 * the probes, a gap (the next PDU header found again). */
#include "dcerpc_int.h"
#include "proto_harness.h"
#include "unit.h"

/* 367abb81-9844-35f1-ad32-98f038001003 (svcctl) as a little-endian PDU carries it */
static const uint8_t SVCCTL_LE[16] = {0x81, 0xbb, 0x7a, 0x36, 0x44, 0x98, 0xf1, 0x35,
                                      0xad, 0x32, 0x98, 0xf0, 0x38, 0x00, 0x10, 0x03};
static const uint8_t SVCCTL_TEXT[16] = {0x36, 0x7a, 0xbb, 0x81, 0x98, 0x44, 0x35, 0xf1,
                                        0xad, 0x32, 0x98, 0xf0, 0x38, 0x00, 0x10, 0x03};

struct pdu {
    uint8_t b[4096];
    uint32_t n;
    bool big;
};

static void put8(struct pdu *p, uint8_t v) { p->b[p->n++] = v; }
static void put16(struct pdu *p, uint16_t v)
{
    put8(p, p->big ? (uint8_t)(v >> 8) : (uint8_t)v);
    put8(p, p->big ? (uint8_t)v : (uint8_t)(v >> 8));
}
static void put32(struct pdu *p, uint32_t v)
{
    if (p->big) {
        put16(p, (uint16_t)(v >> 16)), put16(p, (uint16_t)v);
    } else {
        put16(p, (uint16_t)v), put16(p, (uint16_t)(v >> 16));
    }
}
static void putn(struct pdu *p, const void *d, uint32_t n)
{
    memcpy(p->b + p->n, d, n);
    p->n += n;
}

/* The common header; the fragment length is set by done(). */
static void hdr(struct pdu *p, uint8_t type, uint8_t flags, uint32_t call_id, bool big)
{
    memset(p, 0, sizeof *p);
    p->big = big;
    put8(p, 5), put8(p, 0), put8(p, type), put8(p, flags);
    put8(p, big ? 0x00 : 0x10), put8(p, 0), put8(p, 0), put8(p, 0);
    put16(p, 0), put16(p, 0), put32(p, call_id);
}
static void done(struct pdu *p)
{
    p->b[8] = p->big ? (uint8_t)(p->n >> 8) : (uint8_t)p->n;
    p->b[9] = p->big ? (uint8_t)p->n : (uint8_t)(p->n >> 8);
}

static void bind(struct pdu *p, uint8_t flags, uint16_t ctxid, uint16_t vmaj)
{
    static const uint8_t NDR[20] = {0x04, 0x5d, 0x88, 0x8a, 0xeb, 0x1c, 0xc9, 0x11, 0x9f, 0xe8,
                                    0x08, 0x00, 0x2b, 0x10, 0x48, 0x60, 0x02, 0, 0, 0};
    hdr(p, DCE_BIND, flags, 1, false);
    put16(p, 4280), put16(p, 4280), put32(p, 0);
    put8(p, 1), put8(p, 0), put8(p, 0), put8(p, 0);
    put16(p, ctxid), put8(p, 1), put8(p, 0);
    putn(p, SVCCTL_LE, 16), put16(p, vmaj), put16(p, 0);
    putn(p, NDR, 20);
    done(p);
}

static void bind_ack(struct pdu *p, uint16_t result)
{
    hdr(p, DCE_BIND_ACK, 3, 1, false);
    put16(p, 4280), put16(p, 4280), put32(p, 0x1234);
    put16(p, 4), putn(p, "135", 4); /* secondary address: 26 bytes from the PDU's start */
    put16(p, 0);                   /* padding to 28 */
    put8(p, 1), put8(p, 0), put8(p, 0), put8(p, 0);
    put16(p, result), put16(p, 0);
    uint8_t ts[20] = {0};
    putn(p, ts, 20);
    done(p);
}

static void request(struct pdu *p, uint8_t flags, uint16_t ctxid, uint16_t opnum,
                    const char *stub, bool big)
{
    hdr(p, DCE_REQUEST, flags, 7, big);
    put32(p, (uint32_t)strlen(stub)), put16(p, ctxid), put16(p, opnum);
    putn(p, stub, (uint32_t)strlen(stub));
    done(p);
}

static void response(struct pdu *p, uint8_t flags, const char *stub)
{
    hdr(p, DCE_RESPONSE, flags, 7, false);
    put32(p, (uint32_t)strlen(stub)), put16(p, 0), put8(p, 0), put8(p, 0);
    putn(p, stub, (uint32_t)strlen(stub));
    done(p);
}

static int64_t fieldv(struct ph *h, const char *name)
{
    int64_t v = -1;
    return ph_field(h, name, 0, &v) ? v : -1;
}

static void test_bind_request_response(void)
{
    struct ph h;
    struct pdu p;
    ph_init(&h, "dcerpc", 6, 50000, 135);
    bind(&p, 3, 0, 2);
    for (uint32_t i = 0; i < p.n; i++) /* a byte at a time */
        ph_feed(&h, 0, p.b + i, 1);
    CHECK(ph_buf(&h, "frame:dcerpc.hdr", 0, 0, &(uint32_t){0}));
    bind_ack(&p, 0);
    ph_feed(&h, 1, p.b, p.n);
    CHECK_EQ_U(h.txs, 1); /* the bind and its ack */
    struct dce_state *st = h.pf.state;
    CHECK_EQ_U(st->nctx, 1);
    CHECK(st->ctx[0].acked && st->ctx[0].result == 0 && st->ctx[0].vmaj == 2);
    CHECK(!memcmp(st->ctx[0].uuid, SVCCTL_TEXT, 16));

    /* a request in two fragments */
    struct pdu a, b;
    request(&a, DCE_PFC_FIRST, 0, 15, "BBBB", false);
    request(&b, DCE_PFC_LAST, 0, 15, "CCCC", false);
    ph_feed(&h, 0, a.b, a.n);
    CHECK(!ph_buf(&h, "dcerpc.stub_data", 0, 0, &(uint32_t){0})); /* not whole yet */
    uint8_t both[256];
    memcpy(both, b.b, b.n);
    ph_feed(&h, 0, both, b.n);
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 0, 0, "BBBBCCCC"));
    CHECK_EQ_U(fieldv(&h, "dcerpc.opnum"), 15);
    CHECK_EQ_U(fieldv(&h, "dcerpc.first_frag"), 1);
    CHECK_EQ_U(fieldv(&h, "dcerpc.iface_version"), 2);
    CHECK_EQ_U((uint64_t)fieldv(&h, "dcerpc.iface_hi"), 0x367abb81984435f1ull);
    CHECK_EQ_U((uint64_t)fieldv(&h, "dcerpc.iface_lo"), 0xad3298f038001003ull);
    CHECK_EQ_U(fieldv(&h, "dcerpc.little_endian"), 1);
    uint32_t n;
    const uint8_t *d = ph_buf(&h, "frame:dcerpc.data", 0, 0, &n); /* the last PDU's body */
    CHECK(d && n == 12 && !memcmp(d, "\x04\0\0\0\0\0\x0f\0CCCC", 12));
    d = ph_buf(&h, "frame:dcerpc.pdu", 0, 0, &n);
    CHECK(d && n == b.n && !memcmp(d, b.b, n)); /* the last PDU whole */
    CHECK_EQ_U(h.txs, 1);

    response(&p, 3, "OKOK");
    ph_feed(&h, 1, p.b, p.n);
    /* Suricata's response stub: the whole body, alloc hint (4), context id (2) and cancel
     * count (1 + 1 reserved) first */
    uint32_t rn;
    const uint8_t *rs = ph_buf(&h, "dcerpc.stub_data", 1, 0, &rn);
    CHECK(rs && rn == 12 && !memcmp(rs, "\x04\0\0\0\0\0\0\0OKOK", 12));
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 0, 0, "BBBBCCCC")); /* still its request's */
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(ph_count(&h, "dcerpc_pdus"), 5);
    CHECK_EQ_U(ph_count(&h, "dcerpc_txs"), 2);

    /* a request on a context never bound: no interface */
    request(&p, 3, 9, 1, "x", false);
    ph_feed(&h, 0, p.b, p.n);
    CHECK_EQ_U(fieldv(&h, "dcerpc.iface_hi"), -1);
    CHECK_EQ_U(fieldv(&h, "dcerpc.opnum"), 1);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 3); /* the unanswered request, at the end */
    ph_free(&h);
}

static void test_odd_binds(void)
{
    struct ph h;
    struct pdu p;
    /* a bind without PFC_FIRST_FRAG binds nothing (Suricata 8.0.5) */
    ph_init(&h, "dcerpc", 6, 50000, 135);
    bind(&p, 0, 0, 1);
    ph_feed(&h, 0, p.b, p.n);
    bind_ack(&p, 0);
    ph_feed(&h, 1, p.b, p.n);
    request(&p, 3, 0, 42, "zz", false);
    ph_feed(&h, 0, p.b, p.n);
    CHECK_EQ_U(fieldv(&h, "dcerpc.opnum"), 42);
    CHECK_EQ_U(fieldv(&h, "dcerpc.iface_hi"), -1);
    ph_free(&h);

    /* a refused context (result 2) gives no interface; a request without its first
     * fragment's flag is not first_frag */
    ph_init(&h, "dcerpc", 6, 50000, 135);
    bind(&p, 3, 0, 1);
    ph_feed(&h, 0, p.b, p.n);
    bind_ack(&p, 2);
    ph_feed(&h, 1, p.b, p.n);
    request(&p, DCE_PFC_LAST, 0, 3, "zz", false);
    ph_feed(&h, 0, p.b, p.n);
    CHECK_EQ_U(fieldv(&h, "dcerpc.iface_hi"), -1);
    CHECK_EQ_U(fieldv(&h, "dcerpc.first_frag"), 0);
    ph_free(&h);
}

static void test_limits_and_big_endian(void)
{
    struct ph h;
    struct pdu p;
    ph_init(&h, "dcerpc", 6, 50000, 135);
    request(&p, 3, 0, 0x0102, "BE", true);
    ph_feed(&h, 0, p.b, p.n);
    CHECK_EQ_U(fieldv(&h, "dcerpc.opnum"), 0x0102);
    CHECK_EQ_U(fieldv(&h, "dcerpc.little_endian"), 0);
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 0, 0, "BE"));
    /* fragments past the stub limit are cut and counted */
    char big[2001];
    memset(big, 'a', 2000);
    big[2000] = 0;
    request(&p, DCE_PFC_FIRST, 0, 1, big, false);
    ph_feed(&h, 0, p.b, p.n);
    for (uint32_t i = 0; i < DCE_STUB_MAX / 2000; i++) {
        request(&p, 0, 0, 1, big, false); /* a middle fragment of the same call */
        ph_feed(&h, 0, p.b, p.n);
    }
    request(&p, DCE_PFC_LAST, 0, 1, big, false);
    ph_feed(&h, 0, p.b, p.n);
    uint32_t n;
    CHECK(ph_buf(&h, "dcerpc.stub_data", 0, 0, &n) && n == DCE_STUB_MAX);
    CHECK(ph_count(&h, "dcerpc_stub_shed") > 0);
    /* a header that is not DCERPC's: the direction is given up */
    ph_feed(&h, 0, "GET / HTTP/1.1\r\n\r\n", 18);
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(ph_count(&h, "dcerpc_malformed"), 1);
    ph_free(&h);
}

static void test_udp(void)
{
    struct ph h;
    uint8_t d[DCE_CL_HDR + 4] = {4, DCE_REQUEST, 0x00, 0, 0x10, 0, 0};
    memcpy(d + 24, SVCCTL_LE, 16);
    d[60] = 3;                  /* interface version 3 */
    d[64] = 9;                  /* sequence number */
    d[68] = 5;                  /* opnum */
    d[74] = 4;                  /* body length */
    memcpy(d + DCE_CL_HDR, "STUB", 4);
    CHECK(dce_probe_cl(d, sizeof d, NULL) == DET_YES);
    ph_init(&h, "dcerpc", 17, 50000, 135);
    ph_feed(&h, 0, d, sizeof d);
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 0, 0, "STUB"));
    CHECK_EQ_U(fieldv(&h, "dcerpc.opnum"), 5);
    CHECK_EQ_U(fieldv(&h, "dcerpc.iface_version"), 3);
    CHECK_EQ_U((uint64_t)fieldv(&h, "dcerpc.iface_hi"), 0x367abb81984435f1ull);
    d[1] = DCE_RESPONSE;
    ph_feed(&h, 1, d, sizeof d);
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 1, 0, "STUB"));
    CHECK_EQ_U(h.txs, 1);
    ph_feed(&h, 0, d, 10); /* too short */
    CHECK_EQ_U(ph_count(&h, "dcerpc_malformed"), 1);
    ph_free(&h);
}

/* Bytes lost (a gap) in the middle of a PDU: the rest of it is skipped, a header split
 * across chunks after it is found, and the request behind it is whole again. */
static void test_gap(void)
{
    struct ph h;
    struct pdu p, q;
    ph_init(&h, "dcerpc", 6, 50000, 135);
    bind(&p, 3, 0, 2);
    ph_feed(&h, 0, p.b, p.n);
    bind_ack(&p, 0);
    ph_feed(&h, 1, p.b, p.n);
    request(&p, 3, 0, 15, "LOSTLOSTLOST", false);
    ph_feed(&h, 0, p.b, 20); /* its header and a bit: the rest is lost */
    h.def->gap(&h.pf, &h.f, 0);
    CHECK_EQ_U(ph_count(&h, "dcerpc_gaps"), 1);
    ph_feed(&h, 0, p.b + 30, p.n - 30); /* the tail of the lost PDU: skipped */
    request(&q, 3, 0, 16, "AFTERGAP", false);
    ph_feed(&h, 0, q.b, 7); /* the next header split across chunks */
    ph_feed(&h, 0, q.b + 7, q.n - 7);
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 0, 0, "AFTERGAP"));
    CHECK_EQ_U(fieldv(&h, "dcerpc.opnum"), 16);
    CHECK_EQ_U(fieldv(&h, "dcerpc.iface_version"), 2); /* its binding survived */
    CHECK_EQ_U(ph_count(&h, "dcerpc_malformed"), 0);
    /* a gap then a header-only PDU (16 bytes) found at a chunk's end */
    h.def->gap(&h.pf, &h.f, 1);
    hdr(&p, DCE_FAULT, 3, 7, false);
    done(&p);
    uint8_t junk[21];
    memset(junk, 0x05, sizeof junk);
    memcpy(junk + 5, p.b, 16);
    ph_feed(&h, 1, junk, sizeof junk);
    CHECK_EQ_U(ph_count(&h, "dcerpc_pdus"), 4);
    ph_free(&h);
}

static void test_probes(void)
{
    static const uint8_t BIND[10] = {5, 0, 11, 3, 0x10, 0, 0, 0, 0x48, 0};
    CHECK(dce_probe_co(BIND, 3, NULL) == DET_NEED_MORE);
    CHECK(dce_probe_co(BIND, 10, NULL) == DET_YES);
    CHECK(dce_probe_co((const uint8_t *)"\x05\x02", 2, NULL) == DET_NO);
    CHECK(dce_probe_co((const uint8_t *)"GET ", 4, NULL) == DET_NO);
    CHECK(dce_probe_co((const uint8_t *)"\x05\x00\x0b\x03\x10\0\0\0\x08\0", 10, NULL) ==
          DET_NO); /* a fragment shorter than its header */
    CHECK(dce_probe_cl((const uint8_t *)"\x04\x00", 2, NULL) == DET_NO);
    CHECK(osprey_buffer_two_sided("dcerpc.stub_data"));
    CHECK(osprey_app_proto_has_eve((uint16_t)osprey_app_proto_find("dcerpc")));
    CHECK_EQ_U(osprey_app_proto_l4((uint16_t)osprey_app_proto_find("dcerpc")), 0);
}

int main(void)
{
    test_bind_request_response();
    test_odd_binds();
    test_limits_and_big_endian();
    test_udp();
    test_gap();
    test_probes();
    return unit_report("test_proto_dcerpc");
}
