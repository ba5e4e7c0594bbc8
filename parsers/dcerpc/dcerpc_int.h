/* dcerpc_int.h — what the DCERPC parser's files share: its state (the bound contexts, each
 * direction's PDU being read, the transaction in force) and its own numbering of events,
 * buffers, fields and counters (rows of its descriptor, dcerpc.c). Internal to parsers/dcerpc. */
#ifndef OSPREY_DCERPC_INT_H
#define OSPREY_DCERPC_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def dcerpc_proto;

/* rows of dcerpc_proto.events / .counters; buffer and field keys */
enum { DCE_EV_PDU_REQ, DCE_EV_REQUEST, DCE_EV_PDU_RESP, DCE_EV_RESPONSE };
enum { DCE_C_PDUS, DCE_C_TXS, DCE_C_MALFORMED, DCE_C_STUB_SHED, DCE_C_CTX_SHED, DCE_C_GAPS };
enum dce_buf { DB_STUB, DB_PDU, DB_HDR, DB_DATA };
enum dce_field { DF_OPNUM, DF_IFACE_HI, DF_IFACE_LO, DF_IFACE_VER, DF_FIRST_FRAG, DF_LE };

/* PDU types (C706 §12.6.4; connectionless §12.5.3) */
enum {
    DCE_REQUEST = 0, DCE_RESPONSE = 2, DCE_FAULT = 3, DCE_BIND = 11, DCE_BIND_ACK = 12,
    DCE_BIND_NAK = 13, DCE_ALTER = 14, DCE_ALTER_RESP = 15
};
#define DCE_PFC_FIRST 0x01
#define DCE_PFC_LAST 0x02
#define DCE_PFC_OBJECT 0x80
#define DCE_CO_HDR 16          /* connection-oriented common header */
#define DCE_CL_HDR 80          /* connectionless header */

#define DCE_MAX_CTX 64         /* bound contexts kept per flow (more: counted, shed) */
#define DCE_STUB_MAX (1u << 20) /* bytes of one reassembled stub kept (more: counted, cut) */

struct dce_ctx {               /* a presentation context a bind proposed */
    uint16_t id;
    uint8_t uuid[16];          /* the abstract syntax, in the text's byte order */
    uint16_t vmaj, vmin;
    uint16_t result;           /* the bind_ack's (0: acceptance; 0 until one comes) */
    bool acked;
};

struct dce_side {
    struct pbuf pdu;           /* the PDU being read (TCP), then the last one read */
    struct pbuf stub;          /* the stub being reassembled, then the last whole one */
    uint32_t frags;            /* fragments in it */
    uint32_t stub_size;        /* its size before any cut */
    bool open;                 /* a first fragment came, no last one yet */
    bool little;               /* the last PDU's data representation */
    bool resync;               /* after a gap: bytes skipped until a PDU header */
};

struct dce_state {
    struct dce_side side[2];
    struct dce_ctx ctx[DCE_MAX_CTX];
    uint32_t nctx;
    uint32_t pend_at, pend_n;  /* the contexts of the last bind / alter_context, to be acked */
    bool udp;
    uint8_t last_dir;          /* the direction of the PDU read last */
    /* the transaction in force */
    bool tx_open, tx_reported;
    uint8_t req_type, resp_type;
    bool has_req, has_resp;
    bool req_done;             /* its request (bind, alter or a request's last fragment) came
                                  whole; EVE says REQUEST_LOST otherwise (a response seen
                                  without it, or a request cut short) */
    uint8_t vers, vers_minor;
    uint32_t call_id;
    uint16_t opnum, ctxid;
    bool first_frag;           /* its request began with PFC_FIRST_FRAG */
    uint8_t cl_iface[16];      /* connectionless: the header's interface */
    uint32_t cl_iface_ver, seqnum;
    uint8_t activity[16];
};

/* pdu.c: connection-oriented, over a stream */
void dce_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void dce_end(struct pflow *pf, struct mon_flow *f);
void dce_gap(struct pflow *pf, struct mon_flow *f, int dir);
void dce_free(void *state);
struct dce_state *dce_state_of(struct pflow *pf);
/* The bound context of the transaction's request (NULL: none, or not accepted). */
const struct dce_ctx *dce_tx_ctx(const struct dce_state *st);
/* A UUID as it is on the wire (first three fields in the sender's byte order) into the
 * text's byte order. */
void dce_uuid(uint8_t out[16], const uint8_t *p, bool little);
/* Report the transaction in force (the tx callback, its EVE record) unless it was. */
void dce_tx_report(struct pflow *pf, struct mon_flow *f, struct dce_state *st);
/* Add n stub bytes to side s (bounded by DCE_STUB_MAX; what is cut is counted). */
void dce_stub_add(struct pflow *pf, struct dce_side *s, const uint8_t *d, size_t n);
/* cl.c: connectionless, one datagram */
void dce_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
/* probe.c */
enum probe_verdict dce_probe_co(const uint8_t *d, size_t n, const struct mon_flow *f);
enum probe_verdict dce_probe_cl(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool dce_eve(struct pflow *pf, struct osprey_jw *w);
/* The same object inside a host's record (DCERPC over SMB: smb.dcerpc). */
bool dce_eve_carried(struct pflow *pf, struct osprey_jw *w);
/* The name Suricata's EVE gives a PDU type ("REQUEST", "BIND_ACK" …). */
const char *dce_type_name(uint8_t type);

#endif
