/* u2_out.c — the unified2 sink (outputs.unified2-alert): alerts into Snort's unified2 files
 * (NAME.<seconds>, a new file past `limit`). Each alert is its event record and its packet
 * record (and, in an HTTP transaction, the URI and Host as extra data), written as one group.
 * The classification id is the classtype's position in classification-file, as in Snort. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_output.h"
#include "osprey_unified2.h"

struct u2_classid {
    char *name;
    uint32_t id;
};

struct u2_out {
    struct osprey_log_file *lf;
    uint32_t sensor_id;
    _Atomic uint32_t event_id;
    struct u2_classid *classids; /* classification-file order */
    size_t nclassids;
};

/* Snort numbers classtypes 1, 2, … in the order classification.config lists them. */
static void load_classids(struct u2_out *o, const char *path)
{
    FILE *f = path && path[0] ? fopen(path, "r") : NULL;
    if (!f)
        return; /* no file: every event gets class 0, as for rules without classtype */
    char line[1024];
    uint32_t id = 0;
    while (fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        static const char kw[] = "config classification:";
        if (strncmp(p, kw, sizeof kw - 1) != 0)
            continue;
        p += sizeof kw - 1;
        p += strspn(p, " \t");
        size_t n = strcspn(p, ",");
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        struct u2_classid *grown = realloc(o->classids, (o->nclassids + 1) * sizeof *grown);
        if (!grown)
            break;
        o->classids = grown;
        if (!(grown[o->nclassids].name = strndup(p, n)))
            break;
        grown[o->nclassids++].id = ++id;
    }
    fclose(f);
}

static uint32_t classid(const struct u2_out *o, const char *classtype)
{
    for (size_t i = 0; classtype && i < o->nclassids; i++)
        if (!strcmp(o->classids[i].name, classtype))
            return o->classids[i].id;
    return 0;
}

static void *u2_open(const struct osprey_output_env *env, FILE *diag)
{
    const struct osprey_config *cfg = env->cfg;
    char k[128], path[4200];
    struct u2_out *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(diag, "osprey: out of memory\n");
        return NULL;
    }
    osprey_output_path(env, osprey_config_str(cfg, osprey_output_key(env, "filename", k, sizeof k)),
                       path, sizeof path);
    struct osprey_log_cfg lc = {
        .path = path,
        .timestamped = true,
        .append = true,
        .limit = osprey_config_size(cfg, osprey_output_key(env, "limit", k, sizeof k)),
    };
    if (!(o->lf = osprey_output_log_open(&lc, diag))) {
        free(o);
        return NULL;
    }
    o->sensor_id = (uint32_t)osprey_config_int(cfg, osprey_output_key(env, "sensor-id", k, sizeof k));
    char cls[4096];
    const char *cls_path = osprey_config_path(cfg, "classification-file", cls, sizeof cls);
    load_classids(o, cls_path ? cls_path : osprey_config_str(cfg, "classification-file"));
    return o;
}

static unsigned u2_takes(void *s)
{
    (void)s;
    return OSPREY_REC_ALERT;
}

static void u2_alert(void *s, const struct osprey_alert_rec *a)
{
    struct u2_out *o = s;
    const struct osprey_rec_packet *p = &a->pkt;
    if (!p->ipver)
        return; /* unified2 events need IP addresses */
    bool icmp = p->proto == 1 || p->proto == 58;
    struct osprey_u2_event ev = {
        .sensor_id = o->sensor_id,
        .event_id = atomic_fetch_add(&o->event_id, 1) + 1,
        .sec = (uint32_t)(p->ts_us / 1000000u),
        .usec = (uint32_t)(p->ts_us % 1000000u),
        .sid = a->eve->sid,
        .gid = a->eve->gid,
        .rev = a->eve->rev,
        .class_id = classid(o, a->classtype),
        .priority = (uint32_t)a->eve->severity,
        .ipver = p->ipver,
        .sport = icmp ? p->icmp_type : p->sport,
        .dport = icmp ? p->icmp_code : p->dport,
        .proto = p->proto,
        .blocked = a->blocked ? 1 : 0,
        .vlan_id = p->vlan_id,
    };
    size_t alen = p->ipver == 6 ? 16 : 4;
    memcpy(ev.src, p->src, alen);
    memcpy(ev.dst, p->dst, alen);
    /* an alert in an HTTP transaction: its URI and Host as extra data, as Snort logs them */
    const struct osprey_span *uri = a->http_uri, *host = a->http_host;
    size_t cap = 256 + p->caplen + 2 * 40 + (uri ? uri->n : 0) + (host ? host->n : 0), len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf || osprey_u2_put_event(buf, cap, &len, &ev) < 0 ||
        osprey_u2_put_packet(buf, cap, &len, &ev, ev.sec, ev.usec, (uint32_t)p->linktype,
                             p->frame, p->caplen) < 0 ||
        (uri && osprey_u2_put_extra(buf, cap, &len, &ev, OSPREY_U2_XDATA_HTTP_URI, uri->p,
                                    uri->n) < 0) ||
        (host && osprey_u2_put_extra(buf, cap, &len, &ev, OSPREY_U2_XDATA_HTTP_HOSTNAME,
                                     host->p, host->n) < 0))
        osprey_log_drop(o->lf, "out of memory");
    else
        osprey_log_write(o->lf, buf, len);
    free(buf);
}

static int u2_reopen(void *s, FILE *diag)
{
    return osprey_output_log_reopen(((struct u2_out *)s)->lf, diag);
}

static uint64_t u2_lost(void *s)
{
    return osprey_log_lost(((struct u2_out *)s)->lf);
}

static int u2_close(void *s, FILE *diag)
{
    struct u2_out *o = s;
    int rc = osprey_output_log_close(o->lf, diag);
    for (size_t i = 0; i < o->nclassids; i++)
        free(o->classids[i].name);
    free(o->classids);
    free(o);
    return rc;
}

const struct osprey_output_def u2_out = {
    .name = "unified2-alert",
    .open = u2_open,
    .takes = u2_takes,
    .alert = u2_alert,
    .reopen = u2_reopen,
    .lost = u2_lost,
    .close = u2_close,
};
