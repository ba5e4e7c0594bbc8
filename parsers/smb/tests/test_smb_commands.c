/* test_smb_commands.c — SMB's commands, bytes in, state and buffers out: an SMB2 file written
 * in pieces (create, writes at offsets, an overlapping write, close), an SMB1 AndX chain
 * (write with padding before its data, then close), NTLMSSP user / domain / host of a session
 * setup, an SMB1 negotiate answered by SMB2 (smb.version of that transaction), DCERPC over a
 * named pipe (the guest's fields read through the SMB flow), a pipe whose bytes are not
 * DCERPC, and the framing found again after garbage (midstream). */
#include "proto_harness.h"
#include "smb_int.h"
#include "unit.h"

static const char EICAR[] = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

static uint32_t nbss(uint8_t *out, const uint8_t *m, uint32_t n)
{
    out[0] = 0, out[1] = (uint8_t)(n >> 16), out[2] = (uint8_t)(n >> 8), out[3] = (uint8_t)n;
    memcpy(out + 4, m, n);
    return n + 4;
}

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v), put16(p + 2, v >> 16); }

/* An SMB2 message: header (cmd, message id, reply, status, tree 1, session 7) + body. */
static uint32_t smb2(uint8_t *out, uint16_t cmd, uint64_t mid, bool reply, uint32_t status,
                     const uint8_t *body, uint32_t bn)
{
    uint8_t m[2048] = {0xfe, 'S', 'M', 'B', 64};
    put32(m + 8, status);
    put16(m + 12, cmd);
    m[16] = reply;
    put32(m + 24, (uint32_t)mid);
    put32(m + 36, 1);
    m[40] = 7;
    memcpy(m + 64, body, bn);
    return nbss(out, m, 64 + bn);
}

static const uint8_t FID[16] = {0x4d, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};

/* tree connect (path, share type), create of name (answered with FID) */
static void open_file(struct ph *h, const char *path, uint8_t type, const char *name)
{
    uint8_t b[2048], body[512] = {9};
    uint32_t k = 0;
    for (const char *s = path; *s; s++)
        body[8 + k++] = (uint8_t)*s, body[8 + k++] = 0;
    put16(body + 4, 72), put16(body + 6, k);
    ph_feed(h, 0, b, smb2(b, SMB2_TREE_CONNECT, 2, false, 0, body, 8 + k));
    memset(body, 0, sizeof body);
    body[0] = 16, body[2] = type;
    ph_feed(h, 1, b, smb2(b, SMB2_TREE_CONNECT, 2, true, 0, body, 16));
    memset(body, 0, sizeof body);
    body[0] = 57;
    put32(body + 36, 2); /* FILE_CREATE */
    k = 0;
    for (const char *s = name; *s; s++)
        body[56 + k++] = (uint8_t)*s, body[56 + k++] = 0;
    put16(body + 44, 120), put16(body + 46, k);
    ph_feed(h, 0, b, smb2(b, SMB2_CREATE, 3, false, 0, body, 56 + k));
    memset(body, 0, sizeof body);
    body[0] = 89;
    memcpy(body + 64, FID, 16);
    ph_feed(h, 1, b, smb2(b, SMB2_CREATE, 3, true, 0, body, 88));
}

static void write2(struct ph *h, uint64_t mid, uint64_t off, const void *d, uint32_t n,
                   uint32_t pad)
{
    uint8_t b[2048], body[1024] = {49};
    put16(body + 2, 64 + 48 + pad); /* DataOffset, past padding */
    put32(body + 4, n);
    put32(body + 8, (uint32_t)off);
    memcpy(body + 16, FID, 16);
    memcpy(body + 48 + pad, d, n);
    uint32_t len = smb2(b, SMB2_WRITE, mid, false, 0, body, 48 + pad + n);
    for (uint32_t i = 0; i < len; i += 7) /* segmented anywhere */
        ph_feed(h, 0, b + i, len - i < 7 ? len - i : 7);
}

static void test_smb2_file(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 50000, 445);
    open_file(&h, "\\\\srv\\data", 1, "eicar.txt");
    struct smb_state *st = h.pf.state;
    struct smb_file *fl = smb_file_find(st, FID, 16);
    CHECK(fl && fl->name.len == 9 && !memcmp(fl->name.p, "eicar.txt", 9) && !fl->pipe);
    write2(&h, 4, 0, EICAR, 20, 0);
    write2(&h, 5, 20, EICAR + 20, (uint32_t)strlen(EICAR) - 20, 13);
    CHECK(fl->data[0].len == strlen(EICAR) && !memcmp(fl->data[0].p, EICAR, strlen(EICAR)));
    CHECK(!fl->overlap);
    write2(&h, 6, 0, "Y", 1, 0); /* over bytes already written: the first ones stay */
    CHECK(fl->overlap && fl->data[0].p[0] == 'X');
    /* the transaction in force: the write, its file */
    CHECK(st->tx.cmd == SMB2_WRITE && st->tx.is_file && st->tx.name_len == 9);
    uint8_t b[256], body[24] = {24};
    memcpy(body + 8, FID, 16);
    ph_feed(&h, 0, b, smb2(b, SMB2_CLOSE, 7, false, 0, body, 24));
    CHECK(!smb_file_find(st, FID, 16)); /* closed (its file.data was inspected then) */
    CHECK_EQ_U(ph_count(&h, "smb_files"), 1);
    ph_free(&h);
}

