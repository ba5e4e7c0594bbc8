/* transfer.c — tftp-data: the transfer a request announced (request.c, core/expect.c). Its
 * DATA blocks (opcode 3, block number, up to blksize bytes) are the file, in block order: a
 * block again (a retransmission) or out of order is skipped (counted); a block shorter than
 * blksize (512, or an OACK's `blksize` option, RFC 2348) ends it, an ERROR or the flow's end
 * before that cuts it short. Once complete, that direction's file event runs (file.name,
 * filestore, the file keywords) and the transaction is reported (fileinfo). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tftp_int.h"

static void finish(struct pflow *pf, struct mon_flow *f, int dir, bool truncated)
{
    struct tftp_data_state *ds = pf->state;
    ds->done = true;
    pfile_close(pf, ds->file, truncated);
    pflow_raise(pf, f, dir, dir == 0 ? TD_EV_FILE_TS : TD_EV_FILE_TC);
    pflow_count(pf, TD_C_FILES, 1);
    pflow_tx_done(pf, f);
}

/* an OACK's options (RFC 2347: name NUL value NUL …): blksize */
static void oack(struct tftp_data_state *ds, const uint8_t *d, size_t n)
{
    size_t at = 2;
    while (at < n) {
        const uint8_t *z1 = memchr(d + at, 0, n - at);
        if (!z1)
            return;
        size_t vat = (size_t)(z1 - d) + 1;
        const uint8_t *z2 = vat < n ? memchr(d + vat, 0, n - vat) : NULL;
        if (!z2)
            return;
        if ((size_t)(z1 - (d + at)) == 7 && !strncasecmp((const char *)d + at, "blksize", 7)) {
            uint32_t v;
            if (pdec_u32(d + vat, (size_t)(z2 - (d + vat)), &v) && v >= 8 && v <= 65464)
                ds->blksize = v;
        }
        at = (size_t)(z2 - d) + 1;
    }
}

void tftp_data_parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                           size_t n)
{
    struct tftp_data_state *ds = pf->state;
    if (!ds || ds->done || n < 4 || d[0] != 0)
        return;
    if (d[1] == TFTP_OACK) {
        oack(ds, d, n);
        return;
    }
    if (d[1] == TFTP_ERROR) {
        if (ds->file)
            finish(pf, f, ds->file_dir, true);
        return;
    }
    if (d[1] != TFTP_DATA)
        return;
    uint16_t block = rd_be16(d + 2);
    if (block != (uint16_t)(ds->block + 1)) {
        pflow_count(pf, TD_C_BLOCKS_SKIPPED, 1);
        return;
    }
    ds->block = block;
    if (!ds->file) {
        ds->file_dir = (uint8_t)dir;
        ds->file = pfile_open(pf, dir, 0, ds->name.p, ds->name.len);
    }
    pfile_data(pf, ds->file, d + 4, n - 4);
    if (n - 4 < ds->blksize)
        finish(pf, f, dir, false);
}

void tftp_data_end(struct pflow *pf, struct mon_flow *f)
{
    struct tftp_data_state *ds = pf->state;
    if (ds && ds->file && !ds->done) /* cut short: the last block never came */
        finish(pf, f, ds->file_dir, true);
}

void tftp_data_free(void *state)
{
    struct tftp_data_state *ds = state;
    if (!ds)
        return;
    pbuf_free(&ds->name);
    free(ds);
}
