/* pcap_out.c — the pcap-log sink (outputs.pcap-log), Suricata's packet log: packets into
 * pcap files (NAME.<seconds>, a new file past `limit`, each starting with the pcap header
 * whose link type is the first logged packet's), as captured.
 *   conditional: all    every packet (Suricata's default)
 *                alerts the packets an alert was raised on
 *                tag    the packets a tag: rule tagged
 * Like Suricata's, a record's caplen and len are both the captured length, and flow-end
 * pseudo packets (no frame) are never written. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "osprey_output.h"

#define PCAP_MAGIC_US 0xa1b2c3d4u /* microsecond timestamps */
#define PCAP_SNAPLEN 262144u      /* Suricata's */

enum pcap_cond { COND_ALL, COND_ALERTS, COND_TAG };

struct pcap_out {
    struct osprey_log_file *lf;
    enum pcap_cond cond;
    atomic_bool have_header;      /* the link type is known (first packet) */
    pthread_mutex_t lock;         /* the first packets race to set the header */
};

static void put32(uint8_t *b, uint32_t v) /* pcap files are in the writer's byte order */
{
    memcpy(b, &v, 4);
}

static void put16(uint8_t *b, uint16_t v)
{
    memcpy(b, &v, 2);
}

static void *pcap_open(const struct osprey_output_env *env, FILE *diag)
{
    const struct osprey_config *cfg = env->cfg;
    char k[128], path[4200];
    const char *cond = osprey_config_str(cfg, osprey_output_key(env, "conditional", k, sizeof k));
    struct pcap_out *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    o->cond = !strcasecmp(cond, "alerts") ? COND_ALERTS
              : !strcasecmp(cond, "tag")  ? COND_TAG
                                          : COND_ALL;
    osprey_output_path(env, osprey_config_str(cfg, osprey_output_key(env, "filename", k, sizeof k)),
                       path, sizeof path);
    struct osprey_log_cfg lc = {
        .path = path,
        .timestamped = true,
        .append = true,
        .limit = osprey_config_size(cfg, osprey_output_key(env, "limit", k, sizeof k)),
    };
    if (!(o->lf = osprey_output_log_open(&lc, diag))) {
        free(o);
        return NULL;
    }
    pthread_mutex_init(&o->lock, NULL);
    return o;
}

static unsigned pcap_takes(void *s)
{
    /* alerts and every packet both come as packet records (alerted tells); tags as tagged */
    return ((struct pcap_out *)s)->cond == COND_TAG ? OSPREY_REC_TAGGED : OSPREY_REC_PACKET;
}

/* The file header, once the first packet names the link type. 0, or -1 (no memory). */
static int header(struct pcap_out *o, int linktype)
{
    if (atomic_load_explicit(&o->have_header, memory_order_acquire))
        return 0;
    int rc = 0;
    pthread_mutex_lock(&o->lock);
    if (!atomic_load_explicit(&o->have_header, memory_order_relaxed)) {
        uint8_t h[24];
        put32(h, PCAP_MAGIC_US);
        put16(h + 4, 2); /* version 2.4 */
        put16(h + 6, 4);
        put32(h + 8, 0); /* thiszone */
        put32(h + 12, 0); /* sigfigs */
        put32(h + 16, PCAP_SNAPLEN);
        put32(h + 20, (uint32_t)linktype);
        rc = osprey_log_set_header(o->lf, h, sizeof h);
        if (rc == 0)
            atomic_store_explicit(&o->have_header, true, memory_order_release);
    }
    pthread_mutex_unlock(&o->lock);
    return rc;
}

static void pcap_packet(void *s, const struct osprey_packet_rec *p)
{
    struct pcap_out *o = s;
    if (!p->pkt.frame || (o->cond == COND_ALERTS && !p->alerted) ||
        (o->cond == COND_TAG && !p->tagged))
        return;
    size_t len = 16 + (size_t)p->pkt.caplen;
    uint8_t *rec = malloc(len);
    if (!rec || header(o, p->pkt.linktype) < 0) {
        free(rec);
        osprey_log_drop(o->lf, "out of memory");
        return;
    }
    put32(rec, (uint32_t)(p->pkt.ts_us / 1000000u));
    put32(rec + 4, (uint32_t)(p->pkt.ts_us % 1000000u));
    put32(rec + 8, p->pkt.caplen);
    put32(rec + 12, p->pkt.caplen);
    memcpy(rec + 16, p->pkt.frame, p->pkt.caplen);
    osprey_log_write(o->lf, rec, len);
    free(rec);
}

static int pcap_reopen(void *s, FILE *diag)
{
    return osprey_output_log_reopen(((struct pcap_out *)s)->lf, diag);
}

static uint64_t pcap_lost(void *s)
{
    return osprey_log_lost(((struct pcap_out *)s)->lf);
}

static int pcap_close(void *s, FILE *diag)
{
    struct pcap_out *o = s;
    int rc = osprey_output_log_close(o->lf, diag);
    pthread_mutex_destroy(&o->lock);
    free(o);
    return rc;
}

const struct osprey_output_def pcap_out = {
    .name = "pcap-log",
    .open = pcap_open,
    .takes = pcap_takes,
    .packet = pcap_packet,
    .reopen = pcap_reopen,
    .lost = pcap_lost,
    .close = pcap_close,
};
