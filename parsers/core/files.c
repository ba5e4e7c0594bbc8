/* files.c — the file layer (files.h): a flow's files, each of one transaction and direction,
 * fed by the protocol that carries it (open / data / close) and read by rules and records
 * (osprey_parsers_file_at …).
 *
 * What a file gets is asked once for all (osprey_parsers_set_files): md5 / sha1 / sha256
 * computed as the bytes come (libcrypto EVP: any split gives the same digest), libmagic's
 * description of its first PFILE_MAGIC_HEAD bytes (taken when that many are in, or at close),
 * and its bytes kept for filestore while the worker's files_memcap allows (past it the file
 * keeps none: counted in files_bytes_shed; its hashes and size go on). A file is forgotten
 * when its transaction is reported (pfile_release_tx) or its flow goes. */
#include <magic.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

#define PFILE_MAGIC_HEAD 512 /* bytes libmagic is shown (the first of the file) */
#define PFILE_NAME_MAX 1024  /* bytes of a file's name kept */

const char *const pfile_counter_names[PFILE_C__COUNT] = {
    [PFILE_C_FILES] = "files_opened",
    [PFILE_C_BYTES_SHED] = "files_bytes_shed",  /* not kept for filestore: the memcap */
    [PFILE_C_TRUNCATED] = "files_truncated",
};

struct pfile {
    struct pfile *next;
    struct osprey_file_info info;  /* pointers (name, magic) set when handed out */
    struct pbuf name;
    struct pbuf head;              /* the first bytes, for libmagic */
    struct pbuf data;              /* kept bytes (OSPREY_FILES_STORE) */
    bool keep;                     /* still keeping bytes (not shed) */
    bool magic_done;
    char magic[160];
    EVP_MD_CTX *md[3];             /* md5, sha1, sha256 while open (NULL: not asked) */
};

static void count(struct pflow *pf, unsigned c, uint64_t n)
{
    pf->w->st.v[reg_files_counter_base() + c] += n;
}

static struct pfile *find(struct pflow *pf, uint32_t id)
{
    for (struct pfile *fl = pf->files; fl && id; fl = fl->next)
        if (fl->info.id == id)
            return fl;
    return NULL;
}

static void free_mds(struct pfile *fl)
{
    for (int k = 0; k < 3; k++) {
        EVP_MD_CTX_free(fl->md[k]);
        fl->md[k] = NULL;
    }
}

static void file_free(struct pflow *pf, struct pfile *fl)
{
    pf->w->file_bytes -= fl->data.len;
    free_mds(fl);
    pbuf_free(&fl->name);
    pbuf_free(&fl->head);
    pbuf_free(&fl->data);
    free(fl);
}

