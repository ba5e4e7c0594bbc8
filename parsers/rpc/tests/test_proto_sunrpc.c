/* test_proto_sunrpc.c — the sunrpc descriptor and the ONC-RPC reader under it, bytes in: the
 * portmapper probes (port 111, program 100000), calls and replies over UDP and TCP (record
 * marks cut at every byte, a record of two fragments, one past the limit skipped), what is no
 * RPC message; rpc_decode's header and AUTH_UNIX credentials; a gap (the next record start
 * found again). */
#include "proto_harness.h"
#include "rpc.h"
#include "unit.h"

static const uint8_t GETPORT[] = {
    0, 0, 0, 7,  0, 0, 0, 0,  0, 0, 0, 2,  0, 1, 0x86, 0xa0,  0, 0, 0, 2,  0, 0, 0, 3,
    0, 0, 0, 1,  0, 0, 0, 24,                                   /* AUTH_UNIX, 24 bytes */
    0, 0, 0, 0,  0, 0, 0, 4, 'h', 'o', 's', 't',  0, 0, 3, 0xe8,  0, 0, 0, 100,  0, 0, 0, 0,
    0, 0, 0, 0,  0, 0, 0, 0,                                    /* verifier AUTH_NULL */
    0, 1, 0x86, 0xa3,  0, 0, 0, 3,  0, 0, 0, 17,  0, 0, 0, 0};  /* GETPORT(NFS v3 UDP) */
static const uint8_t REPLY[] = {0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 1};

/* nfs3-01's first GETATTR call (machine "werrmsche", 9 bytes): Suricata writes uid 0, gid 0 */
static const uint8_t WERRMSCHE[] = {
    0x5e, 0x1d, 0x0b, 0xdc, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0x86, 0xa3, 0, 0, 0, 3, 0, 0, 0, 1,
    0, 0, 0, 1, 0, 0, 0, 0x34, 0x38, 0x47, 0x76, 0x0b, 0, 0, 0, 9, 'w', 'e', 'r', 'r', 'm',
    's', 'c', 'h', 'e', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 0,
    0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0x11, 0, 0, 0, 0, 0, 0, 0, 0};

static void test_decode(void)
{
    struct rpc_msg w;
    CHECK(rpc_decode(&w, WERRMSCHE, sizeof WERRMSCHE) && w.unix_ok && w.machine_len == 9);
    CHECK(w.uid == 0 && w.gid == 0); /* Suricata's reading: the padding not skipped */
    struct rpc_msg m;
    CHECK(rpc_decode(&m, GETPORT, sizeof GETPORT));
    CHECK(m.xid == 7 && m.type == RPC_CALL && m.prog == 100000 && m.vers == 2 && m.proc == 3);
    CHECK(m.cred_flavor == RPC_AUTH_UNIX && m.unix_ok && m.machine_len == 4 &&
          !memcmp(m.machine, "host", 4) && m.uid == 1000 && m.gid == 100);
    CHECK(m.body_len == 16);
    CHECK(rpc_decode(&m, REPLY, sizeof REPLY) && m.type == RPC_REPLY && m.reply_stat == 0 &&
          m.accept_stat == 0 && m.body_len == 4);
    CHECK(!rpc_decode(&m, GETPORT, 30));                      /* cut in the credentials */
    uint8_t v3[sizeof GETPORT];
    memcpy(v3, GETPORT, sizeof v3);
    v3[11] = 3;                                               /* rpcvers 3 */
    CHECK(!rpc_decode(&m, v3, sizeof v3));
}

static void test_probes(void)
{
    const struct osprey_proto_def *d = reg_proto((uint16_t)osprey_app_proto_find("sunrpc"));
    CHECK(d && d->probes);
    struct mon_flow f = {.sport = 111};
    CHECK(d->probes[0].probe(GETPORT, sizeof GETPORT, &f) == DET_YES);
    CHECK(d->probes[0].probe(GETPORT, 14, &f) == DET_NEED_MORE);
    f.sport = 112;
    CHECK(d->probes[0].probe(GETPORT, sizeof GETPORT, &f) == DET_NO);
    f.sport = 111;
    uint8_t nfs[sizeof GETPORT];
    memcpy(nfs, GETPORT, sizeof nfs);
    nfs[15] = 0xa3; /* program 100003 to port 111: not the portmapper */
    CHECK(d->probes[0].probe(nfs, sizeof nfs, &f) == DET_NO);
}

static void test_udp_and_tcp(void)
{
    struct ph h;
    ph_init(&h, "sunrpc", 17, 900, 111);
    ph_feed(&h, 0, GETPORT, sizeof GETPORT);
    ph_feed(&h, 1, REPLY, sizeof REPLY);
    ph_feed(&h, 0, "junk", 4);
    CHECK(ph_count(&h, "sunrpc_messages") == 2 && ph_count(&h, "sunrpc_malformed") == 1);
    ph_free(&h);
    for (size_t cut = 1; cut <= 5; cut++) {
        ph_init(&h, "sunrpc", 6, 900, 111);
        uint8_t rec[4 + sizeof GETPORT] = {0x80, 0, 0, sizeof GETPORT};
        memcpy(rec + 4, GETPORT, sizeof GETPORT);
        for (size_t at = 0; at < sizeof rec; at += cut)
            ph_feed(&h, 0, rec + at, at + cut <= sizeof rec ? cut : sizeof rec - at);
        /* two fragments: 20 bytes without the last bit, then the rest */
        uint8_t m1[4] = {0, 0, 0, 20}, m2[4] = {0x80, 0, 0, sizeof GETPORT - 20};
        ph_feed(&h, 0, m1, 4);
        ph_feed(&h, 0, GETPORT, 20);
        ph_feed(&h, 0, m2, 4);
        ph_feed(&h, 0, GETPORT + 20, sizeof GETPORT - 20);
        CHECK(ph_count(&h, "sunrpc_messages") == 2);
        /* a record past 64 KiB: skipped, counted; the next one read */
        uint8_t big[4] = {0x80, 0x01, 0x00, 0x01};
        ph_feed(&h, 0, big, 4);
        static uint8_t zero[0x10001];
        ph_feed(&h, 0, zero, sizeof zero);
        ph_feed(&h, 0, rec, sizeof rec);
        CHECK(ph_count(&h, "sunrpc_records_skipped") == 1 &&
              ph_count(&h, "sunrpc_messages") == 3);
        ph_free(&h);
    }
}

/* Bytes lost (a gap) in a record: the rest is skipped up to the next portmapper call, found
 * by its mark and header whatever the chunks. */
static void test_gap(void)
{
    struct ph h;
    ph_init(&h, "sunrpc", 6, 900, 111);
    uint8_t rec[4 + sizeof GETPORT] = {0x80, 0, 0, sizeof GETPORT};
    memcpy(rec + 4, GETPORT, sizeof GETPORT);
    ph_feed(&h, 0, rec, 30);
    h.def->gap(&h.pf, &h.f, 0);
    ph_feed(&h, 0, rec + 40, sizeof rec - 40); /* the lost record's tail */
    for (size_t at = 0; at < sizeof rec; at += 3)
        ph_feed(&h, 0, rec + at, at + 3 <= sizeof rec ? 3 : sizeof rec - at);
    CHECK(ph_count(&h, "sunrpc_gaps") == 1 && ph_count(&h, "sunrpc_messages") == 1 &&
          ph_count(&h, "sunrpc_malformed") == 0);
    ph_free(&h);
}

int main(void)
{
    test_decode();
    test_probes();
    test_udp_and_tcp();
    test_gap();
    return unit_report("test_proto_sunrpc");
}
