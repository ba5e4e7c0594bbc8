/* osprey-trace — run libmon's packet path over a capture and show what it saw:
 * one JSON line per flow as it ends, optionally one per packet, and a final stats line. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "mon_decode.h"
#include "mon_defrag.h"
#include "mon_flow.h"
#include "mon_io.h"
#include "osprey_config.h"
#include "stack_config.h"

#define MAX_SETS 64

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
            "      --no-defrag     do not reassemble IP fragments\n"
            "  -h, --help          this text\n");
}

static void on_flow_end(struct mon_flow *f, void *arg)
{
    trace_emit((FILE *)arg, trace_flow_json(f));
}

int main(int argc, char **argv)
{
    const char *file = NULL, *config_path = NULL, *csum = NULL;
    const char *sets[MAX_SETS];
    int nsets = 0;
    bool packets = false, hex = false, defrag_on = true;
    enum { OPT_SET = 256, OPT_PACKETS, OPT_HEX, OPT_NODEFRAG };
    static const struct option opts[] = {
        {"read", required_argument, NULL, 'r'},
        {"config", required_argument, NULL, 'c'},
        {"set", required_argument, NULL, OPT_SET},
        {"packets", no_argument, NULL, OPT_PACKETS},
        {"hex", no_argument, NULL, OPT_HEX},
        {"no-defrag", no_argument, NULL, OPT_NODEFRAG},
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
        case OPT_NODEFRAG: defrag_on = false; break;
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

    struct osprey_config *cfg;
    if (osprey_config_load(&cfg, config_path, sets, nsets, stderr) != 0)
        return 1;
    struct osprey_stack_cfg sc;
    if (osprey_stack_cfg_load(cfg, &sc, stderr) != 0) {
        osprey_config_free(cfg);
        return 1;
    }
    osprey_config_free(cfg);
    if (csum)
        sc.decode.checksum_mode = !strcmp(csum, "all") ? MON_CSUM_ALL : MON_CSUM_NONE;

    int rc = 1;
    char err[512];
    struct mon_source *src = NULL;
    struct mon_defrag *df = NULL;
    struct mon_flow_table *ft = NULL;
    struct mon_packet *batch = calloc(MON_IO_BATCH, sizeof *batch);
    if (!batch) {
        fprintf(stderr, "osprey-trace: out of memory\n");
        goto out;
    }
    src = mon_source_open_file(file, err, sizeof err);
    if (!src) {
        fprintf(stderr, "osprey-trace: %s\n", err);
        goto out;
    }
    if (defrag_on && !(df = mon_defrag_create(&sc.defrag))) {
        fprintf(stderr, "osprey-trace: cannot create the defrag table\n");
        goto out;
    }
    ft = mon_flow_table_create(&sc.flow, on_flow_end, stdout);
    if (!ft) {
        fprintf(stderr, "osprey-trace: cannot create the flow table (flow.memcap too small?)\n");
        goto out;
    }
    struct mon_decoder dec;
    mon_decoder_init(&dec, &sc.decode, df);

    int n;
    uint64_t now = 0;
    while ((n = mon_source_read(src, batch, MON_IO_BATCH)) > 0) {
        for (int i = 0; i < n; i++) {
            struct mon_packet *p = &batch[i];
            enum mon_decode_outcome o = mon_decode(&dec, p);
            if (packets)
                trace_emit(stdout, trace_packet_json(p, o, hex));
            if (o == MON_DEC_IP) {
                int dir;
                mon_flow_handle(ft, p, &dir);
            }
            if (p->ts_us > now)
                now = p->ts_us;
        }
        mon_flow_expire(ft, now);
        if (df)
            mon_defrag_expire(df, now, &dec.stats);
    }
    if (n < 0) {
        fprintf(stderr, "osprey-trace: %s: read error: %s\n", file, src->err);
        /* what was read so far is still reported below; the exit status says it failed */
    }
    mon_flow_flush(ft);
    trace_emit(stdout, trace_stats_json(&dec, df, ft, src->frames, src->bytes));
    rc = n < 0 ? 1 : 0;
out:
    mon_flow_table_destroy(ft);
    mon_defrag_destroy(df);
    mon_source_close(src);
    free(batch);
    osprey_stack_cfg_release(&sc);
    return rc;
}
