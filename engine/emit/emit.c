/* emit.c — the emitter's outputs (the sinks of outputs/registry.c: open, reopen, close) and
 * alerts, built once and handed to every sink that takes them. Flow, anomaly and packet
 * records: emit_records.c; stats: emit_stats.c; transactions: emit_app.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_clock.h"
#include "osprey_parsers.h"
#include "tunnel_record.h"

/* Flow records waiting for the flow writer at most (about 300 bytes each): a worker that
 * finds the queue full waits. */
#define FLOW_WRITER_QUEUE 4096

/* Open the sink def when outputs.<name>.enabled is on; 0 (also when off), -1 when it failed. */
static int open_sink(struct osprey_emit *e, const struct osprey_output_def *def,
                     const struct osprey_config *cfg, const char *log_dir, FILE *diag)
{
    char section[96], key[128];
    snprintf(section, sizeof section, "outputs.%s", def->name);
    snprintf(key, sizeof key, "%s.enabled", section);
    if (!osprey_config_bool(cfg, key))
        return 0;
    if (e->nsinks == sizeof e->sinks / sizeof e->sinks[0]) {
        fprintf(diag, "osprey: too many outputs\n");
        return -1;
    }
    /* the record types of the registered protocols that write records */
    const char *app_types[OSPREY_APP_PROTO_MAX + 1];
    size_t na = 0;
    for (uint16_t p = OSPREY_APP_PROTO_FAILED + 1; p < osprey_app_proto_count(); p++)
        if (osprey_app_proto_has_eve(p))
            app_types[na++] = osprey_app_proto_eve_name(p);
    app_types[na] = NULL;
    struct osprey_output_env env = {.cfg = cfg, .section = section, .log_dir = log_dir,
                                    .app_types = app_types};
    void *s = def->open(&env, diag);
    if (!s)
        return -1;
    struct osprey_emit_sink *k = &e->sinks[e->nsinks++];
    *k = (struct osprey_emit_sink){.def = def, .s = s, .takes = def->takes(s)};
    /* the transaction records of each registered protocol that writes them */
    for (uint16_t p = OSPREY_APP_PROTO_FAILED + 1;
         def->takes_tx && (k->takes & OSPREY_REC_TX) && p < osprey_app_proto_count(); p++)
        if (osprey_app_proto_has_eve(p) && def->takes_tx(s, osprey_app_proto_eve_name(p))) {
            osprey_app_proto_set_add(&k->tx, p);
            osprey_app_proto_set_add(&e->tx, p);
        }
    e->takes |= k->takes;
    e->file_store |= !strcmp(def->name, "file-store");
    uint16_t seed;
    if (!e->community_id && def->community_id && def->community_id(s, &seed)) {
        e->community_id = true; /* the record is built once: the first sink's seed */
        e->cid_seed = seed;
    }
    return 0;
}

/* A flow record, on the flow writer's thread (or the worker's without one). */
static void write_flow(void *arg, const struct osprey_eve_flow *r)
{
    struct osprey_emit *e = arg;
    EMIT_EACH_SINK(e, OSPREY_REC_FLOW, k)
        k->def->flow(k->s, r);
}

/* flow.recyclers: "1" a thread writes the flow records, "0" the worker ending the flow does,
 * "auto" the thread when the workers leave a CPU for it (single, or fewer workers than
 * CPUs), as Suricata's flow recycler writes its flow records beside the workers. */
static bool want_flow_writer(const struct osprey_config *cfg, int nworkers)
{
    const char *v = osprey_config_str(cfg, "flow.recyclers");
    if (v && !strcmp(v, "1"))
        return true;
    if (v && !strcmp(v, "0"))
        return false;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > nworkers;
}

struct osprey_emit *osprey_emit_open(const struct osprey_config *cfg, const char *log_dir,
                                     int nworkers, FILE *diag)
{
    struct osprey_emit *e = calloc(1, sizeof *e);
    if (!e) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    e->alerted_slot = -1;
    e->stats_interval = osprey_config_seconds(cfg, "stats.interval");
    e->stats_threads = osprey_config_bool(cfg, "stats.threads");
    const char *geo = osprey_config_str(cfg, "geoip-database");
    if (geo && geo[0]) {
        char err[4500];
        if (!(e->geo = osprey_geoip_open(geo, err, sizeof err))) {
            fprintf(diag, "osprey: geoip-database: %s\n", err);
            goto fail;
        }
    }
    for (size_t i = 0; osprey_output_sinks[i]; i++)
        if (open_sink(e, osprey_output_sinks[i], cfg, log_dir, diag) < 0)
            goto fail;
    /* (out of memory for its queue: the workers write the records themselves) */
    if ((e->takes & OSPREY_REC_FLOW) && want_flow_writer(cfg, nworkers))
        e->fw = osprey_flow_writer_new(FLOW_WRITER_QUEUE, write_flow, e);
    return e;
fail:
    osprey_emit_close(e, diag);
    return NULL;
}

