/* test_io_pcap_live.c — the libpcap live source on the loopback interface of a private network
 * namespace (needs root): a read hands out at most MON_IO_BATCH frames and never more than
 * the caller asked for (libpcap's dispatch count 0 or -1 means "everything buffered", which
 * would write past the caller's slots), and every frame comes out once, whole.
 */
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mon_io.h"
#include "netns_lo.h"
#include "unit.h"

/* A 60-byte Ethernet frame of an unused EtherType, numbered by its last byte. */
static uint32_t frame(uint8_t *f, uint8_t tag)
{
    static const uint8_t head[14] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x88, 0xb5};
    memset(f, 0, 60);
    memcpy(f, head, sizeof head);
    f[59] = tag;
    return 60;
}

/* Our frames among what the source hands out (lo may carry others). */
static bool ours(const struct mon_packet *p)
{
    return p->caplen == 60 && memcmp(p->frame, "\x02\0\0\0\0\x02", 6) == 0;
}

static void test_batch_bounds(void)
{
    char err[256] = "";
    /* libpcap's immediate mode gives each frame a slot as large as lo's 64 KiB MTU: its
     * default 2 MiB ring would hold only 32 of them */
    struct mon_live_cfg c = {.iface = "lo", .buffer_size = 16u << 20};
    struct mon_source *s = mon_source_open_pcap_live(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    enum { N = MON_IO_BATCH + 8 };
    for (int i = 0; i < N; i++) {
        uint8_t f[60];
        CHECK(mon_source_send(s, f, frame(f, (uint8_t)i)) == 0);
    }
    /* a guard slot after the one the caller offers: nothing may be written there */
    struct mon_packet one[2];
    memset(one, 0, sizeof one);
    CHECK_EQ_U(mon_source_read(s, one, 0), 0);
    CHECK(one[0].frame == NULL && one[1].frame == NULL);
    static struct mon_packet pk[2 * MON_IO_BATCH];
    int seen = 0, next = 0;
    struct pollfd pfd = {.fd = mon_source_fd(s), .events = POLLIN};
    for (int idle = 0; seen < N && idle < 50;) {
        int k = mon_source_read(s, pk, 2 * MON_IO_BATCH);
        CHECK(k <= MON_IO_BATCH);
        if (k <= 0) {
            poll(&pfd, 1, 10);
            idle++;
            continue;
        }
        for (int i = 0; i < k; i++) {
            if (!ours(&pk[i]))
                continue;
            /* a frame sent on lo is seen going out and coming in: count each tag once */
            if (pk[i].frame[59] == next) {
                next++;
                seen++;
            }
        }
    }
    CHECK_EQ_U(seen, N);
    struct mon_live_stats st;
    CHECK(mon_source_stats(s, &st) == 0);
    CHECK_EQ_U(st.kernel_drops, 0);
    mon_source_close(s);
}

/* snaplen cuts each frame (caplen) and keeps its length on the wire; sizes out of range are
 * refused with the interface named, before anything is opened. */
static void test_snaplen_and_bad_sizes(void)
{
    char err[256] = "";
    struct mon_live_cfg c = {.iface = "lo", .buffer_size = 4u << 20, .snaplen = 64};
    struct mon_source *s = mon_source_open_pcap_live(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    uint8_t f[200];
    memset(f, 0, sizeof f);
    frame(f, 7);
    f[199] = 0x5a;
    CHECK(mon_source_send(s, f, sizeof f) == 0);
    static struct mon_packet pk[MON_IO_BATCH];
    struct pollfd pfd = {.fd = mon_source_fd(s), .events = POLLIN};
    int found = 0;
    for (int idle = 0; !found && idle < 50;) {
        int k = mon_source_read(s, pk, MON_IO_BATCH);
        if (k <= 0) {
            poll(&pfd, 1, 10);
            idle++;
        }
        for (int i = 0; i < k; i++)
            if (memcmp(pk[i].frame, "\x02\0\0\0\0\x02", 6) == 0) {
                CHECK_EQ_U(pk[i].caplen, 64);
                CHECK_EQ_U(pk[i].wirelen, 200);
                found = 1;
            }
    }
    CHECK(found);
    mon_source_close(s);

    struct mon_live_cfg bad[] = {{.iface = "lo", .snaplen = 63},
                                 {.iface = "lo", .snaplen = 262145},
                                 {.iface = "lo", .buffer_size = 1u << 31}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK(mon_source_open_pcap_live(&bad[i], err, sizeof err) == NULL);
        CHECK(strncmp(err, "lo: snaplen ", 12) == 0);
    }
}

int main(void)
{
    if (enter_private_netns("test_io_pcap_live") != 0)
        return 1;
    test_batch_bounds();
    test_snaplen_and_bad_sizes();
    return unit_report("test_io_pcap_live");
}
