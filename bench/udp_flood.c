/* udp_flood.c — the UDP traffic of bench/inline.py: a sender that sends small
 * datagrams as fast as it can for a while, and a receiver that counts what arrives.
 *
 *   udp_flood send IP PORT SECONDS PAYLOAD_BYTES   → "sent N"
 *   udp_flood recv PORT IDLE_MS                    → "received N in S s"
 * The receiver waits up to 30 s for the first datagram and stops after IDLE_MS without one;
 * S runs from the first datagram to the last.
 */
#define _GNU_SOURCE /* sendmmsg */
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int do_send(const char *ip, int port, double secs, size_t len)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (fd < 0 || inet_pton(AF_INET, ip, &to.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
        perror("udp_flood send");
        return 1;
    }
    char buf[2048] = {0};
    if (len > sizeof buf)
        len = sizeof buf;
    struct iovec iov = {buf, len};
    struct mmsghdr msgs[BATCH];
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < BATCH; i++) {
        msgs[i].msg_hdr.msg_iov = &iov;
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    unsigned long long sent = 0;
    double end = now() + secs;
    while (now() < end) {
        int n = sendmmsg(fd, msgs, BATCH, 0);
        if (n > 0)
            sent += (unsigned long long)n;
    }
    printf("sent %llu\n", sent);
    close(fd);
    return 0;
}

static int do_recv(int port, int idle_ms)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int big = 1 << 24;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof me) != 0) {
        perror("udp_flood recv");
        return 1;
    }
    printf("listening\n");
    fflush(stdout);
    char buf[2048];
    unsigned long long got = 0;
    double first = 0, last = 0;
    struct pollfd pfd = {fd, POLLIN, 0};
    for (;;) {
        int r = poll(&pfd, 1, got ? idle_ms : 30000);
        if (r <= 0)
            break;
        while (recv(fd, buf, sizeof buf, MSG_DONTWAIT) >= 0) {
            if (!got++)
                first = now();
        }
        last = now();
    }
    printf("received %llu in %.3f s\n", got, got ? last - first : 0.0);
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "send") == 0)
        return do_send(argv[2], atoi(argv[3]), atof(argv[4]), (size_t)atoi(argv[5]));
    if (argc == 4 && strcmp(argv[1], "recv") == 0)
        return do_recv(atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: udp_flood send IP PORT SECONDS PAYLOAD | recv PORT IDLE_MS\n");
    return 2;
}
