/* emit_u2.c — alerts into Snort's unified2 files (NAME.<seconds>, a new file past `limit`).
 * Each alert is its event record and its packet record, written as one group. The
 * classification id is the classtype's position in classification-file, as in Snort. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "osprey_unified2.h"

/* Snort numbers classtypes 1, 2, … in the order classification.config lists them. */
static void load_classids(struct osprey_emit *e, const char *path)
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
        struct osprey_classid *grown =
            realloc(e->classids, (e->nclassids + 1) * sizeof *grown);
        if (!grown)
            break;
        e->classids = grown;
        if (!(grown[e->nclassids].name = strndup(p, n)))
            break;
        grown[e->nclassids++].id = ++id;
    }
    fclose(f);
}

static uint32_t classid(const struct osprey_emit *e, const char *classtype)
{
    for (size_t i = 0; classtype && i < e->nclassids; i++)
        if (!strcmp(e->classids[i].name, classtype))
            return e->classids[i].id;
    return 0;
}

int osprey_emit_u2_open(struct osprey_emit *e, const struct osprey_config *cfg,
                        const char *log_dir, FILE *diag)
{
    const char *name = osprey_config_str(cfg, "outputs.unified2-alert.filename");
    char path[4200], err[4500];
    if (name[0] == '/')
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s", log_dir, name);
    struct osprey_log_cfg lc = {
        .path = path,
        .timestamped = true,
        .append = true,
        .limit = osprey_config_size(cfg, "outputs.unified2-alert.limit"),
    };
    if (!(e->u2 = osprey_log_open(&lc, err, sizeof err))) {
        fprintf(diag, "osprey: cannot open output %s\n", err);
        return -1;
    }
    e->sensor_id = (uint32_t)osprey_config_int(cfg, "outputs.unified2-alert.sensor-id");
    char cls[4096];
    const char *cls_path = osprey_config_path(cfg, "classification-file", cls, sizeof cls);
    load_classids(e, cls_path ? cls_path : osprey_config_str(cfg, "classification-file"));
    return 0;
}

void osprey_emit_u2_alert(struct osprey_emit *e, const struct osprey_alert *a, bool blocked,
                          const struct osprey_eve_app *app)
{
    const struct mon_packet *p = a->pkt;
    if (!p->ipver)
        return; /* unified2 events need IP addresses */
    bool icmp = p->proto == 1 || p->proto == 58;
    struct osprey_u2_event ev = {
        .sensor_id = e->sensor_id,
        .event_id = atomic_fetch_add(&e->u2_event_id, 1) + 1,
        .sec = (uint32_t)(p->ts_us / 1000000u),
        .usec = (uint32_t)(p->ts_us % 1000000u),
        .sid = a->rule->sid,
        .gid = a->rule->gid,
        .rev = a->rule->rev,
        .class_id = classid(e, a->rule->classtype),
        .priority = (uint32_t)a->severity,
        .ipver = p->ipver,
        .sport = icmp ? p->icmp_type : p->sport,
        .dport = icmp ? p->icmp_code : p->dport,
        .proto = p->proto,
        .blocked = blocked ? 1 : 0,
        .vlan_id = p->nvlan ? (uint16_t)(p->vlan[0] & 0x0fff) : 0,
    };
    size_t alen = p->ipver == 6 ? 16 : 4;
    memcpy(ev.src, p->src.b, alen);
    memcpy(ev.dst, p->dst.b, alen);
    /* an alert in an HTTP transaction: its URI and Host as extra data, as Snort logs them */
    const struct osprey_span *uri = NULL, *host = NULL;
    if (app && app->kind == OSPREY_EVE_APP_HTTP) {
        uri = app->http.url.n ? &app->http.url : NULL;
        host = app->http.hostname.n ? &app->http.hostname : NULL;
    }
    size_t cap = 256 + p->caplen + 2 * 40 + (uri ? uri->n : 0) + (host ? host->n : 0), len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf || osprey_u2_put_event(buf, cap, &len, &ev) < 0 ||
        osprey_u2_put_packet(buf, cap, &len, &ev, ev.sec, ev.usec, (uint32_t)p->linktype,
                             p->frame, p->caplen) < 0 ||
        (uri && osprey_u2_put_extra(buf, cap, &len, &ev, OSPREY_U2_XDATA_HTTP_URI, uri->p,
                                    uri->n) < 0) ||
        (host && osprey_u2_put_extra(buf, cap, &len, &ev, OSPREY_U2_XDATA_HTTP_HOSTNAME,
                                     host->p, host->n) < 0))
        osprey_log_drop(e->u2, "out of memory");
    else
        osprey_log_write(e->u2, buf, len);
    free(buf);
}

void osprey_emit_u2_close(struct osprey_emit *e)
{
    osprey_log_close(e->u2);
    for (size_t i = 0; i < e->nclassids; i++)
        free(e->classids[i].name);
    free(e->classids);
}