/* Writes out of order: a later chunk first leaves a hole (zeros), the earlier one fills it
 * (file.data gets its bytes, the file is whole); a hole never filled (a write lost in a gap)
 * leaves the file cut short at its close. */
static void test_smb2_file_holes(void)
{
    for (int lost = 0; lost < 2; lost++) {
        struct ph h;
        ph_init(&h, "smb", 6, 50000, 445);
        open_file(&h, "\\\\srv\\data", 1, "eicar.txt");
        struct smb_state *st = h.pf.state;
        struct smb_file *fl = smb_file_find(st, FID, 16);
        write2(&h, 4, 0, "AAAA", 4, 0);
        write2(&h, 5, 8, "CCCC", 4, 0); /* past a hole of 4 */
        CHECK(fl->nholes[0] == 1 && fl->hole[0][0].at == 4 && fl->hole[0][0].len == 4);
        if (!lost) {
            write2(&h, 6, 4, "BBBB", 4, 0);
            CHECK(fl->nholes[0] == 0 && !memcmp(fl->data[0].p, "AAAABBBBCCCC", 12));
        }
        uint8_t b[256], body[24] = {24};
        memcpy(body + 8, FID, 16);
        ph_feed(&h, 0, b, smb2(b, SMB2_CLOSE, 7, false, 0, body, 24));
        CHECK_EQ_U(ph_count(&h, "files_truncated"), (uint64_t)lost);
        ph_free(&h);
    }
}

/* SMB1: WRITE_ANDX (with 5 bytes of padding before its data) chained to CLOSE */
static void test_smb1_andx(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 50000, 445);
    struct smb_state *st;
    uint8_t m[512] = {0xff, 'S', 'M', 'B', SMB1_NT_CREATE}, b[600];
    m[10] = 0x01, m[11] = 0xc8; /* unicode */
    m[24] = 5, m[30] = 1;       /* tid 5, mid 1 */
    m[32] = 24;
    uint32_t w = 33, bytes = w + 48 + 2;
    put16(m + w + 5, 4);        /* name length */
    put32(m + w + 35, 1);       /* FILE_OPEN */
    memcpy(m + bytes + 1, "a\0b\0", 4);
    put16(m + w + 48, 5);
    ph_feed(&h, 0, b, nbss(b, m, bytes + 5));
    uint8_t r[128] = {0xff, 'S', 'M', 'B', SMB1_NT_CREATE};
    r[9] = 0x80, r[30] = 1, r[32] = 34, r[33] = 0xff;
    r[33 + 5] = 0x01, r[33 + 6] = 0x40; /* FID 0x4001 */
    ph_feed(&h, 1, b, nbss(b, r, 33 + 68 + 2));
    st = h.pf.state;
    struct smb_file *fl = smb_file_find(st, (const uint8_t *)"\x01\x40", 2);
    CHECK(fl && fl->name.len == 2 && !memcmp(fl->name.p, "ab", 2));
    memset(m, 0, sizeof m);
    memcpy(m, "\xffSMB", 4);
    m[4] = SMB1_WRITE_ANDX, m[30] = 2;
    m[32] = 14;
    w = 33;
    m[w] = SMB1_CLOSE;                      /* AndX: a close follows */
    uint32_t n = (uint32_t)strlen(EICAR), data = 33 + 28 + 2 + 5;
    uint32_t close_at = data + n;
    put16(m + w + 2, close_at);
    m[w + 4] = 0x01, m[w + 5] = 0x40;       /* FID */
    put16(m + w + 20, n);                   /* DataLength */
    put16(m + w + 22, data);                /* DataOffset: past 5 bytes of padding */
    put16(m + w + 28, 5 + n);               /* ByteCount */
    memcpy(m + data, EICAR, n);
    m[close_at] = 3, m[close_at + 1] = 0x01, m[close_at + 2] = 0x40;
    uint32_t len = nbss(b, m, close_at + 1 + 6 + 2);
    /* before the close runs, look at the file as the chain leaves it: feed all but its end */
    ph_feed(&h, 0, b, len);
    CHECK(!smb_file_find(st, (const uint8_t *)"\x01\x40", 2)); /* the chained close ran */
    CHECK_EQ_U(ph_count(&h, "smb_files"), 1);
    CHECK(st->tx.cmd == SMB1_CLOSE);
    ph_free(&h);
}