void osprey_emit_set_clock(struct osprey_emit *e, double (*now_s)(void))
{
    e->now_s = now_s;
    e->t_open = e->t_last_stats = now_s();
}

static void no_free(struct mon_ctx *ctx, struct mon_flow *f, void *val, void *arg)
{
    (void)ctx, (void)f, (void)val, (void)arg; /* the slot holds a flag, not memory */
}

int osprey_emit_bind(struct osprey_emit *e, struct mon_engine *eng, FILE *diag)
{
    if (!(e->takes & OSPREY_REC_FLOW))
        return 0;
    int slot = mon_uctx_slot_alloc(eng, no_free, NULL);
    if (slot < 0) {
        fprintf(diag, "osprey: no per-flow slot left for flow records\n");
        return -1;
    }
    /* A reload binds the new engine while workers still read the slot number: engines are
     * built the same way, so the number is the same and is never rewritten. */
    if (e->alerted_slot >= 0 && slot != e->alerted_slot) {
        fprintf(diag, "osprey: the new engine's flow-record slot differs (%d, was %d)\n", slot,
                e->alerted_slot);
        return -1;
    }
    if (e->alerted_slot < 0)
        e->alerted_slot = slot;
    return 0;
}

void osprey_emit_alert(struct osprey_emit *e, struct mon_ctx *ctx, const struct osprey_alert *a,
                       bool inline_mode)
{
    osprey_emit_alert_app(e, ctx, a, inline_mode, NULL);
}

void osprey_emit_alert_app(struct osprey_emit *e, struct mon_ctx *ctx,
                           const struct osprey_alert *a, bool inline_mode, const char *snap)
{
    const struct mon_packet *p = a->pkt;
    struct mon_flow *f = a->flow;
    if (f && e->alerted_slot >= 0)
        mon_set_uctx_slot(ctx, f, e->alerted_slot, (void *)1);
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], fsrc[INET6_ADDRSTRLEN],
        fdst[INET6_ADDRSTRLEN], pn[8], cid[48];
    struct mon_packet end;
    if ((p->flags & MON_PKT_PSEUDO) && f && !a->to_server) {
        /* a flow's end (libmon's client -> server packet): a response's alert goes the
         * other way, as Suricata's flow-timeout packet of that direction */
        end = *p;
        end.src = p->dst, end.dst = p->src, end.sport = p->dport, end.dport = p->sport;
        p = &end;
    }
    osprey_addr_str(&p->src, p->ipver, src, sizeof src);
    osprey_addr_str(&p->dst, p->ipver, dst, sizeof dst);
    bool ports = p->proto == 6 || p->proto == 17 || p->proto == 132;
    struct osprey_eve_meta meta[64];
    uint32_t nmeta = a->nmeta < 64 ? a->nmeta : 64;
    for (uint32_t i = 0; i < nmeta; i++)
        meta[i] = (struct osprey_eve_meta){a->meta[i].key, a->meta[i].value};
    struct osprey_eve_var vars[64];
    uint32_t nvars = a->nvars < 64 ? a->nvars : 64;
    for (uint32_t i = 0; i < nvars; i++) /* the detection's scopes are EVE's, in order */
        vars[i] = (struct osprey_eve_var){a->vars[i].scope, a->vars[i].name, a->vars[i].value,
                                          a->vars[i].len};
    const struct osprey_rule *r = a->rule;
    struct osprey_geo sgeo, dgeo;
    struct osprey_eve_alert ev = {
        .ts_us = p->ts_us,
        .flow_id = f ? f->id : 0,
        .pcap_cnt = p->num,
        .src_ip = src,
        .dest_ip = dst,
        .src_port = ports ? p->sport : -1,
        .dest_port = ports ? p->dport : -1,
        .ip_v = p->ipver,
        .proto = osprey_proto_name(p->proto, pn, sizeof pn),
        .direction = f ? (a->to_server ? "to_server" : "to_client") : NULL,
        /* IDS mode: nothing is dropped, so drop/reject rules are recorded as allowed too,
         * as Suricata does outside inline mode */
        .action = inline_mode && a->action >= OSPREY_ACTION_DROP &&
                          a->action <= OSPREY_ACTION_REJECTBOTH ? "blocked" : "allowed",
        .engine = a->firewall ? "fw" : NULL,
        .gid = r->gid,
        .sid = r->sid,
        .rev = r->rev,
        .signature = r->msg,
        .category = a->category,
        .severity = a->severity,
        .nmeta = nmeta,
        .meta = meta,
        .nvars = nvars,
        .vars = vars,
    };
    struct osprey_tunnel_text tt;
    struct osprey_eve_tunnel tun;
    ev.pkt_src = osprey_pkt_src(p);
    /* Suricata writes pcap_cnt only inside "tunnel" then; we keep the top-level one too
     * (the same number): consumers find every alert's packet in one place */
    if (osprey_tunnel_record(p, &tt, &tun))
        ev.tunnel = &tun;
    if (p->proto == 1 || p->proto == 58) {
        ev.icmp = true;
        ev.icmp_type = p->icmp_type;
        ev.icmp_code = p->icmp_code;
    }
    if (e->community_id && p->ipver) {
        bool icmp = p->proto == 1 || p->proto == 58;
        osprey_community_id(e->cid_seed, p->src.b, p->dst.b, p->ipver == 6 ? 16 : 4, p->proto,
                            icmp ? p->icmp_type : p->sport, icmp ? p->icmp_code : p->dport,
                            cid, sizeof cid);
        ev.community_id = cid;
    }
    if (f) {
        osprey_addr_str(&f->cli, f->ipver, fsrc, sizeof fsrc);
        osprey_addr_str(&f->srv, f->ipver, fdst, sizeof fdst);
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
    struct osprey_eve_app app;
    struct osprey_emit_file fb[8];
    struct osprey_eve_file files[8];
    if (f) {
        uint16_t named = osprey_parsers_app_proto_named(ctx, f);
        ev.app_proto = osprey_app_proto_name(named);
        ev.app_proto_ts = osprey_emit_dir_proto(ctx, f, 0, named);
        ev.app_proto_tc = osprey_emit_dir_proto(ctx, f, 1, named);
        if (snap) { /* a kept alert: its transaction and files as they were when found */
            osprey_emit_snap_app(ctx, f, snap, &app);
            ev.app = &app;
        } else if (osprey_emit_fill_app(ctx, f, &app)) {
            ev.app = &app;
            /* an alert in a transaction: its files of the alert's direction (Suricata's) */
            size_t nf = osprey_emit_alert_files(e, ctx, f, a->to_server ? 0 : 1, fb, 8);
            for (size_t i = 0; i < nf; i++)
                files[i] = fb[i].rec;
            ev.files = files;
            ev.nfiles = (uint32_t)nf;
        }
    }
    if (e->geo && p->ipver) {
        osprey_geoip_lookup(e->geo, p->src.b, p->ipver, &sgeo);
        osprey_geoip_lookup(e->geo, p->dst.b, p->ipver, &dgeo);
        ev.src_geo = &sgeo;
        ev.dest_geo = &dgeo;
    }
    struct osprey_span ub, hb;
    struct osprey_alert_rec rec = {
        .eve = &ev,
        .classtype = r->classtype,
        .blocked = ev.action[0] == 'b',
    };
    if (f) /* unified2's extra data */
        osprey_emit_http_extra(ctx, f, &ub, &hb, &rec.http_uri, &rec.http_host);
    osprey_emit_rec_packet(a->pkt, &rec.pkt); /* as captured (not the turned flow-end one) */
    EMIT_EACH_SINK(e, OSPREY_REC_ALERT, k)
        k->def->alert(k->s, &rec);
}

