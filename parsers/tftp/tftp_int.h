/* tftp_int.h — what the TFTP parser's files share (RFC 1350): a request (RRQ / WRQ: one
 * transaction), the transfer it announces (tftp-data: the expected UDP flow from the server's
 * new port to the client's, its DATA blocks a file), and their own numbering of events,
 * counters and buffers (rows of the descriptors, tftp.c). Internal to parsers/tftp. */
#ifndef OSPREY_TFTP_INT_H
#define OSPREY_TFTP_INT_H

#include "files.h"
#include "parsers_int.h"

extern const struct osprey_proto_def tftp_proto, tftp_data_proto;

enum { TFTP_EV_REQUEST };
enum { TFTP_C_TX, TFTP_C_MALFORMED, TFTP_C_EXPECT_SHED };
enum { TB_FILE, TB_MODE };
enum { TD_EV_FILE_TS, TD_EV_FILE_TC };
enum { TD_C_FILES, TD_C_BLOCKS_SKIPPED };

enum { TFTP_RRQ = 1, TFTP_WRQ, TFTP_DATA, TFTP_ACK, TFTP_ERROR, TFTP_OACK };
#define TFTP_NAME_MAX 512u      /* bytes of a file name or mode kept */
#define TFTP_BLOCK 512u         /* a DATA block's size (RFC 1350); shorter: the last */

struct tftp_state {              /* the request flow (port 69) */
    uint8_t opcode;              /* TFTP_RRQ / TFTP_WRQ: the request in force; 0 none */
    struct pbuf file, mode;
    uint64_t txs;
};

struct tftp_data_state {         /* the transfer (tftp-data) */
    struct pbuf name;
    bool write;                  /* a WRQ's: the client sends the file */
    uint32_t file;               /* core/files.h id, 0: none yet */
    uint8_t file_dir;            /* the way its DATA blocks go */
    uint16_t block;              /* the last block taken */
    uint32_t blksize;            /* TFTP_BLOCK, or an OACK's blksize */
    bool done;
};

/* request.c */
enum probe_verdict tftp_probe(const uint8_t *d, size_t n, const struct mon_flow *f);
void tftp_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                      size_t n);
void tftp_free(void *state);
bool tftp_eve(struct pflow *pf, struct osprey_jw *w);
/* transfer.c */
void tftp_data_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                           size_t n);
void tftp_data_end(struct pflow *pf, struct mon_flow *f);
void tftp_data_free(void *state);

#endif
