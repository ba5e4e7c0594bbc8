/* ftp_data.c — ftp-data's descriptor: no probes (a flow is ftp-data only when the FTP
 * control connection announced it, core/expect.c), an open event per direction when the
 * first bytes come and one per direction at the connection's end, file.data each way, the field ftpdata_command, the file's name for
 * records, counters and the EVE `ftp_data` object. Registered in core/registry.c. */
#include "files.h"
#include "ftp_int.h"

static const struct proto_event EVENTS[] = {
    [FD_EV_OPEN_TO_SERVER] = {"ftp_data_open_to_server", 0},
    [FD_EV_OPEN_TO_CLIENT] = {"ftp_data_open_to_client", 1},
    [FD_EV_TO_SERVER] = {"ftp_data_to_server", 0},
    [FD_EV_TO_CLIENT] = {"ftp_data_to_client", 1},
};

enum { DB_DATA_TS, DB_DATA_TC, DB_NAME, DB_TX };

static const uint8_t *get(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                          uint32_t *len)
{
    (void)i, (void)s;
    const struct ftp_data_state *ds = pf->state;
    if (key == DB_TX) { /* the connection itself: its file's name, possibly empty */
        *len = ds->name.len;
        return ds->name.p ? ds->name.p : (const uint8_t *)"";
    }
    const struct pbuf *b = key == DB_NAME ? &ds->name : &ds->data[key == DB_DATA_TC];
    if (!b->len)
        return NULL;
    *len = b->len;
    return b->p;
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "file.data", .dir = 0, .event = "ftp_data_to_server",
     .key = DB_DATA_TS, .get = get},
    {.name = "file.data", .dir = 1, .event = "ftp_data_to_client",
     .key = DB_DATA_TC, .get = get},
    /* the connection, when its first bytes come: what ftpdata_command runs on, both sides */
    {.name = "ftp_data.transaction", .dir = 0, .event = "ftp_data_open_to_server", .key = DB_TX,
     .get = get},
    {.name = "ftp_data.transaction", .dir = 1, .event = "ftp_data_open_to_client", .key = DB_TX,
     .get = get},
    /* its file (core/files.h): the whole transfer, at the connection's end */
    PFILE_BUFFERS("ftp_data_to_server", "ftp_data_to_client"),
    {.name = "ftp_data.filename", .dir = 0, .event = "ftp_data_to_server", .record = true,
     .key = DB_NAME, .get = get},
};

static bool field(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    (void)key;
    const struct ftp_data_state *ds = pf->state;
    if (i > 0 || !ds->command)
        return false;
    *out = ds->command;
    return true;
}

static const struct proto_value COMMANDS[] = {
    {"stor", FD_CMD_STOR}, {"retr", FD_CMD_RETR}, {NULL, 0}};

static const struct proto_field FIELDS[] = {
    {"ftpdata_command", 0, field, COMMANDS},
};

static const char *const COUNTERS[] = {
    [FD_C_FILES] = "ftp_data_files",
    [FD_C_BYTES_SHED] = "ftp_data_bytes_shed", /* past FTP_DATA_MAX: not inspected */
};

const struct osprey_proto_def ftp_data_proto = {
    .name = "ftp-data",
    .flow_stat = "flow.ftp-data",
    .eve_name = "ftp_data",
    .l4 = 6,
    .suricata_stats = true,
    .expected = true, /* no probes: FTP announces it */
    .parse = ftp_data_parse,
    .end = ftp_data_end,
    .state_free = ftp_data_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = FD_C_FILES,
    .eve = ftp_data_eve,
};
