/* emit.c — the emitter's outputs (open, reopen, close) and alerts into EVE, fast.log and
 * unified2. Flow and anomaly records: emit_records.c; stats: emit_stats.c; unified2:
 * emit_u2.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_parsers.h"

static void log_path(char *buf, size_t len, const char *dir, const char *name)
{
    if (name[0] == '/')
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "%s/%s", dir, name);
}

static struct osprey_log_file *open_log(const struct osprey_log_cfg *lc, FILE *diag)
{
    char err[4500];
    struct osprey_log_file *lf = osprey_log_open(lc, err, sizeof err);
    if (!lf)
        fprintf(diag, "osprey: cannot open output %s\n", err);
    return lf;
}

static bool has_type(const struct osprey_config *cfg, const char *type)
{
    size_t n;
    const char *const *t = osprey_config_list(cfg, "outputs.eve-log.types", &n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i], type))
            return true;
    return false;
}

static int open_eve(struct osprey_emit *e, const struct osprey_config *cfg, const char *dir,
                    FILE *diag)
{
    /* Suricata's other record types: a suricata.yaml names them; they are not written here */
    static const char *const other[] = {
        "drop", "files", "smtp", "ftp", "ftp-data", "rdp", "nfs", "smb", "tftp", "ike",
        "dcerpc", "krb5", "bittorrent-dht", "snmp", "rfb", "sip", "quic", "dhcp", "ssh",
        "mqtt", "http2", "pgsql", "netflow", "metadata", "frame", "arp", "dnp3", "modbus",
        "enip", "email", "ldap", "websocket", "doh2", "template", NULL};
    size_t n;
    const char *const *t = osprey_config_list(cfg, "outputs.eve-log.types", &n);
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(t[i], "alert") || !strcmp(t[i], "flow") || !strcmp(t[i], "anomaly") ||
            !strcmp(t[i], "stats") || !strcmp(t[i], "http") || !strcmp(t[i], "dns") ||
            !strcmp(t[i], "tls"))
            continue;
        size_t k = 0;
        while (other[k] && strcmp(other[k], t[i]))
            k++;
        if (!other[k]) {
            fprintf(diag, "osprey: outputs.eve-log.types: unknown record type '%s' (known: "
                          "alert, anomaly, flow, stats, http, dns, tls)\n", t[i]);
            return -1;
        }
        fprintf(diag, "warning: outputs.eve-log.types: '%s' records are not written by "
                      "osprey (ignored)\n", t[i]);
    }
    e->eve_alert = has_type(cfg, "alert");
    e->eve_flow = has_type(cfg, "flow");
    e->eve_anomaly = has_type(cfg, "anomaly");
    e->tagged_packets = osprey_config_bool(cfg, "outputs.eve-log.tagged-packets");
    e->eve_stats = has_type(cfg, "stats") && osprey_config_bool(cfg, "stats.enabled");
    e->eve_http = has_type(cfg, "http");
    e->eve_dns = has_type(cfg, "dns");
    e->eve_tls = has_type(cfg, "tls");
    e->community_id = osprey_config_bool(cfg, "outputs.eve-log.community-id");
    e->cid_seed = (uint16_t)osprey_config_int(cfg, "outputs.eve-log.community-id-seed");
    log_path(e->eve_path, sizeof e->eve_path, dir,
             osprey_config_str(cfg, "outputs.eve-log.filename"));
    struct osprey_log_cfg lc = {
        .path = e->eve_path,
        .kind = (enum osprey_log_kind)osprey_log_kind_parse(
            osprey_config_str(cfg, "outputs.eve-log.filetype")),
        .append = osprey_config_bool(cfg, "outputs.eve-log.append"),
    };
    return (e->eve = open_log(&lc, diag)) ? 0 : -1;
}

