/* files.c — the list of rule files: -S arguments, or rule-files under default-rule-path
 * (relative names in the config file are relative to that file: osprey_config_path). */
#include <stdlib.h>
#include <string.h>

#include "osprey_config.h"
#include "rules_files.h"

static char *join(const char *dir, const char *name)
{
    size_t dl = dir ? strlen(dir) : 0, nl = strlen(name);
    if (name[0] == '/' || dl == 0)
        return strdup(name);
    char *p = malloc(dl + nl + 2);
    if (p == NULL)
        return NULL;
    memcpy(p, dir, dl);
    size_t k = dl;
    if (dir[dl - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, nl + 1);
    return p;
}

int rules_file_list(struct rules_file_list *l, const struct osprey_config *cfg,
                    const char *const *files, int nfiles)
{
    l->n = 0;
    l->paths = NULL;
    size_t count = 0;
    const char *const *names = files;
    const char *dir = NULL;
    char dirbuf[4096];
    if (nfiles > 0) {
        count = (size_t)nfiles;
    } else if (cfg) {
        names = osprey_config_list(cfg, "rule-files", &count);
        /* default-rule-path, or when it is empty the directory of the file naming them */
        dir = osprey_config_path(cfg, "default-rule-path", dirbuf, sizeof dirbuf);
        if (dir == NULL) /* too long to join: the files then fail to open under its name */
            dir = osprey_config_str(cfg, "default-rule-path");
        if (dir && !dir[0])
            dir = osprey_config_dir(cfg, "rule-files", dirbuf, sizeof dirbuf);
    }
    if (count == 0)
        return 0;
    l->paths = calloc(count, sizeof *l->paths);
    if (l->paths == NULL)
        return -1;
    for (size_t i = 0; i < count; i++) {
        if ((l->paths[i] = join(dir, names[i])) == NULL) {
            rules_file_list_free(l);
            return -1;
        }
        l->n++;
    }
    return 0;
}

void rules_file_list_free(struct rules_file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
    l->paths = NULL;
    l->n = 0;
}
