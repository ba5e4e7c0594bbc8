/* dpdk_args.c — dpdk.eal-args as an argv, and what --preflight can tell about the ports from
 * the configuration alone (see dpdk_args.h). Nothing here links to DPDK. */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dpdk_args.h"
#include "mon_io.h"
#include "osprey_config.h"

char **osprey_dpdk_eal_argv(const struct osprey_config *cfg, int *argc)
{
    size_t n;
    const char *const *items = osprey_config_list(cfg, "dpdk.eal-args", &n);
    char **av = calloc(n + 2, sizeof *av);
    int k = 0;
    if (!av || !(av[k++] = strdup("osprey")))
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        const char *it = items[i];
        if (k > 1 && it[0] != '-' && strchr(it, '=')) {
            size_t len = strlen(av[k - 1]) + strlen(it) + 2;
            char *j = malloc(len);
            if (!j)
                goto nomem;
            snprintf(j, len, "%s,%s", av[k - 1], it);
            free(av[k - 1]);
            av[k - 1] = j;
        } else if (!(av[k++] = strdup(it))) {
            goto nomem;
        }
    }
    *argc = k;
    return av;
nomem:
    osprey_dpdk_argv_free(av, k);
    return NULL;
}

void osprey_dpdk_argv_free(char **argv, int argc)
{
    for (int i = 0; argv && i < argc; i++)
        free(argv[i]);
    free(argv);
}

struct check {
    FILE *out;
    int fails;
};

static void report(struct check *c, bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(ok ? "ok: " : "FIX: ", c->out);
    vfprintf(c->out, fmt, ap);
    fputc('\n', c->out);
    va_end(ap);
    c->fails += !ok;
}

/* The value of key=... among a device's comma-separated parameters, copied into buf. */
static const char *param(const char *dev, const char *key, char *buf, size_t len)
{
    size_t klen = strlen(key);
    for (const char *p = strchr(dev, ','); p; p = strchr(p + 1, ',')) {
        if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '=') {
            const char *v = p + 2 + klen;
            snprintf(buf, len, "%.*s", (int)strcspn(v, ","), v);
            return buf;
        }
    }
    return NULL;
}

/* A veth whose transmit checksum offload is on (its default); false when the driver does
 * not say. */
static bool veth_tx_csum(const char *iface)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return false;
    struct ifreq ifr;
    struct ethtool_drvinfo di = {.cmd = ETHTOOL_GDRVINFO};
    struct ethtool_value ev = {.cmd = ETHTOOL_GTXCSUM};
    memset(&ifr, 0, sizeof ifr);
    if (strlen(iface) >= sizeof ifr.ifr_name) {
        close(fd);
        return false;
    }
    memcpy(ifr.ifr_name, iface, strlen(iface) + 1);
    ifr.ifr_data = (void *)&di;
    bool veth = ioctl(fd, SIOCETHTOOL, &ifr) == 0 && strcmp(di.driver, "veth") == 0;
    ifr.ifr_data = (void *)&ev;
    bool on = veth && ioctl(fd, SIOCETHTOOL, &ifr) == 0 && ev.data;
    close(fd);
    return on;
}

static void check_vdev(struct check *c, const char *dev)
{
    char name[64], v[512];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(dev, ","), dev);
    if (param(dev, "iface", v, sizeof v))
        report(c, if_nametoindex(v) != 0, if_nametoindex(v) ? "%s: interface %s exists"
               : "%s: no interface %s (ip link show; fix iface= in dpdk.eal-args)", name, v);
    /* DPDK's af_packet driver has no offload metadata (AF_PACKET inline has, afpacket.c): on
     * veths at their default offloads it forwards partial checksums and TSO super-frames
     * that the receiver drops */
    if (strncmp(dev, "net_af_packet", 13) == 0 && param(dev, "iface", v, sizeof v) &&
        if_nametoindex(v) && veth_tx_csum(v))
        report(c, false, "%s: %s is a veth with checksum offload on: DPDK's af_packet driver "
               "forwards the partial checksums and TSO frames of such senders broken: turn "
               "the offloads off on every veth end (ethtool -K DEV tx off tso off gso off), "
               "or use --af-packet-inline, which completes them", name, v);
    if (param(dev, "rx_pcap", v, sizeof v))
        report(c, access(v, R_OK) == 0, access(v, R_OK) == 0 ? "%s: capture %s is readable"
               : "%s: cannot read the capture %s (rx_pcap=)", name, v);
}

