/* test_config_path.c — osprey_config_path/osprey_config_dir: a relative name written in a
 * config file is next to that file; defaults, --set values and absolute names are as written.
 * argv[1], when given, is the shipped etc/osprey.yaml: its tables must resolve beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osprey_config.h"
#include "unit.h"


#define STREQ(a, b) ((a) != NULL && strcmp((a), (b)) == 0)

static char dir[64];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static struct osprey_config *load(const char *path, const char *const *sets, int nsets)
{
    struct osprey_config *cfg = NULL;
    if (osprey_config_load(&cfg, path, sets, nsets, stderr) < 0) {
        fprintf(stderr, "cannot load %s\n", path ? path : "(defaults)");
        exit(2);
    }
    return cfg;
}

static void test_file_values_are_beside_the_file(void)
{
    char path[128], want[160], buf[256];
    snprintf(path, sizeof path, "%s/osprey.yaml", dir);
    write_file(path, "classification-file: classification.config\n"
                     "reference-config-file: sub/reference.config\n"
                     "threshold-file: /abs/threshold.config\n"
                     "default-rule-path: \"\"\n"
                     "rule-files: [a.rules]\n");
    struct osprey_config *cfg = load(path, NULL, 0);
    snprintf(want, sizeof want, "%s/classification.config", dir);
    CHECK(STREQ(osprey_config_path(cfg, "classification-file", buf, sizeof buf), want));
    snprintf(want, sizeof want, "%s/sub/reference.config", dir);
    CHECK(STREQ(osprey_config_path(cfg, "reference-config-file", buf, sizeof buf), want));
    CHECK(STREQ(osprey_config_path(cfg, "threshold-file", buf, sizeof buf),
                "/abs/threshold.config"));
    CHECK(STREQ(osprey_config_path(cfg, "default-rule-path", buf, sizeof buf), ""));
    CHECK(STREQ(osprey_config_dir(cfg, "rule-files", buf, sizeof buf), dir));
    /* a buffer too small for the joined name: NULL, never a truncated name */
    char tiny[8];
    CHECK(osprey_config_path(cfg, "classification-file", tiny, sizeof tiny) == NULL);
    /* the dump keeps the text as written */
    CHECK(STREQ(osprey_config_str(cfg, "classification-file"), "classification.config"));
    osprey_config_free(cfg);
}

/* A default is relative to the program's shipped configuration (osprey_config_home; the
 * pytest suite checks which directory that is for build/bin/osprey and an installed one); a
 * --set value stays as written (the working directory). */
static void test_defaults_and_sets_stay_as_written(void)
{
    char path[128], buf[256], home[4096], want[4200];
    CHECK(osprey_config_home(home, sizeof home) != NULL);
    snprintf(path, sizeof path, "%s/only-vars.yaml", dir);
    write_file(path, "vars:\n  address-groups:\n    HOME_NET: \"[10.0.0.0/8]\"\n");
    const char *sets[] = {"reference-config-file=my/reference.config"};
    struct osprey_config *cfg = load(path, sets, 1);
    snprintf(want, sizeof want, "%s/classification.config", home);
    CHECK(STREQ(osprey_config_path(cfg, "classification-file", buf, sizeof buf), want));
    CHECK(STREQ(osprey_config_path(cfg, "reference-config-file", buf, sizeof buf),
                "my/reference.config"));
    CHECK(osprey_config_dir(cfg, "classification-file", buf, sizeof buf) == NULL);
    CHECK(osprey_config_dir(cfg, "reference-config-file", buf, sizeof buf) == NULL);
    osprey_config_free(cfg);

    cfg = load(NULL, NULL, 0);
    snprintf(want, sizeof want, "%s/threshold.config", home);
    CHECK(STREQ(osprey_config_path(cfg, "threshold-file", buf, sizeof buf), want));
    /* no osprey.yaml beside this test program: nothing is read without -c */
    CHECK(osprey_config_default_file(buf, sizeof buf) == NULL);
    CHECK(osprey_config_dir(cfg, "rule-files", buf, sizeof buf) == NULL);
    osprey_config_free(cfg);
}

static void test_file_in_working_directory(void)
{
    char cwd[4096], buf[256];
    if (!getcwd(cwd, sizeof cwd) || chdir(dir) != 0) {
        perror("chdir");
        exit(2);
    }
    struct osprey_config *cfg = load("osprey.yaml", NULL, 0);
    CHECK(STREQ(osprey_config_path(cfg, "classification-file", buf, sizeof buf),
                "classification.config"));
    CHECK(STREQ(osprey_config_dir(cfg, "classification-file", buf, sizeof buf), ""));
    osprey_config_free(cfg);
    if (chdir(cwd) != 0)
        exit(2);
}

static void test_shipped(const char *shipped)
{
    char buf[4096], want[4096];
    struct osprey_config *cfg = load(shipped, NULL, 0);
    const char *slash = strrchr(shipped, '/');
    int n = slash ? (int)(slash - shipped) : 0;
    const char *keys[] = {"classification-file", "reference-config-file", "threshold-file"};
    const char *names[] = {"classification.config", "reference.config", "threshold.config"};
    for (int i = 0; i < 3; i++) {
        snprintf(want, sizeof want, "%.*s%s%s", n, shipped, n ? "/" : "", names[i]);
        const char *got = osprey_config_path(cfg, keys[i], buf, sizeof buf);
        CHECK(STREQ(got, want));
        CHECK(got && access(got, R_OK) == 0);
    }
    osprey_config_free(cfg);
}

int main(int argc, char **argv)
{
    snprintf(dir, sizeof dir, "/tmp/osprey-cfgpath-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_file_values_are_beside_the_file();
    test_defaults_and_sets_stay_as_written();
    test_file_in_working_directory();
    if (argc > 1)
        test_shipped(argv[1]);
    char path[128];
    const char *files[] = {"osprey.yaml", "only-vars.yaml"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
    return unit_report("test_config_path");
}
