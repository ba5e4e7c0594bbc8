/* test_config_api.c — the typed getters, map iteration and origins of osprey_config.
 *
 * `osprey --dump-config` (tests/program/test_config.py) covers parsing; this covers what the rest of
 * the code calls. argv[1], when given, is the shipped etc/osprey.yaml: it must load silently.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_config.h"
#include "unit.h"


struct seen {
    char names[64][32];
    char values[64][128];
    char files[64][32];
    size_t n;
};

static void collect(const char *key, const char *value, const char *file, int line, void *arg)
{
    struct seen *s = arg;
    (void)line;
    if (s->n < 64) {
        snprintf(s->names[s->n], sizeof s->names[0], "%s", key);
        snprintf(s->values[s->n], sizeof s->values[0], "%s", value);
        snprintf(s->files[s->n], sizeof s->files[0], "%s", file);
        s->n++;
    }
}

static void test_defaults_and_sets(void)
{
    const char *sets[] = {
        "flow.memcap=1gb",
        "defrag.timeout=2m",
        "decoder.vxlan.enabled=off",
        "pcap-file.checksum-checks=NO",
        "vars.address-groups.HOME_NET=[10.0.0.0/8]",
        "vars.address-groups.MY_NET=1.2.3.4",
        "host-os-policy.windows=[10.1.0.0/16, 10.2.0.0/16]",
    };
    struct osprey_config *cfg;
    char buf[64];
    CHECK(osprey_config_load(&cfg, NULL, sets, sizeof sets / sizeof sets[0], stderr) == 0);

    CHECK(osprey_config_size(cfg, "flow.memcap") == 1ull << 30);
    CHECK(osprey_config_size(cfg, "defrag.memcap") == 32ull << 20);
    CHECK(osprey_config_seconds(cfg, "defrag.timeout") == 120.0);
    CHECK(osprey_config_seconds(cfg, "flow-timeouts.tcp.established") == 600.0);
    CHECK(osprey_config_int(cfg, "decoder.max-layers") == 8);
    CHECK(osprey_config_int(cfg, "flow.hash-seed") == 0);
    CHECK(!osprey_config_bool(cfg, "decoder.vxlan.enabled"));
    CHECK(osprey_config_bool(cfg, "decoder.teredo.enabled"));
    CHECK(!strcmp(osprey_config_str(cfg, "pcap-file.checksum-checks"), "no"));
    CHECK(!strcmp(osprey_config_str(cfg, "host-os-policy.default"), "bsd"));
    CHECK(!strcmp(osprey_config_str(cfg, "default-log-dir"), "/var/log/osprey/"));
    CHECK(!strcmp(osprey_config_str(cfg, "vars.address-groups.HOME_NET"), "[10.0.0.0/8]"));
    CHECK(!strcmp(osprey_config_str(cfg, "vars.port-groups.SSH_PORTS"), "22"));
    CHECK(osprey_config_str(cfg, "vars.address-groups.NOPE") == NULL);

    size_t n;
    const char *const *items = osprey_config_list(cfg, "host-os-policy.windows", &n);
    CHECK(n == 2 && !strcmp(items[0], "10.1.0.0/16") && !strcmp(items[1], "10.2.0.0/16"));
    items = osprey_config_list(cfg, "host-os-policy.linux", &n);
    CHECK(n == 0 && items != NULL);
    CHECK(!strcmp(osprey_config_str(cfg, "host-os-policy.windows"), "[10.1.0.0/16, 10.2.0.0/16]"));

    CHECK(!strcmp(osprey_config_origin(cfg, "flow.memcap", buf, sizeof buf), "--set"));
    CHECK(!strcmp(osprey_config_origin(cfg, "flow.prealloc", buf, sizeof buf), "default"));
    CHECK(osprey_config_origin(cfg, "vars.address-groups.NOPE", buf, sizeof buf) == NULL);

    struct seen s = {0};
    CHECK(osprey_config_each(cfg, "vars.address-groups", collect, &s) == 17);
    CHECK(s.n == 17 && !strcmp(s.names[0], "HOME_NET") && !strcmp(s.values[0], "[10.0.0.0/8]"));
    CHECK(!strcmp(s.files[0], "--set") && !strcmp(s.files[1], "default"));
    CHECK(!strcmp(s.names[16], "MY_NET") && !strcmp(s.values[16], "1.2.3.4"));

    memset(&s, 0, sizeof s);
    CHECK(osprey_config_each(cfg, "host-os-policy", collect, &s) == 1);
    CHECK(!strcmp(s.names[0], "windows"));
    osprey_config_free(cfg);
}

static void test_file(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&text, &len);
    struct osprey_config *cfg;
    char buf[4096];
    CHECK(osprey_config_load(&cfg, path, NULL, 0, diag) == 0);
    fclose(diag);
    CHECK(len == 0);
    if (len)
        fprintf(stderr, "diagnostics from %s:\n%s", path, text);
    free(text);
    if (!cfg)
        return;
    CHECK(osprey_config_size(cfg, "flow.memcap") == 128ull << 20);
    const char *o = osprey_config_origin(cfg, "flow.memcap", buf, sizeof buf);
    CHECK(o && strncmp(o, path, strlen(path)) == 0 && o[strlen(path)] == ':');
    osprey_config_free(cfg);
}

static void test_failure_returns_nothing(void)
{
    const char *sets[] = {"flow.memcap=lots"};
    struct osprey_config *cfg = (struct osprey_config *)1;
    FILE *diag = fopen("/dev/null", "w");
    CHECK(osprey_config_load(&cfg, NULL, sets, 1, diag) == -1);
    CHECK(cfg == NULL);
    fclose(diag);
}

int main(int argc, char **argv)
{
    test_defaults_and_sets();
    test_failure_returns_nothing();
    if (argc > 1)
        test_file(argv[1]);
    return unit_report("test_config_api");
}
