/* test_proto_smb.c — SMB's descriptor, bytes in, buffers out: SMB2 and SMB1 tree connects
 * (request path, response share type) giving smb.share or smb.named_pipe, a refused one
 * giving nothing, NetBIOS framing split anywhere and large messages skipped past their kept
 * head, the pending table's limit, the probe. */
#include "proto_harness.h"
#include "smb_int.h"
#include "unit.h"

static uint32_t nbss(uint8_t *out, const uint8_t *m, uint32_t n)
{
    out[0] = 0, out[1] = (uint8_t)(n >> 16), out[2] = (uint8_t)(n >> 8), out[3] = (uint8_t)n;
    memcpy(out + 4, m, n);
    return n + 4;
}

static uint32_t utf16(uint8_t *out, const char *s)
{
    uint32_t k = 0;
    for (; *s; s++)
        out[k++] = (uint8_t)*s, out[k++] = 0;
    return k;
}

/* An SMB2 tree connect request (path) or response (status, share type), message id mid. */
static uint32_t smb2_tree(uint8_t *out, bool reply, uint64_t mid, const char *path,
                          uint32_t status, uint8_t type)
{
    uint8_t m[512] = {0xfe, 'S', 'M', 'B', 64};
    m[12] = 3;
    m[16] = reply;
    memcpy(m + 24, &mid, 8);  /* little-endian host assumed, as the tests' targets are */
    memcpy(m + 8, &status, 4);
    uint32_t n = 64;
    if (!reply) {
        m[64] = 9;
        m[68] = 72;
        uint32_t pl = utf16(m + 72, path);
        m[70] = (uint8_t)pl;
        n = 72 + pl;
    } else {
        m[64] = 16;
        m[66] = type;
        n = 80;
    }
    return nbss(out, m, n);
}

static void test_smb2(void)
{
    struct ph h;
    uint8_t b[600];
    ph_init(&h, "smb", 6, 50000, 445);
    uint32_t n = smb2_tree(b, false, 3, "\\\\10.0.0.1\\IPC$", 0, 0);
    for (uint32_t i = 0; i < n; i++) /* a byte at a time */
        ph_feed(&h, 0, b + i, 1);
    CHECK(!ph_buf(&h, "smb.named_pipe", 1, 0, &(uint32_t){0})); /* no answer yet */
    n = smb2_tree(b, true, 3, NULL, 0, 2);
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "smb.named_pipe", 1, 0, "\\\\10.0.0.1\\IPC$"));
    CHECK(!ph_buf(&h, "smb.share", 1, 0, &(uint32_t){0}));
    CHECK_EQ_U(h.txs, 1);
    int64_t v;
    CHECK(ph_field(&h, "smb.version", 0, &v) && v == 2);
    /* a disk share; then a refused connect (BAD_NETWORK_NAME) leaves it in force */
    n = smb2_tree(b, false, 4, "\\\\10.0.0.1\\data", 0, 0);
    ph_feed(&h, 0, b, n);
    n = smb2_tree(b, true, 4, NULL, 0, 1);
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "smb.share", 1, 0, "\\\\10.0.0.1\\data"));
    n = smb2_tree(b, false, 5, "\\\\10.0.0.1\\$IPC", 0, 0);
    ph_feed(&h, 0, b, n);
    n = smb2_tree(b, true, 5, NULL, 0xc00000cc, 0);
    ph_feed(&h, 1, b, n);
    CHECK(ph_buf_is(&h, "smb.share", 1, 0, "\\\\10.0.0.1\\data"));
    CHECK_EQ_U(h.txs, 3); /* each request and its answer is a transaction, refused or not */
    CHECK_EQ_U(ph_count(&h, "smb_tree_connects"), 2);
    /* a large message: its head is kept, the rest skipped */
    static uint8_t big[100004];
    memset(big, 0, sizeof big);
    big[1] = 0x01, big[2] = 0x86, big[3] = 0xa0; /* 100000 */
    memcpy(big + 4, "\xfeSMB", 4);
    ph_feed(&h, 0, big, sizeof big);
    CHECK(!h.pf.dead[0]);
    CHECK_EQ_U(ph_count(&h, "smb_messages"), 7);
    ph_free(&h);
}