struct osprey_emit *osprey_emit_open(const struct osprey_config *cfg, const char *log_dir,
                                     bool threads, FILE *diag)
{
    (void)threads; /* every output locks per record anyway */
    struct osprey_emit *e = calloc(1, sizeof *e);
    if (!e) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    e->alerted_slot = -1;
    snprintf(e->eve_path, sizeof e->eve_path, "(eve-log disabled)");
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
    if (osprey_config_bool(cfg, "outputs.eve-log.enabled") && open_eve(e, cfg, log_dir, diag) < 0)
        goto fail;
    if (osprey_config_bool(cfg, "outputs.fast.enabled")) {
        char path[4200];
        log_path(path, sizeof path, log_dir, osprey_config_str(cfg, "outputs.fast.filename"));
        struct osprey_log_cfg lc = {.path = path,
                                    .append = osprey_config_bool(cfg, "outputs.fast.append")};
        if (!(e->fast = open_log(&lc, diag)))
            goto fail;
    }
    if (osprey_config_bool(cfg, "outputs.unified2-alert.enabled") &&
        osprey_emit_u2_open(e, cfg, log_dir, diag) < 0)
        goto fail;
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
    if (!e->eve || !e->eve_flow)
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

void osprey_emit_line(struct osprey_log_file *lf, char *line)
{
    if (!line) {
        osprey_log_drop(lf, "out of memory");
        return;
    }
    osprey_log_write(lf, line, strlen(line));
    free(line);
}

void osprey_emit_alert(struct osprey_emit *e, struct mon_ctx *ctx, const struct osprey_alert *a,
                       bool inline_mode)
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
        .gid = r->gid,
        .sid = r->sid,
        .rev = r->rev,
        .signature = r->msg,
        .category = a->category,
        .severity = a->severity,
        .nmeta = nmeta,
        .meta = meta,
    };
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
    if (f) {
        ev.app_proto = osprey_app_proto_name(osprey_parsers_app_proto(ctx, f));
        if (osprey_emit_fill_app(ctx, f, &app))
            ev.app = &app;
    }
    if (e->geo && p->ipver) {
        osprey_geoip_lookup(e->geo, p->src.b, p->ipver, &sgeo);
        osprey_geoip_lookup(e->geo, p->dst.b, p->ipver, &dgeo);
        ev.src_geo = &sgeo;
        ev.dest_geo = &dgeo;
    }
    if (e->eve && e->eve_alert)
        osprey_emit_line(e->eve, osprey_eve_alert_line(&ev));
    if (e->fast)
        osprey_emit_line(e->fast, osprey_fast_line(&ev));
    if (e->u2)
        osprey_emit_u2_alert(e, a, ev.action[0] == 'b', ev.app);
}

int osprey_emit_reopen(struct osprey_emit *e, FILE *diag)
{
    int rc = 0;
    struct osprey_log_file *all[] = {e->eve, e->fast, e->u2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char err[4500];
        if (all[i] && osprey_log_reopen(all[i]) < 0) {
            fprintf(diag, "osprey: reopen: %s\n", osprey_log_error(all[i], err, sizeof err));
            rc = -1;
        }
    }
    return rc;
}

uint64_t osprey_emit_write_errors(const struct osprey_emit *e)
{
    uint64_t n = 0;
    struct osprey_log_file *all[] = {e->eve, e->fast, e->u2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i])
            n += osprey_log_lost(all[i]);
    return n;
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
    struct osprey_log_file *all[] = {e->eve, e->fast, e->u2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (!all[i])
            continue;
        uint64_t lost = osprey_log_lost(all[i]);
        if (lost) {
            char name[4300], err[4500];
            fprintf(diag, "osprey: %s: %llu records could not be written (%s)\n",
                    osprey_log_current(all[i], name, sizeof name), (unsigned long long)lost,
                    osprey_log_error(all[i], err, sizeof err));
            rc = -1;
        }
    }
    osprey_log_close(e->eve);
    osprey_log_close(e->fast);
    osprey_emit_u2_close(e);
    osprey_geoip_close(e->geo);
    free(e);
    return rc;
}
