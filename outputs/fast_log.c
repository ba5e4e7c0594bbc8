/* fast_log.c — Suricata's fast.log: one line per alert,
 *   MM/DD/YYYY-hh:mm:ss.uuuuuu  [**] [gid:sid:rev] msg [**] [Classification: c] [Priority: p] {PROTO} src:port -> dst:port
 * (ICMP shows type and code where the ports go, as Suricata does; other protocols 0). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "osprey_outputs.h"

char *osprey_fast_line(const struct osprey_eve_alert *a)
{
    time_t s = (time_t)(a->ts_us / 1000000u);
    struct tm tm;
    gmtime_r(&s, &tm);
    char ts[96];
    snprintf(ts, sizeof ts, "%02d/%02d/%04d-%02d:%02d:%02d.%06u", tm.tm_mon + 1, tm.tm_mday,
             tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
             (unsigned)(a->ts_us % 1000000u));
    /* Suricata prefixes "[Drop] " when an inline engine dropped the packet */
    const char *act = a->action && a->action[0] == 'b' ? "[Drop] " : "";
    const char *cls = a->category && a->category[0] ? a->category : "(null)";
    int sp = a->icmp ? a->icmp_type : a->src_port < 0 ? 0 : a->src_port;
    int dp = a->icmp ? a->icmp_code : a->dest_port < 0 ? 0 : a->dest_port;
    char *line = NULL;
    if (asprintf(&line,
                 "%s  %s[**] [%u:%u:%u] %s [**] [Classification: %s] [Priority: %d] {%s} "
                 "%s:%d -> %s:%d\n",
                 ts, act, a->gid, a->sid, a->rev, a->signature ? a->signature : "", cls,
                 a->severity, a->proto, a->src_ip, sp, a->dest_ip, dp) < 0)
        return NULL;
    return line;
}