static void test_smb1_and_limits(void)
{
    struct ph h;
    /* SMB1 TREE_CONNECT_ANDX, unicode path, from the output-eve-smb-01 capture's shape */
    uint8_t m[256] = {0xff, 'S', 'M', 'B', 0x75};
    m[9] = 0x18, m[10] = 0x03, m[11] = 0xc8; /* flags2: unicode */
    m[30] = 9;                               /* mid */
    m[32] = 4, m[33] = 0xff, m[39] = 1;      /* word count 4, no andx, password length 1 */
    uint32_t pl = utf16(m + 44, "\\\\h\\IPC$");
    m[41] = (uint8_t)(1 + pl + 2 + 6);
    memcpy(m + 44 + pl + 2, "?????", 6);
    uint8_t b[300];
    ph_init(&h, "smb", 6, 50000, 139);
    ph_feed(&h, 0, b, nbss(b, m, 44 + pl + 8));
    uint8_t r[64] = {0xff, 'S', 'M', 'B', 0x75};
    r[9] = 0x98, r[30] = 9, r[32] = 7, r[47] = 8;
    memcpy(r + 49, "IPC\0\0\0\0", 8);
    ph_feed(&h, 1, b, nbss(b, r, 57));
    CHECK(ph_buf_is(&h, "smb.named_pipe", 1, 0, "\\\\h\\IPC$"));
    int64_t v;
    CHECK(ph_field(&h, "smb.version", 0, &v) && v == 1);
    /* requests never answered: the table keeps SMB_PENDING_MAX, counts the rest */
    for (uint32_t i = 0; i < SMB_PENDING_MAX + 3; i++) {
        m[30] = (uint8_t)(100 + i);
        ph_feed(&h, 0, b, nbss(b, m, 44 + pl + 8));
    }
    CHECK_EQ_U(ph_count(&h, "smb_pending_shed"), 3);
    /* answering one frees its slot for the next request, with its own path */
    r[30] = 100;
    ph_feed(&h, 1, b, nbss(b, r, 57));
    CHECK(ph_buf_is(&h, "smb.named_pipe", 1, 0, "\\\\h\\IPC$"));
    m[30] = 200;
    ph_feed(&h, 0, b, nbss(b, m, 44 + pl + 8));
    CHECK_EQ_U(ph_count(&h, "smb_pending_shed"), 3);
    ph_free(&h);
    /* a flow's state is small: the paths waiting are copied at their length */
    CHECK(sizeof(struct smb_state) <= SMB_STATE_MAX);
}

/* An SMB1 tree connect whose path is empty (its first character NUL), answered: an empty
 * share in force (found by the fuzzer: the empty copy has no bytes to copy from). */
static void test_empty_path(void)
{
    struct ph h;
    uint8_t m[128] = {0xff, 'S', 'M', 'B', 0x75};
    m[9] = 0x18, m[10] = 0x03, m[11] = 0xc8; /* flags2: unicode */
    m[30] = 9;
    m[32] = 4, m[33] = 0xff, m[39] = 1;      /* password length 1 */
    m[41] = 1 + 2 + 6;                        /* password, an empty path, the service */
    memcpy(m + 44 + 2, "?????", 6);
    uint8_t b[200];
    ph_init(&h, "smb", 6, 50000, 139);
    ph_feed(&h, 0, b, nbss(b, m, 44 + 8));
    uint8_t r[64] = {0xff, 'S', 'M', 'B', 0x75};
    r[9] = 0x98, r[30] = 9, r[32] = 7, r[47] = 8;
    memcpy(r + 49, "A:\0\0\0\0\0\0", 8);
    ph_feed(&h, 1, b, nbss(b, r, 57));
    CHECK_EQ_U(h.txs, 1);
    uint32_t n = 1;
    CHECK(ph_buf(&h, "smb.share", 1, 0, &n) && n == 0);
    ph_free(&h);
}

