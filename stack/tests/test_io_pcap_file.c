/* test_io_pcap_file.c — the pcap file source read on the caller's thread and read ahead on a
 * thread of its own (mon_source_read_ahead): the same frames, numbers, times, link types and
 * bytes in the same order, for any batch size; a batch's frames intact until the next read;
 * a truncated file's frames then its error; closing before the end; what read-ahead refuses. */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mon.h"
#include "mon_io.h"
#include "unit.h"

/* 30 read-ahead slots of 1,024 frames: the reader fills all 8 and sleeps until half are
 * free again, several times over */
enum { NFRAMES = 30000, BIG = 3001, BIG_LEN = 200000 };

/* Frame i's length and bytes: lengths vary from 14 to 1513, one frame of 200,000 bytes (more
 * than a read-ahead slot's 1 MiB arena holds after others: it starts a slot and grows it). */
static uint32_t len_of(int i)
{
    return i == BIG ? BIG_LEN : 14u + (uint32_t)(i * 37 % 1500);
}

static uint8_t byte_of(int i, uint32_t k)
{
    return (uint8_t)(((uint32_t)i * 2654435761u >> 13) + k * 7); /* no period in i */
}

static void write_capture(const char *path)
{
    pcap_t *dead = pcap_open_dead(DLT_EN10MB, 262144);
    pcap_dumper_t *d = pcap_dump_open(dead, path);
    static uint8_t buf[BIG_LEN];
    for (int i = 0; i < NFRAMES; i++) {
        uint32_t n = len_of(i);
        for (uint32_t k = 0; k < n; k++)
            buf[k] = byte_of(i, k);
        struct pcap_pkthdr h = {.caplen = n, .len = n + (i % 3)};
        h.ts.tv_sec = 1700000000 + i / 1000;
        h.ts.tv_usec = i % 1000 * 1000;
        pcap_dump((u_char *)d, &h, buf);
    }
    pcap_dump_close(d);
    pcap_close(dead);
}

static int frame_ok(const struct mon_packet *p, int i)
{
    if (p->caplen != len_of(i) || p->wirelen != len_of(i) + (uint32_t)(i % 3) ||
        p->num != (uint64_t)i + 1 || p->linktype != DLT_EN10MB ||
        p->ts_us != (uint64_t)(1700000000 + i / 1000) * 1000000u + (uint64_t)(i % 1000) * 1000)
        return 0;
    for (uint32_t k = 0; k < p->caplen; k++)
        if (p->frame[k] != byte_of(i, k))
            return 0;
    return 1;
}

/* Read the whole file in batches of max; every frame of a batch is checked after the read
 * returned (so after the reader thread went on). Returns frames read, -1 on a wrong frame. */
static int read_all(const char *path, int ahead, int max, int *last_rc, char *err)
{
    char e[256];
    struct mon_source *src = mon_source_open_file(path, e, sizeof e);
    if (!src)
        return -2;
    if (ahead && mon_source_read_ahead(src) != MON_OK) {
        mon_source_close(src);
        return -3;
    }
    struct mon_packet *b = calloc((size_t)max, sizeof *b);
    int total = 0, n, bad = 0, reads = 0;
    while ((n = mon_source_read(src, b, max)) > 0) {
        if (n > max)
            bad = 1;
        if (ahead && max > 1 && ++reads % 8 == 0)
            usleep(2000); /* the reader runs on meanwhile: it must not touch these frames */
        for (int k = 0; k < n; k++)
            if (!frame_ok(&b[k], total + k))
                bad = 1;
        total += n;
    }
    *last_rc = n;
    if (err)
        snprintf(err, 256, "%s", src->err);
    CHECK_EQ_U(src->frames, (uint64_t)total);
    CHECK_EQ_U(mon_source_read(src, b, max), (uint64_t)(int64_t)n); /* the end stays the end */
    free(b);
    mon_source_close(src);
    return bad ? -1 : total;
}

int main(void)
{
    char dir[] = "/tmp/test_io_pcap_file.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[300], cut[300];
    snprintf(path, sizeof path, "%s/frames.pcap", dir);
    snprintf(cut, sizeof cut, "%s/cut.pcap", dir);
    write_capture(path);

    int rc;
    for (int ahead = 0; ahead < 2; ahead++) {
        const int sizes[] = {1, 7, MON_IO_BATCH, 2000};
        for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            CHECK_EQ_U(read_all(path, ahead, sizes[s], &rc, NULL), NFRAMES);
            CHECK_EQ_U(rc, 0);
        }
    }

    /* cut in the middle of a record: the frames before it, then the read error */
    struct stat st;
    CHECK(stat(path, &st) == 0);
    FILE *in = fopen(path, "rb"), *out = fopen(cut, "wb");
    size_t keep = (size_t)st.st_size * 2 / 3, done = 0;
    char buf[65536];
    while (done < keep) {
        size_t want = keep - done < sizeof buf ? keep - done : sizeof buf;
        size_t got = fread(buf, 1, want, in);
        if (!got)
            break;
        fwrite(buf, 1, got, out);
        done += got;
    }
    fclose(in);
    fclose(out);
    char err0[256], err1[256];
    int n0 = read_all(cut, 0, MON_IO_BATCH, &rc, err0);
    CHECK(n0 > 1000 && n0 < NFRAMES);
    CHECK(rc < 0);
    CHECK(err0[0] != 0);
    int n1 = read_all(cut, 1, MON_IO_BATCH, &rc, err1);
    CHECK_EQ_U(n1, n0);
    CHECK(rc < 0);
    CHECK(strcmp(err0, err1) == 0);

    /* closed long before the end: the thread, waiting for a slot, is stopped and joined */
    char e[256];
    struct mon_source *src = mon_source_open_file(path, e, sizeof e);
    CHECK(src && mon_source_is_file(src));
    CHECK_EQ_U(mon_source_read_ahead(src), MON_OK);
    CHECK_EQ_U(mon_source_read_ahead(src), (uint64_t)(int64_t)MON_EINVAL); /* already */
    struct mon_packet b[MON_IO_BATCH];
    CHECK_EQ_U(mon_source_read(src, b, MON_IO_BATCH), MON_IO_BATCH);
    CHECK(frame_ok(&b[MON_IO_BATCH - 1], MON_IO_BATCH - 1));
    usleep(20000); /* the reader has filled every slot and waits */
    mon_source_close(src);

    /* not from the first frame: refused, and the source reads on as before */
    src = mon_source_open_file(path, e, sizeof e);
    CHECK_EQ_U(mon_source_read(src, b, 3), 3);
    CHECK_EQ_U(mon_source_read_ahead(src), (uint64_t)(int64_t)MON_EINVAL);
    CHECK_EQ_U(mon_source_read(src, b, 1), 1);
    CHECK(frame_ok(&b[0], 3));
    mon_source_close(src);

    unlink(path);
    unlink(cut);
    rmdir(dir);
    return unit_report("test_io_pcap_file");
}
