/* emit_stats.c — EVE stats records: the workers' libmon and detection counters added up,
 * under Suricata's stats names where a counter exists in both (capture.kernel_packets,
 * decoder.pkts, decoder.ipv4, flow.tcp, tcp.sessions, detect.alert …). */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "osprey_clock.h"

bool osprey_emit_stats_due(struct osprey_emit *e)
{
    return (e->takes & OSPREY_REC_STATS) && e->stats_interval > 0 && e->now_s &&
           e->now_s() - e->t_last_stats >= e->stats_interval;
}

/* Suricata's decoder counter for each libmon layer kind; NULL: Suricata counts no such
 * header (IPv6 extension headers, GTP-U, NFLOG, FDDI, other link types), kept under
 * "osprey." with libmon's name. */
static const char *layer_stat(enum mon_layer_kind k)
{
    switch (k) {
    case MON_L_ETH: return "ethernet";
    case MON_L_ICMP: return "icmpv4";
    case MON_L_IPV6_EXT: case MON_L_GTPU: case MON_L_NFLOG: case MON_L_OTHER: case MON_L_FDDI:
    case MON_L_WLAN:
        return NULL;
    default: return mon_layer_name(k);
    }
}

/* Counters Suricata has no name for go under this object, with libmon's names. */
#define OSPREY_ONLY "osprey."

struct acc {
    struct osprey_stat *st;
    char (*names)[96];
    size_t n, cap;
    const char *prefix;  /* "" for the totals, "threads.W#01." for one worker's own */
};

/* Counters a worker adds: sizes the table (totals plus, with stats.threads, each worker). */
#define WORKER_COUNTERS (104 + MON_L__COUNT + MON_DE__COUNT + 2 * OSPREY_APP_PROTO_MAX)

static void put(struct acc *a, const char *counter, uint64_t v)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", a->prefix, counter);
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->st[i].name, name)) {
            a->st[i].value += v;
            return;
        }
    if (a->n == a->cap)
        return; /* sized for every counter below: cannot happen */
    snprintf(a->names[a->n], sizeof a->names[a->n], "%s", name);
    a->st[a->n] = (struct osprey_stat){a->names[a->n], v};
    a->n++;
}

/* One more counter under a name made of parts (app_layer.flow.<proto> …). */
static void put_name(struct acc *a, const char *prefix, const char *name, uint64_t v)
{
    char n[96];
    snprintf(n, sizeof n, "%s%s", prefix, name);
    put(a, n, v);
}

/* The parsers' counters, from the registry: the flows and transactions of the protocols
 * Suricata counts under the same names, then (Osprey's own) those of the others, the failed
 * flows among them: Suricata counts DNS and failed flows per transport (dns_udp, failed_tcp
 * …), the parsers count them together. */
static void app_stats(struct acc *a, const struct osprey_parsers_stats *ps)
{
    uint16_t n = osprey_parsers_stat_count();
    for (int pass = 0; pass < 2; pass++) { /* flows, then transactions */
        for (uint16_t i = 0; i < n; i++) {
            uint16_t p = osprey_parsers_stat_proto(i);
            bool flows = i < osprey_app_proto_count();
            if (osprey_app_proto_suricata_stats(p) && (pass ? osprey_parsers_stat_is_tx(i) : flows))
                put_name(a, pass ? "app_layer.tx." : "app_layer.flow.", osprey_app_proto_eve_name(p),
                         ps->v[i]);
        }
    }
    for (uint16_t p = OSPREY_APP_PROTO_FAILED + 1; p < osprey_app_proto_count(); p++)
        if (!osprey_app_proto_suricata_stats(p))
            put_name(a, OSPREY_ONLY "app_layer.flow.", osprey_app_proto_eve_name(p), ps->v[p]);
    put(a, OSPREY_ONLY "app_layer.flow.failed", ps->v[OSPREY_APP_PROTO_FAILED]);
    for (uint16_t i = 0; i < n; i++) {
        uint16_t p = osprey_parsers_stat_proto(i);
        if (!osprey_app_proto_suricata_stats(p) && osprey_parsers_stat_is_tx(i))
            put_name(a, OSPREY_ONLY "app_layer.tx.", osprey_app_proto_eve_name(p), ps->v[i]);
    }
    /* the rest of each protocol's counters (what its limits and memcaps shed, what was
     * malformed …) and the file layer's, by protocol: osprey.app_layer.http.http_body_limit */
    char prefix[64];
    for (uint16_t i = osprey_app_proto_count(); i < n; i++) {
        const char *name = osprey_parsers_stat_name(i);
        if (!name || osprey_parsers_stat_is_tx(i))
            continue;
        uint16_t p = osprey_parsers_stat_proto(i);
        snprintf(prefix, sizeof prefix, OSPREY_ONLY "app_layer.%s.",
                 p == OSPREY_APP_PROTO_UNKNOWN ? "files" : osprey_app_proto_eve_name(p));
        put_name(a, prefix, name, ps->v[i]);
    }
}