uint32_t pfile_open(struct pflow *pf, int dir, uint32_t tx_id, const void *name, size_t nlen)
{
    struct pfile *fl = calloc(1, sizeof *fl);
    if (!fl)
        return 0;
    unsigned want = pf->w->p->files;
    static const EVP_MD *(*const MDS[3])(void) = {EVP_md5, EVP_sha1, EVP_sha256};
    for (int k = 0; k < 3; k++) {
        if (!(want & (OSPREY_FILES_MD5 << k)))
            continue;
        if (!(fl->md[k] = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(fl->md[k], MDS[k](), NULL)) {
            free_mds(fl);
            free(fl);
            return 0;
        }
    }
    if (nlen)
        pbuf_add(&fl->name, name, nlen, PFILE_NAME_MAX);
    fl->info.id = ++pf->file_ids;
    fl->info.tx_id = tx_id;
    fl->info.dir = (uint8_t)(dir & 1);
    fl->info.state = OSPREY_FILE_OPEN;
    fl->info.store = pf->store_flow[dir & 1] || pf->store_tx[dir & 1] == (int64_t)tx_id ||
                     (want & OSPREY_FILES_STORE_ALL);
    fl->keep = (want & OSPREY_FILES_STORE) != 0;
    struct pfile **tail = &pf->files;
    while (*tail)
        tail = &(*tail)->next;
    *tail = fl;
    count(pf, PFILE_C_FILES, 1);
    return fl->info.id;
}

/* libmagic's word on the first bytes (once; nothing when it could not be loaded). */
static void take_magic(struct pflow *pf, struct pfile *fl)
{
    struct osprey_parsers_worker *w = pf->w;
    if (fl->magic_done || !(w->p->files & OSPREY_FILES_MAGIC) || !fl->head.len)
        return;
    fl->magic_done = true;
    if (!w->magic && !w->magic_failed) {
        magic_t m = magic_open(MAGIC_NONE);
        if (m && magic_load(m, NULL) == 0)
            w->magic = m;
        else {
            if (m)
                magic_close(m);
            w->magic_failed = true;
        }
    }
    const char *s = w->magic ? magic_buffer(w->magic, fl->head.p, fl->head.len) : NULL;
    if (s) {
        strncpy(fl->magic, s, sizeof fl->magic - 1);
        fl->magic[sizeof fl->magic - 1] = '\0';
    }
}

void pfile_data(struct pflow *pf, uint32_t id, const void *d, size_t n)
{
    struct pfile *fl = find(pf, id);
    if (!fl || fl->info.state != OSPREY_FILE_OPEN || !n)
        return;
    fl->info.size += n;
    for (int k = 0; k < 3; k++)
        if (fl->md[k])
            EVP_DigestUpdate(fl->md[k], d, n);
    if (fl->head.len < PFILE_MAGIC_HEAD && (pf->w->p->files & OSPREY_FILES_MAGIC)) {
        pbuf_add(&fl->head, d, n, PFILE_MAGIC_HEAD);
        if (fl->head.len == PFILE_MAGIC_HEAD)
            take_magic(pf, fl);
    }
    if (!fl->keep)
        return;
    uint64_t cap = pf->w->p->cfg.files_memcap;
    uint32_t took = 0;
    if (pf->w->file_bytes + n <= cap)
        took = pbuf_add(&fl->data, d, n, 0);
    pf->w->file_bytes += took;
    if (took < n) { /* over the memcap (or out of memory): this file keeps nothing */
        count(pf, PFILE_C_BYTES_SHED, fl->data.len - took + n);
        pf->w->file_bytes -= fl->data.len;
        pbuf_free(&fl->data);
        fl->keep = false;
    }
}

void pfile_close(struct pflow *pf, uint32_t id, bool truncated)
{
    struct pfile *fl = find(pf, id);
    if (!fl || fl->info.state != OSPREY_FILE_OPEN)
        return;
    take_magic(pf, fl);
    fl->info.state = truncated ? OSPREY_FILE_TRUNCATED : OSPREY_FILE_CLOSED;
    if (truncated)
        count(pf, PFILE_C_TRUNCATED, 1);
    uint8_t *out[3] = {fl->info.md5, fl->info.sha1, fl->info.sha256};
    bool *has[3] = {&fl->info.has_md5, &fl->info.has_sha1, &fl->info.has_sha256};
    for (int k = 0; k < 3 && !truncated; k++) {
        unsigned len = 0;
        if (fl->md[k] && EVP_DigestFinal_ex(fl->md[k], out[k], &len))
            *has[k] = true;
    }
    free_mds(fl);
}

void pfile_set_tx(struct pflow *pf, uint32_t id, uint32_t tx_id)
{
    struct pfile *fl = find(pf, id);
    if (fl)
        fl->info.tx_id = tx_id;
}

void pfile_close_all(struct pflow *pf, int dir)
{
    for (struct pfile *fl = pf->files; fl; fl = fl->next)
        if (dir < 0 || fl->info.dir == dir)
            pfile_close(pf, fl->info.id, true);
}

void pfile_release_tx(struct pflow *pf, uint32_t tx_id)
{
    for (struct pfile **p = &pf->files; *p;) {
        struct pfile *fl = *p;
        if (fl->info.tx_id == tx_id && fl->info.state != OSPREY_FILE_OPEN) {
            *p = fl->next;
            file_free(pf, fl);
        } else {
            p = &fl->next;
        }
    }
}

void pfile_free_all(struct pflow *pf)
{
    while (pf->files) {
        struct pfile *fl = pf->files;
        pf->files = fl->next;
        file_free(pf, fl);
    }
}

void pfile_worker_free(struct osprey_parsers_worker *w)
{
    if (w->magic)
        magic_close(w->magic);
    w->magic = NULL;
}

/* ---- what rules and records read: the current transaction's files ---- */
static uint32_t cur_tx(struct pflow *pf)
{
    const struct osprey_proto_def *d = reg_proto(pf->proto);
    return d && d->tx_id && pf->state ? d->tx_id(pf) : 0;
}

/* The i-th file of the current transaction in direction dir (-1: the client's, then the
 * server's), its info's pointers set. */
static struct pfile *nth(struct pflow *pf, int dir, uint32_t i)
{
    uint32_t tx = cur_tx(pf);
    for (int d = dir < 0 ? 0 : dir; d <= (dir < 0 ? 1 : dir); d++)
        for (struct pfile *fl = pf->files; fl; fl = fl->next)
            if (fl->info.tx_id == tx && fl->info.dir == d && i-- == 0) {
                fl->info.name = fl->name.p ? fl->name.p : (const uint8_t *)"";
                fl->info.name_len = fl->name.len;
                fl->info.magic = fl->magic[0] ? fl->magic : NULL;
                fl->info.bytes_kept = fl->keep && fl->info.state != OSPREY_FILE_OPEN;
                return fl;
            }
    return NULL;
}

const uint8_t *pfile_buffer(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                            uint32_t *len)
{
    (void)s;
    struct pfile *fl = nth(pf, (int)(key / 2), i);
    if (!fl)
        return NULL;
    if (key % 2 == PFILE_KEY_NAME) {
        *len = fl->info.name_len;
        return fl->info.name;
    }
    if (fl->info.state != OSPREY_FILE_OPEN)
        take_magic(pf, fl); /* (an open file's is taken once its first 512 bytes are in) */
    if (!fl->magic[0])
        return NULL;
    *len = (uint32_t)strlen(fl->magic);
    return (const uint8_t *)fl->magic;
}

void osprey_parsers_set_files(struct osprey_parsers *p, unsigned flags)
{
    p->files |= flags;
}

bool pfile_at(struct pflow *pf, int dir, uint32_t i, struct osprey_file_info *out)
{
    struct pfile *fl = nth(pf, dir, i);
    if (!fl)
        return false;
    *out = fl->info;
    return true;
}

bool osprey_parsers_file_at(struct mon_ctx *ctx, const struct mon_flow *f, int dir, uint32_t i,
                            struct osprey_file_info *out)
{
    struct pflow *pf = pflow_get(ctx, f);
    return pf && pfile_at(pf, dir, i, out);
}

void osprey_parsers_file_store(struct mon_ctx *ctx, const struct mon_flow *f, int dir,
                               bool flow)
{
    struct pflow *pf = pflow_get(ctx, f);
    if (!pf)
        return;
    uint32_t tx = cur_tx(pf);
    for (int d = 0; d < 2; d++) {
        if (dir >= 0 && d != dir)
            continue;
        pf->store_tx[d] = tx;
        pf->store_flow[d] |= flow;
    }
    for (struct pfile *fl = pf->files; fl; fl = fl->next)
        if ((dir < 0 || fl->info.dir == dir) && (flow || fl->info.tx_id == tx))
            fl->info.store = true;
}

const uint8_t *osprey_parsers_file_bytes(struct mon_ctx *ctx, const struct mon_flow *f,
                                         uint32_t id, uint64_t *len)
{
    struct pflow *pf = pflow_get(ctx, f);
    struct pfile *fl = pf ? find(pf, id) : NULL;
    *len = 0;
    if (!fl || !fl->keep || fl->info.state == OSPREY_FILE_OPEN)
        return NULL;
    *len = fl->data.len;
    return fl->data.p ? fl->data.p : (const uint8_t *)"";
}
