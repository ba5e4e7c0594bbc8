/* nfs_int.h — what the NFS parser's files share: transactions (Suricata's model: one per
 * call/reply pair, one per file transfer — a file handle's READs or WRITEs), the calls awaiting
 * their reply (by xid), the names learnt for file handles, the flow's state, and its own
 * numbering of events, anomalies, counters, buffers and fields (rows of its descriptor,
 * nfs.c). Internal to parsers/nfs. */
#ifndef OSPREY_NFS_INT_H
#define OSPREY_NFS_INT_H

#include "files.h"
#include "parsers_int.h"
#include "rpc.h"

extern const struct osprey_proto_def nfs_proto;

/* rows of nfs_proto.events / .anomalies / .counters; field keys */
enum { NFS_EV_REQUEST, NFS_EV_RESPONSE, NFS_EV_FILE_TS, NFS_EV_FILE_TC };
enum { NFS_AE_MALFORMED, NFS_AE_NON_EXISTING_VERSION, NFS_AE_UNSUPPORTED_VERSION,
       NFS_AE_TOO_MANY_TX };
enum { NFS_C_TX, NFS_C_MALFORMED, NFS_C_SKIPPED, NFS_C_TX_SHED, NFS_C_XID_SHED,
       NFS_C_NAME_SHED, NFS_C_GAPS };
enum { NF_PROCEDURE, NF_VERSION, NF_PROCEDURE_NAME };
enum { NB_TX };

#define NFS_PROG 100003u
#define NFS_RECORD_MAX (1024u * 1024 + 4096) /* a TCP record kept whole (a 1 MiB READ/WRITE
                                                and its header); longer ones are skipped */
#define NFS_TX_MAX 256u       /* transactions open at once; past it the oldest is shed */
#define NFS_XID_MAX 256u      /* calls awaiting their reply; past it the oldest is shed */
#define NFS_NAMES_MAX 1024u   /* file handle → name pairs; past it the oldest is shed */
#define NFS_HANDLE_MAX 128u   /* bytes of a file handle (NFSv4: 128, v3: 64, v2: 32) */
#define NFS_NAME_MAX 1024u    /* bytes of a name kept */

/* procedures (RFC 1813 §3; RFC 1094 §2.2 for v2; RFC 7530 §16 ops for v4) */
enum { NFS3_GETATTR = 1, NFS3_SETATTR, NFS3_LOOKUP, NFS3_ACCESS, NFS3_READLINK, NFS3_READ,
       NFS3_WRITE, NFS3_CREATE, NFS3_MKDIR, NFS3_SYMLINK, NFS3_MKNOD, NFS3_REMOVE,
       NFS3_RMDIR, NFS3_RENAME, NFS3_LINK, NFS3_READDIR, NFS3_READDIRPLUS, NFS3_FSSTAT,
       NFS3_FSINFO, NFS3_PATHCONF, NFS3_COMMIT };
enum { NFS2_LOOKUP = 4, NFS2_READ = 6, NFS2_WRITE = 8, NFS2_CREATE = 9, NFS2_REMOVE = 10,
       NFS2_RENAME = 11, NFS2_MKDIR = 14, NFS2_RMDIR = 15 };
enum { NFS4_COMPOUND = 1, NFS4_CLOSE = 4, NFS4_COMMIT = 5, NFS4_CREATE = 6, NFS4_GETFH = 10,
       NFS4_LOOKUP = 15, NFS4_OPEN = 18, NFS4_PUTFH = 22, NFS4_PUTROOTFH = 24, NFS4_READ = 25,
       NFS4_REMOVE = 28, NFS4_WRITE = 38 };

struct nfs_bytes {               /* a small bounded copy (handle, name) */
    uint8_t *p;
    uint32_t len;
};

struct nfs_tx {
    uint64_t id;                 /* 1, 2 …: EVE's nfs.id; tx_id is id - 1 */
    uint32_t xid, procedure, version;
    uint32_t auth_type, uid, gid;
    struct nfs_bytes machine, handle, name, rename_to;
    uint32_t rpc_status, nfs_status;
    bool file_tx, first, last, has_rename;
    uint8_t file_dir;            /* a file tx: 0 WRITEs (to the server), 1 READs */
    uint32_t chunks, last_xid;
    uint32_t file;               /* its file (core/files.h), 0: none */
    uint64_t next_off;           /* a transfer: the offset the next chunk should have */
    bool hole;                   /* a chunk came at another one (one lost: a gap, a datagram):
                                    its file is cut short */
    bool done;                   /* reported */
};

