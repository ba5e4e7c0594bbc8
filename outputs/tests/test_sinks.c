/* test_sinks.c — the table of output sinks (registry.c): every row keeps the contract of
 * osprey_output.h (unique config names, the entry points its takes() names), opens from the
 * defaults plus its enabled key, writes whole records and closes without losses. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"
#include "osprey_output.h"

static char dir[256];

static void test_rows(void)
{
    size_t n = 0;
    for (; osprey_output_sinks[n]; n++) {
        const struct osprey_output_def *d = osprey_output_sinks[n];
        CHECK(d->name && d->name[0]);
        CHECK(d->open && d->takes && d->reopen && d->lost && d->close);
        for (size_t k = 0; k < n; k++)
            CHECK(strcmp(osprey_output_sinks[k]->name, d->name) != 0);
    }
    CHECK(n >= 4); /* eve-log, fast, unified2-alert, pcap-log */
}

/* Open every sink with every record type on; its takes() bits have their entry points. */
static void test_open_all(void)
{
    const char *sets[] = {
        "outputs.pcap-log.enabled=yes",
        "outputs.eve-log.types=[alert, anomaly, flow, stats, http, dns, tls]",
        "classification-file=",
    };
    struct osprey_config *cfg = NULL;
    CHECK(osprey_config_load(&cfg, NULL, sets, 3, stderr) == 0);
    if (!cfg)
        return;
    for (size_t i = 0; osprey_output_sinks[i]; i++) {
        const struct osprey_output_def *d = osprey_output_sinks[i];
        char section[96];
        snprintf(section, sizeof section, "outputs.%s", d->name);
        /* the application record types the emitter hands over (the parsers' registry) */
        static const char *const app_types[] = {"http", "dns", "tls", NULL};
        struct osprey_output_env env = {.cfg = cfg, .section = section, .log_dir = dir,
                                        .app_types = app_types};
        void *s = d->open(&env, stderr);
        CHECK(s != NULL);
        if (!s)
            continue;
        unsigned t = d->takes(s);
        CHECK(t != 0);
        CHECK(!(t & OSPREY_REC_ALERT) || d->alert);
        CHECK(!(t & OSPREY_REC_TX) || (d->tx && d->takes_tx));
        CHECK(!(t & OSPREY_REC_FLOW) || d->flow);
        CHECK(!(t & OSPREY_REC_ANOMALY) || d->anomaly);
        CHECK(!(t & (OSPREY_REC_PACKET | OSPREY_REC_TAGGED)) || d->packet);
        CHECK(!(t & OSPREY_REC_STATS) || d->stats);
        if (!strcmp(d->name, "eve-log")) {
            CHECK(d->takes_tx(s, "dns") && !d->takes_tx(s, "smtp"));
            CHECK(d->path && strstr(d->path(s), "/eve.json") != NULL);
        }
        CHECK(d->reopen(s, stderr) == 0);
        CHECK_EQ_U(d->lost(s), 0);
        CHECK(d->close(s, stderr) == 0);
    }
    osprey_config_free(cfg);
}

/* A sink that cannot open its file says why and returns NULL. */
static void test_open_fails(void)
{
    struct osprey_config *cfg = NULL;
    CHECK(osprey_config_load(&cfg, NULL, NULL, 0, stderr) == 0);
    if (!cfg)
        return;
    struct osprey_output_env env = {.cfg = cfg, .section = "outputs.fast",
                                    .log_dir = "/nonexistent-osprey-dir"};
    char *msg = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&msg, &len);
    for (size_t i = 0; osprey_output_sinks[i]; i++)
        if (!strcmp(osprey_output_sinks[i]->name, "fast"))
            CHECK(osprey_output_sinks[i]->open(&env, diag) == NULL);
    fclose(diag);
    CHECK(msg && strstr(msg, "osprey: cannot open output /nonexistent-osprey-dir/fast.log") != NULL);
    free(msg);
    osprey_config_free(cfg);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/osprey-test-sinks-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    test_rows();
    test_open_all();
    test_open_fails();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return unit_report("test_sinks");
}
