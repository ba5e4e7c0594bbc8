/* files.c — the files SMB carries, in one place: a file is opened with its name (a create's
 * response gives its FID / GUID), its data comes at offsets (writes to the server, reads to
 * the client: segmentation, padding and AndX chains are undone by the callers, which hand
 * over the data bytes alone), and it is closed (a close, or the flow's end). The bytes of
 * each direction are placed at their offset (SMB_FILE_MAX kept, more counted); a write or
 * read over bytes already seen is an overlap (`smb.file_overlap`, Suricata's event). At the
 * close each direction's bytes are inspected once as `file.data` (smb_file_to_server /
 * smb_file_to_client). A file on a named pipe is no file: its bytes go to the DCERPC guest
 * (parsers/dcerpc, through the protocol table: pflow_guest).
 *
 * Each direction's bytes are also a file of the file layer (core/files.h: name, size, hashes,
 * magic, the file keywords, fileinfo and filestore): opened with the first write / read, fed
 * in order as chunks come (a chunk past the bytes fed so far waits in data[dir]: at the close
 * what came out of order is fed from there), closed with the SMB close — cut short
 * (truncated) when bytes are missing or the flow ends first. SMB has no transaction ids of
 * its own (tx_id 0): a file is opened under SMB_FILE_TX and becomes transaction 0's at its
 * close, so it is read by the file keywords and reported (fileinfo) once, complete, with the
 * transaction that follows its close. */
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "smb_int.h"

/* Bytes [off, off + n) of direction dir for the file layer: what extends the bytes fed so
 * far, in order. */
static void feed(struct pflow *pf, struct smb_file *fl, int dir, uint64_t off,
                 const uint8_t *d, uint32_t n)
{
    if (!fl->opened[dir]) {
        fl->opened[dir] = true;
        /* (under a provisional transaction id until its close: SMB's transactions are all
         * 0 to the file layer, and an open file would be reported with each of them) */
        fl->pfid[dir] = pfile_open(pf, dir, SMB_FILE_TX, fl->name.p, fl->name.len);
    }
    if (off > fl->fed[dir] || off + n <= fl->fed[dir])
        return; /* out of order (fed from data[dir] at the close), or seen */
    uint32_t skip = (uint32_t)(fl->fed[dir] - off);
    pfile_data(pf, fl->pfid[dir], d + skip, n - skip);
    fl->fed[dir] = off + n;
}

/* The close: what came out of order is fed from the kept bytes up to the first range no
 * write filled, then the file is done (cut short when bytes are still missing — a hole, a
 * write lost in a gap —, or truncated is asked: the flow's end). */
static void finish(struct pflow *pf, struct smb_file *fl, int dir, bool truncated)
{
    const struct pbuf *b = &fl->data[dir];
    uint32_t to = fl->end[dir] < b->len ? (uint32_t)fl->end[dir] : b->len;
    for (uint8_t i = 0; i < fl->nholes[dir]; i++)
        if (fl->hole[dir][i].at < to)
            to = fl->hole[dir][i].at;
    if (fl->fed[dir] < to) {
        pfile_data(pf, fl->pfid[dir], b->p + fl->fed[dir], to - (uint32_t)fl->fed[dir]);
        fl->fed[dir] = to;
    }
    pfile_close(pf, fl->pfid[dir],
                truncated || fl->holes_lost[dir] || fl->fed[dir] < fl->end[dir]);
    pfile_set_tx(pf, fl->pfid[dir], 0); /* reported with the next transaction */
}

struct smb_file *smb_file_find(struct smb_state *st, const uint8_t *fid, uint8_t fid_len)
{
    for (uint32_t i = 0; st->file && i < SMB_FILES_MAX; i++) {
        struct smb_file *fl = &st->file[i];
        if (fl->used && fl->fid_len == fid_len && !memcmp(fl->fid, fid, fid_len))
            return fl;
    }
    return NULL;
}

struct smb_file *smb_file_open(struct pflow *pf, struct smb_state *st, const uint8_t *fid,
                               uint8_t fid_len, const struct smb_req *create)
{
    const uint8_t *name = create->name.p;
    uint32_t name_len = create->name.len;
    bool pipe = create->pipe;
    if (fid_len > sizeof st->file[0].fid)
        return NULL;
    if (!st->file && !(st->file = calloc(SMB_FILES_MAX, sizeof *st->file))) {
        pflow_count(pf, SMB_C_FILES_SHED, 1); /* (out of memory) */
        return NULL;
    }
    struct smb_file *fl = smb_file_find(st, fid, fid_len);
    for (uint32_t i = 0; i < SMB_FILES_MAX && !fl; i++)
        if (!st->file[i].used)
            fl = &st->file[i];
    if (!fl) {
        pflow_count(pf, SMB_C_FILES_SHED, 1);
        return NULL;
    }
    for (int dir = 0; fl->used && dir < 2; dir++) /* (its fid opened again: the old one ends) */
        pfile_close(pf, fl->pfid[dir], true), pfile_set_tx(pf, fl->pfid[dir], 0);
    struct pbuf d0 = fl->data[0], d1 = fl->data[1], nm = fl->name; /* (memory reused) */
    memset(fl, 0, sizeof *fl);
    fl->data[0] = d0, fl->data[1] = d1, fl->name = nm;
    pbuf_reset(&fl->data[0]);
    pbuf_reset(&fl->data[1]);
    pbuf_reset(&fl->name);
    fl->used = true;
    fl->pipe = pipe;
    fl->guess = create->tree_unknown;
    memcpy(fl->fid, fid, fid_len);
    fl->fid_len = fid_len;
    pbuf_add(&fl->name, name, name_len, SMB_PATH_MAX); /* (empty: no bytes to copy) */
    if (!pipe)
        pflow_count(pf, SMB_C_FILES, 1);
    return fl;
}

