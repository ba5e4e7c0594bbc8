/* test_log_file.c — log_file.c: whole records, append/truncate, rollover into timestamped
 * names past the limit, reopen after a rename, a file header on every new file, a lost record
 * counted, unix_dgram. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "unit.h"
#include "osprey_log_file.h"

static char dir[256];

static long fsize(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static int count_prefix(const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

static void test_regular_append_and_reopen(void)
{
    char path[300], moved[320], err[512];
    snprintf(path, sizeof path, "%s/eve.json", dir);
    struct osprey_log_cfg c = {.path = path, .append = false};
    struct osprey_log_file *lf = osprey_log_open(&c, err, sizeof err);
    CHECK(lf != NULL);
    CHECK(osprey_log_write(lf, "one\n", 4) == 0);
    CHECK(osprey_log_write(lf, "two\n", 4) == 0);
    CHECK_EQ_U(fsize(path), 8);
    snprintf(moved, sizeof moved, "%s.1", path);
    CHECK(rename(path, moved) == 0);
    CHECK(osprey_log_reopen(lf) == 0); /* a new file; a reopen never truncates */
    CHECK(osprey_log_write(lf, "three\n", 6) == 0);
    CHECK_EQ_U(fsize(moved), 8);
    CHECK_EQ_U(fsize(path), 6);
    CHECK_EQ_U(osprey_log_records(lf), 3);
    CHECK_EQ_U(osprey_log_lost(lf), 0);
    osprey_log_drop(lf, "out of memory");
    CHECK_EQ_U(osprey_log_lost(lf), 1);
    char why[64];
    CHECK(strcmp(osprey_log_error(lf, why, sizeof why), "out of memory") == 0);
    osprey_log_close(lf);
    /* append: kept; no append: truncated */
    c.append = true;
    lf = osprey_log_open(&c, err, sizeof err);
    osprey_log_write(lf, "x\n", 2);
    osprey_log_close(lf);
    CHECK_EQ_U(fsize(path), 8);
    c.append = false;
    lf = osprey_log_open(&c, err, sizeof err);
    osprey_log_close(lf);
    CHECK_EQ_U(fsize(path), 0);
}

static void test_rollover(void)
{
    char path[300], err[512], cur[400], first[400];
    snprintf(path, sizeof path, "%s/u2", dir);
    struct osprey_log_cfg c = {.path = path, .timestamped = true, .limit = 100};
    struct osprey_log_file *lf = osprey_log_open(&c, err, sizeof err);
    CHECK(lf != NULL);
    snprintf(first, sizeof first, "%s", osprey_log_current(lf, cur, sizeof cur));
    CHECK(strncmp(first, path, strlen(path)) == 0 && first[strlen(path)] == '.');
    char rec[40];
    memset(rec, 'r', sizeof rec);
    for (int i = 0; i < 7; i++) /* 2 records of 40 fit under 100: 4 files */
        CHECK(osprey_log_write(lf, rec, sizeof rec) == 0);
    CHECK_EQ_U(count_prefix("u2."), 4);
    CHECK_EQ_U(fsize(first), 80);
    /* a record larger than the limit still goes whole into a file of its own */
    char big[300];
    memset(big, 'b', sizeof big);
    CHECK(osprey_log_write(lf, big, sizeof big) == 0);
    CHECK_EQ_U(fsize(osprey_log_current(lf, cur, sizeof cur)), 300);
    CHECK_EQ_U(count_prefix("u2."), 5);
    osprey_log_close(lf);
}

/* A file header (pcap-log) starts every new file, rolled over or reopened; an appended file
 * that already holds bytes gets none. */
