/* test_proto_nfs.c — NFS's descriptor, bytes in, buffers out: v3 over UDP (LOOKUP teaching a
 * handle's name, a READ transfer to a file, GETATTR left out of the records), the same over
 * TCP with record marks and fragments cut at every byte, a v4 COMPOUND WRITE (FILE_SYNC) as
 * a file, malformed arguments, the tables' limits (transactions, calls, records), the EVE
 * objects and the probes; and the ONC-RPC reader alone (XDR bounds, record marking); a gap on
 * TCP (the next record found by its mark and header, each way). */
#include <stdio.h>

#include "nfs_int.h"
#include "osprey_json_writer.h"
#include "proto_harness.h"
#include "unit.h"

/* ---- an XDR writer ---- */
struct w {
    uint8_t b[4096];
    size_t n;
};
static void u32(struct w *w, uint32_t v)
{
    w->b[w->n++] = (uint8_t)(v >> 24), w->b[w->n++] = (uint8_t)(v >> 16);
    w->b[w->n++] = (uint8_t)(v >> 8), w->b[w->n++] = (uint8_t)v;
}
static void u64(struct w *w, uint64_t v)
{
    u32(w, (uint32_t)(v >> 32));
    u32(w, (uint32_t)v);
}
static void opaque(struct w *w, const void *d, uint32_t n)
{
    u32(w, n);
    memcpy(w->b + w->n, d, n);
    w->n += n;
    while (w->n % 4)
        w->b[w->n++] = 0;
}
static void str(struct w *w, const char *s)
{
    opaque(w, s, (uint32_t)strlen(s));
}
/* a CALL header with AUTH_UNIX (machine "host", uid 1000, gid 100) */
static void call(struct w *w, uint32_t xid, uint32_t vers, uint32_t proc)
{
    w->n = 0;
    u32(w, xid), u32(w, 0), u32(w, 2), u32(w, NFS_PROG), u32(w, vers), u32(w, proc);
    struct w cred = {.n = 0};
    u32(&cred, 0), str(&cred, "host"), u32(&cred, 1000), u32(&cred, 100), u32(&cred, 0);
    u32(w, 1), opaque(w, cred.b, (uint32_t)cred.n);
    u32(w, 0), u32(w, 0); /* verifier AUTH_NULL */
}
static void reply(struct w *w, uint32_t xid, uint32_t status)
{
    w->n = 0;
    u32(w, xid), u32(w, 1), u32(w, 0), u32(w, 0), u32(w, 0), u32(w, 0);
    u32(w, status);
}

