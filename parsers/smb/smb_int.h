/* smb_int.h — what the SMB parser's files share: its state (each direction's NetBIOS message
 * being read, the requests waiting for their response, the trees and files open, the
 * transaction in force) and its own numbering of events, buffers, anomalies and counters (rows
 * of its descriptor, smb.c). Internal to parsers/smb. */
#ifndef OSPREY_SMB_INT_H
#define OSPREY_SMB_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def smb_proto;

/* rows of smb_proto.events (in the order a transaction reaches them) */
enum {
    SMB_EV_PDU_TS, SMB_EV_REQUEST, SMB_EV_TREE_TS, SMB_EV_FILE_TS,
    SMB_EV_PDU_TC, SMB_EV_RESPONSE, SMB_EV_TREE, SMB_EV_FILE_TC
};
enum {
    SMB_C_MSGS, SMB_C_TREES, SMB_C_MALFORMED, SMB_C_PENDING_SHED, SMB_C_TXS, SMB_C_MSG_SHED,
    SMB_C_FILES, SMB_C_FILES_SHED, SMB_C_FILE_BYTES_SHED, SMB_C_PIPE_BYTES, SMB_C_GAPS
};
enum {
    SMB_AE_MALFORMED, SMB_AE_RECORD_OVERFLOW, SMB_AE_FILE_OVERLAP, SMB_AE_REQ_TO_CLIENT,
    SMB_AE_RESP_TO_SERVER, SMB_AE_NBSS_TYPE, SMB_AE_NTLMSSP_REQ, SMB_AE_BAD_DIALECTS,
    SMB_AE_NEGO_READ_LARGE, SMB_AE_NEGO_WRITE_LARGE, SMB_AE_READ_REQ_LARGE,
    SMB_AE_READ_RESP_LARGE, SMB_AE_WRITE_REQ_LARGE
};
enum smb_buf {
    SMBB_SHARE, SMBB_PIPE, SMBB_NTLM_USER, SMBB_NTLM_DOMAIN, SMBB_TX, SMBB_FILE_TS,
    SMBB_FILE_TC, SMBB_PDU, SMBB_HDR, SMBB_DATA, SMBB_FILENAME
};

#define SMB_MSG_MAX (256u << 10) /* bytes of one NetBIOS message kept (more: counted, cut) */
/* Suricata's default app-layer.protocols.smb.max-read-size / max-write-size: a negotiate
 * offering more, a read or write asking more, raises its event (the data is not read) */
#define SMB_RW_SIZE_MAX (16u << 20)
#define SMB_PATH_MAX 1024        /* bytes of a share path or file name kept */
#define SMB_PENDING_MAX 64       /* requests awaiting their response (more: counted, shed) */
#define SMB_TREES_MAX 16         /* trees connected per flow (more: the oldest reused) */
#define SMB_FILES_MAX 32         /* files open per flow (more: counted, shed) */
#define SMB_FILE_TX 0xffffffffu  /* a file's transaction id until its close (files.c) */
#define SMB_FILE_MAX (1u << 20)  /* bytes of a file kept for file.data (more: counted) */
#define SMB_HOLES_MAX 4          /* ranges of a file's kept bytes no write has filled yet */
#define SMB_NTLM_MAX 256         /* bytes of an NTLMSSP user / domain / host kept */
#define SMB_NATIVE_MAX 64        /* bytes of an SMB1 session setup's native OS / LAN manager */
#define SMB_STATE_MAX 8192       /* a flow's state, without the tables and bytes it holds (the
                                    request and file tables are made when first used) */

