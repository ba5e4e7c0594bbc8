/* modbus_int.h — what the Modbus/TCP parser's files share: a decoded PDU (request or
 * response), a transaction (a request and the response with its transaction id), the flow's
 * state (each side's MBAP framing, the requests waiting for their responses) and its own
 * numbering of events, anomalies, counters, buffers and fields (rows of its descriptor,
 * modbus.c). Internal to parsers/modbus. */
#ifndef OSPREY_MODBUS_INT_H
#define OSPREY_MODBUS_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def modbus_proto;

enum { MB_EV_REQUEST, MB_EV_RESPONSE };
/* Suricata's modbus app-layer events */
enum { MB_AE_INVALID_PROTOCOL_ID, MB_AE_UNSOLICITED_RESPONSE, MB_AE_INVALID_LENGTH,
       MB_AE_INVALID_FUNCTION_CODE, MB_AE_INVALID_VALUE,
       MB_AE_INVALID_EXCEPTION_CODE, MB_AE_VALUE_MISMATCH, MB_AE_FLOODED };
enum { MB_C_TX, MB_C_MALFORMED, MB_C_PENDING_SHED };
enum { MBB_REQUEST };
enum { MBF_FUNCTION, MBF_SUBFUNCTION, MBF_CATEGORY, MBF_UNIT, MBF_READ_TABLE, MBF_WRITE_TABLE,
       MBF_READ_ADDRESS, MBF_WRITE_ADDRESS, MBF_WRITE_VALUE, MBF_EXCEPTION };

#define MB_HDR_LEN 7          /* MBAP: transaction id, protocol id, length, unit id */
#define MB_LEN_MAX 254        /* the MBAP length's largest (unit id + a 253-byte PDU) */
#define MB_DATA_MAX 256       /* a PDU's bytes kept (the largest PDU fits) */
#define MB_PENDING_MAX 1024   /* requests waiting for their responses (the oldest shed past it) */
#define MB_FLOOD_DEFAULT 500  /* Suricata's request-flood */

/* the tables a function reads or writes (modbus: access read coils …) */
enum { MB_T_NONE, MB_T_DISCRETES, MB_T_COILS, MB_T_INPUT, MB_T_HOLDING };
/* the function's category (modbus: function public …) */
enum { MB_CAT_NONE, MB_CAT_ASSIGNED, MB_CAT_UNASSIGNED, MB_CAT_USER, MB_CAT_RESERVED };
/* error flags of a PDU (EVE's error_flags) */
enum { MB_ERR_DATA_LENGTH = 1, MB_ERR_DATA_VALUE = 2, MB_ERR_FUNC_CODE = 4,
       MB_ERR_EXC_CODE = 8, MB_ERR_MISMATCH = 16, MB_ERR_PROTO_ID = 32 };

struct modbus_pdu {
    uint16_t tid, pid;
    uint8_t unit, fc, raw_fc;     /* fc without the exception bit */
    bool exception;
    uint8_t exc_code;
    uint8_t category;
    uint8_t read_table, write_table;
    uint16_t read_addr, read_qty, write_addr, write_qty;
    bool has_read, has_write, has_value, has_sub, has_mei, has_bc;
    uint16_t value, sub;          /* a single write's value; a diagnostic's subfunction */
    uint8_t mei, bc;              /* an encapsulated interface's type; a byte count */
    uint8_t errors;               /* MB_ERR_* */
    uint8_t data[MB_DATA_MAX];    /* the PDU after its function code */
    uint16_t ndata;
};

struct modbus_tx {
    struct modbus_pdu req, resp;
    bool has_req, has_resp;
    uint64_t id;
};

/* settings (app-layer.protocols.modbus.*; the slot pflow_cfg reads) */
struct modbus_cfg {
    uint32_t request_flood;       /* unanswered requests that are a flood (0: no limit) */
};

struct modbus_state {
    struct pbuf in[2];            /* each side's ADU being read */
    struct modbus_tx *pending;    /* requests waiting for their responses, oldest first */
    uint32_t npending, cap;
    struct modbus_tx cur;         /* the transaction in force (rules and EVE read it) */
    bool has_cur;
    bool flooded;                 /* the flood event was raised (again once below it) */
    uint64_t next_id;
};

/* pdu.c: decode a PDU (its MBAP header and function) of direction dir into p, checking it
 * (and a response against its request req, NULL when none); p->errors says what is wrong */
void modbus_decode(struct modbus_pdu *p, int dir, const uint8_t *adu, size_t n,
                   const struct modbus_pdu *req);
/* names.c */
uint8_t modbus_category(uint8_t fc);
const char *modbus_function_name(uint8_t fc);
const char *modbus_category_name(uint8_t cat);
const char *modbus_exception_name(uint8_t code);
bool modbus_exception_known(uint8_t code);
/* stream.c */
void modbus_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void modbus_end(struct pflow *pf, struct mon_flow *f);
void modbus_free(void *state);
/* probe.c */
enum probe_verdict modbus_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool modbus_eve(struct pflow *pf, struct osprey_jw *w);

#endif
