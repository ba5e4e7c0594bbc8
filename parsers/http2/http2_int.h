/* http2_int.h — what the HTTP/2 parser's files share: its state (frames per direction, the
 * streams as transactions), its own numbering of events, buffers, fields, anomalies and
 * counters (rows of its descriptor, http2.c), and its limits. Internal to parsers/http2. */
#ifndef OSPREY_HTTP2_INT_H
#define OSPREY_HTTP2_INT_H

#include "http_body.h"
#include "parsers_int.h"

extern const struct osprey_proto_def http2_proto;

#define H2_PREFACE "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
#define H2_PREFACE_LEN 24
#define H2_HDR 9                   /* a frame header */
#define H2_FRAME_KEEP 65536u       /* bytes of one frame's payload kept (DATA streams on) */
#define H2_DEFAULT_MAX_FRAME 16384u /* SETTINGS_MAX_FRAME_SIZE until a peer says otherwise */
#define H2_HEADERS_MAX 256u        /* header fields kept per side of a stream */
#define H2_LIST_MAX 32u            /* frame facts kept per side (types, windows, settings …) */
#define H2_DNS_MAX 65535u          /* a DNS message over HTTP/2 is one UDP message at most */
#define H2_FLOW_MEMCAP (32u << 20) /* bytes of headers, blocks and bodies a flow's streams keep
                                      together (the live ones and the last reported) */

/* frame types (RFC 9113 §6) */
enum { H2_DATA, H2_HEADERS, H2_PRIORITY, H2_RST_STREAM, H2_SETTINGS, H2_PUSH_PROMISE,
       H2_PING, H2_GOAWAY, H2_WINDOW_UPDATE, H2_CONTINUATION };
#define H2F_END_STREAM 0x1
#define H2F_ACK 0x1
#define H2F_END_HEADERS 0x4
#define H2F_PADDED 0x8
#define H2F_PRIORITY 0x20

/* HTTP/2's settings (app-layer.protocols.http2.*; the slot pflow_cfg reads). Its bodies are
 * bounded by HTTP's (app-layer.protocols.http.*-body-limit: inspected, body-file-limit: kept;
 * decompress: h2_http_cfg). */
struct http2_cfg {
    uint32_t max_streams;   /* live streams per flow; past it a new one is shed (4096) */
    bool http1_rules;       /* Suricata's key, accepted: http.* rules always run here */
};
/* HTTP's body settings (the start of HTTP's registry slot: ../http_body/http_body.h), for the
 * body limits and decompression */
const struct http_body_cfg *h2_http_cfg(const struct pflow *pf);

/* rows of http2_proto.events (the per-frame events first, then a transaction's, in the order
 * it reaches them) */
enum { H2_EV_FRAME_TS, H2_EV_FRAME_TC, H2_EV_REQUEST, H2_EV_REQUEST_BODY, H2_EV_REQUEST_DONE,
       H2_EV_RESPONSE, H2_EV_RESPONSE_BODY, H2_EV_RESPONSE_DONE };
/* rows of http2_proto.anomalies: Suricata's http2 app-layer events */
enum { H2_AE_INVALID_FRAME_HEADER, H2_AE_INVALID_CLIENT_MAGIC, H2_AE_INVALID_FRAME_DATA,
       H2_AE_INVALID_HEADER, H2_AE_INVALID_FRAME_LENGTH, H2_AE_EXTRA_HEADER_DATA,
       H2_AE_LONG_FRAME_DATA, H2_AE_STREAM_ID_REUSE, H2_AE_INVALID_HTTP1_SETTINGS,
       H2_AE_FAILED_DECOMPRESSION, H2_AE_INVALID_RANGE, H2_AE_HEADER_INTEGER_OVERFLOW,
       H2_AE_TOO_MANY_STREAMS, H2_AE_AUTHORITY_HOST_MISMATCH, H2_AE_USERINFO_IN_URI,
       H2_AE_REASSEMBLY_LIMIT_REACHED, H2_AE_DNS_REQUEST_TOO_LONG,
       H2_AE_DNS_RESPONSE_TOO_LONG, H2_AE_DATA_STREAM_ZERO, H2_AE_COMPRESSION_BOMB };
/* rows of http2_proto.counters */
enum { H2_C_STREAMS, H2_C_FRAMES, H2_C_STREAMS_SHED, H2_C_HEADERS_SHED, H2_C_FACTS_SHED,
       H2_C_BODY_LIMIT, H2_C_MALFORMED, H2_C_MEMCAP_SHED };