static void test_header(void)
{
    char path[300], err[512], cur[400], first[400], buf[128];
    snprintf(path, sizeof path, "%s/log.pcap", dir);
    struct osprey_log_cfg c = {.path = path, .timestamped = true, .limit = 100};
    struct osprey_log_file *lf = osprey_log_open(&c, err, sizeof err);
    CHECK(lf != NULL);
    CHECK(osprey_log_set_header(lf, "HDR!", 4) == 0);
    snprintf(first, sizeof first, "%s", osprey_log_current(lf, cur, sizeof cur));
    char rec[40];
    memset(rec, 'r', sizeof rec);
    for (int i = 0; i < 3; i++) /* header + 2 records fit under 100 */
        CHECK(osprey_log_write(lf, rec, sizeof rec) == 0);
    CHECK_EQ_U(fsize(first), 84);
    CHECK_EQ_U(fsize(osprey_log_current(lf, cur, sizeof cur)), 44);
    FILE *f = fopen(cur, "rb");
    CHECK(f && fread(buf, 1, sizeof buf, f) == 44 && memcmp(buf, "HDR!rrrr", 8) == 0);
    if (f)
        fclose(f);
    CHECK(osprey_log_reopen(lf) == 0); /* a new name: a new header */
    CHECK(osprey_log_write(lf, rec, sizeof rec) == 0);
    CHECK_EQ_U(fsize(osprey_log_current(lf, cur, sizeof cur)), 44);
    CHECK_EQ_U(osprey_log_records(lf), 4);
    osprey_log_close(lf);
    /* appending to a file that holds bytes: no second header */
    snprintf(path, sizeof path, "%s/plain.pcap", dir);
    struct osprey_log_cfg a = {.path = path, .append = true};
    lf = osprey_log_open(&a, err, sizeof err);
    CHECK(lf && osprey_log_set_header(lf, "HDR!", 4) == 0);
    CHECK(osprey_log_write(lf, "one", 3) == 0);
    osprey_log_close(lf);
    lf = osprey_log_open(&a, err, sizeof err);
    CHECK(lf && osprey_log_set_header(lf, "HDR!", 4) == 0);
    CHECK(osprey_log_write(lf, "two", 3) == 0);
    osprey_log_close(lf);
    f = fopen(path, "rb");
    CHECK(f && fread(buf, 1, sizeof buf, f) == 10 && memcmp(buf, "HDR!onetwo", 10) == 0);
    if (f)
        fclose(f);
}

