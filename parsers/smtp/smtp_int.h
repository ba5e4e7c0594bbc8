/* smtp_int.h — what the SMTP parser's files share: its state (the envelope and message of
 * the transaction being read, commands waiting for their replies, the DATA / BDAT modes) and
 * its own numbering of events, anomalies, counters and buffers (rows of its descriptor,
 * smtp.c). The message itself is read by the MIME reader (../mime/). Internal to
 * parsers/smtp. */
#ifndef OSPREY_SMTP_INT_H
#define OSPREY_SMTP_INT_H

#include "mime.h"
#include "parsers_int.h"

extern const struct osprey_proto_def smtp_proto;

/* rows of smtp_proto.events (in the order a transaction reaches them) */
enum { SMTP_EV_HELO, SMTP_EV_MAIL_FROM, SMTP_EV_RCPT_TO, SMTP_EV_EMAIL, SMTP_EV_FILE,
       SMTP_EV_DATA_DONE, SMTP_EV_REPLY };
/* rows of smtp_proto.anomalies: Suricata's smtp app-layer events, in its order */
enum {
    SMTP_A_INVALID_REPLY, SMTP_A_UNMATCHED_REPLY, SMTP_A_CMD_TOO_LONG, SMTP_A_REPLY_TOO_LONG,
    SMTP_A_INVALID_PIPELINED, SMTP_A_BDAT_TOO_LONG, SMTP_A_NO_WELCOME, SMTP_A_TLS_REJECTED,
    SMTP_A_DATA_REJECTED, SMTP_A_MIME_PARSE_FAILED, SMTP_A_MIME_MALFORMED,
    SMTP_A_MIME_INVALID_BASE64, SMTP_A_MIME_LONG_HEADER_NAME, SMTP_A_MIME_LONG_HEADER_VALUE,
    SMTP_A_MIME_INVALID_QP, SMTP_A_MIME_LONG_LINE, SMTP_A_MIME_LONG_ENC_LINE,
    SMTP_A_MIME_LONG_BOUNDARY, SMTP_A_DUPLICATE_FIELDS, SMTP_A_UNPARSABLE,
    SMTP_A_MIME_LONG_FILENAME, SMTP_A_FAILED_PROTOCOL_CHANGE, SMTP_A_INVALID_BDAT
};
enum { SMTP_C_TXS, SMTP_C_FILES, SMTP_C_STARTTLS, SMTP_C_CMDS_SHED, SMTP_C_LIST_SHED,
       SMTP_C_FILE_BYTES_SHED };
enum smtp_buf {
    SB_HELO, SB_MAIL_FROM, SB_RCPT_TO,
    SB_EM_FROM, SB_EM_TO, SB_EM_CC, SB_EM_SUBJECT, SB_EM_DATE, SB_EM_MSGID, SB_EM_XMAILER,
    SB_EM_RECEIVED, SB_EM_URL, SB_FILE, SB_FILE_NAME, SB_NONE
};
/* the message headers kept (email.*), first occurrence each */
enum { EH_FROM, EH_TO, EH_CC, EH_SUBJECT, EH_DATE, EH_MSGID, EH_XMAILER, EH_N };

#define SMTP_LINE_MAX 4096        /* bytes of a command or reply line kept; the rest skipped */
#define SMTP_RFC_LINE 510         /* longer (without CRLF): Suricata's *_line_len_exceeded */
#define SMTP_DATA_LINE_MAX 8192   /* a longer message line reaches MIME in pieces */
#define SMTP_CMD_MAX 256          /* pipelined commands waiting for replies (more: shed) */
#define SMTP_LIST_MAX 64          /* recipients, Received headers, URLs, attachment names
                                     kept per transaction (more: counted smtp_list_shed) */

#define SMTP_ATTACH_MAX (1u << 20) /* decoded bytes of an attachment kept (cfg attachment-limit) */

/* SMTP's settings (app-layer.protocols.smtp.*; the slot pflow_cfg reads). */
struct smtp_cfg {
    uint32_t attachment_limit;    /* bytes of an attachment kept for file.data */
};

/* a bounded list of strings, back to back in one buffer */
struct slist {
    struct pbuf b;
    uint32_t off[SMTP_LIST_MAX], len[SMTP_LIST_MAX];
    uint32_t n;
};