/* buffer keys (http2.c's getters, buffers.c) */
enum h2_buf {
    H2B_METHOD, H2B_URI, H2B_HOST, H2B_HOST_RAW, H2B_USER_AGENT, H2B_COOKIE, H2B_CONTENT_TYPE,
    H2B_PROTOCOL, H2B_REFERER, H2B_STAT_CODE,
    H2B_HEADER,        /* "name: value\r\n" each, pseudo-headers included (Suricata's form) */
    H2B_HEADER_NAMES,  /* "\r\n" then "name\r\n" each, then "\r\n" */
    H2B_HEADER_LINE,   /* multi: "name: value" each (http.request_header / response_header) */
    H2B_HEADER_NAME,   /* multi: each name (http2.header_name) */
    H2B_BODY,          /* the DATA of the side, decoded */
    H2B_FRAMES,        /* the transaction's side, for the http2.* frame keywords */
    H2B_DOH_QUERIES, H2B_DOH_ANSWERS, /* DoH: the side's DNS message's names (multi) */
    H2B_FRAME_HDR, H2B_FRAME_DATA, H2B_FRAME_PDU /* the frame being read (frame:http2.*) */
};

/* one header field: spans of its side's copy */
struct h2_header {
    uint32_t no, nl, vo, vl;
};

struct dns_wire;

struct h2_setting {
    uint16_t id;
    uint32_t value;
};

/* One side of a stream: what one endpoint sent on it. */
struct h2_side {
    struct pbuf copy;                 /* names and values of its headers (bounded) */
    struct h2_header *h;              /* H2_HEADERS_MAX at most */
    uint32_t nh;
    struct pbuf block;                /* the header block being reassembled (CONTINUATION) */
    bool in_block;                    /* a HEADERS/PUSH_PROMISE without END_HEADERS yet */
    uint8_t blocks;                   /* header blocks decoded (2: trailers) */
    bool ended;                       /* END_STREAM (or RST_STREAM, or the flow's end) */
    bool body_run;
    struct pbuf body;                 /* DATA, decoded as Content-Encoding says (bounded) */
    uint64_t wire;                    /* DATA bytes as sent */
    struct http_body_decoder *z;           /* NULL: plain */
    bool z_set;                       /* the decoder was decided (first DATA) */
    bool dns_long;                    /* a DoH message past H2_DNS_MAX was reported */
    /* its DATA as a file of the file layer (core/files.h), opened with the first byte under a
     * provisional transaction id (H2_FILE_TX | stream id: transactions are numbered as they
     * end), given the real one at its body event and its record */
    uint32_t file;
    bool file_open, file_cut;         /* file_cut: bytes past the body limit not decoded */
    struct dns_wire *doh;             /* DoH: the side's DNS message, decoded by the shared
                                         DNS decoder, ../dns_wire (NULL: none) */
    /* the frame facts the http2.* keywords look at */
    uint32_t types[H2_LIST_MAX]; uint32_t ntypes;
    uint32_t errors[H2_LIST_MAX]; uint32_t nerrors;
    uint32_t prios[H2_LIST_MAX]; uint32_t nprios;
    uint32_t windows[H2_LIST_MAX]; uint32_t nwindows;
    uint32_t updates[H2_LIST_MAX]; uint32_t nupdates; /* HPACK dynamic table size updates */
    struct h2_setting settings[H2_LIST_MAX]; uint32_t nsettings;
};

/* Where a side's header spans point (never NULL: a block of empty fields copies nothing) */
static inline const uint8_t *h2_copy(const struct h2_side *sd)
{
    return sd->copy.p ? sd->copy.p : (const uint8_t *)"";
}

/* A stream: one transaction (stream 0's frames are each a transaction of their own). */
struct h2_stream {
    uint32_t id;
    bool closed;                      /* both sides ended, or reset: reported */
    struct h2_side s[2];              /* 0: the client's (request), 1: the server's */
};

/* One direction's frame reader. */
struct h2_dir {
    uint32_t preface;                 /* bytes of the client preface still to skip (dir 0) */
    uint8_t hdr[H2_HDR];
    uint32_t nhdr;                    /* bytes of the header read so far */
    uint32_t len, got;                /* the frame's payload length, bytes of it read */
    struct pbuf payload;              /* up to H2_FRAME_KEEP of it */
    uint32_t max_frame;               /* what the receiving peer accepts (its SETTINGS) */
    void *hd;                         /* nghttp2_hd_inflater of this direction's blocks */
    uint32_t cont_stream;             /* a CONTINUATION is expected on this stream (0: none) */
    uint32_t cont_target;             /* the stream the block belongs to (PUSH_PROMISE's) */
    uint8_t cont_side;                /* which side of it */
    bool cont_end_stream;             /* the HEADERS that began the block ended its side */
};

