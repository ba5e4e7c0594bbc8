/* mime.h — a streaming MIME reader (RFC 2045/2046/5322) for mail carried by any protocol
 * (SMTP, POP3 and IMAP; HTTP multipart bodies could feed it the same way). Fed one line
 * at a time (line ends removed, SMTP's dot-stuffing undone by the caller), it reports:
 * each header of each entity (folded lines joined), the end of an entity's headers, the
 * decoded bytes of each attachment (one callback: name, bytes, end), the decoded text lines
 * of inline text parts (for URL extraction) and its anomalies. Every copy it keeps is bounded
 * (the MIME_*_MAX limits); nesting is bounded (MIME_DEPTH_MAX). Internal to parsers/. */
#ifndef OSPREY_MIME_H
#define OSPREY_MIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MIME_DEPTH_MAX 8          /* nested multiparts / message/rfc822 at most; deeper: one body */
#define MIME_NAME_MAX 76          /* a header name longer: mime_long_header_name (Suricata's 75) */
#define MIME_VALUE_MAX 2000       /* a header value's bytes kept (Suricata's header-value-depth) */
#define MIME_BOUNDARY_MAX 254     /* a longer boundary: mime_long_boundary, not used */
#define MIME_FILENAME_MAX 256     /* an attachment's name kept; longer: mime_long_filename */
#define MIME_LINE_MAX 998         /* RFC 5322: a longer line is mime_long_line (still read) */
#define MIME_ENC_LINE_MAX 76      /* RFC 2045: a longer encoded line is mime_long_enc_line */
#define MIME_TYPE_MAX 64          /* a Content-Type's type/subtype kept */
#define MIME_PIECE_MAX 8192       /* a line is decoded in pieces of this many bytes at most */

/* its anomalies, reported once per message each */
enum mime_anomaly {
    MIME_A_INVALID_BASE64, MIME_A_INVALID_QP, MIME_A_LONG_LINE, MIME_A_LONG_ENC_LINE,
    MIME_A_LONG_HEADER_NAME, MIME_A_LONG_HEADER_VALUE, MIME_A_LONG_BOUNDARY,
    MIME_A_LONG_FILENAME, MIME_A_MALFORMED, MIME_A_DEPTH, MIME_A_N
};

enum mime_enc { MIME_ENC_PLAIN, MIME_ENC_BASE64, MIME_ENC_QP };

struct mime_ops {
    /* a header of the entity at nesting level `level` (0: the message's own) */
    void (*header)(void *arg, unsigned level, const uint8_t *name, size_t nl,
                   const uint8_t *val, size_t vl);
    void (*headers_end)(void *arg, unsigned level);
    /* an attachment's decoded bytes (name: its file name, possibly empty); end: it is whole
     * (n may be 0). Called with n 0 and end false when one begins. */
    void (*file)(void *arg, const uint8_t *name, size_t nl, const uint8_t *d, size_t n,
                 bool end);
    /* a decoded line of an inline text part (text/plain, text/html: where URLs are looked for) */
    void (*text)(void *arg, const uint8_t *line, size_t n);
    void (*anomaly)(void *arg, enum mime_anomaly a);
};

/* what the entity being read declared */
struct mime_entity {
    char type[MIME_TYPE_MAX];     /* "multipart/mixed", lower case; "" none */
    uint8_t boundary[MIME_BOUNDARY_MAX];
    uint32_t blen;
    uint8_t enc;                  /* enum mime_enc */
    uint8_t fname[MIME_FILENAME_MAX];
    uint32_t fnlen;
    bool attach;                  /* Content-Disposition: attachment, or a file name */
};

struct mime {
    const struct mime_ops *ops;
    void *arg;
    uint8_t state;                /* MS_* (mime.c) */
    unsigned level;               /* the entity's nesting level */
    struct {                      /* the multiparts open, outermost first */
        uint8_t b[MIME_BOUNDARY_MAX];
        uint32_t n;
        unsigned level;           /* the level of the multipart entity itself */
    } bnd[MIME_DEPTH_MAX];
    unsigned nbnd;
    struct mime_entity ent;
    /* the header being read (a folded header's lines joined) */
    uint8_t hname[MIME_NAME_MAX];
    uint32_t hnl;
    uint8_t hval[MIME_VALUE_MAX];
    uint32_t hvl;
    bool have_hdr, hval_over;
    /* decoding of the body part being read */
    uint8_t b64[4];
    unsigned b64n;
    bool file_open, crlf_pending; /* a line end owed to the file before its next bytes */
    bool in_uu;                   /* inside an uuencoded file of a text part */
    bool mid_line;                /* a body line given in pieces goes on (mime_part) */
    uint8_t uuname[MIME_FILENAME_MAX];
    uint32_t uunl;
    uint32_t seen;                /* anomalies reported (bit per enum mime_anomaly) */
    uint8_t out[MIME_PIECE_MAX + 8]; /* a piece's decoded bytes */
};

void mime_init(struct mime *m, const struct mime_ops *ops, void *arg);
/* One line of the message (without its line end). */
void mime_line(struct mime *m, const uint8_t *l, size_t n);
/* The first n bytes of a line that goes on (a long line given in pieces, no line end after
 * them); its last piece is given to mime_line. In a body the pieces are one line (an
 * attachment's bytes get no line end between them); elsewhere each is read as a line. */
void mime_part(struct mime *m, const uint8_t *l, size_t n);
/* The message ended: an open attachment ends, unfinished headers end. */
void mime_end(struct mime *m);

/* header.c: a header's parameter (`boundary`, `filename`, `name`) from a value such as
 * `multipart/mixed; boundary="x"`; its length, or -1 when absent. Quotes removed. */
int mime_param(const uint8_t *v, size_t n, const char *param, const uint8_t **out);
/* decode.c: decoders over bounded buffers. Base64 across lines (quantum carried in q/qn);
 * returns the bytes written to out (room: at least n * 3 / 4 + 3); *bad set on an invalid
 * character (skipped). */
size_t mime_b64(const uint8_t *in, size_t n, uint8_t *q, unsigned *qn, uint8_t *out,
                bool *bad);
/* Quoted-printable line; *soft: it ended with "=" (no line end follows). out room: n. */
size_t mime_qp(const uint8_t *in, size_t n, uint8_t *out, bool *soft, bool *bad);
/* One uuencoded line; out room: n + 3. -1 when it is not a uuencoded line. */
long mime_uu(const uint8_t *in, size_t n, uint8_t *out);
/* url.c: the URLs of a text line ("http://" … up to a blank or a delimiter), scheme removed,
 * lower-cased (Suricata's email.url), each handed to cb. */
void mime_urls(const uint8_t *l, size_t n, void (*cb)(void *arg, const uint8_t *u, size_t ul),
               void *arg);

#endif
