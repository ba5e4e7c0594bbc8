/* ftp_int.h — what the FTP parser's files share: its state (commands and replies as
 * transactions) and its own numbering of events, anomalies, counters, buffers and fields
 * (rows of its descriptor, ftp.c). Internal to parsers/ftp. */
#ifndef OSPREY_FTP_INT_H
#define OSPREY_FTP_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def ftp_proto, ftp_data_proto;

/* rows of ftp_proto.events / .anomalies / .counters; buffer and field keys */
enum { FTP_EV_REQUEST, FTP_EV_REPLY, FTP_EV_DONE };
enum { FTP_A_REQ_TOO_LONG, FTP_A_RESP_TOO_LONG, FTP_A_TOO_MANY_TX, FTP_A_FILE_BEFORE_PORT,
       FTP_A_FILE_WITHOUT_NAME };
enum { FTP_C_TXS, FTP_C_TX_SHED, FTP_C_LINES_SHED, FTP_C_EXPECT, FTP_C_EXPECT_SHED };
enum ftp_buf { FB_COMMAND, FB_COMMAND_DATA, FB_REPLY, FB_CODE, FB_TX, FB_LINE };
enum ftp_fld { FF_DYN_PORT, FF_MODE, FF_REPLY_RECEIVED, FF_BOUNCE };
enum ftp_mode { FTP_MODE_NONE, FTP_MODE_ACTIVE, FTP_MODE_PASSIVE };

#define FTP_LINE_MAX 4096   /* bytes of a command or reply line kept by default (Suricata's
                               max-line-length; cfg max-line-length): the rest is cut, flagged */
#define FTP_TX_MAX 256      /* commands waiting for their reply at most (cfg max-tx, its
                               default); past the limit: too_many_transactions, and the
                               client's side is no longer parsed (counted: ftp_tx_shed) */
#define FTP_REPLY_LINES 32  /* reply lines kept per transaction (more: ftp_lines_shed) */

struct ftp_tx {
    bool has_cmd;             /* false: a reply nobody asked for (the greeting) */
    struct pbuf cmd;          /* the command line without its line end (<= FTP_LINE_MAX) */
    uint32_t verb_len;        /* the command word; its data follows one space */
    struct pbuf reply;        /* the reply lines' texts, back to back */
    uint32_t off[FTP_REPLY_LINES], len[FTP_REPLY_LINES];
    char code[FTP_REPLY_LINES][3];
    bool has_code[FTP_REPLY_LINES];
    uint32_t nlines;
    bool cmd_trunc, reply_trunc, reply_received;
    int32_t dyn_port;         /* -1: none announced */
    uint8_t mode;             /* enum ftp_mode */
    bool is_port;             /* a PORT command (ftpbounce looks at those) */
    bool bounce;              /* a PORT naming another host than the client (ftpbounce) */
};

struct ftp_side {
    struct pbuf line;         /* the line being read (its first FTP_LINE_MAX bytes) */
    bool over;                /* the line went past FTP_LINE_MAX: the rest is skipped */
};

/* FTP's settings (app-layer.protocols.ftp.*; the slot pflow_cfg reads). */
struct ftp_cfg {
    uint32_t max_tx;   /* commands waiting for replies (FTP_TX_MAX) */
    uint32_t max_line; /* bytes of a line kept (FTP_LINE_MAX) */
};

struct ftp_state {
    struct ftp_side side[2];
    struct ftp_tx *q[FTP_TX_MAX]; /* transactions not finished, oldest first */
    uint32_t nq;
    char multi[3];            /* a multi-line reply's code while one is open */
    bool in_multi;
    struct ftp_tx *cur;       /* the transaction rules and records read now */
    struct ftp_tx *last;      /* the latest finished one (kept for late readers) */
    int32_t dyn_port;         /* the data port last announced (PORT, EPRT, PASV, EPSV) */
};

/* ---- ftp-data: the data connection a RETR / STOR announced ---- */
enum { FD_EV_OPEN_TO_SERVER, FD_EV_OPEN_TO_CLIENT, FD_EV_TO_SERVER, FD_EV_TO_CLIENT };
enum { FD_C_FILES, FD_C_BYTES_SHED };
enum { FD_CMD_STOR = 1, FD_CMD_RETR = 2 };
#define FTP_DATA_MAX (1u << 20) /* bytes of a transfer kept for file.data (more: counted) */

struct ftp_data_state {
    uint8_t command;          /* FD_CMD_*: what the control connection asked */
    struct pbuf name;         /* the command's argument: the file's name */
    struct pbuf data[2];      /* the bytes each way (the file one way), FTP_DATA_MAX each */
    bool opened;              /* the open events ran (the first bytes came) */
    uint32_t file;            /* the transfer as a file (core/files.h); 0: not opened yet */
    uint8_t file_dir;         /* the direction its bytes go (the first bytes' direction) */
    bool reported;
};

/* control.c */
void ftp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void ftp_end(struct pflow *pf, struct mon_flow *f);
void ftp_free(void *state);
/* The port a PORT / EPRT argument or a 227 / 229 reply text announces; -1 when none. */
int32_t ftp_port_of_port(const uint8_t *d, size_t n);
/* Does a PORT argument name another IPv4 address than addr (4 bytes)? False when it names
 * none. */
bool ftp_port_elsewhere(const uint8_t *d, size_t n, const uint8_t *addr);
int32_t ftp_port_of_eprt(const uint8_t *d, size_t n);
int32_t ftp_port_of_227(const uint8_t *d, size_t n);
int32_t ftp_port_of_229(const uint8_t *d, size_t n);
/* data.c: ftp-data's parser and EVE object */
void ftp_data_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void ftp_data_end(struct pflow *pf, struct mon_flow *f);
void ftp_data_free(void *state);
bool ftp_data_eve(struct pflow *pf, struct osprey_jw *w);
/* probe.c */
enum probe_verdict ftp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict ftp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool ftp_eve(struct pflow *pf, struct osprey_jw *w);

#endif