struct http2_state {
    struct h2_dir d[2];
    struct h2_stream **st;            /* live streams (memcap: cfg http2_max_streams) */
    uint32_t nst, capst;
    uint32_t max_client_id, max_server_id;
    struct h2_stream *cur;            /* the transaction whose events run now */
    struct h2_stream *last;           /* the last one reported: kept until the next (its
                                         buffers stay readable after its events, as
                                         HTTP/1's last transaction's do) */
    int cur_dir;                      /* the side its frame facts are read from */
    int frame_dir;                    /* the frame whose event runs now (-1: none) */
    uint32_t tx_count;
    uint64_t mem;                     /* bytes kept against H2_FLOW_MEMCAP */
};

#define H2_FILE_TX 0x80000000u        /* a file's provisional transaction id | stream id */

/* Room for n more bytes under the flow's memcap (what does not fit is shed and counted). */
uint32_t h2_room(struct pflow *pf, size_t n);

/* frames.c: the frame reader (descriptor's parse/end/free) */
void http2_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void http2_end(struct pflow *pf, struct mon_flow *f);
void http2_free(void *state);
uint32_t http2_tx_id(const struct pflow *pf);
/* A new flow's state (the client's preface first); http2_upgraded: the state of a flow that
 * was HTTP/1 until its 101 (h2c: the preface comes next, the server's frames at once). */
struct http2_state *http2_state_new(struct pflow *pf);
void http2_upgraded(struct pflow *pf, struct mon_flow *f);

/* streams.c: streams as transactions */
struct h2_stream *h2_stream_get(struct pflow *pf, struct mon_flow *f, uint32_t id, bool make);
/* The stream's side ended: body event, then the transaction when both sides are done. */
void h2_side_end(struct pflow *pf, struct mon_flow *f, struct h2_stream *s, int side);
/* Report the stream (done events, record) and forget it. */
void h2_stream_close(struct pflow *pf, struct mon_flow *f, struct h2_stream *s);
void h2_stream_free(struct h2_stream *s);
/* A reported transaction becomes the flow's last (the previous last is freed). */
void h2_retire(struct http2_state *st, struct h2_stream *s);
/* Append n bytes of DATA to the side's body (decoding as its content-encoding says). */
void h2_body_add(struct pflow *pf, struct mon_flow *f, struct h2_stream *s, int side,
                 const uint8_t *d, size_t n);
/* push a frame fact, counting what a full list sheds */
void h2_fact(struct pflow *pf, uint32_t *list, uint32_t *n, uint32_t v);

/* hpack.c: a header block through the direction's nghttp2 inflater into the side's headers;
 * false when it does not decode (the inflater is then unusable: the direction is given up). */
bool h2_hpack_block(struct pflow *pf, struct mon_flow *f, int dir, struct h2_side *side,
                    const uint8_t *d, size_t n);
void *h2_hpack_new(void);
void h2_hpack_free(void *hd);
void h2_hpack_table_size(void *hd, uint32_t size);
/* A header's value by name (first occurrence), NULL when absent. */
const uint8_t *h2_header(const struct h2_side *side, const char *name, uint32_t *len);

/* doh.c: DNS over HTTP/2 (RFC 8484): the side's DNS message — a POST's body, a GET's "dns"
 * parameter (base64url) — decoded by the shared DNS decoder (../dns_wire: dns_wire_decode), when its
 * content-type (or the GET) says so. */
void h2_doh(struct pflow *pf, struct h2_stream *s, int side);
void h2_doh_free(struct h2_side *sd);
const uint8_t *h2_doh_name(const struct h2_side *sd, bool answers, uint32_t i, uint32_t *len);

/* buffers.c: the descriptor's buffer getter and fields */
const uint8_t *h2_buffer(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                         uint32_t *len);
bool h2_field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out);
enum { H2K_FRAMETYPE, H2K_ERRORCODE, H2K_PRIORITY, H2K_WINDOW, H2K_SIZE_UPDATE, H2K_SETTINGS,
       H2K_STATUS, H2K_RESPONSE_LENGTH };

/* probe.c */
enum probe_verdict h2_probe_client(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict h2_probe_server(const uint8_t *d, size_t n, const struct mon_flow *f);

/* eve.c: the http record with its http2 object */
bool http2_eve(struct pflow *pf, struct osprey_jw *w);
/* names: frame types, error codes, settings (Suricata's spellings in EVE) */
const char *h2_error_name(uint32_t code);
const char *h2_setting_name(uint16_t id);

#endif
