/* dpdk.c — DPDK ports as packet sources: EAL start-up, ports, lcores, and one source per
 * (port, RX queue) that hands out its mbufs' bytes without copying and forwards them to a
 * peer port afterwards (inline IPS). The interface is in mon_io.h; no DPDK type crosses it
 * except the opaque struct rte_mempool.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_thread.h>

#include "mon_io.h"

#define DLT_EN10MB_ 1 /* Ethernet, as libpcap numbers it (pcap/dlt.h is not needed here) */
#define INJECT_MAX (2 * MON_IO_BATCH)
#define TX_RETRIES 64 /* bursts tried before a full TX ring loses the rest */

struct dpdk_source {
    struct mon_source base; /* must be first */
    struct mon_dpdk_queue_cfg cfg;
    struct rte_mbuf *batch[MON_IO_BATCH];
    bool drop[MON_IO_BATCH];
    int n; /* mbufs of the batch still held */
    struct rte_mbuf *inj_peer[INJECT_MAX], *inj_back[INJECT_MAX];
    int ninj_peer, ninj_back;
    struct mon_dpdk_counters c;
};

/* ---- EAL ---- */

static void say_prefix_busy(const char *prefix, int pid, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "another osprey (or DPDK process, pid %d) is using file prefix %s: stop it, or "
             "give this one its own --file-prefix in dpdk.eal-args",
             pid, prefix);
}

/* CPUs for threads that are not lcores (reload, control socket, service): what the process
 * could run on before the EAL pinned it, less the lcores' CPUs (all of it when nothing is
 * left). The EAL pins the main thread to its lcore, and threads it starts inherit that. */
static cpu_set_t control_cpus;

static void compute_control_cpus(const cpu_set_t *before)
{
    cpu_set_t used;
    CPU_ZERO(&used);
    unsigned lcore;
    RTE_LCORE_FOREACH(lcore) {
        rte_cpuset_t cs = rte_lcore_cpuset(lcore);
        CPU_OR(&used, &used, &cs);
    }
    CPU_ZERO(&control_cpus);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, before) && !CPU_ISSET(cpu, &used))
            CPU_SET(cpu, &control_cpus);
    if (CPU_COUNT(&control_cpus) == 0)
        control_cpus = *before;
}

int mon_dpdk_control_affinity(void)
{
    return pthread_setaffinity_np(pthread_self(), sizeof control_cpus, &control_cpus) == 0 ? 0
                                                                                          : -1;
}

int mon_dpdk_lcore_affinity(void)
{
    rte_cpuset_t cs = rte_lcore_cpuset(rte_lcore_id());
    return rte_thread_set_affinity(&cs) == 0 ? 0 : -1;
}

int mon_dpdk_init(int argc, char **argv, char *err, size_t errlen)
{
    const char *prefix = mon_dpdk_file_prefix(argc, argv);
    int holder = mon_dpdk_prefix_holder(prefix);
    if (holder) {
        say_prefix_busy(prefix, holder, err, errlen);
        return -1;
    }
    /* rte_eal_init may permute argv: give it a copy of the pointers */
    char **av = calloc((size_t)argc + 1, sizeof *av);
    if (!av) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(av, argv, (size_t)argc * sizeof *av);
    cpu_set_t before;
    if (sched_getaffinity(0, sizeof before, &before) != 0)
        CPU_ZERO(&before);
    int rc = rte_eal_init(argc, av);
    free(av);
    if (rc >= 0) {
        compute_control_cpus(&before);
        return 0;
    }
    if ((holder = mon_dpdk_prefix_holder(prefix)) != 0) /* lost a race with another start */
        say_prefix_busy(prefix, holder, err, errlen);
    else
        snprintf(err, errlen, "the DPDK EAL did not start (%s; see its messages above)",
                 rte_errno ? rte_strerror(rte_errno) : "bad EAL arguments or resources");
    return -1;
}

void mon_dpdk_cleanup(void)
{
    rte_eal_cleanup();
}

unsigned mon_dpdk_lcores(void)
{
    return rte_lcore_count();
}

int mon_dpdk_launch(int (*fn)(void *), void *const *args, unsigned n)
{
    if (n == 0 || n > rte_lcore_count())
        return -1;
    unsigned i = 1, lcore;
    RTE_LCORE_FOREACH_WORKER(lcore) { /* all idle first: a launch then cannot fail halfway */
        if (rte_eal_get_lcore_state(lcore) != WAIT)
            return -1;
    }
    RTE_LCORE_FOREACH_WORKER(lcore) {
        if (i >= n)
            break;
        rte_eal_remote_launch(fn, args[i++], lcore);
    }
    fn(args[0]);
    rte_eal_mp_wait_lcore();
    return 0;
}

/* ---- ports ---- */

