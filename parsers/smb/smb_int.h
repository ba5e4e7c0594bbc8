/* smb_int.h — what the SMB parser's files share: its state (each direction's NetBIOS message
 * being read, the tree connects waiting for their response, the share in force) and its own
 * numbering of events, buffers and counters (rows of its descriptor, smb.c). Internal to
 * parsers/smb. */
#ifndef OSPREY_SMB_INT_H
#define OSPREY_SMB_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def smb_proto;

/* rows of smb_proto.events / .counters; buffer keys */
enum { SMB_EV_TREE };
enum { SMB_C_MSGS, SMB_C_TREES, SMB_C_MALFORMED, SMB_C_PENDING_SHED };
enum smb_buf { SMBB_SHARE, SMBB_PIPE };

#define SMB_HEAD_KEEP 4096  /* bytes of a message kept (its header and a command's fixed part) */
#define SMB_PATH_MAX 1024   /* bytes of a share path kept (after UTF-16 to ASCII/UTF-8) */
#define SMB_PENDING_MAX 64  /* tree connects awaiting their response (more: counted, shed) */
#define SMB_STATE_MAX 8192  /* a flow's state, without the bytes it holds (test_proto_smb) */

struct smb_side {
    uint8_t nb[4];          /* the NetBIOS session header being read */
    uint32_t nb_len;        /* bytes of it read */
    uint32_t left;          /* bytes of the current message still to come */
    struct pbuf msg;        /* its first SMB_HEAD_KEEP bytes */
};

/* A tree connect waiting for its response. Its path is copied at its own length (a pbuf
 * bounded by SMB_PATH_MAX), so a flow's state stays small however many wait: 64 inline
 * SMB_PATH_MAX arrays made every SMB flow's state 66 KiB. */
struct smb_pending {
    uint64_t id;            /* SMB2 MessageId, SMB1 MID */
    uint8_t ver;            /* 1 or 2 */
    struct pbuf path;
};

struct smb_state {
    struct smb_side side[2];
    struct smb_pending pend[SMB_PENDING_MAX];
    uint32_t npend;
    /* the tree connect in force (its response came) */
    uint8_t share[SMB_PATH_MAX];
    uint32_t share_len;
    bool is_pipe, has_tree;
    uint8_t version;        /* the dialect family of the last message: 1 or 2 (3: SMB2 transform) */
};

/* parse.c */
void smb_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void smb_free(void *state);
/* One whole message (or its first SMB_HEAD_KEEP bytes, n of them) of direction dir. */
void smb_message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *m, uint32_t n);
/* A path of n bytes, UTF-16LE when unicode, into out (ASCII kept, other characters as '?'),
 * ending at a NUL; returns its length. */
uint32_t smb_path(uint8_t *out, const uint8_t *p, uint32_t n, bool unicode);
/* probe.c */
enum probe_verdict smb_probe(const uint8_t *d, size_t n, const struct mon_flow *f);

#endif
