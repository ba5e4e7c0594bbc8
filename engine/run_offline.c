/* run_offline.c — `osprey -r FILE|DIR`: read captures through libmon with the compiled rules
 * and write LOGDIR/eve.json, then print a summary.
 *
 * --runmode single: one worker on this thread. --runmode workers: threading.workers workers
 * (0 = one per CPU), fed by a reader thread that splits the frames by a symmetric hash of
 * their outermost IP address pair (workers.c); the alerts are the same as in single mode.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "mon.h"
#include "mon_io.h"
#include "osprey_config.h"
#include "osprey_detect.h"
#include "osprey_outputs.h"
#include "run_offline.h"
#include "stack_config.h"
#include "workers.h"

/* One per worker: its detection state and the eve.json they all share. */
struct offline {
    FILE *eve;
    struct osprey_detect_worker *w;
    uint64_t write_errors;
    bool shared; /* several workers write eve: each record is written under the FILE lock */
};

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

static void on_alert(const struct osprey_alert *a, void *arg)
{
    struct offline *o = arg;
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
    struct osprey_eve_alert e = {
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
        e.has_flow = true;
        e.flow.pkts_toserver = f->pkts[MON_FLOW_TO_SERVER];
        e.flow.pkts_toclient = f->pkts[MON_FLOW_TO_CLIENT];
        e.flow.bytes_toserver = f->bytes[MON_FLOW_TO_SERVER];
        e.flow.bytes_toclient = f->bytes[MON_FLOW_TO_CLIENT];
        e.flow.start_us = f->first_us;
        e.flow.src_ip = fsrc;
        e.flow.dest_ip = fdst;
        e.flow.src_port = ports ? f->cport : -1;
        e.flow.dest_port = ports ? f->sport : -1;
    }
    if (o->shared)
        flockfile(o->eve); /* one whole line at a time, whichever worker writes */
    if (osprey_eve_alert_write(o->eve, &e) < 0)
        o->write_errors++;
    if (o->shared)
        funlockfile(o->eve);
}

static void on_flow_end(struct mon_flow *f, void *arg)
{
    struct offline *o = arg;
    osprey_detect_flow_end(o->w, f);
}

static int is_capture_name(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

/* The captures to read: FILE, or the files of DIR in name order. */
static int capture_list(const char *path, char ***out, int *n)
{
    struct stat st;
    *out = NULL;
    *n = 0;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "osprey: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        *out = malloc(sizeof **out);
        if (!*out || !((*out)[0] = strdup(path)))
            return -1;
        *n = 1;
        return 0;
    }
    struct dirent **ents;
    int k = scandir(path, &ents, is_capture_name, alphasort);
    if (k < 0) {
        fprintf(stderr, "osprey: %s: %s\n", path, strerror(errno));
        return -1;
    }
    *out = calloc((size_t)k + 1, sizeof **out);
    for (int i = 0; i < k; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, ents[i]->d_name);
        if (*out && stat(full, &st) == 0 && S_ISREG(st.st_mode))
            (*out)[(*n)++] = strdup(full);
        free(ents[i]);
    }
    free(ents);
    if (*n == 0) {
        fprintf(stderr, "osprey: %s: no capture files in the directory\n", path);
        return -1;
    }
    return *out ? 0 : -1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Read every capture; returns 0, or -1 after a read error (the rest is still read). */