static void worker_stats(struct acc *a, const struct osprey_stats_src *w)
{
    char name[80];
    if (w->has_capture) {
        put(a, "capture.kernel_packets", w->kernel_packets);
        put(a, "capture.kernel_drops", w->kernel_drops);
    }
    const struct mon_decode_stats *ds = mon_ctx_decode_stats(w->ctx);
    put(a, "decoder.pkts", ds->pkts);
    put(a, "decoder.bytes", ds->bytes);
    put(a, "decoder.invalid", ds->outcome[MON_DEC_INVALID]);
    for (int i = 0; i < MON_L__COUNT; i++) {
        const char *ln = layer_stat((enum mon_layer_kind)i);
        if (ln)
            snprintf(name, sizeof name, "decoder.%s", ln);
        else
            snprintf(name, sizeof name, OSPREY_ONLY "decoder.%s",
                     mon_layer_name((enum mon_layer_kind)i));
        put(a, name, ds->layer[i]);
    }
    for (int i = 0; i < MON_DE__COUNT; i++) {
        const char *ev = osprey_suricata_decode_event((enum mon_decode_event)i);
        /* two events Suricata counts, but not as decoder events */
        if (i == MON_DE_TCP_BAD_CSUM)
            snprintf(name, sizeof name, "tcp.invalid_checksum");
        else if (i == MON_DE_FRAG_MAX_FRAGS)
            snprintf(name, sizeof name, "defrag.max_frags_reached");
        else if (ev) /* decoder.event.<layer>.<what>; generic ones sit under decoder. */
            snprintf(name, sizeof name, "decoder.%s%s", strchr(ev, '.') ? "event." : "", ev);
        else
            snprintf(name, sizeof name, OSPREY_ONLY "decoder.event.%s",
                     mon_decode_event_name((enum mon_decode_event)i));
        put(a, name, ds->event[i]);
    }
    const struct mon_defrag *df = mon_ctx_defrag(w->ctx);
    if (df) {
        /* Suricata counts fragments per IP version; libmon counts them together */
        const struct mon_defrag_stats *s = mon_defrag_stats(df);
        put(a, OSPREY_ONLY "defrag.fragments", s->fragments);
        put(a, OSPREY_ONLY "defrag.reassembled", s->reassembled);
        put(a, OSPREY_ONLY "defrag.timeouts", s->timeouts);
        put(a, OSPREY_ONLY "defrag.memcap_drops", s->memcap_drops);
        put(a, OSPREY_ONLY "defrag.overlaps", s->overlaps);
        put(a, "defrag.memuse", s->memuse);
    }
    const struct mon_flow_stats *fs = mon_flow_stats(mon_ctx_flows(w->ctx));
    put(a, "flow.total", fs->created);
    put(a, "flow.active", fs->active);
    put(a, "flow.tcp", fs->tcp);
    put(a, "flow.udp", fs->udp);
    put(a, "flow.memcap", fs->memcap_hits);
    put(a, "flow.memuse", fs->memuse);
    /* Suricata splits ICMP flows by IP version and counts flow ends by state, not reason */
    put(a, OSPREY_ONLY "flow.icmp", fs->icmp);
    put(a, OSPREY_ONLY "flow.other", fs->other);
    put(a, OSPREY_ONLY "flow.end.timeout", fs->ended[MON_FLOW_END_TIMEOUT]);
    put(a, OSPREY_ONLY "flow.end.forced", fs->ended[MON_FLOW_END_EVICTED]);
    put(a, OSPREY_ONLY "flow.end.shutdown", fs->ended[MON_FLOW_END_SHUTDOWN]);
    /* detection's and the parsers' per-flow state, charged to flow.memcap (mon_ctx_charge),
     * and the flows evicted because of it (part of flow.memcap) */
    put(a, OSPREY_ONLY "flow.state_memuse", fs->charged);
    put(a, OSPREY_ONLY "flow.state_memuse_peak", fs->charged_peak);
    put(a, OSPREY_ONLY "flow.state_evictions", fs->charge_evictions);
    const struct mon_tcp_stats *ts = mon_ctx_tcp_stats(w->ctx);
    put(a, "tcp.sessions", ts->sessions);
    put(a, "tcp.midstream_pickups", ts->midstream);
    put(a, "tcp.overlap", ts->overlaps);
    put(a, "tcp.overlap_diff_data", ts->overlap_diff);
    put(a, "tcp.reassembly_gap", ts->gaps);
    /* segments the stream refused for their checksum (stream.checksum-validation); the
     * decoder's count of bad checksums is tcp.invalid_checksum above */
    put(a, OSPREY_ONLY "tcp.stream_invalid_checksum", ts->invalid_checksum);
    put(a, "tcp.reassembly_memuse", ts->reasm_memuse);
    put(a, "stream.pkt_retransmission", ts->rexmit);
    /* Suricata names these per TCP state (est_packet_out_of_window, fin_out_of_window …) or
     * has none (a reassembly buffer outrun) */
    put(a, OSPREY_ONLY "tcp.invalid_state", ts->invalid_state);
    put(a, OSPREY_ONLY "tcp.pkt_out_of_window", ts->out_of_window);
    put(a, OSPREY_ONLY "tcp.rst_out_of_window", ts->rst_out_of_window);
    put(a, OSPREY_ONLY "tcp.reassembly_outrun", ts->outruns);
    put(a, OSPREY_ONLY "tcp.memcap_hits", ts->memcap_hits);
    /* streams whose held out-of-order data was freed at the memcap for another's (and the
     * bytes): Suricata counts the segments it refuses there instead */
    put(a, OSPREY_ONLY "tcp.reassembly_memcap_reclaims", ts->reclaims);
    put(a, OSPREY_ONLY "tcp.reassembly_memcap_reclaimed", ts->reclaimed_bytes);
    if (w->app) {
        app_stats(a, w->app);
    }
    put(a, "detect.alert", w->alerts);
    /* Suricata 8's: Lua script runs that failed, and why (rules/lua/) */
    put(a, "detect.lua.errors", w->lua.errors);
    put(a, "detect.lua.blocked_function_errors", w->lua.blocked_function_errors);
    put(a, "detect.lua.instruction_limit_errors", w->lua.instruction_limit_errors);
    put(a, "detect.lua.memory_limit_errors", w->lua.memory_limit_errors);
    const struct osprey_detect_verdicts *v = &w->verdicts;
    if (v->firewall) { /* firewall mode (Suricata 8's firewall.* counters) */
        put(a, "firewall.accepted", v->fw_accepted);
        put(a, "firewall.blocked", v->fw_blocked);
        put(a, "firewall.drop_reason.rules", v->fw_drop_rules);
        put(a, "firewall.drop_reason.default_packet_policy", v->fw_drop_default_packet);
        put(a, "firewall.drop_reason.default_app_policy", v->fw_drop_default_app);
        put(a, "firewall.drop_reason.pre_flow_hook", v->fw_drop_pre_flow);
        put(a, "firewall.drop_reason.pre_stream_hook", v->fw_drop_pre_stream);
        put(a, "firewall.drop_reason.flow_drop", v->fw_drop_flow);
    }
    /* Suricata has no such counters: what detection keeps and what its prefilter did */
    put(a, OSPREY_ONLY "detect.memuse", w->detect_memuse);
    put(a, OSPREY_ONLY "detect.memuse_peak", w->detect_memuse_peak);
    put(a, OSPREY_ONLY "detect.prefilter.scans", w->pf_scans);
    put(a, OSPREY_ONLY "detect.prefilter.bytes", w->pf_bytes);
    put(a, OSPREY_ONLY "detect.prefilter.raised", w->pf_raised);
    put(a, OSPREY_ONLY "detect.prefilter.wrong_ports", w->pf_unwanted);
    put(a, OSPREY_ONLY "detect.prefilter.header_checks", w->pf_header_checks);
    put(a, OSPREY_ONLY "detect.prefilter.header_passed", w->pf_header_passed);
    put(a, OSPREY_ONLY "detect.pcre.gave_up", w->pcre_gave_up); /* pcre.match-limit */
}

