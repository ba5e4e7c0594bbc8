/* netns_lo.h — live-capture unit tests run in a private network namespace of their own, whose
 * loopback they bring up: nothing they send reaches the machine's interfaces. */
#ifndef MON_TEST_NETNS_LO_H
#define MON_TEST_NETNS_LO_H

#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Enter a new network namespace and bring its lo up; 0, or -1 after saying why (needs root). */
static inline int enter_private_netns(const char *prog)
{
    int fd = -1, rc = unshare(CLONE_NEWNET);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    if (rc == 0)
        rc = (fd = socket(AF_INET, SOCK_DGRAM, 0)) >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0
                 ? 0
                 : -1;
    ifr.ifr_flags |= IFF_UP;
    if (rc == 0)
        rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
    if (fd >= 0)
        close(fd);
    if (rc != 0)
        fprintf(stderr, "%s: needs root (a private network namespace)\n", prog);
    return rc;
}

#endif
