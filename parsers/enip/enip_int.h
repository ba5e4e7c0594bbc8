/* enip_int.h — what the EtherNet/IP parser's files share: a decoded encapsulation message
 * (its header, a RegisterSession's version, a ListIdentity / ListServices reply's item, the
 * CIP requests or replies a SendRRData / SendUnitData carries), a transaction (a request and
 * the reply after it), the flow's state and its own numbering of events, anomalies, counters,
 * buffers and fields (rows of its descriptor, enip.c). Internal to parsers/enip. */
#ifndef OSPREY_ENIP_INT_H
#define OSPREY_ENIP_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def enip_proto;

enum { ENIP_EV_REQUEST, ENIP_EV_RESPONSE };
enum { ENIP_AE_TOO_MANY_TX, ENIP_AE_INVALID_PDU };
enum { ENIP_C_TX, ENIP_C_MALFORMED, ENIP_C_CIP_SHED };
enum { ENIPB_PDU, ENIPB_PRODUCT_NAME, ENIPB_SERVICE_NAME };
enum { EF_COMMAND, EF_STATUS, EF_PROTOCOL_VERSION, EF_CIP_SERVICE, EF_CIP_PATH, EF_CIP_CLASS,
       EF_CIP_INSTANCE, EF_CIP_ATTRIBUTE, EF_CIP_STATUS, EF_CIP_EXTSTATUS, EF_VENDOR_ID,
       EF_DEVICE_TYPE, EF_PRODUCT_CODE, EF_REVISION, EF_IDENTITY_STATUS, EF_SERIAL, EF_STATE,
       EF_CAPABILITIES };

#define ENIP_HDR_LEN 24       /* the encapsulation header */
#define ENIP_MSG_MAX 65535 + ENIP_HDR_LEN /* its length is 16 bits: a message held whole */
#define ENIP_CIP_MAX 16       /* CIP messages kept of one (a Multiple Service Packet's) */
#define ENIP_NAME_MAX 64      /* product / service name bytes kept */
#define ENIP_PORT 44818

enum { ENIP_CMD_NOP = 0, ENIP_CMD_LIST_SERVICES = 4, ENIP_CMD_LIST_IDENTITY = 0x63,
       ENIP_CMD_LIST_INTERFACES = 0x64, ENIP_CMD_REGISTER = 0x65, ENIP_CMD_UNREGISTER = 0x66,
       ENIP_CMD_SEND_RR = 0x6f, ENIP_CMD_SEND_UNIT = 0x70, ENIP_CMD_INDICATE = 0x72,
       ENIP_CMD_CANCEL = 0x73 };

#define ENIP_NONE 0xffffffffu /* a path without that segment */

/* one CIP request or reply (Vol 1 §2-4): a request's service and logical path, a reply's
 * service and status */
struct enip_cip {
    uint8_t service;              /* without the reply bit */
    bool reply;
    uint32_t class_id, instance, attribute;   /* ENIP_NONE: not in the path */
    uint8_t status;
    uint16_t ext_status;
    bool has_ext;
};

struct enip_msg {
    uint16_t command, length;
    uint32_t session, status, options;
    bool has_version;             /* RegisterSession, a ListServices / ListIdentity item */
    uint16_t version, reg_options;
    bool has_identity;
    uint16_t vendor, device_type, product_code, id_status;
    uint8_t rev_major, rev_minor, state;
    uint32_t serial;
    bool has_services;
    uint16_t capabilities;
    uint8_t name[ENIP_NAME_MAX];  /* the identity's product name or the service's name */
    uint8_t name_len;
    struct enip_cip cip[ENIP_CIP_MAX];
    uint8_t ncip;
    bool multiple;                /* the CIP messages came in a Multiple Service Packet */
};

struct enip_tx {
    struct enip_msg req, resp;
    bool has_req, has_resp;
    uint64_t id;
};

struct enip_state {
    struct pbuf in[2];            /* each side's message being read (TCP) */
    struct enip_tx cur;           /* the transaction in force */
    bool has_cur;
    bool open;                    /* cur is a request still waiting for its reply */
    uint8_t last;                 /* the side of the message just read (fields read it) */
    uint64_t next_id;
    bool gap[2];                  /* bytes of that side were lost: wait for a header (TCP) */
};

/* msg.c: decode one encapsulation message d[0..n) (its header's length checked by the caller)
 * of direction dir; false when it is no ENIP message (invalid_pdu). shed: CIP messages past
 * ENIP_CIP_MAX. */
bool enip_decode(struct enip_msg *m, int dir, const uint8_t *d, size_t n, uint32_t *shed);
bool enip_command_known(uint16_t cmd);
/* names.c */
const char *enip_command_name(uint16_t cmd);
const char *enip_status_name(uint32_t status);
const char *enip_cip_service_name(uint8_t service);
const char *enip_cip_status_name(uint8_t status);
/* stream.c */
void enip_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void enip_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n);
void enip_gap(struct pflow *pf, struct mon_flow *f, int dir);
void enip_end(struct pflow *pf, struct mon_flow *f);
void enip_free(void *state);
/* probe.c */
enum probe_verdict enip_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool enip_eve(struct pflow *pf, struct osprey_jw *w);

#endif
