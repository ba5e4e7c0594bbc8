/* dnp3_int.h — what the DNP3 parser's files share: a link frame's header, an application
 * fragment decoded (its control, function code, IIN, object headers), the flow's state (each
 * side's frames, transport reassembly) and its own numbering of events, anomalies, counters,
 * buffers and fields (rows of its descriptor, dnp3.c). Internal to parsers/dnp3. */
#ifndef OSPREY_DNP3_INT_H
#define OSPREY_DNP3_INT_H

#include "parsers_int.h"

extern const struct osprey_proto_def dnp3_proto;

enum { DNP3_EV_REQUEST, DNP3_EV_RESPONSE };
/* Suricata's dnp3 app-layer events */
enum { DNP3_AE_FLOODED, DNP3_AE_LEN_TOO_SMALL, DNP3_AE_BAD_LINK_CRC, DNP3_AE_BAD_TRANSPORT_CRC,
       DNP3_AE_UNKNOWN_OBJECT, DNP3_AE_TOO_MANY_POINTS,
       DNP3_AE_TOO_MANY_OBJECTS, DNP3_AE_TOO_LONG_REASSEMBLY };
enum { DNP3_C_TX, DNP3_C_BAD_CRC, DNP3_C_OBJ_SHED, DNP3_C_FRAG_SHED, DNP3_C_SKIPPED };
enum { DNP3B_DATA };
enum { DF_FUNC, DF_IND, DF_OBJ };

#define DNP3_PORT 20000
#define DNP3_LINK_HDR 10         /* start (2), length, control, destination, source, CRC */
#define DNP3_FRAME_MAX 292       /* length 255: 250 data bytes in 16 blocks with their CRCs */
#define DNP3_FRAG_MAX 8192       /* an application fragment's bytes reassembled at most */
#define DNP3_OBJ_MAX 64          /* object headers kept of a fragment (past it: too_many_objects) */
#define DNP3_POINTS_MAX 65536    /* points of a fragment (past it: too_many_points) */
#define DNP3_FLOOD 500           /* requests without a response that are a flood (Suricata's) */

struct dnp3_obj {
    uint8_t group, variation, qualifier;
    uint32_t start, stop, count;
    bool has_range, has_count;
};

/* one application fragment with its link frame's header */
struct dnp3_msg {
    uint8_t link_ctl;            /* the last frame's link control */
    uint16_t src, dst;
    uint8_t app_ctl, func;
    bool has_iin;
    uint16_t iin;                /* IIN1 << 8 | IIN2 */
    struct dnp3_obj obj[DNP3_OBJ_MAX];
    uint16_t nobj;
    bool complete;               /* every object header was read */
    uint8_t dir;
};

struct dnp3_side {
    struct pbuf in;              /* link bytes not framed yet */
    struct pbuf frag;            /* the application fragment being reassembled */
    bool in_frag;                /* a FIR segment started it */
    bool frag_over;              /* it passed DNP3_FRAG_MAX: dropped until the next FIR */
};

struct dnp3_state {
    struct dnp3_side side[2];
    struct dnp3_msg cur;         /* the message in force (one transaction each) */
    bool has_cur;
    struct pbuf cur_data;        /* its fragment: dnp3.data */
    uint32_t unanswered;         /* requests since the last response */
    bool flooded;
    uint64_t next_id, cur_id;
};

/* crc.c: DNP3's CRC-16 (polynomial 0x3D65) of d[0..n) */
uint16_t dnp3_crc(const uint8_t *d, size_t n);
/* app.c: decode application fragment d[0..n) of direction dir into m (its objects); raises
 * nothing, says what was wrong in *unknown, *too_many_objects, *too_many_points; false when
 * it is shorter than its header */
bool dnp3_decode_app(struct dnp3_msg *m, int dir, const uint8_t *d, size_t n, bool *unknown,
                     bool *too_many_objects, bool *too_many_points);
/* objects.c: an object's size in bits (0: none in this message, -1: not known) */
int dnp3_object_bits(uint8_t group, uint8_t variation);
/* link.c */
void dnp3_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
void dnp3_free(void *state);
/* probe.c */
enum probe_verdict dnp3_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
/* eve.c */
bool dnp3_eve(struct pflow *pf, struct osprey_jw *w);

#endif
