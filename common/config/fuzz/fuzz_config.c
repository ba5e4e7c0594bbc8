/* fuzz_config.c — libFuzzer target: the YAML configuration loader (common/config).
 *
 * Input: a configuration file, then optionally a NUL byte and --set items separated by NUL
 * bytes ("a.b.c=value", at most 8). The file is loaded from a memfd with the items applied
 * (osprey_config_load); when it loads, every key of the schema is read back with its own
 * getter (bool, int, size, seconds, string, enum, list), as text, with its origin and as a
 * path, every user map is walked, and the whole configuration is dumped both ways
 * (--dump-config, Suricata's flat form). Messages go to /dev/null. The target is built from
 * the library's sources (config/*.c) so it can walk the private schema table. The sanitizers
 * do the checking. Run it with tools/fuzz/run.sh config.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config_schema.h"
#include "osprey_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;
static FILE *devnull;
static int memfd = -1;
static char mempath[64];

static void on_entry(const char *key, const char *value, const char *file, int line, void *arg)
{
    (void)arg;
    sink += strlen(key) + (value ? strlen(value) : 0) + (file ? strlen(file) : 0) + (unsigned)line;
}

/* Every key of the schema through its getter, its text, origin and path; every map walked. */
static void read_all(const struct osprey_config *cfg)
{
    size_t n;
    const struct cfg_key *k = cfg_schema(&n);
    char buf[4096];
    for (size_t i = 0; i < n; i++) {
        if (k[i].kind == CK_MAP) {
            size_t plen = strlen(k[i].path) - 2; /* without ".*" */
            char prefix[256];
            if (plen < sizeof prefix) {
                memcpy(prefix, k[i].path, plen);
                prefix[plen] = '\0';
                sink += osprey_config_each(cfg, prefix, on_entry, NULL);
            }
            continue;
        }
        const char *key = k[i].path;
        const char *t = osprey_config_text(cfg, key);
        sink += t ? strlen(t) : 0;
        const char *o = osprey_config_origin(cfg, key, buf, sizeof buf);
        sink += o ? strlen(o) : 0;
        if (k[i].kind == CK_ENTRY)
            continue; /* map entries have their map's type: text only */
        switch (k[i].type) {
        case CT_BOOL:
            sink += osprey_config_bool(cfg, key);
            break;
        case CT_INT:
            sink += (uint64_t)osprey_config_int(cfg, key);
            break;
        case CT_SIZE:
            sink += osprey_config_size(cfg, key);
            break;
        case CT_SECONDS:
            sink += (uint64_t)osprey_config_seconds(cfg, key);
            break;
        case CT_LIST: {
            size_t cnt = 0;
            const char *const *items = osprey_config_list(cfg, key, &cnt);
            for (size_t j = 0; items && j < cnt; j++)
                sink += strlen(items[j]);
        }
            /* fall through: a list reads as a string too */
        case CT_STRING:
        case CT_ENUM: {
            const char *s = osprey_config_str(cfg, key);
            sink += s ? strlen(s) : 0;
            if (k[i].type == CT_STRING) {
                const char *p = osprey_config_path(cfg, key, buf, sizeof buf);
                sink += p ? strlen(p) : 0;
                p = osprey_config_dir(cfg, key, buf, sizeof buf);
                sink += p ? strlen(p) : 0;
            }
            break;
        }
        }
    }
    osprey_config_dump(cfg, devnull);
    osprey_config_dump_flat(cfg, devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull) {
        devnull = fopen("/dev/null", "w");
        memfd = memfd_create("fuzz-config.yaml", 0);
        if (!devnull || memfd < 0)
            abort();
        snprintf(mempath, sizeof mempath, "/proc/self/fd/%d", memfd);
    }
    const uint8_t *nul = memchr(data, 0, size);
    size_t flen = nul ? (size_t)(nul - data) : size;
    if (ftruncate(memfd, 0) != 0 || pwrite(memfd, data, flen, 0) != (ssize_t)flen)
        return 0;
    /* the --set items, each a NUL-terminated copy */
    char *items = NULL;
    const char *sets[8];
    int nsets = 0;
    if (nul) {
        size_t rest = size - flen - 1;
        items = malloc(rest + 1);
        if (!items)
            return 0;
        memcpy(items, nul + 1, rest);
        items[rest] = '\0';
        for (char *s = items; nsets < 8 && s < items + rest + 1; s += strlen(s) + 1)
            sets[nsets++] = s;
    }
    struct osprey_config *cfg = NULL;
    if (osprey_config_load(&cfg, mempath, sets, nsets, devnull) == 0) {
        read_all(cfg);
        osprey_config_free(cfg);
    }
    free(items);
    return 0;
}