int mon_dpdk_port_find(const char *name, char *err, size_t errlen)
{
    uint16_t id;
    if (rte_eth_dev_get_port_by_name(name, &id) == 0)
        return id;
    char *end;
    unsigned long n = strtoul(name, &end, 10);
    if (*name && !*end && n < RTE_MAX_ETHPORTS && rte_eth_dev_is_valid_port((uint16_t)n))
        return (int)n;
    snprintf(err, errlen, "no DPDK port '%s' (%u ports: check the --vdev/PCI devices in "
             "dpdk.eal-args)", name, (unsigned)rte_eth_dev_count_avail());
    return -1;
}

struct rte_mempool *mon_dpdk_pool_create(unsigned mbufs, unsigned cache, char *err,
                                         size_t errlen)
{
    struct rte_mempool *mp = rte_pktmbuf_pool_create("osprey_mbufs", mbufs, cache, 0,
                                                     RTE_MBUF_DEFAULT_BUF_SIZE,
                                                     (int)rte_socket_id());
    if (!mp)
        snprintf(err, errlen, "cannot create a pool of %u mbufs: %s (raise -m in "
                 "dpdk.eal-args or lower dpdk.mempool-size)", mbufs, rte_strerror(rte_errno));
    return mp;
}

void mon_dpdk_pool_free(struct rte_mempool *mp)
{
    rte_mempool_free(mp);
}

/* Symmetric Toeplitz: a key of one repeated 16-bit word hashes (a, b) and (b, a) alike. */
static void symmetric_rss(struct rte_eth_conf *conf, const struct rte_eth_dev_info *di,
                          uint8_t *key, size_t keylen)
{
    uint64_t hf =
        (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) & di->flow_type_rss_offloads;
    if (!hf)
        return; /* the device hashes none of them: queue 0 gets everything */
    for (size_t i = 0; i + 1 < keylen; i += 2) {
        key[i] = 0x6d;
        key[i + 1] = 0x5a;
    }
    conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
    conf->rx_adv_conf.rss_conf.rss_key = key;
    conf->rx_adv_conf.rss_conf.rss_key_len = (uint8_t)keylen;
    conf->rx_adv_conf.rss_conf.rss_hf = hf;
}

int mon_dpdk_port_start(uint16_t port, const struct mon_dpdk_port_cfg *c,
                        struct rte_mempool *mp, char *err, size_t errlen)
{
    struct rte_eth_dev_info di;
    char name[RTE_ETH_NAME_MAX_LEN] = "?";
    rte_eth_dev_get_name_by_port(port, name);
    int rc = rte_eth_dev_info_get(port, &di);
    if (rc != 0) {
        snprintf(err, errlen, "port %s: no device info: %s", name, rte_strerror(-rc));
        return -1;
    }
    if (c->queues > di.max_rx_queues || c->queues > di.max_tx_queues) {
        snprintf(err, errlen, "port %s has %u RX / %u TX queues, %u workers need one each: "
                 "lower dpdk.threads", name, di.max_rx_queues, di.max_tx_queues, c->queues);
        return -1;
    }
    struct rte_eth_conf conf;
    memset(&conf, 0, sizeof conf);
    uint8_t key[64];
    size_t keylen = di.hash_key_size ? di.hash_key_size : 40;
    if (c->queues > 1 && di.flow_type_rss_offloads && keylen <= sizeof key)
        symmetric_rss(&conf, &di, key, keylen);
    /* ring sizes within the device's limits; 0 stays 0: the queue set-up then takes the
     * driver's preferred size */
    uint16_t nrx = c->rx_desc ? c->rx_desc : 1, ntx = c->tx_desc ? c->tx_desc : 1;
    if ((rc = rte_eth_dev_configure(port, c->queues, c->queues, &conf)) != 0 ||
        (rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nrx, &ntx)) != 0) {
        snprintf(err, errlen, "port %s: cannot configure %u queues: %s", name, c->queues,
                 rte_strerror(-rc));
        return -1;
    }
    if (!c->rx_desc)
        nrx = 0;
    if (!c->tx_desc)
        ntx = 0;
    int socket = rte_eth_dev_socket_id(port);
    unsigned sock = socket < 0 ? SOCKET_ID_ANY : (unsigned)socket;
    for (uint16_t q = 0; q < c->queues; q++) {
        if ((rc = rte_eth_rx_queue_setup(port, q, nrx, sock, NULL, mp)) != 0 ||
            (rc = rte_eth_tx_queue_setup(port, q, ntx, sock, NULL)) != 0) {
            snprintf(err, errlen, "port %s: queue %u: %s", name, q, rte_strerror(-rc));
            return -1;
        }
    }
    if ((rc = rte_eth_dev_start(port)) != 0) {
        snprintf(err, errlen, "port %s: cannot start: %s", name, rte_strerror(-rc));
        return -1;
    }
    if (c->promisc)
        rte_eth_promiscuous_enable(port); /* a vdev without the notion answers -ENOTSUP */
    return 0;
}

void mon_dpdk_port_stop(uint16_t port)
{
    rte_eth_dev_stop(port);
    rte_eth_dev_close(port); /* net_pcap writes out its tx_pcap here */
}

uint64_t mon_dpdk_port_missed(uint16_t port)
{
    struct rte_eth_stats st;
    if (rte_eth_stats_get(port, &st) != 0)
        return 0;
    return st.imissed + st.rx_nombuf;
}