static void test_open_errors(void)
{
    char err[512];
    struct osprey_log_cfg c = {.path = "/nonexistent-dir/eve.json"};
    CHECK(osprey_log_open(&c, err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent-dir/eve.json: No such file or directory") != NULL);
    c.kind = OSPREY_LOG_UNIX_STREAM;
    c.path = "/nonexistent-dir/eve.sock";
    CHECK(osprey_log_open(&c, err, sizeof err) == NULL);
    CHECK(strstr(err, "eve.sock") != NULL);
    CHECK(osprey_log_kind_parse("unix_dgram") == OSPREY_LOG_UNIX_DGRAM);
    CHECK(osprey_log_kind_parse("regular") == OSPREY_LOG_REGULAR);
    CHECK(osprey_log_kind_parse("syslog") == -1);
}

static void test_dgram(void)
{
    char path[300], err[512], buf[64];
    snprintf(path, sizeof path, "%s/s.sock", dir);
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%.100s", path);
    CHECK(bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
    struct osprey_log_cfg c = {.path = path, .kind = OSPREY_LOG_UNIX_DGRAM};
    struct osprey_log_file *lf = osprey_log_open(&c, err, sizeof err);
    CHECK(lf != NULL);
    CHECK(osprey_log_write(lf, "{\"a\":1}\n", 8) == 0);
    CHECK(osprey_log_write(lf, "{\"b\":2}\n", 8) == 0);
    CHECK_EQ_U(recv(s, buf, sizeof buf, 0), 8);
    CHECK(memcmp(buf, "{\"a\":1}\n", 8) == 0);
    CHECK_EQ_U(recv(s, buf, sizeof buf, 0), 8);
    close(s);
    unlink(path);
    /* the reader went away: the record is lost and counted, not fatal */
    CHECK(osprey_log_write(lf, "{\"c\":3}\n", 8) == -1);
    CHECK_EQ_U(osprey_log_lost(lf), 1);
    osprey_log_close(lf);
}

/* buffer_size: whole records batched, written at a sync, when the next would overflow, when
 * the oldest waited flush_us, at reopen and at close; one larger than the buffer directly */
static void test_batching(void)
{
    char path[300], moved[320], err[512];
    snprintf(path, sizeof path, "%s/batch.json", dir);
    struct osprey_log_cfg c = {.path = path, .buffer_size = 16, .flush_us = 3600000000u};
    struct osprey_log_file *lf = osprey_log_open(&c, err, sizeof err);
    CHECK(lf != NULL);
    CHECK(osprey_log_write(lf, "aaaaaa\n", 7) == 0);
    CHECK(osprey_log_write(lf, "bbbbbb\n", 7) == 0);
    CHECK_EQ_U(fsize(path), 0); /* both wait in the buffer (14 of 16 bytes) */
    CHECK_EQ_U(osprey_log_records(lf), 2);
    CHECK(osprey_log_write(lf, "cccccc\n", 7) == 0);
    CHECK_EQ_U(fsize(path), 14); /* it would overflow: the two went first, whole */
    osprey_log_sync(lf);
    CHECK_EQ_U(fsize(path), 21);
    CHECK(osprey_log_write(lf, "a record longer than the buffer\n", 32) == 0);
    CHECK_EQ_U(fsize(path), 53);
    CHECK(osprey_log_write(lf, "dddddd\n", 7) == 0);
    osprey_log_sync_all(); /* every open file's batch */
    CHECK_EQ_U(fsize(path), 60);
    CHECK(osprey_log_write(lf, "eeeeee\n", 7) == 0);
    snprintf(moved, sizeof moved, "%s.1", path);
    CHECK(rename(path, moved) == 0);
    CHECK(osprey_log_reopen(lf) == 0); /* the batch goes to the file rotated away */
    CHECK_EQ_U(fsize(moved), 67);
    CHECK(osprey_log_write(lf, "ffffff\n", 7) == 0);
    CHECK_EQ_U(fsize(path), 0);
    CHECK_EQ_U(osprey_log_records(lf), 7);
    osprey_log_close(lf); /* and the last batch at close */
    CHECK_EQ_U(fsize(path), 7);
    /* flush_us: the next write after the oldest record waited that long sends the batch */
    c.flush_us = 1;
    lf = osprey_log_open(&c, err, sizeof err);
    CHECK(osprey_log_write(lf, "gggggg\n", 7) == 0);
    usleep(2000);
    CHECK(osprey_log_write(lf, "hhhhhh\n", 7) == 0);
    CHECK_EQ_U(fsize(path), 14);
    osprey_log_close(lf);
    /* a batch that cannot be written: each of its records counted lost */
    c = (struct osprey_log_cfg){.path = "/dev/full", .append = true, .buffer_size = 64};
    lf = osprey_log_open(&c, err, sizeof err);
    CHECK(lf != NULL);
    CHECK(osprey_log_write(lf, "x\n", 2) == 0);
    CHECK(osprey_log_write(lf, "y\n", 2) == 0);
    osprey_log_sync(lf);
    CHECK_EQ_U(osprey_log_lost(lf), 2);
    CHECK_EQ_U(osprey_log_records(lf), 0);
    osprey_log_close(lf);
}

/* osprey_log_sync_due: only the batches whose oldest record is flush_us old are written out */
static void test_sync_due(void)
{
    char fast[300], slow[300], err[512];
    snprintf(fast, sizeof fast, "%s/due-fast.json", dir);
    snprintf(slow, sizeof slow, "%s/due-slow.json", dir);
    struct osprey_log_cfg cf = {.path = fast, .buffer_size = 64, .flush_us = 5000};
    struct osprey_log_cfg cs = {.path = slow, .buffer_size = 64, .flush_us = 3600000000u};
    struct osprey_log_file *f = osprey_log_open(&cf, err, sizeof err);
    struct osprey_log_file *s = osprey_log_open(&cs, err, sizeof err);
    CHECK(f != NULL && s != NULL);
    CHECK(osprey_log_write(f, "fast\n", 5) == 0);
    CHECK(osprey_log_write(s, "slow\n", 5) == 0);
    usleep(25000); /* past both the 5 ms flush age and the 10 ms between looks */
    osprey_log_sync_due();
    CHECK_EQ_U(fsize(fast), 5); /* due: written out */
    CHECK_EQ_U(fsize(slow), 0); /* its hour has not passed: kept */
    CHECK(osprey_log_write(f, "more\n", 5) == 0);
    usleep(16000); /* (only lower bounds on the waits: a loaded machine may add to them) */
    osprey_log_sync_due();
    CHECK_EQ_U(fsize(fast), 10);
    osprey_log_close(f);
    osprey_log_close(s);
    CHECK_EQ_U(fsize(slow), 5);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/osprey-test-log-file-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    test_regular_append_and_reopen();
    test_rollover();
    test_header();
    test_open_errors();
    test_dgram();
    test_batching();
    test_sync_due();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return unit_report("test_log_file");
}
