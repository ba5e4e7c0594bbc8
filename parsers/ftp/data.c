/* data.c — ftp-data: a data connection the control connection announced (PORT / EPRT /
 * PASV / EPSV, then RETR or STOR: core/expect.c hands the flow its state with the command and
 * the file's name). What it carries is the file: its bytes, each way, are kept (FTP_DATA_MAX,
 * the rest counted) and inspected as file.data once the connection ends. Each direction's
 * event runs once: the other direction's when the first bytes come (the connection is still
 * established then: ftpdata_command with flow:established, on the side without the file),
 * the one carrying the file when the connection ends (the whole file). The one transaction
 * is then reported (EVE ftp_data{filename, command}, as Suricata writes it). */
#include <stdlib.h>

#include "ftp_int.h"
#include "osprey_json_writer.h"

void ftp_data_parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct ftp_data_state *ds = pf->state;
    if (!ds) { /* (only ever made by an expectation; a flow without one has nothing to say) */
        pf->dead[dir] = true;
        return;
    }
    uint32_t took = pbuf_add(&ds->data[dir], d, n, FTP_DATA_MAX);
    if (took < n)
        pflow_count(pf, FD_C_BYTES_SHED, n - took);
    if (n && !ds->raised[!dir]) {
        ds->raised[!dir] = true;
        pflow_raise(pf, f, !dir, !dir ? FD_EV_TO_CLIENT : FD_EV_TO_SERVER);
    }
}

void ftp_data_end(struct pflow *pf, struct mon_flow *f)
{
    struct ftp_data_state *ds = pf->state;
    if (!ds || ds->reported)
        return;
    ds->reported = true;
    for (int k = 0; k < 2; k++)
        if (!ds->raised[k]) {
            ds->raised[k] = true;
            pflow_raise(pf, f, k, k ? FD_EV_TO_CLIENT : FD_EV_TO_SERVER);
        }
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
