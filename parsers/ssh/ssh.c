/* ssh.c — SSH's descriptor (the example protocol of parsers/README.md, "Adding a
 * protocol"): a probe, one event per side's banner and per side's KEXINIT, its buffers
 * ssh.proto and ssh.software (each side's), ssh.hassh / ssh.hassh.string (the client's) and
 * ssh.hassh.server / ssh.hassh.server.string (the server's), counters, its setting
 * app-layer.protocols.ssh.hassh and its EVE object. Registered in core/registry.c. */
#include <stddef.h>

#include "ssh_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, ssh_probe}, {6, 1, ssh_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SSH_EV_CLIENT_BANNER] = {"ssh_client_banner", 0},
    [SSH_EV_SERVER_BANNER] = {"ssh_server_banner", 1},
    [SSH_EV_CLIENT_KEXINIT] = {"ssh_client_kexinit", 0},
    [SSH_EV_SERVER_KEXINIT] = {"ssh_server_kexinit", 1},
};

/* Side dir's banner part key, NULL until that side's banner is in. */
static const uint8_t *part(struct pflow *pf, unsigned key, int dir, uint32_t *len)
{
    const struct ssh_state *st = pf->state;
    const struct ssh_side *s = st ? &st->side[dir] : NULL;
    if (!s || !s->done)
        return NULL;
    if (key == SB_HASSH || key == SB_HASSH_STRING) {
        if (!s->kexinit)
            return NULL;
        *len = key == SB_HASSH ? 32 : s->hassh_string.len;
        return key == SB_HASSH ? (const uint8_t *)s->hassh
               : s->hassh_string.p ? s->hassh_string.p : (const uint8_t *)"";
    }
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
    /* HASSH (rows SSH_ROW_HASSH_FIRST..END): the client's as Suricata's ssh.hassh, the
     * server's as ssh.hassh.server, each under its side's KEXINIT */
    {.name = "ssh.hassh", .dir = 0, .event = "ssh_client_kexinit", .key = SB_HASSH,
     .get = client},
    {.name = "ssh.hassh.string", .dir = 0, .event = "ssh_client_kexinit",
     .key = SB_HASSH_STRING, .get = client},
    {.name = "ssh.hassh.server", .dir = 1, .event = "ssh_server_kexinit", .key = SB_HASSH,
     .get = server},
    {.name = "ssh.hassh.server.string", .dir = 1, .event = "ssh_server_kexinit",
     .key = SB_HASSH_STRING, .get = server},
};
_Static_assert(PROTO_N(BUFFERS) == SSH_ROW_HASSH_END, "the HASSH rows close the table");

static const char *const COUNTERS[] = {
    [SSH_C_BANNERS] = "ssh_banners",
    [SSH_C_MALFORMED] = "ssh_malformed", /* a client line that is no banner, a line too long,
                                            a packet or KEXINIT that does not decode */
    [SSH_C_KEXINITS] = "ssh_kexinits",   /* KEXINITs read (HASSH computed) */
};

/* Suricata's SSH events (app-layer-event:ssh.*) */
static const char *const ANOMALIES[] = {
    /* a side's first line is no "SSH-<proto>-<software>" (Osprey still skips a server's
     * lines before its banner) */
    [SSH_AE_INVALID_BANNER] = "ssh.invalid_banner",
    [SSH_AE_LONG_BANNER] = "ssh.long_banner", /* a banner line of SSH_BANNER_LONG bytes or more */
    /* a binary packet before NEWKEYS whose packet_length is below 2 */
    [SSH_AE_INVALID_RECORD] = "ssh.invalid_record",
};

static const struct osprey_parsers_cfg_key CFG_KEYS[] = {
    {.key = "app-layer.protocols.ssh.hassh", .kind = OSPREY_CFG_BOOL,
     .offset = offsetof(struct ssh_cfg, hassh)},
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
    .anomalies = ANOMALIES, .nanomalies = PROTO_N(ANOMALIES),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SSH_C_BANNERS,
    .eve = ssh_eve,
    .cfg_keys = CFG_KEYS, .ncfg_keys = PROTO_N(CFG_KEYS),
    .cfg_size = sizeof(struct ssh_cfg),
};
