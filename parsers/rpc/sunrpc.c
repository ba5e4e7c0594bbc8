/* sunrpc.c — the sunrpc protocol (Snort 3's service name): ONC-RPC to the portmapper
 * (program 100000) on its port 111, over UDP and TCP (record marking, rpc.h). Each message
 * runs its side's event (sunrpc_call to the server, sunrpc_reply to the client); rules on it
 * are `alert sunrpc` / `service:sunrpc` with the packet's payload (Snort 3's community rules)
 * and rpc:. No EVE record: Suricata has none. Other programs (mount, NLM …) are not
 * decided as sunrpc: Suricata leaves them undetected. Registered in core/registry.c. */
#include <stdlib.h>

#include "rpc.h"

extern const struct osprey_proto_def sunrpc_proto;

enum { SR_EV_CALL, SR_EV_REPLY };
enum { SR_C_MSGS, SR_C_MALFORMED, SR_C_SKIPPED, SR_C_GAPS };
#define PORTMAP_PROG 100000u
#define PORTMAP_PORT 111u
#define SUNRPC_RECORD_MAX 65536u /* a portmapper record is small: longer ones are skipped */

struct sunrpc_state {
    struct rpc_rec rec[2];
};

static enum probe_verdict probe_udp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || f->sport != PORTMAP_PORT)
        return DET_NO;
    return rpc_probe_call(d, n, PORTMAP_PROG);
}

static enum probe_verdict probe_tcp(const uint8_t *d, size_t n, const struct mon_flow *f)
{
    if (!f || f->sport != PORTMAP_PORT)
        return DET_NO;
    return n < 4 ? DET_NEED_MORE : rpc_probe_call(d + 4, n - 4, PORTMAP_PROG);
}

static struct sunrpc_state *state_of(struct pflow *pf, int dir)
{
    if (!pf->state && !(pf->state = calloc(1, sizeof(struct sunrpc_state))))
        pf->dead[dir] = true;
    return pf->state;
}

static void message(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct rpc_msg m;
    if (!rpc_decode(&m, d, n)) {
        pflow_count(pf, SR_C_MALFORMED, 1);
        return;
    }
    pflow_count(pf, SR_C_MSGS, 1);
    pflow_raise(pf, f, dir, m.type == RPC_CALL ? SR_EV_CALL : SR_EV_REPLY);
}

static void parse_dgram(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                        size_t n)
{
    if (state_of(pf, dir))
        message(pf, f, dir, d, n);
}

struct rec_arg {
    struct pflow *pf;
    struct mon_flow *f;
    int dir;
};

static void on_record(void *arg, const uint8_t *d, size_t n)
{
    struct rec_arg *a = arg;
    message(a->pf, a->f, a->dir, d, n);
}

static void parse(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n)
{
    struct sunrpc_state *st = state_of(pf, dir);
    if (!st)
        return;
    struct rec_arg a = {pf, f, dir};
    uint64_t skipped = 0;
    rpc_rec_feed(&st->rec[dir], d, n, SUNRPC_RECORD_MAX, on_record, &a, &skipped);
    if (skipped)
        pflow_count(pf, SR_C_SKIPPED, skipped);
}

/* Bytes lost on TCP: resync on the next portmapper call (a reply, to the client). */
static void gap(struct pflow *pf, struct mon_flow *f, int dir)
{
    (void)f;
    struct sunrpc_state *st = pf->state;
    if (!st)
        return;
    rpc_rec_gap(&st->rec[dir], dir == 0, PORTMAP_PROG);
    pflow_count(pf, SR_C_GAPS, 1);
}

static void state_free(void *state)
{
    struct sunrpc_state *st = state;
    if (!st)
        return;
    rpc_rec_free(&st->rec[0]);
    rpc_rec_free(&st->rec[1]);
    free(st);
}

static const struct proto_probe PROBES[] = {
    {17, 0, probe_udp}, {6, 0, probe_tcp}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SR_EV_CALL] = {"sunrpc_call", 0, NULL},
    [SR_EV_REPLY] = {"sunrpc_reply", 1, NULL},
};

static const char *const COUNTERS[] = {
    [SR_C_MSGS] = "sunrpc_messages",
    [SR_C_MALFORMED] = "sunrpc_malformed",    /* a message that is no ONC-RPC */
    [SR_C_SKIPPED] = "sunrpc_records_skipped", /* TCP records past SUNRPC_RECORD_MAX */
    [SR_C_GAPS] = "sunrpc_gaps",              /* TCP bytes lost: resynced after */
};

const struct osprey_proto_def sunrpc_proto = {
    .name = "sunrpc",
    .flow_stat = "flow.sunrpc",
    .l4 = 0,
    .probes = PROBES,
    .parse = parse,
    .parse_dgram = parse_dgram,
    .gap = gap,
    .state_free = state_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = -1,
};