static int read_captures(struct mon_ctx *ctx, char **files, int nfiles, uint64_t *pkts,
                         uint64_t *bytes)
{
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    if (!batch)
        return -1;
    int rc = 0;
    uint64_t num = 0, seen_bytes = 0;
    /* On a terminal, a large capture shows its progress on stderr about once a second. */
    bool progress = isatty(STDERR_FILENO);
    double last = now_s();
    for (int i = 0; i < nfiles; i++) {
        char err[512];
        struct mon_source *src = mon_source_open_file(files[i], err, sizeof err);
        if (!src) {
            fprintf(stderr, "osprey: %s\n", err);
            rc = -1;
            continue;
        }
        int n;
        while ((n = mon_source_read(src, batch, MON_IO_BATCH)) > 0) {
            for (int k = 0; k < n; k++) {
                batch[k].num = ++num; /* pcap_cnt runs on across the files of a directory */
                seen_bytes += batch[k].caplen;
                mon_process(ctx, &batch[k]);
            }
            if (progress && (num & 0xfff) < (uint64_t)n && now_s() - last >= 1.0) {
                last = now_s();
                fprintf(stderr, "\rosprey: file %d/%d, %llu packets, %.1f MB read", i + 1, nfiles,
                        (unsigned long long)num, (double)seen_bytes / 1e6);
                fflush(stderr);
            }
        }
        if (n < 0) {
            fprintf(stderr, "osprey: %s: read error: %s\n", files[i], src->err);
            rc = -1;
        }
        *bytes += src->bytes;
        mon_source_close(src);
    }
    if (progress)
        fprintf(stderr, "\r\033[K"); /* clear the progress line before the summary */
    *pkts = num;
    free(batch);
    return rc;
}

static int engine_for(const struct osprey_config *cfg, const struct osprey_options *opts,
                      struct mon_engine **eng, struct mon_decode_cfg *dcfg)
{
    struct osprey_stack_cfg sc;
    if (osprey_stack_cfg_load(cfg, &sc, stderr) != 0)
        return -1;
    struct mon_engine_cfg ecfg;
    osprey_stack_cfg_engine(&sc, opts ? opts->checksums : NULL, &ecfg);
    if (dcfg)
        *dcfg = ecfg.decode;
    *eng = mon_engine_create(&ecfg);
    osprey_stack_cfg_release(&sc); /* the engine copied the policy tables */
    if (!*eng)
        fprintf(stderr, "osprey: cannot create the stack (out of memory)\n");
    return *eng ? 0 : -1;
}

static int load_and_compile(const struct osprey_options *opts, const struct osprey_config *cfg,
                            struct mon_engine *eng, struct osprey_ruleset **rs,
                            struct osprey_detect **det)
{
    int lr = osprey_detect_load_rules(cfg, opts->rule_files, opts->nrule_files, stderr, rs);
    if (lr != 0) {
        if (lr > 0)
            fprintf(stderr, "osprey: the rules could not be loaded (see above)\n");
        return -1;
    }
    struct osprey_detect_opts dopts = {
        osprey_detect_stream_mpm_parse(osprey_config_str(cfg, "detect.stream-mpm"))};
    if (osprey_detect_build_opts(det, eng, *rs, stderr, &dopts) != 0)
        return -1;
    return 0;
}

/* Worker threads: 1 for --runmode single (the default), else threading.workers (0 = CPUs). */
static int worker_count(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    if (!opts->runmode || strcmp(opts->runmode, "workers") != 0)
        return 1;
    int64_t n = osprey_config_int(cfg, "threading.workers");
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? c : 1;
    }
    return n > 1024 ? 1024 : (int)n;
}