static void test_ntlmssp_and_negotiate(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 50000, 445);
    /* SMB1 negotiate offering "NT LM 0.12" and "SMB 2.002", answered by SMB2 */
    uint8_t m[256] = {0xff, 'S', 'M', 'B', SMB1_NEGOTIATE}, b[600];
    m[30] = 0;
    static const char D[] = "\x02NT LM 0.12\0\x02SMB 2.002";
    put16(m + 33, sizeof D);
    memcpy(m + 35, D, sizeof D);
    ph_feed(&h, 0, b, nbss(b, m, 35 + sizeof D));
    int64_t v;
    CHECK(ph_field(&h, "smb.version", 0, &v) && v == 1);
    uint8_t body[128] = {65};
    put16(body + 4, 0x0202);
    ph_feed(&h, 1, b, smb2(b, SMB2_NEGOTIATE, 0, true, 0, body, 64));
    struct smb_state *st = h.pf.state;
    CHECK(st->dialect == 0x0202 && st->tx.ver == 1 && st->tx.has_resp);
    CHECK(ph_field(&h, "smb.version", 0, &v) && v == 1); /* that transaction's */
    /* SESSION_SETUP carrying NTLMSSP AUTHENTICATE (unicode) */
    uint8_t blob[200] = "NTLMSSP";
    put32(blob + 8, 3);
    put32(blob + 60, 1);
    const char *names[3] = {"CONTOSO", "Administrator", "SERVER01"};
    uint32_t at = 72;
    for (int i = 0; i < 3; i++) {
        uint32_t k = 0;
        for (const char *s = names[i]; *s; s++)
            blob[at + k++] = (uint8_t)*s, blob[at + k++] = 0;
        put16(blob + 28 + 8 * i, k), put32(blob + 32 + 8 * i, at);
        at += k;
    }
    memset(body, 0, sizeof body);
    uint8_t big[400] = {25};
    put16(big + 12, 64 + 24), put16(big + 14, at);
    memcpy(big + 24, blob, at);
    ph_feed(&h, 0, b, smb2(b, SMB2_SESSION_SETUP, 1, false, 0, big, 24 + at));
    CHECK(ph_buf_is(&h, "smb.ntlmssp_user", 0, 0, "Administrator"));
    CHECK(ph_buf_is(&h, "smb.ntlmssp_domain", 0, 0, "CONTOSO"));
    CHECK(st->tx.host_len == 8 && !memcmp(st->tx.host, "SERVER01", 8));
    CHECK(ph_field(&h, "smb.version", 0, &v) && v == 2);
    ph_free(&h);
}

static void test_dcerpc_pipe(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 50000, 445);
    open_file(&h, "\\\\srv\\IPC$", 2, "svcctl");
    struct smb_state *st = h.pf.state;
    struct smb_file *fl = smb_file_find(st, FID, 16);
    CHECK(fl && fl->pipe);
    /* bind (context 0: 367abb81-9844-35f1-ad32-98f038001003 v2.0), its ack, a request */
    uint8_t bind[72] = {5, 0, 11, 3, 0x10, 0, 0, 0, 72, 0, 0, 0, 1, 0, 0, 0};
    put16(bind + 16, 4280), put16(bind + 18, 4280);
    bind[24] = 1;     /* one context */
    bind[30] = 1;     /* one transfer syntax */
    static const uint8_t U[16] = {0x81, 0xbb, 0x7a, 0x36, 0x44, 0x98, 0xf1, 0x35,
                                  0xad, 0x32, 0x98, 0xf0, 0x38, 0x00, 0x10, 0x03};
    memcpy(bind + 32, U, 16);
    bind[48] = 2;
    write2(&h, 10, 0, bind, 72, 0);
    CHECK(fl->dce == 1 && h.pf.guest != NULL);
    uint8_t ack[68] = {5, 0, 12, 3, 0x10, 0, 0, 0, 68, 0, 0, 0, 1, 0, 0, 0};
    put16(ack + 24, 0);      /* no secondary address */
    ack[28] = 1;             /* one result, acceptance */
    /* a read's answer carries it */
    uint8_t b[512], body[128] = {49};
    put32(body + 4, 1024);
    memcpy(body + 16, FID, 16);
    ph_feed(&h, 0, b, smb2(b, SMB2_READ, 11, false, 0, body, 48));
    memset(body, 0, sizeof body);
    body[0] = 17, body[2] = 64 + 16;
    put32(body + 4, sizeof ack);
    memcpy(body + 16, ack, sizeof ack);
    ph_feed(&h, 1, b, smb2(b, SMB2_READ, 11, true, 0, body, 16 + sizeof ack));
    uint8_t req[28] = {5, 0, 0, 3, 0x10, 0, 0, 0, 28, 0, 0, 0, 2, 0, 0, 0};
    put16(req + 22, 15);     /* opnum */
    memcpy(req + 24, "stub", 4);
    write2(&h, 12, 0, req, sizeof req, 0);
    int64_t v;
    CHECK(ph_field(&h, "dcerpc.opnum", 0, &v) && v == 15);
    CHECK(ph_field(&h, "dcerpc.iface_hi", 0, &v) && (uint64_t)v == 0x367abb81984435f1ull);
    CHECK(ph_buf_is(&h, "dcerpc.stub_data", 0, 0, "stub"));
    CHECK(st->tx.dcerpc);
    CHECK(ph_count(&h, "smb_pipe_bytes") == 72 + sizeof ack + sizeof req);
    /* SMB's transactions answered (tree, create, read); the guest's are not reported */
    CHECK_EQ_U(h.txs, 3);
    ph_end(&h); /* the two writes never answered: their records at the flow's end */
    CHECK_EQ_U(h.txs, 5);
    ph_free(&h);
}

