/* pop3_int.h — what the POP3 parser's files share: its state (the commands waiting for their
 * responses, the response being read, a retrieved message going through the MIME reader) and
 * its own numbering of events, anomalies, counters, buffers and fields (rows of its
 * descriptor, pop3.c). Internal to parsers/pop3. */
#ifndef OSPREY_POP3_INT_H
#define OSPREY_POP3_INT_H

#include "mime.h"
#include "parsers_int.h"

extern const struct osprey_proto_def pop3_proto;

/* rows of pop3_proto.events, in the order a transaction reaches them */
enum { POP3_EV_REQUEST, POP3_EV_FILE, POP3_EV_RESPONSE };
/* rows of pop3_proto.anomalies: Suricata 8's pop3 app-layer events, in its order */
enum { POP3_A_TOO_MANY_TX, POP3_A_REQUEST_TOO_LONG, POP3_A_BAD_ARG_COUNT, POP3_A_UNKNOWN_COMMAND,
       POP3_A_RESPONSE_TOO_LONG };
enum { POP3_C_TXS, POP3_C_FILES, POP3_C_STLS, POP3_C_TX_SHED, POP3_C_LIST_SHED,
       POP3_C_FILE_BYTES_SHED };
enum { PB_ARGS, PB_RESPONSE, PB_FILE, PB_NONE };
enum { PF_COMMAND, PF_STATUS };

/* the commands POP3 knows (RFC 1939, 2449 CAPA, 2595 STLS, 5034 AUTH); 0: another word */
enum pop3_cmd {
    P3_UNKNOWN, P3_USER, P3_PASS, P3_APOP, P3_AUTH, P3_CAPA, P3_STLS, P3_STAT, P3_LIST,
    P3_RETR, P3_TOP, P3_UIDL, P3_DELE, P3_NOOP, P3_RSET, P3_QUIT, P3_SASL, P3_N
};
extern const char *const pop3_cmd_names[P3_N];

#define POP3_LINE_MAX 4096        /* bytes of a command or response line kept; the rest skipped */
#define POP3_MSG_LINE_MAX 8192    /* a longer message line reaches MIME in pieces */
#define POP3_RFC_CMD 255          /* a command line longer (with CRLF): request_too_long */
#define POP3_RFC_RESP 512         /* a first response line longer (with CRLF): response_too_long */
#define POP3_TX_MAX 256           /* commands waiting for responses (Suricata's max-tx) */
#define POP3_LIST_MAX 64          /* arguments, data lines kept per transaction (more: counted) */
#define POP3_ATTACH_MAX (1u << 20) /* decoded bytes of an attachment kept (cfg attachment-limit) */

/* POP3's settings (app-layer.protocols.pop3.*; the slot pflow_cfg reads) */
struct pop3_cfg {
    uint32_t attachment_limit;    /* bytes of an attachment kept for file.data */
};

/* a bounded list of strings, back to back in one buffer */
struct p3list {
    struct pbuf b;
    uint32_t off[POP3_LIST_MAX], len[POP3_LIST_MAX];
    uint32_t n;
};

struct pop3_tx {
    uint32_t id;
    struct pop3_tx *next;         /* the queue of those waiting for a response */
    bool has_req, has_resp, ok, multi, done;
    uint8_t cmd;                  /* enum pop3_cmd */
    struct pbuf word;             /* the command as sent (upper-cased) */
    struct p3list args;
    struct pbuf header;           /* the response's first line after its status */
    struct p3list data;           /* a multi-line response's lines (not a message's) */
    struct p3list attach;         /* the retrieved message's attachments' names */
    struct pbuf file;             /* the attachment being read: its decoded bytes (limited) */
    bool file_active;
    uint32_t file_id;             /* its file in the file layer (0: none) */
};

struct pop3_side {
    struct pbuf line;
    bool over;                    /* past its limit: the rest of it is skipped */
    uint32_t seen;                /* the line's whole length (for the RFC limits) */
};

struct pop3_state {
    struct pop3_side side[2];
    struct pop3_tx *head, *tail;  /* waiting for their response, oldest first */
    uint32_t nq;
    struct pop3_tx *cur;          /* the one events and records read now */
    uint32_t ntx;
    bool in_data;                 /* a multi-line response's lines are coming */
    bool in_msg;                  /* … and they are a message (RETR, TOP): to MIME */
    bool cut;                     /* the message ends early: an open file is truncated */
    bool auth_next;               /* the client's next line is SASL data, not a command */
    bool tls;                     /* STLS accepted: the flow becomes TLS */
    bool gap[2];                  /* bytes lost: wait for a chunk that starts like POP3 */
    struct mime *mime;            /* made at the first message (~13 KiB) */
    struct pflow *pf;
    struct mon_flow *f;
};

/* stream.c */
void pop3_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void pop3_end(struct pflow *pf, struct mon_flow *f);
void pop3_free(void *state);
void pop3_trim(void *state);
void pop3_gap(struct pflow *pf, struct mon_flow *f, int dir);
/* command.c */
void pop3_command(struct pop3_state *st, const uint8_t *l, size_t n, uint32_t whole);
void pop3_response(struct pop3_state *st, const uint8_t *l, size_t n, uint32_t whole);
/* a line of a multi-line response; cont: it continues a piece given before (no end mark,
 * no dot-stuffing); more: it is a long line's piece, more of the line follows */
void pop3_data_line(struct pop3_state *st, const uint8_t *l, size_t n, bool cont, bool more);
void pop3_tx_free(struct pop3_tx *t);
/* the multi-line response being read lost bytes: its message is cut, its transaction done */
void pop3_response_lost(struct pop3_state *st);
bool p3list_add(struct p3list *l, const uint8_t *d, size_t n);
/* message.c */
void pop3_message_begin(struct pop3_state *st);
void pop3_message_end(struct pop3_state *st);
/* probe.c */
enum probe_verdict pop3_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict pop3_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);
enum pop3_cmd pop3_cmd_of(const uint8_t *w, size_t n);
/* eve.c */
bool pop3_eve(struct pflow *pf, struct osprey_jw *w);

#endif
