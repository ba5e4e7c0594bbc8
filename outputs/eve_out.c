/* eve_out.c — the EVE JSON sink (outputs.eve-log): alert, flow, anomaly, packet (tagged),
 * http/dns/tls, fileinfo ("files") and stats records as one JSON line each, to a file, a Unix socket, Redis,
 * Kafka or syslog (outputs.eve-log.filetype: osprey_log_file.h), the record types
 * outputs.eve-log.types names. */
#include <stdlib.h>
#include <string.h>

#include "osprey_output.h"

struct eve_out {
    struct osprey_log_file *lf;
    unsigned takes;
    const char *const *types;    /* outputs.eve-log.types (owned by the configuration) */
    size_t ntypes;
    bool community_id;
    uint16_t cid_seed;
    bool anomaly[3];             /* anomaly types written: decode, stream, applayer */
    char path[4096];
};

static bool has_type(const struct eve_out *o, const char *type)
{
    for (size_t i = 0; i < o->ntypes; i++)
        if (!strcmp(o->types[i], type))
            return true;
    return false;
}

static bool app_type(const char *const *app_types, const char *t)
{
    for (size_t k = 0; app_types && app_types[k]; k++)
        if (!strcmp(app_types[k], t))
            return true;
    return false;
}

/* Every name in types is a record type written here (the fixed ones, and the application
 * types the emitter hands over), or one of Suricata's (a warning). */
static int check_types(const struct eve_out *o, const char *const *app_types, FILE *diag)
{
    /* Suricata's other record types: a suricata.yaml names them; they are not written here */
    static const char *const other[] = {
        "drop", "smtp", "ftp", "ftp-data", "rdp", "smb", "ike",
        "dcerpc", "krb5", "bittorrent-dht", "snmp", "rfb", "sip", "quic", "dhcp", "ssh",
        "mqtt", "http2", "pgsql", "netflow", "metadata", "frame", "arp", "dnp3", "modbus",
        "enip", "email", "ldap", "websocket", "doh2", "template", NULL};
    for (size_t i = 0; i < o->ntypes; i++) {
        const char *t = o->types[i];
        if (!strcmp(t, "alert") || !strcmp(t, "flow") || !strcmp(t, "anomaly") ||
            !strcmp(t, "stats") || !strcmp(t, "files") || app_type(app_types, t))
            continue;
        size_t k = 0;
        while (other[k] && strcmp(other[k], t))
            k++;
        if (!other[k]) {
            fprintf(diag, "osprey: outputs.eve-log.types: unknown record type '%s' (known: "
                          "alert, anomaly, files, flow, stats", t);
            for (size_t k = 0; app_types && app_types[k]; k++)
                fprintf(diag, ", %s", app_types[k]);
            fprintf(diag, ")\n");
            return -1;
        }
        fprintf(diag, "warning: outputs.eve-log.types: '%s' records are not written by "
                      "osprey (ignored)\n", t);
    }
    return 0;
}

static void *eve_open(const struct osprey_output_env *env, FILE *diag)
{
    const struct osprey_config *cfg = env->cfg;
    char k[128];
    struct eve_out *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    o->types = osprey_config_list(cfg, osprey_output_key(env, "types", k, sizeof k), &o->ntypes);
    if (check_types(o, env->app_types, diag) < 0) {
        free(o);
        return NULL;
    }
    if (has_type(o, "alert")) {
        o->takes |= OSPREY_REC_ALERT;
        if (osprey_config_bool(cfg, osprey_output_key(env, "tagged-packets", k, sizeof k)))
            o->takes |= OSPREY_REC_TAGGED;
    }
    if (has_type(o, "flow"))
        o->takes |= OSPREY_REC_FLOW;
    static const char *const atypes[3] = {"decode", "stream", "applayer"};
    bool any_anomaly = false;
    for (int i = 0; i < 3; i++) {
        char t[64];
        snprintf(t, sizeof t, "anomaly.types.%s", atypes[i]);
        o->anomaly[i] = osprey_config_bool(cfg, osprey_output_key(env, t, k, sizeof k));
        /* the anomaly records are the packets' decoder and stream ones: with those two types
         * off (Suricata's default), taking them would have every packet's notes and stream
         * events formatted for nothing (3 % of the benchmark's instructions) */
        any_anomaly |= i < 2 && o->anomaly[i];
    }
    if (has_type(o, "anomaly") && any_anomaly &&
        osprey_config_bool(cfg, osprey_output_key(env, "anomaly.enabled", k, sizeof k)))
        o->takes |= OSPREY_REC_ANOMALY;
    if (has_type(o, "files"))
        o->takes |= OSPREY_REC_FILE; /* fileinfo */
    if (has_type(o, "stats") && osprey_config_bool(cfg, "stats.enabled"))
        o->takes |= OSPREY_REC_STATS;
    o->takes |= OSPREY_REC_TX; /* which protocols: eve_takes_tx */
    o->community_id = osprey_config_bool(cfg, osprey_output_key(env, "community-id", k, sizeof k));
    o->cid_seed = (uint16_t)osprey_config_int(cfg,
                                              osprey_output_key(env, "community-id-seed", k, sizeof k));
    osprey_output_path(env, osprey_config_str(cfg, osprey_output_key(env, "filename", k, sizeof k)),
                       o->path, sizeof o->path);
    const char *filetype = osprey_config_str(cfg, osprey_output_key(env, "filetype", k, sizeof k));
    bool transport = osprey_log_is_transport(filetype);
    struct osprey_log_cfg lc = {
        .path = o->path,
        .kind = transport ? OSPREY_LOG_REGULAR
                          : (enum osprey_log_kind)osprey_log_kind_parse(filetype),
        .append = osprey_config_bool(cfg, osprey_output_key(env, "append", k, sizeof k)),
        .filetype = transport ? filetype : NULL, /* redis, kafka, syslog: keys under ours */
        .conf = cfg,
        .section = env->section,
        .buffer_size = (size_t)osprey_config_size(cfg, osprey_output_key(env, "buffer-size", k,
                                                                         sizeof k)),
    };
    if (!(o->lf = osprey_output_log_open(&lc, diag))) {
        free(o);
        return NULL;
    }
    if (transport) /* the summary names where records go, not the unused filename */
        osprey_log_current(o->lf, o->path, sizeof o->path);
    return o;
}

