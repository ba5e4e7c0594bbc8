/* data.c — ftp-data: a data connection the control connection announced (PORT / EPRT /
 * PASV / EPSV, then RETR or STOR: core/expect.c hands the flow its state with the command and
 * the file's name). What it carries is the file: its bytes, each way, are kept (FTP_DATA_MAX,
 * the rest counted) and inspected as file.data once the connection ends (each direction's
 * event, once: the whole file). When the first bytes come, each direction's open event runs
 * once: ftpdata_command is read there, while the connection is still established
 * (flow:established). The one transaction is reported at the end (EVE ftp_data{filename,
 * command}, as Suricata writes it). */
#include <stdlib.h>

#include "files.h"
#include "ftp_int.h"
#include "osprey_json_writer.h"

void ftp_data_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct ftp_data_state *ds = pf->state;
    if (!ds) { /* (only ever made by an expectation; a flow without one has nothing to say) */
        pf->dead[dir] = true;
        return;
    }
    /* the file goes the way the first bytes do: RETR's from the FTP server, STOR's to it,
     * whichever side connected (active mode: the server did) */
    if (n && !ds->file) {
        ds->file_dir = (uint8_t)dir;
        ds->file = pfile_open(pf, dir, 0, ds->name.p, ds->name.len);
    }
    if (n && dir == ds->file_dir)
        pfile_data(pf, ds->file, d, n);
    uint32_t took = pbuf_add(&ds->data[dir], d, n, FTP_DATA_MAX);
    if (took < n)
        pflow_count(pf, FD_C_BYTES_SHED, n - took);
    if (n && !ds->opened) { /* the transfer began: each side's open event, once */
        ds->opened = true;
        pflow_raise(pf, f, 0, FD_EV_OPEN_TO_SERVER);
        pflow_raise(pf, f, 1, FD_EV_OPEN_TO_CLIENT);
    }
}

void ftp_data_end(struct pflow *pf, struct mon_flow *f)
{
    struct ftp_data_state *ds = pf->state;
    if (!ds || ds->reported)
        return;
    ds->reported = true;
    /* the connection's end is the file's; a file whose direction was given up (a gap: the
     * core's dead flag, as Suricata's ftp-data parser does not accept gaps) is cut short */
    pfile_close(pf, ds->file, pf->dead[ds->file_dir]);
    pflow_raise(pf, f, 0, FD_EV_TO_SERVER);
    pflow_raise(pf, f, 1, FD_EV_TO_CLIENT);
    pflow_count(pf, FD_C_FILES, 1);
    pflow_tx_done(pf, f);
}

void ftp_data_free(void *state)
{
    struct ftp_data_state *ds = state;
    if (!ds)
        return;
    pbuf_free(&ds->name);
    pbuf_free(&ds->data[0]);
    pbuf_free(&ds->data[1]);
    free(ds);
}

bool ftp_data_eve(struct pflow *pf, struct osprey_jw *w)
{
    const struct ftp_data_state *ds = pf->state;
    if (!ds)
        return false;
    if (!w)
        return true;
    osprey_jw_open(w, "ftp_data");
    osprey_jw_strn(w, "filename", ds->name.p ? ds->name.p : (const uint8_t *)"", ds->name.len);
    osprey_jw_str(w, "command", ds->command == FD_CMD_RETR ? "RETR" : "STOR");
    osprey_jw_close(w);
    return true;
}
