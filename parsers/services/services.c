/* services.c — the recognition-only services: Snort 3 services Osprey has no parser for (IRC,
 * NetBIOS name and datagram services, WINS, SSDP, MySQL, NNTP), one descriptor each so
 * their flows get an app_proto and the rules naming them (`service:irc`, `alert mysql`) run
 * there. A flow of one is decided by its probe (probe.c) and then not read: no buffers,
 * events, transactions or EVE records of its own. Registered in core/registry.c. */
#include "services_int.h"

/* Decided: nothing of the flow is read (on TCP its directions are given up, so the core stops
 * peeking at the stream; a datagram is simply not parsed). */
static void skip(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    (void)f, (void)d, (void)n;
    pf->dead[dir] = true;
}

static void skip_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                       size_t n)
{
    (void)pf, (void)f, (void)dir, (void)d, (void)n;
}

static void no_state(void *state)
{
    (void)state; /* never made */
}

#define SERVICE(var, nm, l4_, probes_, rank_)                                              \
    const struct osprey_proto_def var = {                                                  \
        .name = nm,                                                                        \
        .probe_rank = rank_,                                                               \
        .flow_stat = "flow." nm,                                                           \
        .l4 = l4_,                                                                         \
        .probes = probes_,                                                                 \
        .parse = skip,                                                                     \
        .parse_dgram = skip_dgram,                                                         \
        .state_free = no_state,                                                            \
        .tx_counter = -1,                                                                  \
    }

static const struct proto_probe IRC[] = {
    {6, 0, irc_probe_client}, {6, 1, irc_probe_server}, {0, 0, NULL}};
static const struct proto_probe NETBIOS_NS[] = {
    {17, 0, netbios_ns_probe}, {6, 0, netbios_ns_probe}, {6, 1, netbios_ns_probe}, {0, 0, NULL}};
static const struct proto_probe NETBIOS_DGM[] = {{17, 0, netbios_dgm_probe}, {0, 0, NULL}};
static const struct proto_probe WINS[] = {
    {6, 0, wins_probe}, {6, 1, wins_probe}, {0, 0, NULL}};
static const struct proto_probe SSDP[] = {{17, 0, ssdp_probe}, {0, 0, NULL}};
static const struct proto_probe MYSQL[] = {{6, 1, mysql_probe_server}, {0, 0, NULL}};
static const struct proto_probe NNTP[] = {{6, 1, nntp_probe_server}, {0, 0, NULL}};

SERVICE(irc_proto, "irc", 6, IRC, 0);
/* before DNS, whose probe would take its DNS-like datagrams */
SERVICE(netbios_ns_proto, "netbios-ns", 0, NETBIOS_NS, -1);
SERVICE(netbios_dgm_proto, "netbios-dgm", 17, NETBIOS_DGM, 0);
SERVICE(wins_proto, "wins", 6, WINS, 0);
SERVICE(ssdp_proto, "ssdp", 17, SSDP, 0);
SERVICE(mysql_proto, "mysql", 6, MYSQL, 0);
SERVICE(nntp_proto, "nntp", 6, NNTP, 0);
