/* ssh.c — SSH's descriptor (the example protocol of parsers/README.md, "Adding a
 * protocol"): a probe, one event per side's banner, its buffers ssh.proto and ssh.software
 * (each side's), counters and its EVE object. Registered in core/registry.c. */
#include "ssh_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, ssh_probe}, {6, 1, ssh_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SSH_EV_CLIENT_BANNER] = {"ssh_client_banner", 0},
    [SSH_EV_SERVER_BANNER] = {"ssh_server_banner", 1},
};

/* Side dir's banner part key, NULL until that side's banner is in. */
static const uint8_t *part(struct pflow *pf, unsigned key, int dir, uint32_t *len)
{
    const struct ssh_state *st = pf->state;
    const struct ssh_side *s = st ? &st->side[dir] : NULL;
    if (!s || !s->done)
        return NULL;
    if (key == SB_BANNER) {
        *len = s->line.len;
        return s->line.p ? s->line.p : (const uint8_t *)"";
    }
    const struct span *sp = key == SB_PROTO ? &s->proto : &s->software;
    if (!sp->set)
        return NULL;
    *len = sp->len;
    return s->line.p + sp->off;
}

static const uint8_t *client(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    return part(pf, key, 0, len);
}

static const uint8_t *server(struct pflow *pf, unsigned key, uint32_t i,
                             struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    return part(pf, key, 1, len);
}

/* each side's, under that side's banner event (a rule without direction inspects both) */
static const struct proto_buffer BUFFERS[] = {
    {.name = "ssh.proto", .dir = 0, .event = "ssh_client_banner", .key = SB_PROTO, .get = client},
    {.name = "ssh.proto", .dir = 1, .event = "ssh_server_banner", .key = SB_PROTO, .get = server},
    {.name = "ssh.software", .dir = 0, .event = "ssh_client_banner", .key = SB_SOFTWARE,
     .get = client},
    {.name = "ssh.software", .dir = 1, .event = "ssh_server_banner", .key = SB_SOFTWARE,
     .get = server},
    /* the whole identification strings, for records (osprey-trace) */
    {.name = "ssh.banner", .dir = 0, .event = "ssh_client_banner", .record = true,
     .key = SB_BANNER, .get = client},
    {.name = "ssh.banner.server", .dir = 1, .event = "ssh_server_banner", .record = true,
     .key = SB_BANNER, .get = server},
};

static const char *const COUNTERS[] = {
    [SSH_C_BANNERS] = "ssh_banners",
    [SSH_C_MALFORMED] = "ssh_malformed", /* a client line that is no banner, a line too long */
};

const struct osprey_proto_def ssh_proto = {
    .name = "ssh",
    .flow_stat = "flow.ssh",
    .l4 = 6,
    .probes = PROBES,
    .parse = ssh_parse,
    .end = ssh_end,
    .state_free = ssh_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SSH_C_BANNERS,
    .eve = ssh_eve,
};