int osprey_emit_redirect(struct osprey_emit *e, const struct osprey_config *cfg,
                         const char *log_dir, FILE *diag)
{
    int rc = 0;
    osprey_flow_writer_drain(e->fw); /* the flows so far go to the sinks being closed */
    for (size_t i = 0; i < e->nsinks; i++)
        if (e->sinks[i].def->close(e->sinks[i].s, diag) < 0)
            rc = -1;
    /* the same configuration opens the same sinks: what they take stays as it was */
    e->nsinks = 0;
    e->takes = 0;
    memset(&e->tx, 0, sizeof e->tx);
    e->community_id = false;
    for (size_t i = 0; osprey_output_sinks[i]; i++)
        if (open_sink(e, osprey_output_sinks[i], cfg, log_dir, diag) < 0)
            rc = -1;
    return rc;
}

int osprey_emit_reopen(struct osprey_emit *e, FILE *diag)
{
    int rc = 0;
    for (size_t i = 0; i < e->nsinks; i++)
        if (e->sinks[i].def->reopen(e->sinks[i].s, diag) < 0)
            rc = -1;
    return rc;
}

uint64_t osprey_emit_write_errors(const struct osprey_emit *e)
{
    uint64_t n = 0;
    for (size_t i = 0; i < e->nsinks; i++)
        n += e->sinks[i].def->lost(e->sinks[i].s);
    return n;
}

const char *osprey_emit_eve_path(const struct osprey_emit *e)
{
    for (size_t i = 0; i < e->nsinks; i++)
        if (!strcmp(e->sinks[i].def->name, "eve-log") && e->sinks[i].def->path)
            return e->sinks[i].def->path(e->sinks[i].s);
    return "(eve-log disabled)";
}

int osprey_emit_close(struct osprey_emit *e, FILE *diag)
{
    if (!e)
        return 0;
    int rc = 0;
    osprey_flow_writer_free(e->fw); /* what it holds is written first */
    for (size_t i = 0; i < e->nsinks; i++)
        if (e->sinks[i].def->close(e->sinks[i].s, diag) < 0)
            rc = -1;
    osprey_geoip_close(e->geo);
    free(e);
    return rc;
}