struct nfs_call {                /* a call awaiting its reply */
    uint32_t xid, version, procedure;
    struct nfs_bytes handle, name;
    uint64_t offset;             /* a READ's */
    bool used;
};

struct nfs_name {                /* a file handle's name */
    struct nfs_bytes handle, name;
};

struct nfs_state {
    struct rpc_rec rec[2];       /* TCP record marking, per direction */
    struct nfs_tx *tx[NFS_TX_MAX]; /* open transactions, oldest first */
    uint32_t ntx;
    struct nfs_tx *cur;          /* the one rules and EVE read now */
    struct nfs_call calls[NFS_XID_MAX];
    uint32_t call_next;          /* ring position of the next call stored */
    struct nfs_name names[NFS_NAMES_MAX];
    uint32_t name_next, nnames;
    uint64_t next_id;
    uint32_t version;            /* the flow's NFS version (the first call's) */
    struct mon_flow *f;          /* the flow being parsed now (for raising) */
};

/* bytes.c-like helpers (tx.c) */
bool nfs_bytes_set(struct nfs_bytes *b, const uint8_t *d, uint32_t n, uint32_t max);
void nfs_bytes_free(struct nfs_bytes *b);
/* tx.c: transactions, calls, names */
struct nfs_tx *nfs_tx_new(struct pflow *pf, const struct rpc_msg *m);
struct nfs_tx *nfs_tx_by_xid(struct nfs_state *st, uint32_t xid);
struct nfs_tx *nfs_file_tx(struct nfs_state *st, const struct nfs_bytes *handle, int dir);
void nfs_tx_finish(struct pflow *pf, struct nfs_tx *tx);  /* report it and free it */
void nfs_tx_free(struct nfs_tx *tx);
struct nfs_call *nfs_call_add(struct pflow *pf, const struct rpc_msg *m);
struct nfs_call *nfs_call_take(struct nfs_state *st, uint32_t xid);
void nfs_call_clear(struct nfs_call *c);
void nfs_name_put(struct pflow *pf, const uint8_t *h, uint32_t hl, const uint8_t *n,
                  uint32_t nl);
const struct nfs_bytes *nfs_name_of(const struct nfs_state *st, const uint8_t *h, uint32_t hl);
/* file transfers (tx.c): found or begun (the request event runs), a chunk of a READ reply or
 * WRITE call, the end a COMMIT / CLOSE says */
struct nfs_tx *nfs_file_begin(struct pflow *pf, const struct rpc_msg *m, int dir,
                              uint32_t version, uint32_t procedure, const uint8_t *h,
                              uint32_t hl, bool creds);
void nfs_file_chunk(struct pflow *pf, const struct rpc_msg *m, int dir, uint32_t version,
                    uint32_t procedure, const uint8_t *h, uint32_t hl, uint64_t off,
                    const uint8_t *data, uint32_t len, bool last);
void nfs_file_close(struct pflow *pf, const uint8_t *h, uint32_t hl, uint32_t xid);
/* nfs3.c (v2 and v3) and nfs4.c */
void nfs3_call(struct pflow *pf, const struct rpc_msg *m);
void nfs3_reply(struct pflow *pf, const struct rpc_msg *m, struct nfs_call *c);
void nfs4_call(struct pflow *pf, const struct rpc_msg *m);
void nfs4_reply(struct pflow *pf, const struct rpc_msg *m, struct nfs_call *c);
void nfs_malformed(struct pflow *pf, int dir);
/* stream.c */
void nfs_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void nfs_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                     size_t n);
void nfs_end(struct pflow *pf, struct mon_flow *f);
void nfs_gap(struct pflow *pf, struct mon_flow *f, int dir);
void nfs_free(void *state);
uint32_t nfs_tx_id(const struct pflow *pf);
struct nfs_state *nfs_state_of(struct pflow *pf, int dir);
/* names.c */
const char *nfs_procedure_name(uint32_t version, uint32_t procedure); /* NULL: a number */
/* the procedure's name as one id for every version (the field nfs_procedure.name); -1: none */
extern const struct proto_value nfs_procedure_names[];
int64_t nfs_procedure_name_id(uint32_t version, uint32_t procedure);
const char *nfs_status_name(uint32_t status);                        /* NULL: a number */
/* probe.c */
enum probe_verdict nfs_probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict nfs_probe_tcp(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict nfs_probe_tcp_reply(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool nfs_eve(struct pflow *pf, struct osprey_jw *w);

#endif