static unsigned eve_takes(void *s)
{
    return ((struct eve_out *)s)->takes;
}

static bool eve_takes_tx(void *s, const char *app_proto)
{
    return has_type(s, app_proto); /* the types list names protocols as EVE names records */
}

static bool eve_community_id(void *s, uint16_t *seed)
{
    struct eve_out *o = s;
    *seed = o->cid_seed;
    return o->community_id;
}

static void eve_alert(void *s, const struct osprey_alert_rec *a)
{
    osprey_output_line(((struct eve_out *)s)->lf, osprey_eve_alert_line(a->eve));
}

static void eve_tx(void *s, const struct osprey_eve_tx *t)
{
    osprey_output_line(((struct eve_out *)s)->lf, osprey_eve_tx_line(t));
}

static void eve_file(void *s, const struct osprey_eve_file *f)
{
    osprey_output_line(((struct eve_out *)s)->lf, osprey_eve_file_line(f));
}

static void eve_flow(void *s, const struct osprey_eve_flow *f)
{
    osprey_output_line(((struct eve_out *)s)->lf, osprey_eve_flow_line(f));
}

static void eve_anomaly(void *s, const struct osprey_eve_anomaly *a)
{
    struct eve_out *o = s;
    int t = !strcmp(a->type, "decode") ? 0 : !strcmp(a->type, "stream") ? 1 : 2;
    if (o->anomaly[t]) /* Suricata's anomaly.types: decode, stream, applayer */
        osprey_output_line(o->lf, osprey_eve_anomaly_line(a));
}

static void eve_packet(void *s, const struct osprey_packet_rec *p)
{
    if (p->eve) /* EVE writes the tagged ones only */
        osprey_output_line(((struct eve_out *)s)->lf, osprey_eve_packet_line(p->eve));
}

static void eve_stats(void *s, const struct osprey_stats_rec *st)
{
    struct eve_out *o = s;
    if (!st->st) {
        osprey_log_drop(o->lf, "out of memory");
        return;
    }
    osprey_output_line(o->lf, osprey_eve_stats_line(st->ts_us, st->uptime_s, st->st, st->n));
}

static void eve_counters(void *s, osprey_log_counter_fn put, void *ctx)
{
    osprey_log_counters(((struct eve_out *)s)->lf, put, ctx);
}

static int eve_reopen(void *s, FILE *diag)
{
    return osprey_output_log_reopen(((struct eve_out *)s)->lf, diag);
}

static uint64_t eve_lost(void *s)
{
    return osprey_log_lost(((struct eve_out *)s)->lf);
}

static const char *eve_path(void *s)
{
    return ((struct eve_out *)s)->path;
}

static int eve_close(void *s, FILE *diag)
{
    struct eve_out *o = s;
    int rc = osprey_output_log_close(o->lf, diag);
    free(o);
    return rc;
}

const struct osprey_output_def eve_out = {
    .name = "eve-log",
    .open = eve_open,
    .takes = eve_takes,
    .takes_tx = eve_takes_tx,
    .community_id = eve_community_id,
    .alert = eve_alert,
    .tx = eve_tx,
    .file = eve_file,
    .flow = eve_flow,
    .anomaly = eve_anomaly,
    .packet = eve_packet,
    .stats = eve_stats,
    .counters = eve_counters,
    .reopen = eve_reopen,
    .lost = eve_lost,
    .path = eve_path,
    .close = eve_close,
};