/* A PCI device needs a driver DPDK can drive from user space (or a bifurcated one). */
static void check_pci(struct check *c, const char *dev)
{
    char addr[64], path[256], link[256];
    snprintf(addr, sizeof addr, "%.*s", (int)strcspn(dev, ","), dev);
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s", addr);
    if (access(path, F_OK) != 0) {
        report(c, false, "no PCI device %s (lspci -D lists them)", addr);
        return;
    }
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/driver", addr);
    ssize_t n = readlink(path, link, sizeof link - 1);
    const char *drv = "none";
    if (n > 0) {
        link[n] = '\0';
        drv = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
    }
    bool ok = strcmp(drv, "vfio-pci") == 0 || strcmp(drv, "uio_pci_generic") == 0 ||
              strcmp(drv, "igb_uio") == 0 || strncmp(drv, "mlx", 3) == 0;
    report(c, ok, ok ? "PCI device %s is bound to %s"
                     : "PCI device %s is bound to %s: bind it to vfio-pci "
                       "(dpdk-devbind.py --bind=vfio-pci %s)", addr, drv, addr);
}

/* Is port (a name or a number) one the EAL arguments declare? */
static bool declared(char **av, int ac, const char *port)
{
    char *end;
    long num = strtol(port, &end, 10);
    int ndev = 0;
    for (int i = 1; i < ac; i++) {
        const char *dev = NULL;
        if (strncmp(av[i], "--vdev=", 7) == 0)
            dev = av[i] + 7;
        else if (strncmp(av[i], "--allow=", 8) == 0)
            dev = av[i] + 8;
        else if ((!strcmp(av[i], "--vdev") || !strcmp(av[i], "-a") || !strcmp(av[i], "--allow"))
                 && i + 1 < ac)
            dev = av[++i];
        if (!dev)
            continue;
        ndev++;
        size_t len = strcspn(dev, ",");
        if (strlen(port) == len && strncmp(dev, port, len) == 0)
            return true;
    }
    /* a number: one of the declared ports, or any when PCI devices are probed by the EAL */
    return *port && !*end && (num < ndev || ndev == 0);
}

static void check_interfaces(struct check *c, const struct osprey_config *cfg, char **av, int ac)
{
    size_t n;
    const char *const *items = osprey_config_list(cfg, "dpdk.interfaces", &n);
    for (size_t i = 0; i < n; i++) {
        /* a pair A:B splits at the first colon after which both names are declared */
        bool ok = declared(av, ac, items[i]);
        for (const char *p = strchr(items[i], ':'); p && !ok; p = strchr(p + 1, ':')) {
            char left[256];
            snprintf(left, sizeof left, "%.*s", (int)(p - items[i]), items[i]);
            ok = declared(av, ac, left) && declared(av, ac, p + 1);
        }
        report(c, ok, ok ? "dpdk.interfaces: %s: the EAL arguments declare its ports"
                         : "dpdk.interfaces: %s: a port that no --vdev or -a in dpdk.eal-args "
                           "declares", items[i]);
    }
}

int osprey_dpdk_preflight(const struct osprey_config *cfg, FILE *out)
{
    struct check c = {out, 0};
    int ac;
    char **av = osprey_dpdk_eal_argv(cfg, &ac);
    if (!av) {
        report(&c, false, "out of memory");
        return c.fails;
    }
    const char *prefix = mon_dpdk_file_prefix(ac, av);
    int pid = mon_dpdk_prefix_holder(prefix);
    report(&c, pid == 0, pid == 0 ? "DPDK file prefix %s is free"
                                  : "DPDK file prefix %s is in use by pid %d: stop it, or give "
                                    "this osprey its own --file-prefix", prefix, pid);
    for (int i = 1; i < ac; i++) {
        if (strncmp(av[i], "--vdev=", 7) == 0)
            check_vdev(&c, av[i] + 7);
        else if (strcmp(av[i], "--vdev") == 0 && i + 1 < ac)
            check_vdev(&c, av[++i]);
        else if (strncmp(av[i], "--allow=", 8) == 0)
            check_pci(&c, av[i] + 8);
        else if ((!strcmp(av[i], "-a") || !strcmp(av[i], "--allow")) && i + 1 < ac)
            check_pci(&c, av[++i]);
    }
    check_interfaces(&c, cfg, av, ac);
    osprey_dpdk_argv_free(av, ac);
    return c.fails;
}
