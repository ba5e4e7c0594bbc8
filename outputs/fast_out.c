/* fast_out.c — the fast.log sink (outputs.fast): one Suricata fast.log line per alert
 * (fast_log.c builds it). */
#include <stdlib.h>

#include "osprey_output.h"

static void *fast_open(const struct osprey_output_env *env, FILE *diag)
{
    char k[128], path[4200];
    osprey_output_path(env, osprey_config_str(env->cfg, osprey_output_key(env, "filename", k, sizeof k)),
                       path, sizeof path);
    struct osprey_log_cfg lc = {
        .path = path,
        .append = osprey_config_bool(env->cfg, osprey_output_key(env, "append", k, sizeof k)),
    };
    return osprey_output_log_open(&lc, diag);
}

static unsigned fast_takes(void *s)
{
    (void)s;
    return OSPREY_REC_ALERT;
}

static void fast_alert(void *s, const struct osprey_alert_rec *a)
{
    osprey_output_line(s, osprey_fast_line(a->eve));
}

static int fast_reopen(void *s, FILE *diag)
{
    return osprey_output_log_reopen(s, diag);
}

static uint64_t fast_lost(void *s)
{
    return osprey_log_lost(s);
}

static int fast_close(void *s, FILE *diag)
{
    return osprey_output_log_close(s, diag);
}

const struct osprey_output_def fast_out = {
    .name = "fast",
    .open = fast_open,
    .takes = fast_takes,
    .alert = fast_alert,
    .reopen = fast_reopen,
    .lost = fast_lost,
    .close = fast_close,
};
