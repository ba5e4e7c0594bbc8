/* test_files.c — the file layer alone (core/files.c): a file's hashes are the same over any
 * split of its bytes and equal a one-shot digest; a truncated file has none; the memcap
 * sheds a file's kept bytes (counted) but not its hashes or size; libmagic names the first
 * bytes; files belong to their transaction and direction and go with it; filestore marks
 * the files of the transaction asked for, and those opened later in it. Driven on an FTP-data
 * flow of the harness (its tx id is 0). */
#include <openssl/evp.h>
#include <string.h>

#include "files.h"
#include "proto_harness.h"
#include "unit.h"

static uint8_t data[100000];

static void digest(const EVP_MD *md, const void *d, size_t n, uint8_t *out)
{
    unsigned len = 0;
    EVP_Digest(d, n, out, &len, md, NULL);
}

static uint64_t counter(struct ph *h, const char *name)
{
    int i = osprey_parsers_stat_find(name);
    return i < 0 ? UINT64_MAX : h->w.st.v[i];
}

static void test_hash_across_splits(void)
{
    uint8_t md5[16], sha1[20], sha256[32];
    digest(EVP_md5(), data, sizeof data, md5);
    digest(EVP_sha1(), data, sizeof data, sha1);
    digest(EVP_sha256(), data, sizeof data, sha256);
    static const size_t SPLITS[] = {1, 7, 63, 64, 65, 4096, sizeof data};
    for (size_t s = 0; s < sizeof SPLITS / sizeof SPLITS[0]; s++) {
        struct ph h;
        ph_init(&h, "ftp-data", 6, 20, 40000);
        h.p.files = OSPREY_FILES_MD5 | OSPREY_FILES_SHA1 | OSPREY_FILES_SHA256;
        uint32_t id = pfile_open(&h.pf, 1, 0, "a.bin", 5);
        CHECK(id == 1);
        for (size_t at = 0; at < sizeof data; at += SPLITS[s]) {
            size_t n = sizeof data - at < SPLITS[s] ? sizeof data - at : SPLITS[s];
            pfile_data(&h.pf, id, data + at, n);
        }
        struct osprey_file_info fi;
        CHECK(pfile_at(&h.pf, 1, 0, &fi) && fi.state == OSPREY_FILE_OPEN && !fi.has_md5);
        pfile_close(&h.pf, id, false);
        CHECK(pfile_at(&h.pf, 1, 0, &fi));
        CHECK(fi.state == OSPREY_FILE_CLOSED && fi.size == sizeof data);
        CHECK(fi.has_md5 && fi.has_sha1 && fi.has_sha256);
        CHECK(!memcmp(fi.md5, md5, 16) && !memcmp(fi.sha1, sha1, 20) &&
              !memcmp(fi.sha256, sha256, 32));
        CHECK(fi.name_len == 5 && !memcmp(fi.name, "a.bin", 5));
        CHECK(!pfile_at(&h.pf, 0, 0, &fi)); /* the other direction has none */
        ph_free(&h);
    }
}

static void test_truncated_has_no_hash(void)
{
    struct ph h;
    ph_init(&h, "ftp-data", 6, 20, 40000);
    h.p.files = OSPREY_FILES_MD5 | OSPREY_FILES_SHA256;
    uint32_t id = pfile_open(&h.pf, 0, 0, NULL, 0);
    pfile_data(&h.pf, id, data, 1000);
    pfile_close_all(&h.pf, -1);
    pfile_data(&h.pf, id, data, 1000); /* after its close: nothing */
    struct osprey_file_info fi;
    CHECK(pfile_at(&h.pf, 0, 0, &fi));
    CHECK(fi.state == OSPREY_FILE_TRUNCATED && fi.size == 1000 && !fi.has_md5 &&
          !fi.has_sha256 && fi.name_len == 0);
    CHECK_EQ_U(counter(&h, "files_truncated"), 1);
    pfile_close(&h.pf, id, false); /* a closed file stays as it is */
    CHECK(pfile_at(&h.pf, 0, 0, &fi) && fi.state == OSPREY_FILE_TRUNCATED);
    ph_free(&h);
}

static void test_memcap(void)
{
    struct ph h;
    ph_init(&h, "ftp-data", 6, 20, 40000);
    h.p.files = OSPREY_FILES_STORE | OSPREY_FILES_SHA256;
    h.p.cfg.files_memcap = 3000;
    uint32_t a = pfile_open(&h.pf, 1, 0, "a", 1), b = pfile_open(&h.pf, 1, 0, "b", 1);
    pfile_data(&h.pf, a, data, 2000);
    CHECK_EQ_U(h.w.file_bytes, 2000);
    pfile_data(&h.pf, b, data, 800);
    pfile_data(&h.pf, b, data + 800, 800); /* 3600 > 3000: b keeps none */
    CHECK_EQ_U(h.w.file_bytes, 2000);
    CHECK_EQ_U(counter(&h, "files_bytes_shed"), 1600);
    pfile_data(&h.pf, b, data, 100); /* b still hashed and counted, not kept */
    pfile_close(&h.pf, a, false);
    pfile_close(&h.pf, b, false);
    struct osprey_file_info fa, fb;
    CHECK(pfile_at(&h.pf, 1, 0, &fa) && pfile_at(&h.pf, 1, 1, &fb));
    CHECK(fa.bytes_kept && !fb.bytes_kept && fb.size == 1700 && fb.has_sha256);
    pflow_tx_done(&h.pf, &h.f); /* the transaction is reported: its files go */
    CHECK(!pfile_at(&h.pf, 1, 0, &fa));
    CHECK_EQ_U(h.w.file_bytes, 0);
    ph_free(&h);
}

static void test_magic_and_store(void)
{
    struct ph h;
    ph_init(&h, "ftp-data", 6, 20, 40000);
    h.p.files = OSPREY_FILES_MAGIC;
    static const char PDF[] = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n";
    h.pf.store_tx[0] = h.pf.store_tx[1] = -1;
    uint32_t id = pfile_open(&h.pf, 0, 0, "x.pdf", 5);
    pfile_data(&h.pf, id, PDF, sizeof PDF - 1);
    pfile_close(&h.pf, id, false);
    struct osprey_file_info fi;
    CHECK(pfile_at(&h.pf, 0, 0, &fi) && fi.magic && strstr(fi.magic, "PDF document"));
    CHECK(!fi.store);
    /* file.magic and file.name as the buffer rows serve them */
    uint32_t len = 0;
    const uint8_t *m = pfile_buffer(&h.pf, PFILE_KEY_MAGIC + 2 * 0, 0, NULL, &len);
    CHECK(m && len == strlen(fi.magic));
    const uint8_t *n = pfile_buffer(&h.pf, PFILE_KEY_NAME + 2 * 0, 0, NULL, &len);
    CHECK(n && len == 5 && !memcmp(n, "x.pdf", 5));
    CHECK(!pfile_buffer(&h.pf, PFILE_KEY_NAME + 2 * 0, 1, NULL, &len));
    CHECK(!pfile_buffer(&h.pf, PFILE_KEY_NAME + 2 * 1, 0, NULL, &len));
    ph_free(&h); /* its files, the worker's libmagic handle */
}

int main(void)
{
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 2654435761u >> 13);
    test_hash_across_splits();
    test_truncated_has_no_hash();
    test_memcap();
    test_magic_and_store();
    return unit_report("test_files");
}