/* SMB1 commands (MS-CIFS 2.2.4) and SMB2 commands (MS-SMB2 2.2.1) read here */
enum {
    SMB1_CLOSE = 0x04, SMB1_TRANS = 0x25, SMB1_READ_ANDX = 0x2e, SMB1_WRITE_ANDX = 0x2f,
    SMB1_NEGOTIATE = 0x72, SMB1_SESSION_SETUP = 0x73, SMB1_LOGOFF = 0x74,
    SMB1_TREE_CONNECT = 0x75, SMB1_NT_CREATE = 0xa2
};
enum {
    SMB2_NEGOTIATE = 0, SMB2_SESSION_SETUP = 1, SMB2_TREE_CONNECT = 3, SMB2_CREATE = 5,
    SMB2_CLOSE = 6, SMB2_READ = 8, SMB2_WRITE = 9, SMB2_IOCTL = 11
};

struct smb_side {
    uint8_t nb[8];          /* the NetBIOS session header being read, and the SMB magic */
    uint32_t nb_len;        /* bytes of it read */
    uint32_t left;          /* bytes of the current message still to come */
    uint32_t size;          /* the current message's length */
    struct pbuf msg;        /* its first SMB_MSG_MAX bytes */
    bool lost;              /* framing lost (midstream, garbage): looking for a header */
    uint8_t win[8];         /* while lost: the last 8 bytes seen */
    uint32_t win_len;
};

/* A request waiting for its response (by SMB2 MessageId / SMB1 MID). */
struct smb_req {
    uint64_t id;
    uint64_t tx_id;         /* the transaction it began (its record's id) */
    uint64_t session;       /* SMB2 SessionId / SMB1 UID */
    uint8_t ver;            /* 1 or 2 */
    uint16_t cmd;
    uint8_t fid[16];        /* the file a read / close / ioctl names */
    uint8_t fid_len;
    uint64_t off;           /* a read's offset */
    uint32_t tree;          /* the tree it was sent on */
    uint32_t disposition;   /* a create's */
    bool pipe;              /* a tree connect's path names IPC$; a create on a pipe tree */
    bool tree_unknown;      /* a create on a tree not seen connected (midstream) */
    struct pbuf name;       /* a tree connect's path, a create's file name */
    struct pbuf dialects;   /* an SMB1 negotiate's dialect strings */
};

struct smb_tree {
    uint32_t id;
    bool used, pipe;
};

struct smb_file {
    bool used, pipe, overlap;
    bool guess;             /* its tree was not seen: a pipe if its first bytes are DCERPC */
    uint8_t dce;            /* a pipe's bytes: 0 undecided, 1 DCERPC (to the guest), 2 not */
    uint8_t fid[16];
    uint8_t fid_len;
    struct pbuf name;       /* at most SMB_PATH_MAX bytes */
    struct pbuf data[2];    /* 0: what was written (to the server), 1: what was read */
    uint64_t end[2];        /* the highest byte written / read + 1 */
    bool reported[2];       /* its write / read transaction's record is out (Suricata: one
                               transaction per file and direction, whatever the chunks) */
    /* the file layer's file of each direction (core/files.h: hashes, size, magic, fileinfo),
     * opened with its first write / read; fed in order up to fed[dir] (a chunk past it waits
     * in data[dir] until the close) */
    bool opened[2];
    uint32_t pfid[2];
    uint64_t fed[2];
    /* the zeros in data[dir] no write has filled yet (a write past the end, then nothing
     * before it: a lost one); more ranges than SMB_HOLES_MAX: holes_lost (the file is then
     * cut short at its close) */
    struct { uint32_t at, len; } hole[2][SMB_HOLES_MAX];
    uint8_t nholes[2];
    bool holes_lost[2];
};

