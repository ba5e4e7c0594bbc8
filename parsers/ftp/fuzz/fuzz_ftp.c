/* fuzz_ftp.c — libFuzzer target: the FTP control parser and the ftp-data connections it
 * announces, on any bytes of both directions.
 *
 * The input is read as records "direction byte, length byte, bytes", fed to ftp_parse as
 * segments of either side (a direction byte with bit 7 set instead claims a data connection
 * to the port last announced and feeds it the record's bytes); the flows then end. Each
 * finished transaction has every buffer and field read back in full, and its EVE object
 * written. The sanitizers do the checking: no crash, leak, overflow or undefined behaviour on
 * any input. Run it with parsers/ftp/fuzz/run.sh. */
#include "ftp_int.h"
#include "fuzz_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    struct reg_base base[OSPREY_APP_PROTO_MAX];
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        base[id] = reg_base_of(id);
    p.base = base;
    p.ev = calloc(osprey_event_count() + 1u, sizeof *p.ev);
    if (!p.ev)
        return 0;
    struct osprey_parsers_worker w;
    memset(&w, 0, sizeof w);
    w.p = &p;
    struct pflow pf, dpf;
    memset(&pf, 0, sizeof pf);
    memset(&dpf, 0, sizeof dpf);
    pf.w = dpf.w = &w;
    pf.anomaly = dpf.anomaly = -1;
    pf.proto = (uint16_t)osprey_app_proto_find("ftp");
    w.tx_fn = fz_on_tx;
    w.tx_arg = &pf;
    struct mon_flow f, df; /* no event forest: app events are not run, transactions are */
    memset(&f, 0, sizeof f);
    f.proto = 6, f.ipver = 4, f.cport = 40000, f.sport = 21;
    f.cli.b[0] = 1, f.srv.b[0] = 2;
    df = f;
    for (size_t i = 0; i + 2 <= size;) {
        uint8_t how = data[i];
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (how & 0x80) { /* the data connection to the port last announced */
            const struct ftp_state *st = pf.state;
            if (dpf.proto == OSPREY_APP_PROTO_UNKNOWN && st) {
                df.sport = (uint16_t)st->dyn_port;
                df.cport = 20;
                w.tx_arg = &dpf;
                pexpect_claim(&dpf, &df, how & 1);
                w.tx_arg = &pf;
            }
            const struct osprey_proto_def *d = reg_proto(dpf.proto);
            if (d && !dpf.dead[how & 1]) {
                w.tx_arg = &dpf;
                d->parse(&dpf, &df, how & 1, data + i, n);
                w.tx_arg = &pf;
            }
        } else if (!pf.dead[how & 1]) {
            ftp_parse(&pf, &f, how & 1, data + i, n);
        }
        i += n;
    }
    fz_read_all(&pf);
    ftp_end(&pf, &f);
    const struct osprey_proto_def *d = reg_proto(dpf.proto);
    if (d) {
        w.tx_arg = &dpf;
        fz_read_all(&dpf);
        d->end(&dpf, &df);
        d->state_free(dpf.state);
    }
    ftp_free(pf.state);
    pexpect_free(&w.expect);
    free(p.ev);
    return 0;
}
