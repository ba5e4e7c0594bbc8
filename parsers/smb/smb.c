/* smb.c — SMB's descriptor: a probe (a NetBIOS message carrying an SMB1/SMB2 header, either
 * side), one event (a tree connect answered), the buffers smb.share and smb.named_pipe, the
 * smb.version field and counters. Registered in core/registry.c. Not yet: EVE records, the
 * files, DCERPC over named pipes (parsers/smb/README.md). */
#include "smb_int.h"

static const struct proto_probe PROBES[] = {
    {6, 0, smb_probe}, {6, 1, smb_probe}, {0, 0, NULL}};

static const struct proto_event EVENTS[] = {
    [SMB_EV_TREE] = {"smb_tree_connect", 1},
};

/* The share in force: smb.share for a disk (or printer) share, smb.named_pipe for IPC$. */
static const uint8_t *share(struct pflow *pf, unsigned key, uint32_t i,
                            struct osprey_scratch *s, uint32_t *len)
{
    (void)i, (void)s;
    const struct smb_state *st = pf->state;
    if (!st || !st->has_tree || st->is_pipe != (key == SMBB_PIPE))
        return NULL;
    *len = st->share_len;
    return st->share;
}

static const struct proto_buffer BUFFERS[] = {
    {.name = "smb.share", .alias = {"smb_share"}, .dir = 1, .event = "smb_tree_connect",
     .key = SMBB_SHARE, .get = share},
    {.name = "smb.named_pipe", .alias = {"smb_named_pipe"}, .dir = 1,
     .event = "smb_tree_connect", .key = SMBB_PIPE, .get = share},
};

static bool version(struct pflow *pf, unsigned key, uint32_t i, int64_t *out)
{
    (void)key;
    const struct smb_state *st = pf->state;
    if (i > 0 || !st || !st->version)
        return false;
    *out = st->version;
    return true;
}

static const struct proto_field FIELDS[] = {
    {"smb.version", 0, version, NULL},
};

static const char *const COUNTERS[] = {
    [SMB_C_MSGS] = "smb_messages",
    [SMB_C_TREES] = "smb_tree_connects",
    [SMB_C_MALFORMED] = "smb_malformed",         /* a session message that is no SMB */
    [SMB_C_PENDING_SHED] = "smb_pending_shed",   /* tree connects past SMB_PENDING_MAX */
};

const struct osprey_proto_def smb_proto = {
    .name = "smb",
    .flow_stat = "flow.smb",
    .l4 = 6,
    .probes = PROBES,
    .parse = smb_parse,
    .state_free = smb_free,
    .events = EVENTS, .nevents = PROTO_N(EVENTS),
    .buffers = BUFFERS, .nbuffers = PROTO_N(BUFFERS),
    .fields = FIELDS, .nfields = PROTO_N(FIELDS),
    .counters = COUNTERS, .ncounters = PROTO_N(COUNTERS),
    .tx_counter = SMB_C_TREES,
};