/* A pipe carries DCERPC when its first bytes are a DCERPC header (psexec's stdin / stdout
 * pipes carry other bytes: those are not DCERPC's, and would break its framing). */
static bool is_dce(struct pflow *pf, struct smb_file *fl, int dir, const uint8_t *d,
                   uint32_t n)
{
    if (!fl)
        return pflow_guest_probe(pf, "dcerpc", dir, d, n) == DET_YES;
    if (!fl->dce)
        fl->dce = pflow_guest_probe(pf, "dcerpc", dir, d, n) == DET_YES ? 1 : 2;
    return fl->dce == 1;
}

void smb_pipe_data(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                   struct smb_file *fl, int dir, const uint8_t *d, uint32_t n)
{
    struct pflow *g = pflow_guest(pf, "dcerpc");
    /* (a pipe not seen opened: its bytes go on once DCERPC was seen on the flow) */
    if (!g || !n || (fl ? !is_dce(pf, fl, dir, d, n) : !g->state && !is_dce(pf, NULL, dir, d, n)))
        return;
    st->dce_pending = true;
    pflow_count(pf, SMB_C_PIPE_BYTES, n);
    pflow_guest_feed(g, f, dir, d, n);
}

static void add_hole(struct smb_file *fl, int dir, uint32_t at, uint32_t len)
{
    if (fl->nholes[dir] == SMB_HOLES_MAX) {
        fl->holes_lost[dir] = true;
        return;
    }
    fl->hole[dir][fl->nholes[dir]].at = at;
    fl->hole[dir][fl->nholes[dir]++].len = len;
}

/* A write of d[0..k) at o over kept bytes: the parts of it that fall in holes replace their
 * zeros (bytes seen before stay, as they are). */
static void fill_holes(struct smb_file *fl, int dir, uint32_t o, const uint8_t *d, uint32_t k)
{
    struct pbuf *b = &fl->data[dir];
    for (uint8_t i = 0; i < fl->nholes[dir];) {
        uint32_t at = fl->hole[dir][i].at, end = at + fl->hole[dir][i].len;
        uint32_t lo = o > at ? o : at, hi = o + k < end ? o + k : end;
        if (lo >= hi || hi > b->len) {
            i++;
            continue;
        }
        memcpy(b->p + lo, d + (lo - o), hi - lo);
        if (lo == at && hi == end) { /* filled: the last range takes its place */
            fl->hole[dir][i] = fl->hole[dir][--fl->nholes[dir]];
            continue;
        }
        if (lo == at) {
            fl->hole[dir][i].at = hi, fl->hole[dir][i].len = end - hi;
        } else {
            fl->hole[dir][i].len = lo - at;
            if (hi < end)
                add_hole(fl, dir, hi, end - hi);
        }
        i++;
    }
}

void smb_file_data(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                   struct smb_file *fl, int dir, uint64_t off, const uint8_t *d, uint32_t n)
{
    if (fl->guess && n) { /* its tree unknown (midstream): DCERPC bytes make it a pipe */
        fl->guess = false;
        fl->pipe = is_dce(pf, fl, dir, d, n);
    }
    if (fl->pipe) {
        smb_pipe_data(pf, f, st, fl, dir, d, n);
        return;
    }
    feed(pf, fl, dir, off, d, n);
    struct pbuf *b = &fl->data[dir];
    if (n && off < fl->end[dir] && !fl->overlap) { /* over bytes already seen */
        fl->overlap = true;
        smb_tx_anomaly(pf, f, st, dir, SMB_AE_FILE_OVERLAP);
    }
    if (off + n > fl->end[dir])
        fl->end[dir] = off + n;
    if (off >= SMB_FILE_MAX) {
        pflow_count(pf, SMB_C_FILE_BYTES_SHED, n);
        return;
    }
    uint32_t o = (uint32_t)off, k = n;
    if (k > SMB_FILE_MAX - o) {
        pflow_count(pf, SMB_C_FILE_BYTES_SHED, k - (SMB_FILE_MAX - o));
        k = SMB_FILE_MAX - o;
    }
    fill_holes(fl, dir, o, d, k);
    if (o > b->len) { /* a hole: zeros until its bytes come */
        add_hole(fl, dir, b->len, o - b->len);
        static const uint8_t zero[256];
        while (b->len < o)
            if (!pbuf_add(b, zero, o - b->len < sizeof zero ? o - b->len : sizeof zero,
                          SMB_FILE_MAX))
                return;
    }
    uint32_t over = b->len - o < k ? b->len - o : k; /* the first bytes seen stay */
    if (k > over && pbuf_add(b, d + over, k - over, SMB_FILE_MAX) != k - over)
        pflow_count(pf, SMB_C_FILE_BYTES_SHED, k - over);
}

void smb_file_close(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                    struct smb_file *fl, bool truncated)
{
    if (!fl->pipe) {
        st->cur_file = fl;
        for (int dir = 0; dir < 2; dir++)
            if (fl->opened[dir])
                finish(pf, fl, dir, truncated);
        if (fl->data[0].len || fl->opened[0])
            pflow_raise(pf, f, 0, SMB_EV_FILE_TS);
        if (fl->data[1].len || fl->opened[1])
            pflow_raise(pf, f, 1, SMB_EV_FILE_TC);
        st->cur_file = NULL;
    }
    fl->used = false;
}
