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
        "outputs.eve-log.types=[alert, anomaly, flow, stats, http, dns, tls, files]",
        "classification-file=",
        "outputs.file-store.enabled=yes",
    };
    struct osprey_config *cfg = NULL;
    CHECK(osprey_config_load(&cfg, NULL, sets, 4, stderr) == 0);
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
        CHECK(!(t & OSPREY_REC_FILE) || d->file);
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

/* file-store: a stored file's exact bytes under DIR/XX/SHA256, its fileinfo beside it; a file
 * not asked for (stored false) writes nothing. */
static void test_filestore(void)
{
    const char *sets[] = {"outputs.file-store.enabled=yes", "outputs.file-store.write-fileinfo=yes",
                          "classification-file="};
    struct osprey_config *cfg = NULL;
    CHECK(osprey_config_load(&cfg, NULL, sets, 3, stderr) == 0);
    if (!cfg)
        return;
    const struct osprey_output_def *d = NULL;
    for (size_t i = 0; osprey_output_sinks[i]; i++)
        if (!strcmp(osprey_output_sinks[i]->name, "file-store"))
            d = osprey_output_sinks[i];
    CHECK(d != NULL);
    struct osprey_output_env env = {.cfg = cfg, .section = "outputs.file-store", .log_dir = dir};
    void *s = d ? d->open(&env, stderr) : NULL;
    CHECK(s != NULL);
    if (!s) {
        osprey_config_free(cfg);
        return;
    }
    static const char SHA[] = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
    struct osprey_eve_file f = {.ts_us = 1700000000ull * 1000000, .src_ip = "10.0.0.2",
                                .dest_ip = "10.0.0.1", .src_port = 80, .dest_port = 1234,
                                .proto = "TCP", .filename = (const uint8_t *)"/hello",
                                .filename_len = 6, .state = "CLOSED", .sha256 = SHA,
                                .stored = true, .file_id = 7, .size = 5, .store = true,
                                .data = (const uint8_t *)"hello", .data_len = 5};
    d->file(s, &f);
    struct osprey_eve_file g = f;
    g.stored = false;
    g.sha256 = "00" "24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
    d->file(s, &g);
    CHECK_EQ_U(d->lost(s), 0);
    CHECK(d->close(s, stderr) == 0);
    char path[600], buf[64] = "";
    snprintf(path, sizeof path, "%s/filestore/2c/%s", dir, SHA);
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    size_t n = fp ? fread(buf, 1, sizeof buf, fp) : 0;
    if (fp)
        fclose(fp);
    CHECK(n == 5 && !memcmp(buf, "hello", 5));
    snprintf(path, sizeof path, "%s/filestore/2c/%s.1700000000.7.json", dir, SHA);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size > 0);
    snprintf(path, sizeof path, "%s/filestore/00", dir);
    CHECK(stat(path, &st) != 0); /* not asked for: nothing written */
    osprey_config_free(cfg);
}

/* eve-log takes the packets' anomaly records only when it writes decode or stream ones:
 * with Suricata's default types (applayer alone) no packet's notes are formatted. */
static void test_eve_anomaly_types(void)
{
    const struct osprey_output_def *eve = NULL;
    for (size_t i = 0; osprey_output_sinks[i]; i++)
        if (!strcmp(osprey_output_sinks[i]->name, "eve-log"))
            eve = osprey_output_sinks[i];
    CHECK(eve != NULL);
    if (!eve)
        return;
    struct {
        const char *set;
        bool takes;
    } cases[] = {
        {"outputs.eve-log.anomaly.types.applayer=yes", false},
        {"outputs.eve-log.anomaly.types.decode=yes", true},
        {"outputs.eve-log.anomaly.types.stream=yes", true},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *sets[] = {"outputs.eve-log.types=[alert, anomaly]", cases[c].set,
                              "classification-file="};
        struct osprey_config *cfg = NULL;
        CHECK(osprey_config_load(&cfg, NULL, sets, 3, stderr) == 0);
        if (!cfg)
            continue;
        struct osprey_output_env env = {.cfg = cfg, .section = "outputs.eve-log", .log_dir = dir};
        void *s = eve->open(&env, stderr);
        CHECK(s != NULL);
        if (s) {
            CHECK(((eve->takes(s) & OSPREY_REC_ANOMALY) != 0) == cases[c].takes);
            CHECK(eve->close(s, stderr) == 0);
        }
        osprey_config_free(cfg);
    }
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/osprey-test-sinks-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    test_rows();
    test_open_all();
    test_eve_anomaly_types();
    test_open_fails();
    test_filestore();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return unit_report("test_sinks");
}