/* The transaction in force: a request and its response (Suricata's SMB transaction). */
struct smb_tx {
    uint64_t id;            /* 1, 2 …: the flow's transactions in order */
    uint64_t msg_id;        /* its request's SMB2 MessageId / SMB1 MID */
    bool pending;           /* its request waits in the table (its answer reports it) */
    uint8_t ver;            /* the request's header: 1 or 2 */
    uint16_t cmd;
    uint32_t status;
    bool has_req, has_resp;
    uint32_t tree_id;
    uint64_t session_id;
    bool has_tree;
    uint8_t name[SMB_PATH_MAX]; /* a tree connect's share, a create / read / write's file */
    uint32_t name_len;
    bool is_tree, is_file, is_pipe, has_disposition, has_fid;
    uint32_t disposition;
    uint8_t fid[16];
    uint8_t fid_len;
    bool ntlm;              /* a session setup carrying an NTLMSSP authentication */
    uint8_t user[SMB_NTLM_MAX], domain[SMB_NTLM_MAX], host[SMB_NTLM_MAX];
    uint32_t user_len, domain_len, host_len;
    bool dcerpc;            /* its bytes went to the DCERPC guest (named pipe) */
    bool dos_status;        /* SMB1 without NT status: status is a DOS class and code */
    /* an SMB1 session setup's native OS and LAN manager: [0] the request's, [1] the answer's */
    uint8_t native_os[2][SMB_NATIVE_MAX], native_lm[2][SMB_NATIVE_MAX];
    uint32_t native_os_len[2], native_lm_len[2];
    bool native[2];
    uint32_t events;        /* app-layer events set on it (bits of SMB_AE_*) */
};

struct smb_state {
    struct smb_side side[2];
    struct smb_req *pend;   /* SMB_PENDING_MAX requests, made when the first one comes */
    struct smb_tree tree[SMB_TREES_MAX];
    struct smb_file *file;  /* SMB_FILES_MAX files, made when the first one opens */
    uint32_t tree_next;     /* the next tree slot reused when all are taken */
    /* the tree connect answered last (smb.share / smb.named_pipe) */
    uint8_t share[SMB_PATH_MAX];
    uint32_t share_len;
    bool is_pipe, has_tree;
    struct smb_tx tx;
    uint64_t ntx;
    uint32_t ev_pending;    /* events of the message being read, for its transaction */
    bool dce_pending;       /* its bytes went to DCERPC (its transaction's dcerpc object) */
    uint8_t version;        /* the header of the last message: 1 or 2 */
    uint16_t dialect;       /* SMB2's negotiated dialect (0x0202 …); 0 none yet */
    uint32_t max_read, max_write; /* SMB2's negotiated MaxReadSize / MaxWriteSize; 0 none */
    char dialect1[32];      /* SMB1's negotiated dialect's name */
    bool negotiated;
    bool seen_msg;          /* a message was read */
    bool reversed;          /* the first one was an answer sent to the server or a request to
                               the client (picked up midstream): the sides are swapped, as
                               Suricata reverses such a flow */
    /* the frames of the message being run (SMBB_PDU / HDR / DATA): its bytes and header size */
    const uint8_t *pdu;
    uint32_t pdu_len, hdr_len;
    uint8_t pdu_ver;
    /* the file whose data is being inspected (SMB_EV_FILE_*) */
    const struct smb_file *cur_file;
};

/* parse.c: NetBIOS framing */
void smb_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void smb_end(struct pflow *pf, struct mon_flow *f);
/* Bytes of direction dir were lost: the message being read is dropped, the framing found
 * again. */
void smb_gap(struct pflow *pf, struct mon_flow *f, int dir);
void smb_free(void *state);
/* One whole message (or its first SMB_MSG_MAX bytes, n of them) of direction dir. */
void smb_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *m, uint32_t n);
/* smb1.c / smb2.c: one SMB1 message (an AndX chain) / one SMB2 message (a compound) */
void smb1_message(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                  const uint8_t *m, uint32_t n);
void smb2_message(struct pflow *pf, struct mon_flow *f, int dir, struct smb_state *st,
                  const uint8_t *m, uint32_t n);
/* tx.c: requests, responses, transactions, trees */
struct smb_req *smb_req_add(struct pflow *pf, struct smb_state *st, uint8_t ver, uint64_t id,
                            uint16_t cmd);
