/* eve.c — NFS's EVE objects, as Suricata writes them: nfs{version, procedure, filename,
 * hhash (CRC-32 of the file handle, hex), id, file_tx, type "response", status, and read /
 * write {first, last, last_xid, chunks} of a v2/v3 file transfer, rename {from, to}} and,
 * beside it, rpc{xid, status, auth_type, creds{machine_name, uid, gid} for AUTH_UNIX}. An
 * alert on a call carries the same objects (the reply's fields not in yet: OK, ACCEPTED). */
#include <stdio.h>
#include <zlib.h>

#include "nfs_int.h"
#include "osprey_json_writer.h"

static void str_or_num(struct osprey_jw *w, const char *key, const char *s, uint32_t v)
{
    char num[16];
    if (!s) {
        snprintf(num, sizeof num, "%u", v);
        s = num;
    }
    osprey_jw_str(w, key, s);
}

static void bytes(struct osprey_jw *w, const char *key, const struct nfs_bytes *b)
{
    osprey_jw_strn(w, key, b->p ? b->p : (const uint8_t *)"", b->len);
}

bool nfs_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct nfs_state *st = pf->state;
    const struct nfs_tx *tx = st ? st->cur : NULL;
    if (!tx)
        return false;
    if (!w)
        return true;
    uint32_t ver = st->version ? st->version : tx->version;
    osprey_jw_open(w, "nfs");
    osprey_jw_int(w, "version", ver);
    str_or_num(w, "procedure", nfs_procedure_name(ver, tx->procedure), tx->procedure);
    bytes(w, "filename", &tx->name);
    if (tx->handle.len) {
        char h[16];
        snprintf(h, sizeof h, "%lx", crc32(0L, tx->handle.p, tx->handle.len));
        osprey_jw_str(w, "hhash", h);
    }
    osprey_jw_int(w, "id", tx->id);
    osprey_jw_bool(w, "file_tx", tx->file_tx);
    osprey_jw_str(w, "type", "response");
    str_or_num(w, "status", nfs_status_name(tx->nfs_status), tx->nfs_status);
    if (ver <= 3 && (tx->procedure == NFS3_READ || tx->procedure == NFS3_WRITE)) {
        osprey_jw_open(w, tx->procedure == NFS3_READ ? "read" : "write");
        osprey_jw_bool(w, "first", tx->first);
        osprey_jw_bool(w, "last", tx->last);
        if (tx->file_tx) {
            osprey_jw_int(w, "last_xid", tx->last_xid);
            osprey_jw_int(w, "chunks", tx->chunks);
        }
        osprey_jw_close(w);
    } else if (ver <= 3 && tx->has_rename) {
        osprey_jw_open(w, "rename");
        bytes(w, "from", &tx->name);
        bytes(w, "to", &tx->rename_to);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    osprey_jw_open(w, "rpc");
    osprey_jw_int(w, "xid", tx->xid);
    str_or_num(w, "status", rpc_status_name(tx->rpc_status), tx->rpc_status);
    str_or_num(w, "auth_type", rpc_auth_name(tx->auth_type), tx->auth_type);
    if (tx->auth_type == RPC_AUTH_UNIX) {
        osprey_jw_open(w, "creds");
        bytes(w, "machine_name", &tx->machine);
        osprey_jw_int(w, "uid", tx->uid);
        osprey_jw_int(w, "gid", tx->gid);
        osprey_jw_close(w);
    }
    osprey_jw_close(w);
    return true;
}
