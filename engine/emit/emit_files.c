/* emit_files.c — the files a transaction carried (the parsers' file layer), once it is
 * done: one record per file (struct osprey_eve_file) to every sink that takes files — EVE
 * fileinfo ("files" in outputs.eve-log.types), the file-store sink (the files a filestore
 * rule asked for, with their bytes) — and what those outputs ask the parsers to compute. */
#include <arpa/inet.h>
#include <stdatomic.h>
#include <string.h>

#include "emit_int.h"
#include "flow_record.h"
#include "osprey_parsers.h"

unsigned osprey_emit_file_flags(const struct osprey_config *cfg)
{
    unsigned fl = 0;
    size_t n = 0;
    const char *const *types = osprey_config_list(cfg, "outputs.eve-log.types", &n);
    bool files = false;
    for (size_t i = 0; i < n; i++)
        files |= !strcmp(types[i], "files");
    if (files && osprey_config_bool(cfg, "outputs.eve-log.enabled")) {
        const char *const *h = osprey_config_list(cfg, "outputs.eve-log.files.force-hash", &n);
        for (size_t i = 0; i < n; i++)
            fl |= !strcmp(h[i], "md5") ? OSPREY_FILES_MD5
                : !strcmp(h[i], "sha1") ? OSPREY_FILES_SHA1
                : !strcmp(h[i], "sha256") ? OSPREY_FILES_SHA256 : 0;
        if (osprey_config_bool(cfg, "outputs.eve-log.files.force-magic"))
            fl |= OSPREY_FILES_MAGIC;
    }
    if (osprey_config_bool(cfg, "outputs.file-store.enabled")) {
        fl |= OSPREY_FILES_SHA256; /* a stored file is named by it */
        if (osprey_config_bool(cfg, "outputs.file-store.force-filestore"))
            fl |= OSPREY_FILES_STORE | OSPREY_FILES_STORE_ALL;
    }
    return fl;
}

static const char *hex(const uint8_t *d, size_t n, char *out)
{
    static const char H[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = H[d[i] >> 4];
        out[2 * i + 1] = H[d[i] & 15];
    }
    out[2 * n] = '\0';
    return out;
}

/* File fi of flow f as a record into b (its hex digests kept there); data: its bytes for
 * file-store, NULL when not stored. */
static void fill(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f,
                 const struct osprey_file_info *fi, struct osprey_emit_file *b)
{
    uint64_t len = 0;
    const uint8_t *data = fi->store && fi->bytes_kept && fi->has_sha256
                              ? osprey_parsers_file_bytes(ctx, f, fi->id, &len)
                              : NULL;
    b->rec = (struct osprey_eve_file){
        .filename = fi->name,
        .filename_len = fi->name_len,
        .magic = fi->magic,
        .state = fi->state == OSPREY_FILE_CLOSED ? "CLOSED"
               : fi->state == OSPREY_FILE_TRUNCATED ? "TRUNCATED" : "OPEN",
        .md5 = fi->has_md5 ? hex(fi->md5, 16, b->md5) : NULL,
        .sha1 = fi->has_sha1 ? hex(fi->sha1, 20, b->sha1) : NULL,
        .sha256 = fi->has_sha256 ? hex(fi->sha256, 32, b->sha256) : NULL,
        .stored = data && e->file_store,
        .size = fi->size,
        .tx_id = fi->tx_id,
        .store = fi->store,
        .data = data,
        .data_len = len,
    };
}

size_t osprey_emit_alert_files(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f,
                               int dir, struct osprey_emit_file *out, size_t max)
{
    struct osprey_file_info fi;
    size_t n = 0;
    for (uint32_t i = 0; n < max && osprey_parsers_file_at(ctx, f, dir, i, &fi); i++) {
        fill(e, ctx, f, &fi, &out[n]);
        out[n].rec.stored = false; /* (stored once its transaction is done) */
        out[n].rec.data = NULL;
        n++;
    }
    return n;
}

void osprey_emit_files(struct osprey_emit *e, struct mon_ctx *ctx, struct mon_flow *f)
{
    if (!(e->takes & OSPREY_REC_FILE))
        return;
    struct osprey_file_info fi;
    char cli[INET6_ADDRSTRLEN], srv[INET6_ADDRSTRLEN], pn[8], cid[48];
    osprey_addr_str(&f->cli, f->ipver, cli, sizeof cli);
    osprey_addr_str(&f->srv, f->ipver, srv, sizeof srv);
    const struct mon_packet *p = mon_getlastpkt(ctx);
    struct osprey_eve_app app;
    bool has_app = osprey_emit_fill_app(ctx, f, &app);
    if (e->community_id)
        osprey_community_id(e->cid_seed, f->cli.b, f->srv.b, f->ipver == 6 ? 16 : 4, f->proto,
                            f->cport, f->sport, cid, sizeof cid);
    for (uint32_t i = 0; osprey_parsers_file_at(ctx, f, -1, i, &fi); i++) {
        bool up = fi.dir == 0; /* the client sends it: its sender is the source */
        struct osprey_emit_file b;
        fill(e, ctx, f, &fi, &b);
        struct osprey_eve_file *r = &b.rec;
        r->ts_us = p ? p->ts_us : f->last_us;
        r->flow_id = f->id;
        r->pcap_cnt = p ? p->num : 0;
        r->src_ip = up ? cli : srv;
        r->dest_ip = up ? srv : cli;
        r->src_port = up ? f->cport : f->sport;
        r->dest_port = up ? f->sport : f->cport;
        r->proto = osprey_proto_name(f->proto, pn, sizeof pn);
        r->community_id = e->community_id ? cid : NULL;
        r->app = has_app ? &app : NULL;
        r->app_proto = osprey_app_proto_name(osprey_parsers_app_proto_named(ctx, f));
        if (r->stored)
            r->file_id = (uint32_t)atomic_fetch_add(&e->file_ids, 1) + 1;
        EMIT_EACH_SINK(e, OSPREY_REC_FILE, k)
            k->def->file(k->s, r);
    }
}
