/* test_io_afpacket.c — the AF_PACKET live source on a loopback interface of a private network
 * namespace (needs root, as live capture does): frames come back byte-identical (VLAN tags
 * the kernel strips are put back), errors name the interface, kernel counters count, and a
 * PACKET_FANOUT_HASH group keeps both directions of every flow on one member, and with
 * offload metadata a locally sent TCP segment's partial checksum is reported.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
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

#define DLT_EN10MB_ 1

/* An Ethernet/IPv4/UDP frame from a:sp to b:dp (optionally 802.1Q-tagged), tag byte in the
 * payload so frames can be told apart. */
static uint32_t udp_frame(uint8_t *f, uint32_t a, uint32_t b, uint16_t sp, uint16_t dp,
                          int vlan, uint8_t tag)
{
    uint32_t o = 0;
    static const uint8_t macs[12] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1};
    memcpy(f, macs, 12);
    o = 12;
    if (vlan >= 0) {
        f[o++] = 0x81, f[o++] = 0x00, f[o++] = (uint8_t)(vlan >> 8), f[o++] = (uint8_t)vlan;
    }
    f[o++] = 0x08, f[o++] = 0x00;
    uint8_t *ip = f + o;
    memset(ip, 0, 20);
    ip[0] = 0x45, ip[3] = 20 + 8 + 4, ip[8] = 64, ip[9] = 17;
    uint32_t na = htonl(a), nb = htonl(b);
    memcpy(ip + 12, &na, 4);
    memcpy(ip + 16, &nb, 4);
    uint8_t *u = ip + 20;
    u[0] = (uint8_t)(sp >> 8), u[1] = (uint8_t)sp, u[2] = (uint8_t)(dp >> 8), u[3] = (uint8_t)dp;
    u[4] = 0, u[5] = 12, u[6] = 0, u[7] = 0;
    memcpy(u + 8, "osp", 3);
    u[11] = tag;
    return o + 20 + 12;
}

/* Read everything src has within ms milliseconds into got[] (copies), returns the count. */
static int drain(struct mon_source *src, uint8_t (*got)[128], uint32_t *lens, int max, int ms)
{
    struct mon_packet pk[MON_IO_BATCH];
    int n = 0;
    struct pollfd pfd = {.fd = mon_source_fd(src), .events = POLLIN};
    for (int idle = 0; idle < ms / 10;) {
        int k = mon_source_read(src, pk, MON_IO_BATCH);
        if (k <= 0) {
            poll(&pfd, 1, 10);
            idle++;
            continue;
        }
        for (int i = 0; i < k; i++) {
            /* only our frames: loopback may carry other traffic of the namespace */
            if (pk[i].caplen < 16 || memcmp(pk[i].frame, "\x02\0\0\0\0\x02", 6) != 0)
                continue;
            CHECK_EQ_U(pk[i].linktype, DLT_EN10MB_);
            CHECK(pk[i].ts_us > 0);
            if (n < max && pk[i].caplen <= 128) {
                memcpy(got[n], pk[i].frame, pk[i].caplen);
                lens[n++] = pk[i].caplen;
            }
        }
    }
    return n;
}

static void test_errors(void)
{
    char err[256] = "";
    struct mon_live_cfg c = {.iface = "osprey-none0"};
    CHECK(mon_source_open_afpacket(&c, err, sizeof err) == NULL);
    CHECK(strstr(err, "osprey-none0") && strstr(err, "no such interface"));
    c.iface = "lo";
    c.block_size = 3000; /* not a power of two */
    CHECK(mon_source_open_afpacket(&c, err, sizeof err) == NULL);
    CHECK(strstr(err, "power of two") != NULL);
}

