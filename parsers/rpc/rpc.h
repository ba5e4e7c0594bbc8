/* rpc.h — ONC-RPC (RFC 5531) as the protocols on it read it (NFS, the sunrpc protocol): an XDR
 * cursor, a message's header (a CALL's program, version, procedure and credentials, a REPLY's
 * status) and record marking over TCP (RFC 5531 §11: fragments behind a 4-byte mark, the
 * high bit ending a record). Bounded: every length is checked against the bytes there are.
 * Internal to parsers/ (rpc/, nfs/). */
#ifndef OSPREY_RPC_H
#define OSPREY_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers_int.h"

/* ---- XDR cursor ---- */
struct xdr {
    const uint8_t *p;
    size_t n, at;
    bool bad;               /* a read ran past the end: every later read fails too */
};
static inline void xdr_init(struct xdr *x, const uint8_t *p, size_t n)
{
    x->p = p, x->n = n, x->at = 0, x->bad = false;
}
bool xdr_u32(struct xdr *x, uint32_t *v);
bool xdr_u64(struct xdr *x, uint64_t *v);
/* variable-length opaque / string: its bytes (in place) and length, padding skipped; max
 * bounds the length a field may claim (more: bad) */
bool xdr_opaque(struct xdr *x, const uint8_t **d, uint32_t *len, uint32_t max);
bool xdr_skip(struct xdr *x, size_t n);   /* n bytes, rounded up to 4 */
static inline size_t xdr_left(const struct xdr *x) { return x->bad ? 0 : x->n - x->at; }
static inline const uint8_t *xdr_here(const struct xdr *x) { return x->p + x->at; }

/* ---- messages ---- */
enum { RPC_CALL = 0, RPC_REPLY = 1 };
enum { RPC_AUTH_NULL = 0, RPC_AUTH_UNIX = 1, RPC_AUTH_GSS = 6 };
#define RPC_MACHINE_MAX 255u    /* AUTH_UNIX machine name (RFC 5531: 255) */
#define RPC_AUTH_BODY_MAX 400u  /* an opaque_auth body (RFC 5531: 400) */

struct rpc_msg {
    uint32_t xid, type;
    /* CALL */
    uint32_t rpcvers, prog, vers, proc;
    uint32_t cred_flavor;
    const uint8_t *machine;     /* AUTH_UNIX: in the message's bytes */
    uint32_t machine_len, uid, gid; /* (uid, gid read as Suricata reads them: right after the
                                       name, its XDR padding not skipped) */
    bool unix_ok;               /* an AUTH_UNIX body that decoded */
    /* REPLY */
    uint32_t reply_stat;        /* 0 MSG_ACCEPTED, 1 MSG_DENIED */
    uint32_t accept_stat;       /* accepted: 0 SUCCESS … */
    /* the procedure's arguments (CALL) or results (accepted REPLY), in place */
    const uint8_t *body;
    size_t body_len;
};
/* Decode a message's header from d[0..n). false: not an ONC-RPC message (a CALL whose
 * rpcvers is not 2, an unknown type, a header cut short). */
bool rpc_decode(struct rpc_msg *m, const uint8_t *d, size_t n);
/* Does d[0..n) start like a CALL (xid, 0, rpcvers 2, …) of program prog (0: any)? YES / NO /
 * NEED_MORE (fewer than the 24 bytes that say). */
enum probe_verdict rpc_probe_call(const uint8_t *d, size_t n, uint32_t prog);
/* Like a REPLY: xid, 1, reply_stat 0 or 1. */
enum probe_verdict rpc_probe_reply(const uint8_t *d, size_t n);

/* ---- record marking (TCP) ---- */
#define RPC_RESYNC_WIN 28       /* a mark and a CALL's header up to its procedure */
struct rpc_rec {
    struct pbuf rec;            /* the record's fragments so far (without marks) */
    uint8_t mark[4];
    uint8_t nmark;              /* bytes of the next mark read */
    uint32_t frag_left;         /* bytes of the current fragment still to come */
    bool last;                  /* the current fragment ends the record */
    uint64_t skip;              /* bytes of an over-long record still to skip */
    bool skipping;              /* the record being skipped is still going */
    /* after a gap (rpc_rec_gap): the bytes are scanned for a record's start, a mark then a
     * CALL of resync_prog (or a REPLY), through a window of the candidate's first bytes */
    bool resync, resync_call;
    uint32_t resync_prog;
    uint8_t win[RPC_RESYNC_WIN];
    uint8_t nwin;
};
/* Feed bytes d[0..n) of a stream; each complete record (at most max bytes) is given to
 * fn(arg, record, len). Records longer than max are skipped: *skipped counts them. */
typedef void (*rpc_record_fn)(void *arg, const uint8_t *d, size_t n);
void rpc_rec_feed(struct rpc_rec *r, const uint8_t *d, size_t n, uint32_t max,
                  rpc_record_fn fn, void *arg, uint64_t *skipped);
void rpc_rec_free(struct rpc_rec *r);
/* Bytes were lost (a gap): the record being read is dropped, and what follows is skipped up
 * to the next record start — a mark of at least a header's length then a CALL to program
 * prog (call) or a REPLY (!call) —, where rpc_rec_feed resumes (the way Suricata's NFS parser
 * finds its records again after a gap). */
void rpc_rec_gap(struct rpc_rec *r, bool call, uint32_t prog);

/* names (Suricata's strings; NULL: none, the caller prints the number) */
const char *rpc_auth_name(uint32_t flavor);
const char *rpc_status_name(uint32_t reply_stat);

#endif