int osprey_run_offline(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    double t0 = now_s();
    int rc = OSPREY_EXIT_FAILURE;
    char **files = NULL;
    int nfiles = 0;
    struct mon_engine *eng = NULL;
    struct osprey_ruleset *rs = NULL;
    struct osprey_detect *det = NULL;
    struct mon_decode_cfg dcfg;
    FILE *eve = NULL;
    int nw = worker_count(opts, cfg);
    struct mon_ctx **ctx = calloc((size_t)nw, sizeof *ctx);
    struct offline *o = calloc((size_t)nw, sizeof *o);
    if (!ctx || !o) {
        fprintf(stderr, "osprey: out of memory\n");
        goto out;
    }
    if (capture_list(opts->read_path, &files, &nfiles) < 0)
        goto out;
    if (engine_for(cfg, opts, &eng, &dcfg) < 0 || load_and_compile(opts, cfg, eng, &rs, &det) < 0)
        goto out;
    double t_compiled = now_s();
    if (mon_engine_freeze(eng) != MON_OK)
        goto nomem;
    for (int i = 0; i < nw; i++)
        if (!(ctx[i] = mon_ctx_create(eng, i)))
            goto nomem;
    const char *dir = opts->log_dir ? opts->log_dir : osprey_config_str(cfg, "default-log-dir");
    char path[4096];
    snprintf(path, sizeof path, "%s/eve.json", dir);
    if (!(eve = fopen(path, "w"))) {
        fprintf(stderr, "osprey: %s: %s\n", path, strerror(errno));
        goto out;
    }
    for (int i = 0; i < nw; i++) {
        o[i].eve = eve;
        o[i].shared = nw > 1;
        if (!(o[i].w = osprey_detect_attach(det, ctx[i], on_alert, &o[i]))) {
            fprintf(stderr, "osprey: cannot attach the rules to the worker (out of memory)\n");
            goto out;
        }
        mon_set_flow_end_cb(ctx[i], on_flow_end, &o[i]);
    }
    uint64_t pkts = 0, bytes = 0;
    double t1 = now_s();
    int read_rc;
    if (nw == 1) {
        read_rc = read_captures(ctx[0], files, nfiles, &pkts, &bytes);
        mon_flush(ctx[0]);
    } else {
        read_rc = osprey_workers_run(ctx, nw, &dcfg, files, nfiles, &pkts, &bytes);
        if (read_rc == -2)
            goto out;
    }
    double t2 = now_s();
    uint64_t flows = 0, alerts = 0, write_errors = 0;
    for (int i = 0; i < nw; i++) {
        flows += mon_flow_stats(mon_ctx_flows(ctx[i]))->created;
        alerts += osprey_detect_worker_alerts(o[i].w);
        write_errors += o[i].write_errors;
    }
    const struct osprey_detect_stats *ds = osprey_detect_stats(det);
    double secs = t2 - t1 > 1e-9 ? t2 - t1 : 1e-9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("osprey: %llu packets, %llu flows, %llu alerts; rules: %u loaded, %u compiled, "
           "%u not compiled (load+compile %.1f ms)\n",
           (unsigned long long)pkts, (unsigned long long)flows, (unsigned long long)alerts,
           ds->rules, ds->compiled, ds->not_compiled, (t_compiled - t0) * 1e3);
    printf("osprey: %.3f s, %.0f packets/s, %.1f Mbit/s, peak memory %ld KiB; alerts in %s\n",
           secs, (double)pkts / secs, (double)bytes * 8 / secs / 1e6, ru.ru_maxrss, path);
    if (nw > 1)
        printf("osprey: %d workers\n", nw);
    rc = read_rc < 0 || write_errors ? OSPREY_EXIT_FAILURE : OSPREY_EXIT_OK;
    if (write_errors)
        fprintf(stderr, "osprey: %s: %llu alerts could not be written\n", path,
                (unsigned long long)write_errors);
    goto out;
nomem:
    fprintf(stderr, "osprey: cannot set up the stack (out of memory, or flow.memcap too "
                    "small?)\n");
out:
    for (int i = 0; ctx && o && i < nw; i++) {
        mon_ctx_destroy(ctx[i]); /* ends every flow: detection state goes through on_flow_end */
        osprey_detect_worker_free(o[i].w);
    }
    if (eve && fclose(eve) != 0) {
        fprintf(stderr, "osprey: eve.json: %s\n", strerror(errno));
        rc = OSPREY_EXIT_FAILURE;
    }
    free(ctx);
    free(o);
    osprey_detect_free(det);
    osprey_ruleset_free(rs);
    mon_engine_destroy(eng);
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    return rc;
}

int osprey_dump_chains(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct mon_engine *eng = NULL;
    struct osprey_ruleset *rs = NULL;
    struct osprey_detect *det = NULL;
    int rc = OSPREY_EXIT_FAILURE;
    if (engine_for(cfg, NULL, &eng, NULL) == 0 && load_and_compile(opts, cfg, eng, &rs, &det) == 0) {
        osprey_detect_dump_chains(det, stdout);
        rc = OSPREY_EXIT_OK;
    }
    osprey_detect_free(det);
    osprey_ruleset_free(rs);
    mon_engine_destroy(eng);
    return rc;
}
