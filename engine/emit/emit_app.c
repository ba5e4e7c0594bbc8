/* emit_app.c — application-layer objects from the parsers (parsers/include/osprey_parsers.h)
 * into EVE: transaction records (the parsers' tx callback) and the same object in alerts
 * raised inside a transaction. Each protocol writes its own object (osprey_parsers_eve);
 * here it is only handed to outputs/. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_json_writer.h"
#include "osprey_parsers.h"

static void write_app(struct osprey_jw *w, const struct osprey_eve_app *app)
{
    osprey_parsers_eve((struct mon_ctx *)app->arg[0], app->arg[1], w);
}

const char *osprey_emit_dir_proto(struct mon_ctx *ctx, const struct mon_flow *f, int dir,
                                  uint16_t named)
{
    uint16_t p = osprey_parsers_app_proto_dir(ctx, f, dir);
    return p != OSPREY_APP_PROTO_UNKNOWN && p != named ? osprey_app_proto_name(p) : NULL;
}

bool osprey_emit_fill_app(struct mon_ctx *ctx, const struct mon_flow *f,
                          struct osprey_eve_app *out)
{
    memset(out, 0, sizeof *out);
    uint16_t proto = osprey_parsers_app_proto(ctx, f);
    if (!osprey_app_proto_has_eve(proto) || !osprey_parsers_eve(ctx, f, NULL))
        return false;
    *out = (struct osprey_eve_app){.name = osprey_app_proto_eve_name(proto),
                                   .tx_id = osprey_app_proto_eve_tx_id(proto),
                                   .write = write_app,
                                   .arg = {ctx, f}};
    return true;
}

char *osprey_emit_app_snap(struct osprey_emit *e, struct mon_ctx *ctx, const struct mon_flow *f,
                           bool to_server)
{
    if (!osprey_app_proto_has_eve(osprey_parsers_app_proto(ctx, f)) ||
        !osprey_parsers_eve(ctx, f, NULL))
        return NULL;
    struct osprey_jw w;
    osprey_jw_init(&w);
    osprey_jw_open(&w, NULL);
    osprey_parsers_eve(ctx, f, &w);
    struct osprey_emit_file fb[8];
    struct osprey_eve_file files[8];
    size_t nf = osprey_emit_alert_files(e, ctx, (struct mon_flow *)f, to_server ? 0 : 1, fb, 8);
    for (size_t i = 0; i < nf; i++)
        files[i] = fb[i].rec;
    osprey_eve_files_write(&w, files, (uint32_t)nf);
    char *line = osprey_jw_finish(&w); /* {members}\n: the members are kept */
    size_t n = line ? strlen(line) : 0;
    if (n < 3) {
        free(line);
        return NULL;
    }
    memmove(line, line + 1, n - 3);
    line[n - 3] = 0;
    return line;
}

static void write_snap(struct osprey_jw *w, const struct osprey_eve_app *app)
{
    osprey_jw_members(w, app->arg[0]);
}

bool osprey_emit_snap_app(struct mon_ctx *ctx, const struct mon_flow *f, const char *snap,
                          struct osprey_eve_app *out)
{
    uint16_t proto = osprey_parsers_app_proto(ctx, f);
    *out = (struct osprey_eve_app){.name = osprey_app_proto_eve_name(proto),
                                   .tx_id = osprey_app_proto_eve_tx_id(proto),
                                   .write = write_snap,
                                   .arg = {snap, NULL}};
    return true;
}

/* A record buffer of the flow's current transaction by name, NULL when absent. */
static const struct osprey_span *record_buf(struct mon_ctx *ctx, const struct mon_flow *f,
                                            const char *name, struct osprey_span *out)
{
    int b = osprey_buffer_find_record(name, 0);
    out->p = b >= 0 ? osprey_parsers_buffer(ctx, f, (uint16_t)b, &out->n) : NULL;
    return out->p && out->n ? out : NULL;
}

void osprey_emit_http_extra(struct mon_ctx *ctx, const struct mon_flow *f,
                            struct osprey_span *uri, struct osprey_span *host,
                            const struct osprey_span **puri, const struct osprey_span **phost)
{
    /* unified2's extra data types are Snort's HTTP URI and hostname: the parsers' record
     * buffers of those names (absent on another protocol's flow), once a record exists */
    *puri = *phost = NULL;
    if (!osprey_parsers_eve(ctx, f, NULL))
        return;
    *puri = record_buf(ctx, f, "http.uri.raw", uri);
    *phost = record_buf(ctx, f, "http.hostname", host);
}

void osprey_emit_tx(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f, int proto)
{
    if (proto < 0 || !osprey_app_proto_set_has(&e->tx, (uint16_t)proto))
        return; /* no sink takes this protocol's transactions */
    struct osprey_eve_app app;
    if (!osprey_emit_fill_app(ctx, f, &app))
        return;
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], pn[8], cid[48];
    osprey_addr_str(&f->cli, f->ipver, src, sizeof src);
    osprey_addr_str(&f->srv, f->ipver, dst, sizeof dst);
    const struct mon_packet *p = mon_getlastpkt(ctx);
    bool ports = f->proto == 6 || f->proto == 17;
    struct osprey_eve_tx t = {
        .ts_us = p ? p->ts_us : f->last_us,
        .flow_id = f->id,
        .pcap_cnt = p ? p->num : 0,
        .src_ip = src,
        .dest_ip = dst,
        .src_port = ports ? f->cport : -1,
        .dest_port = ports ? f->sport : -1,
        .proto = osprey_proto_name(f->proto, pn, sizeof pn),
        .tx_id = osprey_parsers_tx_id(ctx, f), /* written when app.tx_id (eve_app.c) */
        .app = &app,
    };
    if (e->community_id) {
        osprey_community_id(e->cid_seed, f->cli.b, f->srv.b, f->ipver == 6 ? 16 : 4, f->proto,
                            f->cport, f->sport, cid, sizeof cid);
        t.community_id = cid;
    }
    /* a protocol whose records go the way of the packet that completed them (nfs): the
     * server's packet gives a record from the server */
    if (osprey_app_proto_eve_packet_dir((uint16_t)proto) && p && ports &&
        p->sport == f->sport && p->dport == f->cport &&
        !memcmp(p->src.b, f->srv.b, sizeof p->src.b)) {
        t.src_ip = dst, t.dest_ip = src;
        t.src_port = f->sport, t.dest_port = f->cport;
    }
    EMIT_EACH_SINK(e, OSPREY_REC_TX, k)
        if (osprey_app_proto_set_has(&k->tx, (uint16_t)proto))
            k->def->tx(k->s, &t);
}
