/* registry.c — the table of output sinks (osprey_output.h) and the helpers they share.
 * A new output is one file beside this one and one row below. */
#include <stdlib.h>
#include <string.h>

#include "osprey_output.h"

extern const struct osprey_output_def eve_out, fast_out, u2_out, pcap_out, filestore_out;

/* Order: the order in which a record reaches the sinks (and their lost-record messages). */
const struct osprey_output_def *const osprey_output_sinks[] = {
    &eve_out,
    &fast_out,
    &u2_out,
    &pcap_out,
    &filestore_out,
    NULL,
};

const char *osprey_output_key(const struct osprey_output_env *env, const char *key, char *buf,
                              size_t len)
{
    snprintf(buf, len, "%s.%s", env->section, key);
    return buf;
}

void osprey_output_path(const struct osprey_output_env *env, const char *name, char *buf,
                        size_t len)
{
    if (name[0] == '/')
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "%s/%s", env->log_dir, name);
}

struct osprey_log_file *osprey_output_log_open(const struct osprey_log_cfg *lc, FILE *diag)
{
    char err[4500];
    struct osprey_log_file *lf = osprey_log_open(lc, err, sizeof err);
    if (!lf)
        fprintf(diag, "osprey: cannot open output %s\n", err);
    return lf;
}

void osprey_output_line(struct osprey_log_file *lf, char *line)
{
    if (!line) {
        osprey_log_drop(lf, "out of memory");
        return;
    }
    osprey_log_write(lf, line, strlen(line));
    free(line);
}

int osprey_output_log_reopen(struct osprey_log_file *lf, FILE *diag)
{
    char err[4500];
    if (osprey_log_reopen(lf) == 0)
        return 0;
    fprintf(diag, "osprey: reopen: %s\n", osprey_log_error(lf, err, sizeof err));
    return -1;
}

int osprey_output_log_close(struct osprey_log_file *lf, FILE *diag)
{
    if (!lf)
        return 0;
    int rc = 0;
    osprey_log_flush(lf); /* a transport's queue is delivered, or counted as lost, first */
    uint64_t lost = osprey_log_lost(lf);
    if (lost) {
        char name[4300], err[4500];
        fprintf(diag, "osprey: %s: %llu records could not be written (%s)\n",
                osprey_log_current(lf, name, sizeof name), (unsigned long long)lost,
                osprey_log_error(lf, err, sizeof err));
        rc = -1;
    }
    osprey_log_close(lf);
    return rc;
}
