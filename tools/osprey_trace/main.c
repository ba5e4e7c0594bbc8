/* osprey-trace — run libmon over a capture and show what it saw: one JSON line per flow as
 * it ends, optionally one per packet (--packets) and one per event (--events), each side's
 * reassembled stream written to files (--streams DIR), and a final stats line. It uses only
 * libmon's public API: it is also an example of a libmon application. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app_out.h"
#include "flow_record.h"
#include "json_out.h"
#include "mon.h"
#include "mon_io.h"
#include "osprey_config.h"
#include "parsers_config.h"
#include "stack_config.h"

#define MAX_SETS 64

struct trace {
    FILE *out;
    const char *streams_dir;
    uint64_t stream_errors;
    struct trace_app *app;     /* --app: the app-layer parsers */
    struct mon_ctx *ctx;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: osprey-trace -r FILE [options]\n"
            "  -r, --read FILE     pcap or pcapng capture to read\n"
            "  -c, --config FILE   osprey.yaml to use (default: built-in defaults)\n"
            "      --set KEY=VAL   override a config key (repeatable)\n"
            "  -k none|all         checksum validation (overrides pcap-file.checksum-checks)\n"
            "      --packets       one JSON line per packet (layers, addresses, anomaly)\n"
            "      --hex           with --packets: add each packet's payload as hex\n"
            "      --events        one JSON line per libmon event (time, flow, side, event,\n"
            "                      both TCP states)\n"
            "      --streams DIR   write each flow side's reassembled bytes to\n"
            "                      DIR/<flow_id>.toserver and DIR/<flow_id>.toclient\n"
            "      --policy NAME   TCP overlap policy for every host (first, last, bsd, linux,\n"
            "                      windows, solaris); default: host-os-policy\n"
            "      --no-defrag     do not reassemble IP fragments\n"
            "      --app           run the app-layer parsers (HTTP, DNS, TLS): one JSON line\n"
            "                      per app event with its buffers, app_proto in flow records\n"
            "  -h, --help          this text\n");
}

static void on_flow_end(struct mon_flow *f, void *arg)
{
    struct trace *t = arg;
    /* the same flow record as osprey's eve.json (engine/emit/flow_record.c, outputs/eve_flow.c) */
    struct osprey_flow_text text;
    struct osprey_eve_flow r;
    osprey_flow_record(f, &text, &r);
    r.app_proto = trace_app_proto(t->app, t->ctx, f);
    r.app_proto_orig = trace_app_proto_orig(t->app, t->ctx, f);
    char *line = osprey_eve_flow_line(&r);
    if (line) {
        fputs(line, t->out);
        free(line);
    }
}

static void on_event(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    struct trace *t = arg;
    const struct mon_packet *p = mon_getlastpkt(ctx);
    if (p && (p->flags & MON_PKT_PSEUDO))
        p = NULL; /* a flow's end: no packet of the capture */
    trace_emit(t->out, trace_event_json(p, f, side, ev));
}

static void append(struct trace *t, const char *path, const void *buf, size_t n)
{
    FILE *fp = fopen(path, "ab");
    if (!fp || fwrite(buf, 1, n, fp) != n) {
        fprintf(stderr, "osprey-trace: %s: %s\n", path, strerror(errno));
        t->stream_errors++;
    }
    if (fp)
        fclose(fp);
}

/* New in-order bytes on one side: read them all and append them to that side's file. */
static void on_new_data(struct mon_ctx *ctx, struct mon_flow *f, int side, mon_event_t ev, void *arg)
{
    (void)ev;
    struct trace *t = arg;
    char path[4096];
    snprintf(path, sizeof path, "%s/%llu.%s", t->streams_dir, (unsigned long long)f->id,
             side == MON_SIDE_SVR ? "toserver" : "toclient");
    uint8_t buf[16384];
    for (;;) {
        ssize_t n = mon_peek(ctx, f, side, buf, sizeof buf);
        if (n == MON_EOVERWRITTEN) {
            fprintf(stderr, "osprey-trace: flow %llu %s: buffer outrun, bytes lost\n",
                    (unsigned long long)f->id, side == MON_SIDE_SVR ? "toserver" : "toclient");
            continue; /* the read pointer moved to the oldest byte still held */
        }
        if (n <= 0)
            break;
        append(t, path, buf, (size_t)n);
    }
}

static int watch(struct mon_ctx *ctx, struct mon_sock *s, struct trace *t, bool events, bool streams)
{
    int rc = MON_OK;
    if (events) {
        for (mon_event_t e = 0; e < MON_EV_BUILTIN_COUNT && rc == MON_OK; e++) {
            rc = mon_register(ctx, s, e, MON_HK_SND, on_event, t);
            /* a state change is reported in both phases: the sender's, then the receiver's */
            if (rc == MON_OK && e == MON_ON_TCP_STATE_CHANGE)
                rc = mon_register(ctx, s, e, MON_HK_RCV, on_event, t);
        }
    }
    if (streams && rc == MON_OK)
        rc = mon_register(ctx, s, MON_ON_CONN_NEW_DATA, MON_HK_RCV, on_new_data, t);
    if (rc != MON_OK)
        fprintf(stderr, "osprey-trace: registering handlers: %s (%s)\n", mon_strerror(rc),
                mon_errmsg(ctx));
    return rc;
}