/* ---- the source ---- */

/* Send n mbufs in order on (port, queue); what a ring that stays full refuses is freed. */
static int tx_all(struct dpdk_source *s, uint16_t port, struct rte_mbuf **m, int n)
{
    int sent = 0;
    for (int tries = 0; sent < n && tries < TX_RETRIES; tries++)
        sent += rte_eth_tx_burst(port, s->cfg.queue, m + sent, (uint16_t)(n - sent));
    if (sent < n) {
        rte_pktmbuf_free_bulk(m + sent, (unsigned)(n - sent));
        s->c.tx_full += (uint64_t)(n - sent);
    }
    return sent;
}

int mon_dpdk_complete(struct mon_source *src)
{
    struct dpdk_source *s = (struct dpdk_source *)src;
    struct rte_mbuf *out[MON_IO_BATCH];
    int nout = 0, left = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->drop[i] || s->cfg.peer < 0)
            rte_pktmbuf_free(s->batch[i]);
        else
            out[nout++] = s->batch[i];
    }
    s->n = 0;
    if (nout) {
        int k = tx_all(s, (uint16_t)s->cfg.peer, out, nout);
        s->c.forwarded += (uint64_t)k;
        left += k;
    }
    if (s->ninj_peer) {
        int k = tx_all(s, (uint16_t)s->cfg.peer, s->inj_peer, s->ninj_peer);
        s->c.injected += (uint64_t)k;
        left += k;
        s->ninj_peer = 0;
    }
    if (s->ninj_back) {
        int k = tx_all(s, s->cfg.port, s->inj_back, s->ninj_back);
        s->c.injected += (uint64_t)k;
        left += k;
        s->ninj_back = 0;
    }
    return left;
}

static int dpdk_read(struct mon_source *src, struct mon_packet *pkts, int max)
{
    struct dpdk_source *s = (struct dpdk_source *)src;
    mon_dpdk_complete(src);
    if (max > MON_IO_BATCH)
        max = MON_IO_BATCH;
    uint16_t n = rte_eth_rx_burst(s->cfg.port, s->cfg.queue, s->batch, (uint16_t)max);
    if (n == 0)
        return 0;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    uint64_t ts = (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
    for (uint16_t i = 0; i < n; i++) {
        struct rte_mbuf *m = s->batch[i];
        struct mon_packet *p = &pkts[i];
        memset(p, 0, offsetof(struct mon_packet, layer));
        p->frame = rte_pktmbuf_mtod(m, const uint8_t *);
        p->caplen = rte_pktmbuf_data_len(m); /* first segment: scattered RX is not enabled */
        p->wirelen = rte_pktmbuf_pkt_len(m);
        if (m->nb_segs > 1)
            s->c.truncated++;
        p->linktype = DLT_EN10MB_;
        p->ts_us = ts;
        p->num = ++src->next_num;
        s->drop[i] = false;
        src->bytes += p->caplen;
    }
    s->n = n;
    src->frames += n;
    s->c.rx += n;
    return n;
}

void mon_dpdk_drop(struct mon_source *src, int i)
{
    struct dpdk_source *s = (struct dpdk_source *)src;
    if (i >= 0 && i < s->n && !s->drop[i]) {
        s->drop[i] = true;
        s->c.dropped++;
    }
}

int mon_dpdk_inject(struct mon_source *src, bool back, const uint8_t *frame, uint32_t len)
{
    struct dpdk_source *s = (struct dpdk_source *)src;
    int *count = back ? &s->ninj_back : &s->ninj_peer;
    struct rte_mbuf **list = back ? s->inj_back : s->inj_peer;
    if ((!back && s->cfg.peer < 0) || *count >= INJECT_MAX) {
        s->c.tx_full++;
        return -1;
    }
    struct rte_mbuf *m = len <= UINT16_MAX ? rte_pktmbuf_alloc(s->cfg.mp) : NULL;
    char *data = m ? rte_pktmbuf_append(m, (uint16_t)len) : NULL;
    if (!data) {
        rte_pktmbuf_free(m);
        s->c.tx_full++;
        return -1;
    }
    memcpy(data, frame, len);
    list[(*count)++] = m;
    return 0;
}

const struct mon_dpdk_counters *mon_dpdk_source_counters(const struct mon_source *src)
{
    return &((const struct dpdk_source *)src)->c;
}

static void dpdk_close(struct mon_source *src)
{
    mon_dpdk_complete(src);
    free(src);
}

static int dpdk_linktype(const struct mon_source *src)
{
    (void)src;
    return DLT_EN10MB_;
}

static const struct mon_source_ops dpdk_ops = {
    .kind = "dpdk",
    .read = dpdk_read,
    .close = dpdk_close,
    .linktype = dpdk_linktype,
};

struct mon_source *mon_source_open_dpdk(const struct mon_dpdk_queue_cfg *c, char *err,
                                        size_t errlen)
{
    struct dpdk_source *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->base.ops = &dpdk_ops;
    s->cfg = *c;
    return &s->base;
}