struct smtp_tx {
    uint32_t id;
    struct pbuf mail_from;
    bool has_mail_from;
    struct slist rcpt;
    uint32_t rcpt_from;           /* first recipient smtp.rcpt_to shows (the new one while
                                     its smtp_rcpt_to event runs, else 0) */
    struct pbuf hdr[EH_N];
    bool has_hdr[EH_N];
    struct slist received, urls, attach;
    struct pbuf file;             /* the attachment being read: its decoded bytes (limited) */
    bool file_active;
    uint32_t file_id;             /* its file in the file layer (core/files.h; 0: none) */
    bool has_data, headers_done, data_done;
};

enum smtp_mode { SM_CMD, SM_DATA, SM_BDAT };
/* what a waiting command is, for its reply */
enum smtp_cmd { SC_OTHER, SC_DATA, SC_DATA_END, SC_BDAT, SC_BDAT_LAST, SC_STARTTLS };

struct smtp_side {
    struct pbuf line;             /* the line being read */
    bool over;                    /* past its limit: the rest of it is skipped */
};

struct smtp_state {
    struct smtp_side side[2];
    struct pbuf helo;
    bool has_helo;
    struct smtp_tx *tx;           /* the transaction being read; NULL: none yet */
    struct smtp_tx *rep;          /* the one being reported (EVE) */
    uint32_t ntx;                 /* transactions begun */
    uint8_t mode;                 /* enum smtp_mode (the client's side) */
    uint64_t bdat_left;           /* BDAT: chunk bytes still to come */
    struct pbuf bline;            /* BDAT: a message line spanning chunks */
    bool bdat_last, in_msg;       /* in_msg: a message (DATA or BDAT chunks) is being read */
    uint8_t q[SMTP_CMD_MAX];      /* enum smtp_cmd of the commands waiting, oldest first */
    uint32_t nq, qhead;
    bool greeted, in_multi, tls;  /* tls: STARTTLS accepted, the flow becomes TLS */
    bool cut;                     /* the message is being ended early: an open file is truncated */
    bool data_cont;               /* the DATA line being read went to MIME in part already */
    char multi[3];
    struct mime *mime;            /* the message's reader (made at the first message: ~13 KiB) */
    /* the flow being parsed now (the MIME reader's callbacks run inside smtp_parse) */
    struct pflow *pf;
    struct mon_flow *f;
};

/* command.c / reply.c / smtp_parse.c */
void smtp_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void smtp_end(struct pflow *pf, struct mon_flow *f);
void smtp_free(void *state);
/* The connection closed: the line buffers and an idle MIME reader go (records stay). */
void smtp_trim(void *state);
void smtp_command(struct smtp_state *st, const uint8_t *l, size_t n, bool trunc);
void smtp_reply(struct smtp_state *st, const uint8_t *l, size_t n, bool trunc);
void smtp_data_line(struct smtp_state *st, const uint8_t *l, size_t n);
/* a long DATA line's first bytes (more of the line follows): to MIME as part of one line */
void smtp_data_part(struct smtp_state *st, const uint8_t *l, size_t n);
void smtp_bdat_bytes(struct smtp_state *st, const uint8_t *d, size_t n);
/* tx.c */
struct smtp_tx *smtp_tx_get(struct smtp_state *st);  /* the open one, made when none */
void smtp_tx_finish(struct smtp_state *st);          /* report it (when it holds anything) */
void smtp_tx_free(struct smtp_tx *t);
bool slist_add(struct slist *l, const uint8_t *d, size_t n);
void smtp_message_begin(struct smtp_state *st);
void smtp_message_end(struct smtp_state *st);
/* Every attachment's bytes go through here: its name, a piece of its decoded bytes, and
 * whether it is whole. The one place the file layer is fed (core/files.h: the file objects,
 * hashes, magic, fileinfo and filestore). */
void smtp_file_chunk(struct smtp_state *st, const uint8_t *name, size_t nl, const uint8_t *d,
                     size_t n, bool end);
/* probe.c */
enum probe_verdict smtp_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict smtp_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool smtp_eve(struct pflow *pf, struct osprey_jw *w);

#endif
