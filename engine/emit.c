/* emit.c — alerts from detection into outputs/ records (EVE today). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "mon.h"
#include "osprey_outputs.h"

struct osprey_emit {
    FILE *eve;
    char eve_path[4096];
    bool threads;              /* several workers write: each record under the FILE lock */
    _Atomic uint64_t write_errors;
};

struct osprey_emit *osprey_emit_open(const struct osprey_config *cfg, const char *log_dir,
                                     bool threads, FILE *diag)
{
    (void)cfg;
    struct osprey_emit *e = calloc(1, sizeof *e);
    if (!e) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    e->threads = threads;
    snprintf(e->eve_path, sizeof e->eve_path, "%s/eve.json", log_dir);
    if (!(e->eve = fopen(e->eve_path, "w"))) {
        fprintf(diag, "osprey: %s: %s\n", e->eve_path, strerror(errno));
        free(e);
        return NULL;
    }
    return e;
}

static void addr_str(const struct mon_addr *a, int ipver, char *buf, size_t len)
{
    if (!inet_ntop(ipver == 6 ? AF_INET6 : AF_INET, a->b, buf, (socklen_t)len))
        snprintf(buf, len, "?");
}

static const char *proto_name(uint8_t p, char *buf, size_t len)
{
    switch (p) {
    case 6: return "TCP";
    case 17: return "UDP";
    case 1: return "ICMP";
    case 58: return "IPv6-ICMP";
    case 132: return "SCTP";
    default: snprintf(buf, len, "%u", p); return buf;
    }
}

void osprey_emit_alert(struct osprey_emit *e, const struct osprey_alert *a)
{
    const struct mon_packet *p = a->pkt;
    const struct mon_flow *f = a->flow;
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], fsrc[INET6_ADDRSTRLEN],
        fdst[INET6_ADDRSTRLEN], pn[8];
    addr_str(&p->src, p->ipver, src, sizeof src);
    addr_str(&p->dst, p->ipver, dst, sizeof dst);
    bool ports = p->proto == 6 || p->proto == 17 || p->proto == 132;
    struct osprey_eve_meta meta[64];
    uint32_t nmeta = a->nmeta < 64 ? a->nmeta : 64;
    for (uint32_t i = 0; i < nmeta; i++)
        meta[i] = (struct osprey_eve_meta){a->meta[i].key, a->meta[i].value};
    const struct osprey_rule *r = a->rule;
    struct osprey_eve_alert ev = {
        .ts_us = p->ts_us,
        .flow_id = f ? f->id : 0,
        .pcap_cnt = p->num,
        .src_ip = src,
        .dest_ip = dst,
        .src_port = ports ? p->sport : -1,
        .dest_port = ports ? p->dport : -1,
        .proto = proto_name(p->proto, pn, sizeof pn),
        .direction = f ? (a->to_server ? "to_server" : "to_client") : NULL,
        /* IDS mode: nothing is dropped, so drop/reject rules are recorded as allowed too,
         * as Suricata does outside inline mode */
        .action = "allowed",
        .gid = r->gid,
        .sid = r->sid,
        .rev = r->rev,
        .signature = r->msg,
        .category = a->category,
        .severity = a->severity,
        .nmeta = nmeta,
        .meta = meta,
    };
    if (f) {
        addr_str(&f->cli, f->ipver, fsrc, sizeof fsrc);
        addr_str(&f->srv, f->ipver, fdst, sizeof fdst);
        ev.has_flow = true;
        ev.flow.pkts_toserver = f->pkts[MON_FLOW_TO_SERVER];
        ev.flow.pkts_toclient = f->pkts[MON_FLOW_TO_CLIENT];
        ev.flow.bytes_toserver = f->bytes[MON_FLOW_TO_SERVER];
        ev.flow.bytes_toclient = f->bytes[MON_FLOW_TO_CLIENT];
        ev.flow.start_us = f->first_us;
        ev.flow.src_ip = fsrc;
        ev.flow.dest_ip = fdst;
        ev.flow.src_port = ports ? f->cport : -1;
        ev.flow.dest_port = ports ? f->sport : -1;
    }
    if (e->threads)
        flockfile(e->eve); /* one whole line at a time, whichever worker writes */
    if (osprey_eve_alert_write(e->eve, &ev) < 0)
        e->write_errors++;
    if (e->threads)
        funlockfile(e->eve);
}

uint64_t osprey_emit_write_errors(const struct osprey_emit *e)
{
    return e->write_errors;
}

const char *osprey_emit_eve_path(const struct osprey_emit *e)
{
    return e->eve_path;
}

int osprey_emit_close(struct osprey_emit *e, FILE *diag)
{
    if (!e)
        return 0;
    int rc = 0;
    if (e->write_errors) {
        fprintf(diag, "osprey: %s: %llu records could not be written\n", e->eve_path,
                (unsigned long long)e->write_errors);
        rc = -1;
    }
    if (fclose(e->eve) != 0) {
        fprintf(diag, "osprey: %s: %s\n", e->eve_path, strerror(errno));
        rc = -1;
    }
    free(e);
    return rc;
}
