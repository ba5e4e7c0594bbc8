/* preflight.c — `osprey --preflight`: what users get wrong before capturing, checked one line
 * at a time ("ok: …" or "FIX: …, and how"). Nothing is changed on the system.
 *
 * Interfaces (-i, --pcap-live, --af-packet-inline): exist, up with a carrier, promiscuous (or
 * osprey will make them so), receive offloads that merge packets (GRO, LRO: the capture then
 * sees 64 KiB "frames" that are not what was on the wire), and for inline: the same MTU on
 * both sides, not a bridge port, IP forwarding off (the kernel would route between the two
 * sides too, uninspected), and the offloads: inline forwards frames with their offload
 * metadata, so GRO and the senders' checksum/segmentation offloads are reported, not
 * refused, when the kernel gives that metadata (LRO stays a FIX: the kernel itself will not
 * forward what a NIC merged). Permissions: an AF_PACKET
 * socket can be opened (CAP_NET_RAW). DPDK: EAL arguments and ports configured, hugepages
 * (unless --no-huge).
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dpdk_args.h"
#include "preflight.h"

struct pf {
    int fails;
    int sock; /* for interface ioctls */
};

static void report(struct pf *pf, bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(ok ? "ok: " : "FIX: ", stdout);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    pf->fails += !ok;
}

/* An ethtool "get" command (struct ethtool_value); -1 when the driver does not answer. */
static int ethtool_get(struct pf *pf, const char *iface, uint32_t cmd, uint32_t *val)
{
    struct ethtool_value ev = {.cmd = cmd};
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
    ifr.ifr_data = (void *)&ev;
    if (ioctl(pf->sock, SIOCETHTOOL, &ifr) < 0)
        return -1;
    *val = ev.data;
    return 0;
}

static int iface_flags(struct pf *pf, const char *iface, short *flags, int *mtu)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
    if (ioctl(pf->sock, SIOCGIFFLAGS, &ifr) < 0)
        return -1;
    *flags = ifr.ifr_flags;
    if (ioctl(pf->sock, SIOCGIFMTU, &ifr) < 0)
        return -1;
    *mtu = ifr.ifr_mtu;
    return 0;
}

static bool read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

/* Checks of one interface; returns its MTU (0 when it does not exist). */
static int check_iface(struct pf *pf, const char *iface, bool promisc_cfg, bool inline_mode)
{
    short fl;
    int mtu;
    if (!if_nametoindex(iface) || iface_flags(pf, iface, &fl, &mtu) < 0) {
        report(pf, false, "%s: no such interface (ip link show lists them)", iface);
        return 0;
    }
    report(pf, true, "%s exists (mtu %d)", iface, mtu);
    if (!(fl & IFF_UP))
        report(pf, false, "%s is down: ip link set %s up", iface, iface);
    else if (!(fl & IFF_RUNNING))
        report(pf, false, "%s is up but has no carrier (cable, peer, or switch port down)", iface);
    else
        report(pf, true, "%s is up", iface);
    if (fl & IFF_PROMISC)
        report(pf, true, "%s is in promiscuous mode", iface);
    else if (promisc_cfg)
        report(pf, true, "%s: osprey turns promiscuous mode on while it runs (af-packet.promisc)",
               iface);
    else
        report(pf, false, "%s is not promiscuous and af-packet.promisc is off: frames for other "
               "hosts are not seen (ip link set %s promisc on)", iface, iface);
    uint32_t v;
    if (ethtool_get(pf, iface, ETHTOOL_GGRO, &v) == 0 && inline_mode)
        report(pf, true, v ? "%s: generic-receive-offload is on: merged segments are forwarded "
                             "with their offload metadata and cut again on the way out"
                           : "%s: generic-receive-offload is off", iface);
    else if (ethtool_get(pf, iface, ETHTOOL_GGRO, &v) == 0)
        report(pf, !v, v ? "%s: generic-receive-offload is on: the kernel merges TCP segments "
                           "before osprey sees them (ethtool -K %s gro off)"
                         : "%s: generic-receive-offload is off", iface, iface);
    if (inline_mode && ethtool_get(pf, iface, ETHTOOL_GTXCSUM, &v) == 0) {
        uint32_t tso = 0;
        ethtool_get(pf, iface, ETHTOOL_GTSO, &tso);
        report(pf, true, "%s: tx-checksumming %s, tcp-segmentation-offload %s (either way: "
               "osprey sends frames with the offload work their sender left, the kernel "
               "completes it)", iface, v ? "on" : "off", tso ? "on" : "off");
    }
    if (ethtool_get(pf, iface, ETHTOOL_GFLAGS, &v) == 0)
        report(pf, !(v & ETH_FLAG_LRO), (v & ETH_FLAG_LRO)
                   ? "%s: large-receive-offload is on: the NIC merges TCP segments (ethtool -K %s "
                     "lro off)"
                   : "%s: large-receive-offload is off", iface, iface);
    if (inline_mode) {
        char path[128];
        snprintf(path, sizeof path, "/sys/class/net/%s/brport/bridge/uevent", iface);
        if (access(path, F_OK) == 0)
            report(pf, false, "%s is a port of a kernel bridge: the bridge forwards its frames "
                   "too, uninspected (ip link set %s nomaster)", iface, iface);
        else
            report(pf, true, "%s is not a bridge port", iface);
    }
    return mtu;
}

/* Inline forwards frames with their offload metadata (PACKET_VNET_HDR on the sockets,
 * stack/io/afpacket.c): partial checksums and TSO/GSO super-frames from senders on veths and
 * virtual NICs at their default offloads. Without it (a kernel before 5.9) they would be
 * forwarded broken: then the senders' offloads must be off. */