static const uint8_t DIR_FH[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static const uint8_t FILE_FH[12] = {9, 9, 9, 9, 1, 1, 1, 1, 2, 2, 2, 2};

/* what the tx callback saw */
static struct {
    char eve[1024];
    int64_t proc;
    uint32_t files;
} seen[16];
static uint32_t nseen;
static struct ph *cur_h;

static void on_tx(struct mon_ctx *ctx, struct mon_flow *f, uint16_t p, void *arg)
{
    (void)ctx, (void)f, (void)p, (void)arg;
    struct ph *h = cur_h;
    h->txs++;
    if (nseen >= 16)
        return;
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    CHECK(nfs_eve(&h->pf, &w));
    char *line = osprey_jw_finish(&w);
    snprintf(seen[nseen].eve, sizeof seen[nseen].eve, "%s", line ? line : "");
    free(line);
    ph_field(h, "nfs_procedure", 0, &seen[nseen].proc);
    struct osprey_file_info fi;
    seen[nseen].files = 0;
    while (pfile_at(&h->pf, -1, seen[nseen].files, &fi))
        seen[nseen].files++;
    nseen++;
}

static void start(struct ph *h, uint8_t l4)
{
    ph_init(h, "nfs", l4, 800, 2049);
    h->w.tx_fn = on_tx;
    cur_h = h;
    nseen = 0;
}

/* feed message w to dir: a datagram, or a TCP record (one fragment, cut every `cut` bytes) */
static void feed(struct ph *h, int dir, const struct w *w, size_t cut)
{
    if (h->f.proto == 17) {
        ph_feed(h, dir, w->b, w->n);
        return;
    }
    uint8_t rec[4200];
    uint32_t mark = 0x80000000u | (uint32_t)w->n;
    rec[0] = (uint8_t)(mark >> 24), rec[1] = (uint8_t)(mark >> 16);
    rec[2] = (uint8_t)(mark >> 8), rec[3] = (uint8_t)mark;
    memcpy(rec + 4, w->b, w->n);
    for (size_t at = 0; at < w->n + 4; at += cut)
        ph_feed(h, dir, rec + at, at + cut <= w->n + 4 ? cut : w->n + 4 - at);
}

/* LOOKUP "notes.txt" in DIR_FH → FILE_FH; GETATTR; READ of FILE_FH: "hello" at EOF */
static void v3_session(struct ph *h, size_t cut)
{
    struct w w;
    int64_t v;
    call(&w, 10, 3, NFS3_LOOKUP);
    opaque(&w, DIR_FH, sizeof DIR_FH), str(&w, "notes.txt");
    feed(h, 0, &w, cut);
    CHECK(ph_field(h, "nfs_procedure", 0, &v) && v == 3);
    CHECK(ph_field(h, "nfs.version", 0, &v) && v == 3);
    CHECK(ph_field(h, "nfs_version", 0, &v) && v == 3);
    reply(&w, 10, 0);
    opaque(&w, FILE_FH, sizeof FILE_FH);
    u32(&w, 0), u32(&w, 0); /* no attributes */
    feed(h, 1, &w, cut);
    call(&w, 11, 3, NFS3_GETATTR);
    opaque(&w, FILE_FH, sizeof FILE_FH);
    feed(h, 0, &w, cut);
    reply(&w, 11, 0);
    feed(h, 1, &w, cut);
    call(&w, 12, 3, NFS3_READ);
    opaque(&w, FILE_FH, sizeof FILE_FH), u64(&w, 0), u32(&w, 4096);
    feed(h, 0, &w, cut);
    CHECK(ph_field(h, "nfs_procedure", 0, &v) && v == NFS3_READ);
    reply(&w, 12, 0);
    u32(&w, 0), u32(&w, 5), u32(&w, 1), opaque(&w, "hello", 5); /* count, eof, data */
    feed(h, 1, &w, cut);
}

static void check_v3_records(void)
{
    /* LOOKUP's record, the READ transfer's (GETATTR: none, as Suricata) */
    CHECK(nseen == 2);
    CHECK(strstr(seen[0].eve, "\"procedure\":\"LOOKUP\"") &&
          strstr(seen[0].eve, "\"filename\":\"notes.txt\"") &&
          strstr(seen[0].eve, "\"status\":\"OK\"") && strstr(seen[0].eve, "\"id\":1") &&
          strstr(seen[0].eve, "\"hhash\"") &&
          strstr(seen[0].eve, "\"rpc\":{\"xid\":10,\"status\":\"ACCEPTED\",\"auth_type\":\"UNIX\","
                              "\"creds\":{\"machine_name\":\"host\",\"uid\":1000,\"gid\":100}}"));
    CHECK(seen[0].proc == NFS3_LOOKUP && seen[0].files == 0);
    CHECK(strstr(seen[1].eve, "\"procedure\":\"READ\"") &&
          strstr(seen[1].eve, "\"filename\":\"notes.txt\"") &&
          strstr(seen[1].eve, "\"file_tx\":true") &&
          strstr(seen[1].eve, "\"read\":{\"first\":true,\"last\":true,\"last_xid\":12,"
                              "\"chunks\":1}"));
    CHECK(seen[1].files == 1);
}

static void test_v3_udp(void)
{
    struct ph h;
    start(&h, 17);
    v3_session(&h, 0);
    check_v3_records();
    CHECK(ph_count(&h, "nfs_tx") == 3);
    ph_free(&h);
}

static void test_v3_tcp_cuts(void)
{
    for (size_t cut = 1; cut <= 9; cut++) {
        struct ph h;
        start(&h, 6);
        v3_session(&h, cut);
        check_v3_records();
        ph_free(&h);
    }
}

/* Bytes lost in a record (a gap): the rest is skipped up to the next record that starts
 * like an NFS call (to the server) or a reply (to the client), split across chunks or not. */
static void test_gap(void)
{
    struct ph h;
    start(&h, 6);
    struct w w;
    int64_t v;
    call(&w, 30, 3, NFS3_ACCESS);
    opaque(&w, FILE_FH, sizeof FILE_FH), u32(&w, 0x1f);
    uint8_t mark[4] = {0x80, 0, 0, (uint8_t)w.n};
    ph_feed(&h, 0, mark, 4);
    ph_feed(&h, 0, w.b, 10); /* the rest of this call is lost */
    h.def->gap(&h.pf, &h.f, 0);
    CHECK(ph_count(&h, "nfs_gaps") == 1);
    ph_feed(&h, 0, w.b + 30, w.n - 30); /* its tail: skipped */
    call(&w, 31, 3, NFS3_FSINFO);
    opaque(&w, FILE_FH, sizeof FILE_FH);
    feed(&h, 0, &w, 5); /* the next call, in 5-byte pieces */
    CHECK(ph_field(&h, "nfs_procedure", 0, &v) && v == NFS3_FSINFO);
    CHECK(ph_count(&h, "nfs_malformed") == 0);
    /* the reply side: its gap, junk, then the FSINFO reply completes its transaction */
    h.def->gap(&h.pf, &h.f, 1);
    ph_feed(&h, 1, "\x80\0\0\x40junkjunkjunkjunk", 20);
    reply(&w, 31, 0);
    u32(&w, 0);
    feed(&h, 1, &w, 3);
    CHECK(nseen == 1 && strstr(seen[0].eve, "\"procedure\":\"FSINFO\"") &&
          strstr(seen[0].eve, "\"status\":\"OK\""));
    CHECK(ph_count(&h, "nfs_gaps") == 2);
    ph_free(&h);
}

/* A READ transfer in two chunks (offsets 0 and 5): whole, its file is closed complete; with
 * the first chunk's reply lost (a datagram), the file is cut short. */
static void test_transfer_hole(void)
{
    for (int lost = 0; lost < 2; lost++) {
        struct ph h;
        start(&h, 17);
        struct w w;
        for (uint32_t i = 0; i < 2; i++) {
            call(&w, 40 + i, 3, NFS3_READ);
            opaque(&w, FILE_FH, sizeof FILE_FH), u64(&w, 5 * i), u32(&w, 5);
            feed(&h, 0, &w, 0);
        }
        for (uint32_t i = (uint32_t)lost; i < 2; i++) {
            reply(&w, 40 + i, 0);
            u32(&w, 0), u32(&w, 5), u32(&w, i == 1), opaque(&w, i ? "world" : "hello", 5);
            feed(&h, 1, &w, 0);
        }
        CHECK_EQ_U(ph_count(&h, "files_truncated"), (uint64_t)lost);
        ph_end(&h);
        ph_free(&h);
    }
}

static void test_fragments_and_skip(void)
{
    struct ph h;
    start(&h, 6);
    struct w w;
    call(&w, 20, 3, NFS3_ACCESS);
    opaque(&w, FILE_FH, sizeof FILE_FH), u32(&w, 0x1f);
    /* two fragments: the first without the last-fragment bit */
    uint8_t m1[4] = {0, 0, 0, 10}, m2[4] = {0x80, 0, 0, (uint8_t)(w.n - 10)};
    ph_feed(&h, 0, m1, 4);
    ph_feed(&h, 0, w.b, 10);
    ph_feed(&h, 0, m2, 4);
    ph_feed(&h, 0, w.b + 10, w.n - 10);
    int64_t v;
    CHECK(ph_field(&h, "nfs_procedure", 0, &v) && v == NFS3_ACCESS);
    /* a record past NFS_RECORD_MAX is skipped, counted; the next one is read */
    uint32_t big = NFS_RECORD_MAX + 1;
    uint8_t mark[4] = {0x80 | (uint8_t)(big >> 24), (uint8_t)(big >> 16), (uint8_t)(big >> 8),
                       (uint8_t)big};
    ph_feed(&h, 0, mark, 4);
    static uint8_t junk[65536];
    for (uint32_t left = big; left;) {
        uint32_t k = left < sizeof junk ? left : (uint32_t)sizeof junk;
        ph_feed(&h, 0, junk, k);
        left -= k;
    }
    CHECK(ph_count(&h, "nfs_records_skipped") == 1);
    call(&w, 21, 3, NFS3_FSINFO);
    opaque(&w, FILE_FH, sizeof FILE_FH);
    feed(&h, 0, &w, 4096);
    CHECK(ph_field(&h, "nfs_procedure", 0, &v) && v == NFS3_FSINFO);
    ph_free(&h);
}

static void test_v4_write(void)
{
    struct ph h;
    start(&h, 6);
    struct w w;
    call(&w, 30, 4, NFS4_COMPOUND);
    str(&w, ""), u32(&w, 0), u32(&w, 3);                      /* tag, minor 0, 3 ops */
    u32(&w, NFS4_PUTFH), opaque(&w, FILE_FH, sizeof FILE_FH);
    u32(&w, NFS4_WRITE), u64(&w, 0), u64(&w, 0);              /* stateid (16 bytes) */
    u64(&w, 0), u32(&w, 2), opaque(&w, "data\n", 5);          /* offset, FILE_SYNC, data */
    u32(&w, 9), u32(&w, 1), u32(&w, 0x10);                    /* GETATTR */
    feed(&h, 0, &w, 7);
    CHECK(nseen == 1 && seen[0].proc == NFS4_WRITE && seen[0].files == 1);
    CHECK(strstr(seen[0].eve, "\"version\":4") && strstr(seen[0].eve, "\"procedure\":\"WRITE\"") &&
          strstr(seen[0].eve, "\"auth_type\":\"NULL\"") && !strstr(seen[0].eve, "\"write\""));
    /* a compound without CREATE / REMOVE / transfers: no transaction (as Suricata) */
    call(&w, 31, 4, NFS4_COMPOUND);
    str(&w, ""), u32(&w, 0), u32(&w, 2);
    u32(&w, NFS4_PUTFH), opaque(&w, FILE_FH, sizeof FILE_FH);
    u32(&w, 9), u32(&w, 1), u32(&w, 0x10);
    feed(&h, 0, &w, 4096);
    CHECK(ph_count(&h, "nfs_tx") == 1);
    /* REMOVE is one */
    call(&w, 32, 4, NFS4_COMPOUND);
    str(&w, ""), u32(&w, 0), u32(&w, 2);
    u32(&w, NFS4_PUTFH), opaque(&w, DIR_FH, sizeof DIR_FH);
    u32(&w, NFS4_REMOVE), str(&w, "old.txt");
    feed(&h, 0, &w, 4096);
    reply(&w, 32, 0);
    str(&w, ""), u32(&w, 2), u32(&w, NFS4_PUTFH), u32(&w, 0), u32(&w, NFS4_REMOVE), u32(&w, 2);
    feed(&h, 1, &w, 4096);
    CHECK(nseen == 2 && strstr(seen[1].eve, "\"procedure\":\"REMOVE\"") &&
          strstr(seen[1].eve, "\"filename\":\"old.txt\"") &&
          strstr(seen[1].eve, "\"status\":\"ERR_NOENT\""));
    ph_free(&h);
}

static void test_malformed_and_limits(void)
{
    struct ph h;
    start(&h, 17);
    struct w w;
    call(&w, 40, 3, NFS3_LOOKUP);
    u32(&w, 200); /* a handle longer than the bytes there */
    feed(&h, 0, &w, 0);
    CHECK(ph_count(&h, "nfs_malformed") == 1);
    call(&w, 41, 7, 1); /* version 7 */
    feed(&h, 0, &w, 0);
    ph_feed(&h, 0, "\x00\x01", 2); /* not RPC */
    CHECK(ph_count(&h, "nfs_malformed") == 2);
    /* calls never answered: the oldest transactions and calls are shed, counted */
    for (uint32_t i = 0; i < NFS_TX_MAX + 10; i++) {
        call(&w, 1000 + i, 3, NFS3_FSSTAT);
        opaque(&w, FILE_FH, sizeof FILE_FH);
        feed(&h, 0, &w, 0);
    }
    CHECK(ph_count(&h, "nfs_tx_shed") == 11); /* (the malformed LOOKUP's is one too) */
    CHECK(ph_count(&h, "nfs_calls_shed") == NFS_TX_MAX + 11 - NFS_XID_MAX);
    ph_end(&h); /* the open ones are reported at the end */
    CHECK(h.txs == NFS_TX_MAX);
    ph_free(&h);
}

static void test_probes_and_rpc(void)
{
    struct w w;
    call(&w, 1, 3, 0);
    CHECK(nfs_probe_udp(w.b, w.n, NULL) == DET_YES);
    CHECK(nfs_probe_udp(w.b, 10, NULL) == DET_NEED_MORE);
    w.b[19] = 5; /* version 5 */
    CHECK(nfs_probe_udp(w.b, w.n, NULL) == DET_NO);
    w.b[15] = 0xa0; /* another program */
    CHECK(nfs_probe_udp(w.b, w.n, NULL) == DET_NO);
    struct mon_flow f = {.sport = 2049};
    reply(&w, 1, 0);
    uint8_t rec[64] = {0x80, 0, 0, 28};
    memcpy(rec + 4, w.b, w.n);
    CHECK(nfs_probe_tcp_reply(rec, 4 + w.n, &f) == DET_YES);
    f.sport = 2050;
    CHECK(nfs_probe_tcp_reply(rec, 4 + w.n, &f) == DET_NO);
    /* XDR: an opaque longer than its bytes or its bound fails, and stays failed */
    struct xdr x;
    const uint8_t *d;
    uint32_t n, v;
    uint8_t b[12] = {0, 0, 0, 9, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    xdr_init(&x, b, sizeof b);
    CHECK(!xdr_opaque(&x, &d, &n, 64) && x.bad && !xdr_u32(&x, &v));
    xdr_init(&x, b, sizeof b);
    CHECK(!xdr_opaque(&x, &d, &n, 4));
    b[3] = 8;
    xdr_init(&x, b, sizeof b);
    CHECK(xdr_opaque(&x, &d, &n, 64) && n == 8 && xdr_left(&x) == 0);
    CHECK(!strcmp(rpc_auth_name(6), "GSS") && !rpc_auth_name(7));
    CHECK(!strcmp(nfs_procedure_name(3, 17), "READDIRPLUS") &&
          !strcmp(nfs_procedure_name(4, 38), "WRITE") && !nfs_procedure_name(3, 22));
    /* one id per name whatever the version: v3's GETATTR (1) and v4's (9) */
    CHECK(nfs_procedure_name_id(3, 1) == nfs_procedure_name_id(4, 9) &&
          nfs_procedure_name_id(3, 1) == 1);
    CHECK(nfs_procedure_name_id(3, 7) == nfs_procedure_name_id(4, 38)); /* WRITE */
    CHECK(nfs_procedure_name_id(4, 10044) == 47 && nfs_procedure_name_id(3, 22) == -1);
    CHECK(!strcmp(nfs_status_name(10008), "ERR_JUKEBOX") && !nfs_status_name(3));
}

int main(void)
{
    test_v3_udp();
    test_v3_tcp_cuts();
    test_fragments_and_skip();
    test_gap();
    test_transfer_hole();
    test_v4_write();
    test_malformed_and_limits();
    test_probes_and_rpc();
    return unit_report("test_proto_nfs");
}