static void test_round_trip(bool per_frame)
{
    char err[256];
    /* V2 slots hold a whole frame of lo's 64 KiB MTU: bigger blocks */
    struct mon_live_cfg c = {.iface = "lo", .ignore_outgoing = true,
                             .block_size = per_frame ? 1 << 18 : 1 << 16, .block_count = 4,
                             .block_timeout_ms = 5, .per_frame = per_frame};
    struct mon_source *s = mon_source_open_afpacket(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CHECK_EQ_U(mon_source_linktype(s), DLT_EN10MB_);
    uint8_t sent[3][128];
    uint32_t slen[3];
    slen[0] = udp_frame(sent[0], 0x0a000001, 0x0a000002, 1000, 53, -1, 1);
    slen[1] = udp_frame(sent[1], 0x0a000001, 0x0a000002, 1000, 53, 42, 2); /* VLAN 42 */
    slen[2] = udp_frame(sent[2], 0x0a000002, 0x0a000001, 53, 1000, 0x2007, 3); /* prio 1 */
    for (int i = 0; i < 3; i++)
        CHECK(mon_source_send(s, sent[i], slen[i]) == 0);
    uint8_t got[8][128];
    uint32_t glen[8];
    int n = drain(s, got, glen, 8, 300);
    CHECK_EQ_U(n, 3); /* once each: the outgoing copies are ignored */
    for (int i = 0; i < n && i < 3; i++) {
        CHECK_EQ_U(glen[i], slen[i]);
        CHECK(memcmp(got[i], sent[i], slen[i]) == 0); /* tags back in place */
    }
    struct mon_live_stats st;
    CHECK(mon_source_stats(s, &st) == 0);
    CHECK(st.kernel_packets >= 3);
    CHECK_EQ_U(st.kernel_drops, 0);
    CHECK_EQ_U(st.tx_frames, 3);
    mon_source_close(s);
}

/* A batch sent in one call arrives whole and in order. */
static void test_send_batch(void)
{
    char err[256];
    /* lo's 64 KiB MTU makes 128 KiB slots: 64 of them */
    struct mon_live_cfg c = {.iface = "lo", .ignore_outgoing = true, .block_size = 1 << 20,
                             .block_count = 8, .per_frame = true};
    struct mon_source *s = mon_source_open_afpacket(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    enum { N = 40 }; /* more than one sendmmsg() */
    static uint8_t fr[N][128];
    const uint8_t *frames[N];
    uint32_t lens[N];
    for (int i = 0; i < N; i++) {
        lens[i] = udp_frame(fr[i], 0x0a000001, 0x0a000002, (uint16_t)(3000 + i), 9, -1,
                            (uint8_t)i);
        frames[i] = fr[i];
    }
    CHECK_EQ_U(mon_source_send_batch(s, frames, lens, NULL, N), N);
    uint8_t got[N + 4][128];
    uint32_t glen[N + 4];
    int n = drain(s, got, glen, N + 4, 300);
    CHECK_EQ_U(n, N);
    for (int i = 0; i < n && i < N; i++)
        CHECK(glen[i] == lens[i] && memcmp(got[i], fr[i], lens[i]) == 0);
    mon_source_close(s);
}

/* Two members of one fanout group: each flow, both directions, lands on one member. */
static void test_fanout_symmetric(void)
{
    char err[256];
    struct mon_live_cfg c = {.iface = "lo", .ignore_outgoing = true, .block_size = 1 << 16,
                             .block_count = 8, .block_timeout_ms = 5,
                             .fanout_id = (uint16_t)(1000 + getpid() % 30000)};
    struct mon_source *m[2] = {mon_source_open_afpacket(&c, err, sizeof err),
                               mon_source_open_afpacket(&c, err, sizeof err)};
    CHECK(m[0] && m[1]);
    if (!m[0] || !m[1]) {
        fprintf(stderr, "%s\n", err);
        mon_source_close(m[0]);
        mon_source_close(m[1]);
        return;
    }
    enum { FLOWS = 32 };
    for (int f = 0; f < FLOWS; f++) {
        uint8_t fr[128];
        uint32_t a = 0x0a000001 + (uint32_t)f * 7, b = 0xc0a80001 + (uint32_t)f * 13;
        uint16_t sp = (uint16_t)(20000 + f * 31), dp = (uint16_t)(80 + f);
        uint32_t l = udp_frame(fr, a, b, sp, dp, -1, (uint8_t)f);
        CHECK(mon_source_send(m[0], fr, l) == 0);
        l = udp_frame(fr, b, a, dp, sp, -1, (uint8_t)f); /* the reply */
        CHECK(mon_source_send(m[0], fr, l) == 0);
    }
    int where[FLOWS][2] = {{0}};
    int total = 0;
    for (int k = 0; k < 2; k++) {
        uint8_t got[2 * FLOWS][128];
        uint32_t glen[2 * FLOWS];
        int n = drain(m[k], got, glen, 2 * FLOWS, 300);
        total += n;
        for (int i = 0; i < n; i++)
            where[got[i][glen[i] - 1]][k]++;
    }
    CHECK_EQ_U(total, 2 * FLOWS);
    int on[2] = {0, 0};
    for (int f = 0; f < FLOWS; f++) {
        CHECK(where[f][0] == 2 || where[f][1] == 2); /* both directions on the same member */
        on[where[f][1] == 2]++;
    }
    CHECK(on[0] > 0 && on[1] > 0); /* and the flows are spread */
    mon_source_close(m[0]);
    mon_source_close(m[1]);
}

/* One batch that reads every block of the ring must not wrap onto the first block again
 * (it is still ours until the next read): each frame exactly once. */
static void test_whole_ring_in_one_batch(bool per_frame)
{
    char err[256];
    /* V3: two blocks of three frames; V2: two blocks of two 128 KiB slots, six frames sent:
     * the last two find the ring full (kernel drops) */
    struct mon_live_cfg c = {.iface = "lo", .ignore_outgoing = true,
                             .block_size = per_frame ? 1 << 18 : 4096, .block_count = 2,
                             .block_timeout_ms = 2, .per_frame = per_frame};
    struct mon_source *s = mon_source_open_afpacket(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 3; i++) { /* three frames, then the block times out */
            uint8_t fr[128];
            uint32_t l = udp_frame(fr, 0x0a000001, 0x0a000002, 1, 2, -1, (uint8_t)(round * 3 + i));
            CHECK(mon_source_send(s, fr, l) == 0);
        }
        usleep(50000);
    }
    struct mon_packet pk[MON_IO_BATCH];
    int n = mon_source_read(s, pk, MON_IO_BATCH);
    /* which frames a V3 block holds depends on when its timer fires (a loaded machine may
     * retire a block between two frames of a round, filling the ring early): what must hold
     * is that every frame the kernel queued comes out of this one batch, once, in order */
    uint8_t last = 0;
    for (int i = 0; i < n; i++) {
        uint8_t tag = pk[i].frame[pk[i].caplen - 1];
        CHECK(i == 0 ? tag == 0 : tag > last);
        last = tag;
    }
    CHECK_EQ_U(mon_source_read(s, pk, MON_IO_BATCH), 0); /* and nothing again afterwards */
    struct mon_live_stats st;
    mon_source_stats(s, &st);
    CHECK_EQ_U(st.kernel_packets, 6);
    CHECK_EQ_U(n, st.kernel_packets - st.kernel_drops);
    if (per_frame) /* four slots: the last two frames find the ring full */
        CHECK_EQ_U(st.kernel_drops, 2);
    mon_source_close(s);
}

/* A caller asking for more frames than MON_IO_BATCH gets at most that many per read (the
 * VLAN arena that rebuilds stripped tags has MON_IO_BATCH slots), and the rest at the next
 * read, each frame whole and once. */
static void test_read_more_than_a_batch(bool per_frame)
{
    char err[256];
    struct mon_live_cfg c = {.iface = "lo", .ignore_outgoing = true,
                             .block_size = 1 << 20, .block_count = 8,
                             .block_timeout_ms = 2, .per_frame = per_frame};
    struct mon_source *s = mon_source_open_afpacket(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    enum { N = MON_IO_BATCH + 8, ASK = 2 * MON_IO_BATCH };
    static uint8_t sent[N][128];
    uint32_t slen[N];
    for (int i = 0; i < N; i++) {
        slen[i] = udp_frame(sent[i], 0x0a000001, 0x0a000002, 7, 8, 100 + i, (uint8_t)i);
        CHECK(mon_source_send(s, sent[i], slen[i]) == 0);
    }
    usleep(50000); /* V3: the block times out and is handed over */
    static struct mon_packet pk[ASK];
    int total = 0;
    for (int idle = 0; total < N && idle < 50;) {
        int k = mon_source_read(s, pk, ASK);
        CHECK(k <= MON_IO_BATCH);
        if (k <= 0) {
            idle++;
            usleep(10000);
            continue;
        }
        for (int i = 0; i < k && total < N; i++, total++) {
            CHECK_EQ_U(pk[i].caplen, slen[total]);
            CHECK(pk[i].caplen == slen[total] && memcmp(pk[i].frame, sent[total], slen[total]) == 0);
        }
    }
    CHECK_EQ_U(total, N);
    mon_source_close(s);
}

/* offload_meta: a TCP segment this host sends on loopback leaves its checksum to the
 * "device" (only the pseudo-header sum is there): the packet says so, with where it goes
 * (Ethernet 14 + IPv4 20, the TCP checksum at 16); without offload_meta the status still
 * marks it partial. Sending a frame back with its metadata is accepted by the kernel. */
static void test_offload_metadata(bool meta)
{
    char err[256];
    struct mon_live_cfg c = {.iface = "lo", .ignore_outgoing = true, .block_size = 1 << 20,
                             .block_count = 4, .per_frame = true, .offload_meta = meta};
    struct mon_source *s = mon_source_open_afpacket(&c, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    int ls = socket(AF_INET, SOCK_STREAM, 0), cs = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001),
                             .sin_port = htons(meta ? 45501 : 45502)};
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    CHECK(bind(ls, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(ls, 1) == 0);
    CHECK(connect(cs, (struct sockaddr *)&sa, sizeof sa) == 0);
    CHECK(send(cs, "offload", 7, 0) == 7);
    struct mon_packet pk[MON_IO_BATCH];
    struct pollfd pfd = {.fd = mon_source_fd(s), .events = POLLIN};
    bool seen = false;
    for (int idle = 0; idle < 50 && !seen;) {
        int k = mon_source_read(s, pk, MON_IO_BATCH);
        if (k <= 0) {
            poll(&pfd, 1, 10);
            idle++;
            continue;
        }
        for (int i = 0; i < k && !seen; i++) {
            const uint8_t *f = pk[i].frame;
            /* the data segment to the listener: IPv4, TCP, its port, a payload */
            if (pk[i].caplen < 14 + 20 + 20 + 7 || f[12] != 0x08 || f[13] != 0 || f[23] != 6 ||
                ((f[36] << 8) | f[37]) != ntohs(sa.sin_port) ||
                pk[i].caplen < 14u + 20u + (uint32_t)(f[46] >> 4) * 4u + 7u)
                continue;
            seen = true;
            CHECK(pk[i].offload.flags & MON_OFL_CSUM_PARTIAL);
            if (meta) {
                CHECK_EQ_U(pk[i].offload.csum_start, 34);
                CHECK_EQ_U(pk[i].offload.csum_offset, 16);
                const uint8_t *fr[1] = {f};
                uint32_t len[1] = {pk[i].caplen};
                const struct mon_offload *o[1] = {&pk[i].offload};
                CHECK_EQ_U(mon_source_send_batch(s, fr, len, o, 1), 1);
            }
        }
    }
    CHECK(seen);
    close(cs);
    close(ls);
    mon_source_close(s);
}

int main(void)
{
    if (enter_private_netns("test_io_afpacket") != 0)
        return 1;
    test_errors();
    test_round_trip(false);
    test_round_trip(true);
    test_send_batch();
    test_fanout_symmetric();
    test_whole_ring_in_one_batch(false);
    test_whole_ring_in_one_batch(true);
    test_read_more_than_a_batch(false);
    test_read_more_than_a_batch(true);
    test_offload_metadata(true);
    test_offload_metadata(false);
    return unit_report("test_io_afpacket");
}
