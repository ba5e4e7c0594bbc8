/* fuzz_pipeline.c — libFuzzer target: the whole `osprey -r` path on a capture file.
 *
 * Input: a pcap or pcapng file (the capture reader is fuzzed too). Once, at start-up, a
 * pipeline is opened as `osprey -r` opens it: the shipped etc/osprey.yaml, a real rule set
 * (OSPREY_FUZZ_RULES, a file of ET Open rules tools/fuzz/pipeline_rules.sh picks, using many
 * keywords and the HTTP/DNS/TLS buffers), every EVE record type on (alert, anomaly, flow,
 * http, dns, tls, files …) written to /dev/null, so the record builders run on whatever the
 * parsers made of the input. Each input is read through mon_source_open_file (from a memfd)
 * in batches into the one worker (osprey_worker_packet: decode, flows, reassembly, parsers,
 * detection, outputs), then flushed: every flow ends, so inputs are independent. The
 * sanitizers do the checking. Run it with tools/fuzz/run.sh pipeline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mon_io.h"
#include "pipeline.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct osprey_options opts;
static struct osprey_config *cfg;
static struct osprey_pipeline pl;
static int memfd = -1;
static char mempath[64];

static void close_all(void)
{
    osprey_pipeline_close(&pl);
    osprey_config_free(cfg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char *rules[1];
    rules[0] = getenv("OSPREY_FUZZ_RULES");
    if (!rules[0] || !*rules[0])
        rules[0] = OSPREY_SOURCE_DIR "/etc/rules/osprey-demo.rules";
    static char logdir[] = "/tmp/osprey-fuzz-pipeline-XXXXXX";
    if (!mkdtemp(logdir)) {
        perror("fuzz-pipeline: mkdtemp");
        exit(1);
    }
    static const char *sets[] = {
        "outputs.eve-log.filename=/dev/null",
        "outputs.eve-log.types=[alert,anomaly,flow,stats,http,dns,tls,files,smtp,ftp,sip,"
        "mqtt,smb,dcerpc,krb5,ldap,snmp]",
        "outputs.fast.filename=/dev/null",
        "logging.outputs.console.enabled=no",
    };
    opts.rule_files = rules;
    opts.nrule_files = 1;
    opts.log_dir = logdir;
    opts.config_path = OSPREY_SOURCE_DIR "/etc/osprey.yaml";
    /* unknown --set keys (a type this build lacks) only warn: the load still succeeds */
    if (osprey_config_load(&cfg, opts.config_path, sets, (int)(sizeof sets / sizeof sets[0]),
                           stderr) != 0 ||
        osprey_pipeline_open(&pl, &opts, cfg, 1, NULL) != 0) {
        fprintf(stderr, "fuzz-pipeline: cannot open the pipeline (rules: %s)\n", rules[0]);
        exit(1);
    }
    atexit(close_all);
    memfd = memfd_create("fuzz-pipeline.pcap", 0);
    if (memfd < 0) {
        perror("fuzz-pipeline: memfd_create");
        exit(1);
    }
    snprintf(mempath, sizeof mempath, "/proc/self/fd/%d", memfd);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(memfd, 0) != 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
        return 0;
    char err[512];
    struct mon_source *src = mon_source_open_file(mempath, err, sizeof err);
    if (!src)
        return 0;
    struct osprey_worker *w = &pl.w[0];
    struct mon_packet batch[MON_IO_BATCH];
    int n;
    while ((n = mon_source_read(src, batch, MON_IO_BATCH)) > 0)
        for (int i = 0; i < n; i++)
            osprey_worker_packet(w, &batch[i]);
    osprey_worker_flush(w);
    mon_source_close(src);
    return 0;
}