int main(int argc, char **argv)
{
    const char *file = NULL, *config_path = NULL, *csum = NULL, *policy = NULL;
    const char *sets[MAX_SETS];
    int nsets = 0;
    bool packets = false, hex = false, defrag_on = true, events = false, app = false;
    struct trace t = {stdout, NULL, 0, NULL, NULL};
    enum { OPT_SET = 256, OPT_PACKETS, OPT_HEX, OPT_NODEFRAG, OPT_EVENTS, OPT_STREAMS, OPT_POLICY,
           OPT_APP };
    static const struct option opts[] = {
        {"read", required_argument, NULL, 'r'},
        {"config", required_argument, NULL, 'c'},
        {"set", required_argument, NULL, OPT_SET},
        {"packets", no_argument, NULL, OPT_PACKETS},
        {"hex", no_argument, NULL, OPT_HEX},
        {"events", no_argument, NULL, OPT_EVENTS},
        {"streams", required_argument, NULL, OPT_STREAMS},
        {"policy", required_argument, NULL, OPT_POLICY},
        {"no-defrag", no_argument, NULL, OPT_NODEFRAG},
        {"app", no_argument, NULL, OPT_APP},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "r:c:k:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': file = optarg; break;
        case 'c': config_path = optarg; break;
        case 'k': csum = optarg; break;
        case OPT_SET:
            if (nsets == MAX_SETS) {
                fprintf(stderr, "osprey-trace: too many --set options (max %d)\n", MAX_SETS);
                return 2;
            }
            sets[nsets++] = optarg;
            break;
        case OPT_PACKETS: packets = true; break;
        case OPT_HEX: hex = true; break;
        case OPT_EVENTS: events = true; break;
        case OPT_STREAMS: t.streams_dir = optarg; break;
        case OPT_POLICY: policy = optarg; break;
        case OPT_NODEFRAG: defrag_on = false; break;
        case OPT_APP: app = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!file || optind != argc) {
        usage(stderr);
        return 2;
    }
    if (csum && strcmp(csum, "none") && strcmp(csum, "all")) {
        fprintf(stderr, "osprey-trace: -k takes 'none' or 'all', not '%s'\n", csum);
        return 2;
    }
    enum mon_overlap_policy pol = MON_POLICY_BSD;
    if (policy && mon_policy_from_name(policy, &pol) != 0) {
        fprintf(stderr, "osprey-trace: --policy: unknown policy '%s'\n", policy);
        return 2;
    }
    if (t.streams_dir && mkdir(t.streams_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "osprey-trace: --streams %s: %s\n", t.streams_dir, strerror(errno));
        return 1;
    }

    struct osprey_config *cfg;
    if (osprey_config_load(&cfg, config_path, sets, nsets, stderr) != 0)
        return 1;
    struct osprey_stack_cfg sc;
    int sc_rc = osprey_stack_cfg_load(cfg, &sc, stderr);
    /* streams as they arrive unless stream.inline: no asks for ack delivery (auto: inline) */
    osprey_stack_cfg_delivery(&sc, cfg, true);
    struct osprey_parsers_cfg pcfg;
    if (sc_rc == 0 && osprey_parsers_cfg_load(cfg, &pcfg, stderr) != 0) {
        osprey_stack_cfg_release(&sc);
        sc_rc = 1;
    }
    osprey_config_free(cfg);
    if (sc_rc != 0)
        return 1;

    struct mon_engine_cfg ecfg;
    osprey_stack_cfg_engine(&sc, csum, &ecfg);
    if (policy) {
        ecfg.tcp.policy.dflt = pol;
        ecfg.tcp.policy.n = 0; /* one policy for every host */
    }
    ecfg.defrag_off = !defrag_on;

    int rc = 1;
    char err[512];
    struct mon_engine *eng = mon_engine_create(&ecfg);
    osprey_stack_cfg_release(&sc); /* the engine copied the policy tables */
    struct mon_ctx *ctx = NULL;
    struct mon_source *src = NULL;
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    if (eng && app && !(t.app = trace_app_define(eng, &pcfg, stdout)))
        goto out;
    if (!eng || !batch || mon_engine_freeze(eng) != MON_OK || !(ctx = mon_ctx_create(eng, 0))) {
        fprintf(stderr, "osprey-trace: cannot set up the stack (out of memory, or flow.memcap "
                        "too small?)\n");
        goto out;
    }
    t.ctx = ctx;
    mon_set_flow_end_cb(ctx, on_flow_end, &t);
    if (t.app && trace_app_attach(t.app, ctx) != 0) {
        fprintf(stderr, "osprey-trace: cannot attach the app-layer parsers: %s\n", mon_errmsg(ctx));
        goto out;
    }
    if (events || t.streams_dir) {
        struct mon_sock *s = mon_socket(ctx, MON_SOCK_STREAM, NULL);
        if (!s || watch(ctx, s, &t, events, t.streams_dir != NULL) != MON_OK)
            goto out;
    }
    src = mon_source_open_file(file, err, sizeof err);
    if (!src) {
        fprintf(stderr, "osprey-trace: %s\n", err);
        goto out;
    }

    int n;
    while ((n = mon_source_read(src, batch, MON_IO_BATCH)) > 0) {
        for (int i = 0; i < n; i++) {
            enum mon_decode_outcome o = mon_process(ctx, &batch[i]);
            if (packets)
                trace_emit(stdout, trace_packet_json(&batch[i], o, hex));
        }
    }
    if (n < 0) {
        fprintf(stderr, "osprey-trace: %s: read error: %s\n", file, src->err);
        /* what was read so far is still reported below; the exit status says it failed */
    }
    mon_flush(ctx);
    json_t *stats = trace_stats_json(ctx, src->frames, src->bytes);
    json_t *inner = json_object_get(stats, "stats");
    if (t.app && inner)
        json_object_set_new(inner, "app_layer", trace_app_stats_json(t.app));
    trace_emit(stdout, stats);
    rc = (n < 0 || t.stream_errors) ? 1 : 0;
out:
    mon_source_close(src);
    mon_ctx_destroy(ctx);
    trace_app_free(t.app);
    mon_engine_destroy(eng);
    free(batch);
    return rc;
}