/* A sink's own counter (osprey_output_def.counters): osprey.output.<sink>.<name>. */
struct sink_put {
    struct acc *a;
    const char *sink;
};

static void put_sink(void *ctx, const char *counter, uint64_t v)
{
    struct sink_put *sp = ctx;
    char name[96];
    snprintf(name, sizeof name, OSPREY_ONLY "output.%s.%s", sp->sink, counter);
    put(sp->a, name, v);
}

/* Room for the sinks' own counters (a few per transport) beside the workers'. */
#define SINK_COUNTERS 64

void osprey_emit_stats(struct osprey_emit *e, const struct osprey_stats_src *src, int n)
{
    if (!(e->takes & OSPREY_REC_STATS))
        return;
    /* the flows that ended before this record are written before it, and counted */
    osprey_flow_writer_drain(e->fw);
    if (e->now_s)
        e->t_last_stats = e->now_s();
    size_t tables = e->stats_threads ? (size_t)n + 1 : 1;
    struct acc a = {.cap = WORKER_COUNTERS * tables + SINK_COUNTERS, .prefix = ""};
    a.st = calloc(a.cap, sizeof *a.st);
    a.names = calloc(a.cap, sizeof *a.names);
    struct osprey_stats_rec rec = {.uptime_s = (uint64_t)(e->t_last_stats - e->t_open)};
    if (a.st && a.names) { /* else rec.st stays NULL: the sinks count a lost record */
        for (int i = 0; i < n; i++)
            worker_stats(&a, &src[i]);
        if (e->fw) { /* Suricata's flow recycler counters */
            struct osprey_flow_writer_stats fs;
            osprey_flow_writer_stats(e->fw, &fs);
            put(&a, "flow.recycler.recycled", fs.recycled);
            put(&a, "flow.recycler.queue_max", fs.queue_max);
            put(&a, "flow.recycler.queue_avg", fs.queue_avg);
        }
        /* Suricata has no counters for its EVE transports: the sinks' go under osprey. */
        for (size_t i = 0; i < e->nsinks; i++)
            if (e->sinks[i].def->counters) {
                struct sink_put sp = {&a, e->sinks[i].def->name};
                e->sinks[i].def->counters(e->sinks[i].s, put_sink, &sp);
            }
        /* Suricata names its worker threads W#01, W#02 …; the same here, in worker order */
        char prefix[32];
        for (int i = 0; e->stats_threads && i < n; i++) {
            snprintf(prefix, sizeof prefix, "threads.W#%02d.", i + 1);
            a.prefix = prefix;
            worker_stats(&a, &src[i]);
        }
        rec.ts_us = osprey_clock_wall_us();
        rec.st = a.st;
        rec.n = a.n;
    }
    EMIT_EACH_SINK(e, OSPREY_REC_STATS, k)
        k->def->stats(k->s, &rec);
    free(a.st);
    free(a.names);
}