static void test_pipe_not_dcerpc(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 50000, 445);
    open_file(&h, "\\\\srv\\IPC$", 2, "PSEXESVC-stdin");
    write2(&h, 4, 0, "\xc8\0\0\0dir\r\n", 9, 0);
    struct smb_file *fl = smb_file_find(h.pf.state, FID, 16);
    CHECK(fl && fl->dce == 2);
    CHECK(!h.pf.guest || !h.pf.guest->state); /* nothing reached DCERPC */
    CHECK_EQ_U(ph_count(&h, "smb_pipe_bytes"), 0);
    ph_free(&h);
}

static void test_resync(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 50000, 445);
    uint8_t b[512], body[24] = {4};
    uint8_t junk[40];
    memset(junk, 0x41, sizeof junk); /* midstream: the tail of some message */
    ph_feed(&h, 0, junk, sizeof junk);
    uint32_t n = smb2(b, 13, 9, false, 0, body, 4); /* an echo */
    ph_feed(&h, 0, b, n);
    ph_feed(&h, 0, b, n);
    CHECK_EQ_U(ph_count(&h, "smb_messages"), 2);
    CHECK(ph_count(&h, "smb_malformed") >= 1);
    /* bytes lost in the middle of a message: the rest of it is skipped, the next one read */
    ph_feed(&h, 0, b, n / 2);
    h.def->gap(&h.pf, &h.f, 0);
    ph_feed(&h, 0, b + n / 2, n - n / 2);
    ph_feed(&h, 0, b, n);
    CHECK_EQ_U(ph_count(&h, "smb_messages"), 3);
    CHECK_EQ_U(ph_count(&h, "smb_gaps"), 1);
    ph_free(&h);
}

/* Picked up midstream with the server's side first: its answers come as "to the server"; the
 * sides are swapped (Suricata reverses the flow) and a negotiate answer without its request
 * makes no transaction. */
static void test_reversed(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 445, 50000);
    uint8_t b[512], body[128] = {65};
    put16(body + 4, 0x0210);
    ph_feed(&h, 0, b, smb2(b, SMB2_NEGOTIATE, 0, true, 0, body, 64));
    struct smb_state *st = h.pf.state;
    CHECK(st->reversed && st->dialect == 0x0210);
    CHECK_EQ_U(h.txs, 0);
    memset(body, 0, sizeof body);
    body[0] = 9;
    put16(body + 4, 72), put16(body + 6, 8);
    memcpy(body + 8, "\\\0x\0y\0z\0", 8);
    ph_feed(&h, 1, b, smb2(b, SMB2_TREE_CONNECT, 1, false, 0, body, 16));
    memset(body, 0, sizeof body);
    body[0] = 16, body[2] = 1;
    ph_feed(&h, 0, b, smb2(b, SMB2_TREE_CONNECT, 1, true, 0, body, 16));
    CHECK(ph_buf_is(&h, "smb.share", 1, 0, "\\xyz"));
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(ph_count(&h, "smb_transactions"), 1);
    ph_free(&h);
}

int main(void)
{
    test_reversed();
    test_smb2_file();
    test_smb2_file_holes();
    test_smb1_andx();
    test_ntlmssp_and_negotiate();
    test_dcerpc_pipe();
    test_pipe_not_dcerpc();
    test_resync();
    return unit_report("test_smb_commands");
}
