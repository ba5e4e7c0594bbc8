/* fuzz_smb.c — libFuzzer target: the SMB parser on any bytes of both directions.
 *
 * The first input byte is unused (kept for options); the rest is records "direction byte,
 * length byte, bytes", fed to smb_parse as segments of either side. After each record the
 * buffers and the field are read back in full. The sanitizers do the checking: no crash,
 * leak, overflow or undefined behaviour on any input. Run it with parsers/smb/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_json_writer.h"
#include "smb_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

static void read_all(struct pflow *pf)
{
    const struct osprey_proto_def *d = &smb_proto;
    struct osprey_scratch s;
    memset(&s, 0, sizeof s);
    for (size_t b = 0; b < d->nbuffers; b++) {
        uint32_t len = 0;
        const uint8_t *p = d->buffers[b].get(pf, d->buffers[b].key, 0, &s, &len);
        for (uint32_t i = 0; p && i < len; i++)
            sink += p[i];
    }
    int64_t v;
    if (d->fields[0].get(pf, d->fields[0].key, 0, &v))
        sink += (uint32_t)v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct osprey_parsers p;
    memset(&p, 0, sizeof p);
    osprey_parsers_cfg_defaults(&p.cfg);
    struct reg_base base[OSPREY_APP_PROTO_MAX];
    for (uint16_t id = 0; id < osprey_app_proto_count(); id++)
        base[id] = reg_base_of(id);
    p.base = base;
    p.ev = calloc(osprey_event_count() + 1u, sizeof *p.ev); /* never run: no forest */
    if (!p.ev)
        return 0;
    struct osprey_parsers_worker w;
    memset(&w, 0, sizeof w);
    w.p = &p;
    struct pflow pf;
    memset(&pf, 0, sizeof pf);
    pf.w = &w;
    pf.anomaly = -1;
    pf.proto = (uint16_t)osprey_app_proto_find("smb");
    struct mon_flow f;
    memset(&f, 0, sizeof f);
    f.proto = 6;
    size_t i = 1;
    while (i + 2 <= size) {
        int dir = data[i] & 1;
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i)
            n = size - i;
        if (!pf.dead[dir])
            smb_parse(&pf, &f, dir, data + i, n);
        read_all(&pf);
        if (pf.guest && pf.guest->state) { /* the EVE object (with the guest's) */
            struct osprey_jw jw;
            osprey_jw_init(&jw);
            osprey_jw_open(&jw, NULL);
            smb_eve(&pf, &jw);
            free(osprey_jw_finish(&jw));
        }
        i += n;
    }
    smb_free(pf.state);
    if (pf.guest) { /* the DCERPC its named pipes carried */
        const struct osprey_proto_def *g = reg_proto(pf.guest->proto);
        if (g && pf.guest->state)
            g->state_free(pf.guest->state);
        free(pf.guest);
    }
    pbuf_free(&pf.in[0]);
    pbuf_free(&pf.in[1]);
    free(p.ev);
    return 0;
}