static void test_probe_and_path(void)
{
    CHECK(smb_probe((const uint8_t *)"\0\0\0\x48\xfeSMB", 8, NULL) == DET_YES);
    CHECK(smb_probe((const uint8_t *)"\0\0\0\x48\xffSM", 7, NULL) == DET_NEED_MORE);
    CHECK(smb_probe((const uint8_t *)"\0\0\0\x48\xfeSMX", 8, NULL) == DET_NO);
    CHECK(smb_probe((const uint8_t *)"\x85\0\0\0", 4, NULL) == DET_NO);
    /* by direction: SMB1's reply flag (Flags 0x80), SMB2's SERVER_TO_REDIR (Flags bit 0) */
    uint8_t s1[14] = {0, 0, 0, 0x48, 0xff, 'S', 'M', 'B', 0x73, 0, 0, 0, 0, 0x80};
    CHECK(smb_probe_server(s1, sizeof s1, NULL) == DET_YES);
    CHECK(smb_probe_client(s1, sizeof s1, NULL) == DET_NO);
    s1[13] = 0x18; /* a request */
    CHECK(smb_probe_client(s1, sizeof s1, NULL) == DET_YES);
    CHECK(smb_probe_server(s1, sizeof s1, NULL) == DET_NO);
    CHECK(smb_probe_client(s1, 13, NULL) == DET_NEED_MORE); /* the flag not there yet */
    uint8_t s2[21] = {0, 0, 0, 0x48, 0xfe, 'S', 'M', 'B', 64};
    s2[20] = 0x01;
    CHECK(smb_probe_server(s2, sizeof s2, NULL) == DET_YES);
    CHECK(smb_probe_client(s2, sizeof s2, NULL) == DET_NO);
    s2[20] = 0;
    CHECK(smb_probe_client(s2, sizeof s2, NULL) == DET_YES);
    CHECK(smb_probe_client((const uint8_t *)"\0\0\0\x48\xfdSMB", 8, NULL) == DET_YES);
    CHECK(smb_probe_server((const uint8_t *)"\0\0\0\x48\xfdSMB", 8, NULL) == DET_YES);
    uint8_t out[SMB_PATH_MAX];
    CHECK_EQ_U(smb_path(out, (const uint8_t *)"a\0\xe9\0b\0\0\0c\0", 10, true), 3);
    CHECK(!memcmp(out, "a?b", 3)); /* non-ASCII as '?', ends at NUL */
}

/* Suricata's size events: a negotiate offering MaxWriteSize past 16 MiB; a write asking
 * more than the negotiated size (its data not read) */
static void test_size_events(void)
{
    struct ph h;
    ph_init(&h, "smb", 6, 40000, 445);
    uint8_t m[256] = {0xfe, 'S', 'M', 'B', 64}, out[300];
    m[16] = 1; /* a negotiate response */
    m[64] = 65;
    uint32_t big = 17u << 20, small = 1000;
    memcpy(m + 64 + 32, &small, 4); /* MaxReadSize */
    memcpy(m + 64 + 36, &big, 4);   /* MaxWriteSize */
    ph_feed(&h, 1, out, nbss(out, m, 64 + 65));
    CHECK_EQ_U(ph_raised(&h, "smb.negotiate_max_write_size_too_large"), 1);
    CHECK_EQ_U(ph_raised(&h, "smb.negotiate_max_read_size_too_large"), 0);
    memset(m, 0, sizeof m);
    memcpy(m, "\xfeSMB", 4);
    m[4] = 64, m[12] = 8; /* a read request of 1001 bytes: past the 1000 negotiated */
    m[64] = 49;
    uint32_t len = 1001;
    memcpy(m + 64 + 4, &len, 4);
    ph_feed(&h, 0, out, nbss(out, m, 64 + 49));
    CHECK_EQ_U(ph_raised(&h, "smb.read_request_too_large"), 1);
    ph_free(&h);
}

int main(void)
{
    test_size_events();
    test_smb2();
    test_smb1_and_limits();
    test_empty_path();
    test_probe_and_path();
    return unit_report("test_proto_smb");
}