/* The request (ver, id) of command cmd (an SMB1 AndX chain shares its MID). */
struct smb_req *smb_req_find(struct smb_state *st, uint8_t ver, uint64_t id, uint16_t cmd);
void smb_req_drop(struct smb_req *q);
/* A request came: a new transaction in force (the caller adds what it read, then runs
 * SMB_EV_REQUEST). */
void smb_tx_begin(struct pflow *pf, struct mon_flow *f, struct smb_state *st, uint8_t ver,
                  uint16_t cmd, uint64_t msg_id, struct smb_req *q);
/* The flow ends: requests never answered are reported (their records, without status). */
/* (true: some were) */
bool smb_tx_flush(struct pflow *pf, struct mon_flow *f, struct smb_state *st);
/* The flow ended with files cut short and no transaction left to report them with: a record
 * of the file's own transaction (its write or read, as Suricata's file transaction), which
 * reports them (fileinfo). */
void smb_tx_file_end(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                     const struct smb_file *fl, int dir);
/* Its final response: the transaction it completes (the one in force, or a new one for a
 * response without its request); the caller adds what it read, then smb_tx_finish runs
 * SMB_EV_RESPONSE and reports it (the record). */
struct smb_tx *smb_tx_answer(struct smb_state *st, uint8_t ver, uint16_t cmd, uint32_t status,
                             const struct smb_req *q);
void smb_tx_finish(struct pflow *pf, struct mon_flow *f, struct smb_state *st);
/* An app-layer event of the request being read: raised now, and set on its transaction, whose
 * response raises it again to the client (Suricata inspects a transaction's events both
 * ways). */
void smb_tx_anomaly(struct pflow *pf, struct mon_flow *f, struct smb_state *st, int dir,
                    unsigned e);
void smb_tree_set(struct smb_state *st, uint32_t id, bool pipe);
const struct smb_tree *smb_tree_find(const struct smb_state *st, uint32_t id);
/* The tree connect answered ok: the share in force, its events. */
void smb_tree_connected(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                        uint8_t ver, const struct smb_req *q, bool pipe);
/* files.c: the file producer (one place: open with a name, data at an offset, close) */
struct smb_file *smb_file_open(struct pflow *pf, struct smb_state *st, const uint8_t *fid,
                               uint8_t fid_len, const struct smb_req *create);
struct smb_file *smb_file_find(struct smb_state *st, const uint8_t *fid, uint8_t fid_len);
/* Bytes of the file at offset, written (dir 0) or read (dir 1): a pipe's go to DCERPC. */
void smb_file_data(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                   struct smb_file *fl, int dir, uint64_t off, const uint8_t *d, uint32_t n);
/* Bytes of a named pipe (an SMB1 transaction, an ioctl; fl the pipe's file if known). */
void smb_pipe_data(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                   struct smb_file *fl, int dir, const uint8_t *d, uint32_t n);
/* The file is closed (truncated: the flow ends first): its events, its file-layer files. */
void smb_file_close(struct pflow *pf, struct mon_flow *f, struct smb_state *st,
                    struct smb_file *fl, bool truncated);
/* ntlmssp.c: an NTLMSSP AUTHENTICATE message in a security blob into the transaction */
bool smb_ntlmssp(struct smb_tx *tx, const uint8_t *blob, uint32_t n);
/* eve.c */
bool smb_eve(struct pflow *pf, struct osprey_jw *w);
/* A path of n bytes, UTF-16LE when unicode, into out (ASCII kept, other characters as '?'),
 * at most max bytes, ending at a NUL; returns its length. */
uint32_t smb_str(uint8_t *out, uint32_t max, const uint8_t *p, uint32_t n, bool unicode);
static inline uint32_t smb_path(uint8_t *out, const uint8_t *p, uint32_t n, bool unicode)
{
    return smb_str(out, SMB_PATH_MAX, p, n, unicode);
}
/* probe.c */
enum probe_verdict smb_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* The same, from the client (a request) or from the server (a reply). */
enum probe_verdict smb_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict smb_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);

#endif
