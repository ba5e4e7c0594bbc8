/* imap_int.h — what the IMAP parser's files share: its state (the tagged commands waiting for
 * their completion, a literal being read, a message literal going through the MIME reader)
 * and its own numbering of events, counters and buffers (rows of its descriptor, imap.c).
 * Internal to parsers/imap. */
#ifndef OSPREY_IMAP_INT_H
#define OSPREY_IMAP_INT_H

#include "mime.h"
#include "parsers_int.h"

extern const struct osprey_proto_def imap_proto;

/* rows of imap_proto.events, in the order a transaction reaches them */
enum { IMAP_EV_REQUEST, IMAP_EV_FILE_TS, IMAP_EV_FILE_TC, IMAP_EV_RESPONSE,
       IMAP_EV_REQUEST_DONE, IMAP_EV_RESPONSE_DONE };
enum { IMAP_C_TXS, IMAP_C_FILES, IMAP_C_STARTTLS, IMAP_C_CMDS_SHED, IMAP_C_LITERAL_BYTES,
       IMAP_C_FILE_BYTES_SHED };
enum { IB_FILE_TS, IB_FILE_TC, IB_NONE };

#define IMAP_LINE_MAX 4096        /* bytes of a command or response line kept; the rest skipped */
#define IMAP_MSG_LINE_MAX 8192    /* a longer message line reaches MIME in pieces */
#define IMAP_TAG_MAX 32           /* bytes of a tag kept */
#define IMAP_TX_MAX 256           /* commands waiting for their completion (more: shed) */
#define IMAP_ATTACH_MAX (1u << 20) /* decoded bytes of an attachment kept (cfg attachment-limit) */

struct imap_cfg {
    uint32_t attachment_limit;    /* bytes of an attachment kept for file.data */
};

struct imap_tx {
    uint32_t id;
    struct imap_tx *next;
    uint8_t tag[IMAP_TAG_MAX];
    uint32_t taglen;
    bool starttls;                /* the command was STARTTLS */
    struct pbuf file[2];          /* the attachment being read per direction (limited) */
    bool file_active[2];
    uint32_t file_id[2];
    bool has_file[2];             /* an attachment of this direction is whole */
};

struct imap_side {
    struct pbuf line;
    bool over;
    uint64_t literal;             /* literal bytes still to come on this side */
    bool lit_msg;                 /* … and they are a message (to MIME) */
    struct pbuf mline;            /* a message line being cut from the literal */
    bool cont;                    /* the next line continues the one a literal interrupted */
    bool gap;                     /* bytes were lost: skipping to a line that starts like IMAP */
    bool gap_mid;                 /* …and the last chunk ended inside a line being skipped */
};

struct imap_state {
    struct imap_side side[2];
    struct imap_tx *head, *tail;  /* waiting for their tagged completion, oldest first */
    uint32_t nq, ntx;
    struct imap_tx *cur;          /* the one events read now */
    struct imap_tx *loose;        /* the server's lines no command waits for (the greeting) */
    int msg_dir;                  /* the direction whose message MIME reads (-1: none) */
    uint32_t msg_tx;              /* the id of the transaction whose message it is */
    bool cut, tls;
    bool plus;                    /* the server asked for more (`+ …`): the client's next
                                     line is data (a SASL answer), not a command */
    struct mime *mime;
    struct pflow *pf;
    struct mon_flow *f;
};

/* stream.c */
void imap_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void imap_end(struct pflow *pf, struct mon_flow *f);
void imap_gap(struct pflow *pf, struct mon_flow *f, int dir);
void imap_free(void *state);
void imap_trim(void *state);
/* command.c */
void imap_line(struct imap_state *st, int dir, const uint8_t *l, size_t n, bool cont);
struct imap_tx *imap_tx_of(struct imap_state *st, int dir);
void imap_tx_report(struct imap_state *st, struct imap_tx *t);
void imap_tx_free(struct imap_tx *t);
/* does this line announce a literal ({n} or {n+} at its end)? its size, else -1; msg: it is a
 * message (APPEND's, a FETCH's BODY[…] / RFC822) */
int64_t imap_literal(const uint8_t *l, size_t n, int dir, bool *msg);
/* message.c */
bool imap_message_begin(struct imap_state *st, int dir);
/* a line of the message; more: a long line's piece, more of the line follows */
void imap_message_line(struct imap_state *st, const uint8_t *l, size_t n, bool more);
void imap_message_end(struct imap_state *st);
/* probe.c */
enum probe_verdict imap_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict imap_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);

#endif