static void check_offload_meta(struct pf *pf, const char *a, const char *b)
{
    int s = socket(AF_PACKET, SOCK_RAW, 0), one = 1, v2 = TPACKET_V2;
    if (s < 0)
        return; /* check_permissions says why */
    bool ok = setsockopt(s, SOL_PACKET, PACKET_VERSION, &v2, sizeof v2) == 0 &&
              setsockopt(s, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof one) == 0;
    close(s);
    report(pf, ok, ok ? "offload metadata (PACKET_VNET_HDR): frames whose sender left the "
                        "checksum or segmentation to an offload are completed as osprey "
                        "forwards them (veths, containers and VMs need no ethtool)"
                      : "no offload metadata on this kernel (PACKET_VNET_HDR): frames with "
                        "partial checksums or TSO would be forwarded broken: turn the senders' "
                        "offloads off (ethtool -K DEV tx off tso off gso off on the hosts or "
                        "veth peers behind %s and %s)", a, b);
}

static void check_permissions(struct pf *pf)
{
    int s = socket(AF_PACKET, SOCK_RAW, 0);
    if (s >= 0) {
        close(s);
        report(pf, true, "permission to capture (AF_PACKET socket)");
    } else {
        report(pf, false, "cannot open an AF_PACKET socket (%s): run as root or give osprey "
               "CAP_NET_RAW and CAP_NET_ADMIN (setcap cap_net_raw,cap_net_admin=eip osprey)",
               strerror(errno));
    }
}

static void check_forwarding(struct pf *pf)
{
    char buf[32];
    if (!read_line("/proc/sys/net/ipv4/ip_forward", buf, sizeof buf))
        return;
    report(pf, strcmp(buf, "0") == 0, strcmp(buf, "0") == 0
               ? "IP forwarding is off (osprey bridges the two interfaces itself)"
               : "IP forwarding is on: the kernel may route between the inline interfaces too, "
                 "uninspected (sysctl -w net.ipv4.ip_forward=0, and keep addresses off them)");
}

static void check_dpdk(struct pf *pf, const struct osprey_config *cfg)
{
    size_t nargs = 0, nports = 0;
    const char *const *args = osprey_config_list(cfg, "dpdk.eal-args", &nargs);
    osprey_config_list(cfg, "dpdk.interfaces", &nports);
    if (nargs > 0)
        report(pf, true, "dpdk.eal-args: %zu arguments", nargs);
    else
        report(pf, false, "dpdk.eal-args is empty: give the EAL its cores and devices (see "
               "etc/osprey.yaml)");
    if (nports > 0)
        report(pf, true, "dpdk.interfaces: %zu ports or pairs", nports);
    else
        report(pf, false, "dpdk.interfaces is empty: list the ports to bridge (A:B)");
    bool nohuge = false;
    for (size_t i = 0; i < nargs; i++)
        nohuge |= strcmp(args[i], "--no-huge") == 0;
    pf->fails += osprey_dpdk_preflight(cfg, stdout); /* prefix, devices, ports: dpdk_args.c */
    if (nohuge) {
        report(pf, true, "hugepages not needed (--no-huge)");
        return;
    }
    FILE *f = fopen("/proc/meminfo", "r");
    long total = -1, freep = -1;
    char line[128];
    while (f && fgets(line, sizeof line, f)) {
        sscanf(line, "HugePages_Total: %ld", &total);
        sscanf(line, "HugePages_Free: %ld", &freep);
    }
    if (f)
        fclose(f);
    report(pf, freep > 0, freep > 0 ? "hugepages: %ld of %ld free"
                                    : "no free hugepages (%ld of %ld): reserve some "
                                      "(echo 1024 > /proc/sys/vm/nr_hugepages) or add --no-huge "
                                      "to dpdk.eal-args", freep, total);
}

int osprey_preflight(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct pf pf = {.sock = socket(AF_INET, SOCK_DGRAM, 0)};
    if (!opts->nlive_ifaces && !opts->inline_pair && !opts->dpdk) {
        fprintf(stderr, "osprey: --preflight checks a set-up: give -i IFACE, --pcap-live "
                        "IFACE, --af-packet-inline IF1:IF2 or --dpdk\n");
        if (pf.sock >= 0)
            close(pf.sock);
        return OSPREY_EXIT_USAGE;
    }
    bool promisc = osprey_config_bool(cfg, "af-packet.promisc");
    for (int i = 0; i < opts->nlive_ifaces; i++)
        check_iface(&pf, opts->live_ifaces[i], promisc, false);
    if (opts->inline_pair) {
        char a[IFNAMSIZ * 4], *b;
        snprintf(a, sizeof a, "%s", opts->inline_pair);
        b = strchr(a, ':');
        if (b) {
            *b++ = '\0';
            int ma = check_iface(&pf, a, promisc, true), mb = check_iface(&pf, b, promisc, true);
            if (ma && mb)
                report(&pf, ma == mb, ma == mb ? "%s and %s have the same MTU"
                                               : "%s and %s have different MTUs: frames larger "
                                                 "than the smaller one cannot cross (ip link "
                                                 "set DEV mtu N)", a, b);
            check_forwarding(&pf);
            check_offload_meta(&pf, a, b);
        }
    }
    if (opts->nlive_ifaces || opts->inline_pair)
        check_permissions(&pf);
    if (opts->dpdk)
        check_dpdk(&pf, cfg);
    if (pf.sock >= 0)
        close(pf.sock);
    printf("preflight: %s\n", pf.fails ? "some checks need fixing (FIX lines)" : "all ok");
    fflush(stdout);
    return pf.fails ? OSPREY_EXIT_FAILURE : OSPREY_EXIT_OK;
}
