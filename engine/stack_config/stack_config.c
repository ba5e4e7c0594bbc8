/* stack_config.c — YAML keys → struct mon_decode_cfg / mon_defrag_cfg / mon_flow_cfg. */
#include "stack_config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "osprey_cidr.h"

int osprey_parse_port_list(const char *s, uint16_t *ports, size_t max)
{
    size_t n = 0;
    const char *q = s;
    while (*q) {
        while (*q && (isspace((unsigned char)*q) || *q == '[' || *q == ']' || *q == ','))
            q++;
        if (!*q)
            break;
        char *end;
        long v = strtol(q, &end, 10);
        if (end == q || v < 1 || v > 65535 || n + 1 >= max)
            return -1;
        ports[n++] = (uint16_t)v;
        q = end;
    }
    ports[n] = 0;
    return n > 0 ? 0 : -1;
}

/* One host-os-policy address or CIDR (the item has no space: the list split it) → an entry
 * whose policy is still to set. */
static int host_entry(const char *item, struct mon_host_policy *out)
{
    struct osprey_cidr c;
    if (osprey_cidr_parse(item, strlen(item), 0, &c) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->ipver = c.ipver;
    out->prefix = c.prefix;
    memcpy(out->net.b, c.addr, sizeof c.addr);
    return 0;
}

static int load_ports(const struct osprey_config *c, const char *key, uint16_t *ports, size_t max,
                      FILE *diag)
{
    const char *v = osprey_config_str(c, key);
    if (osprey_parse_port_list(v, ports, max) == 0)
        return 0;
    char where[256];
    fprintf(diag, "%s: %s: expected a port or a list of ports such as [4789, 8472], got '%s'\n",
            osprey_config_origin(c, key, where, sizeof where), key, v);
    return -1;
}

struct host_collect {
    struct osprey_stack_cfg *s;
    FILE *diag;
    int err;
};

/* One host-os-policy entry: "OSNAME: [addr, addr/prefix, …]" (or the "default" policy). */
static void collect_hosts(const char *key, const char *value, const char *file, int line, void *arg)
{
    struct host_collect *hc = arg;
    if (!strcmp(key, "default"))
        return;
    enum mon_overlap_policy pol;
    if (mon_policy_from_name(key, &pol) != 0) {
        fprintf(hc->diag, "%s:%d: host-os-policy.%s: unknown OS policy '%s'\n", file, line, key, key);
        hc->err = -1;
        return;
    }
    const char *q = value;
    while (*q) {
        while (*q && (isspace((unsigned char)*q) || *q == '[' || *q == ']' || *q == ','))
            q++;
        if (!*q)
            break;
        size_t len = strcspn(q, ",] \t");
        char item[64];
        if (len >= sizeof item) {
            hc->err = -1;
            fprintf(hc->diag, "%s:%d: host-os-policy.%s: address too long\n", file, line, key);
            return;
        }
        memcpy(item, q, len);
        item[len] = 0;
        q += len;
        struct mon_host_policy hp;
        if (host_entry(item, &hp) != 0) {
            fprintf(hc->diag, "%s:%d: host-os-policy.%s: expected an address or CIDR, got '%s'\n",
                    file, line, key, item);
            hc->err = -1;
            continue;
        }
        hp.policy = (uint8_t)pol;
        struct mon_host_policy *n = realloc(hc->s->hosts, (hc->s->nhosts + 1) * sizeof *n);
        if (!n) {
            hc->err = -1;
            return;
        }
        n[hc->s->nhosts++] = hp;
        hc->s->hosts = n;
    }
}

int osprey_stack_cfg_load(const struct osprey_config *c, struct osprey_stack_cfg *s, FILE *diag)
{
    memset(s, 0, sizeof *s);
    mon_decode_cfg_defaults(&s->decode);
    mon_defrag_cfg_defaults(&s->defrag);
    mon_flow_cfg_defaults(&s->flow);
    mon_tcp_cfg_defaults(&s->tcp);
    int err = 0;
    char where[256];

    struct mon_decode_cfg *d = &s->decode;
    const char *ck = osprey_config_str(c, "pcap-file.checksum-checks");
    d->checksum_mode = !strcmp(ck, "yes") ? MON_CSUM_ALL : !strcmp(ck, "no") ? MON_CSUM_NONE
                                                                          : MON_CSUM_AUTO;
    d->vxlan_enabled = osprey_config_bool(c, "decoder.vxlan.enabled");
    d->geneve_enabled = osprey_config_bool(c, "decoder.geneve.enabled");
    d->teredo_enabled = osprey_config_bool(c, "decoder.teredo.enabled");
    d->gtpu_enabled = osprey_config_bool(c, "decoder.gtpu.enabled");
    d->gre_udp_enabled = osprey_config_bool(c, "decoder.gre-udp.enabled");
    d->mpls_udp_enabled = osprey_config_bool(c, "decoder.mpls-udp.enabled");
    err |= load_ports(c, "decoder.vxlan.ports", d->vxlan_ports, 4, diag);
    err |= load_ports(c, "decoder.geneve.ports", d->geneve_ports, 4, diag);
    err |= load_ports(c, "decoder.teredo.ports", d->teredo_ports, 4, diag);
    err |= load_ports(c, "decoder.gtpu.ports", d->gtpu_ports, 4, diag);
    err |= load_ports(c, "decoder.gre-udp.ports", d->gre_udp_ports, 4, diag);
    err |= load_ports(c, "decoder.mpls-udp.ports", d->mpls_udp_ports, 4, diag);
    d->max_tunnel_depth = (uint8_t)osprey_config_int(c, "decoder.max-layers");

    struct mon_defrag_cfg *df = &s->defrag;
    df->memcap = osprey_config_size(c, "defrag.memcap");
    df->timeout_s = (uint32_t)osprey_config_seconds(c, "defrag.timeout");
    df->max_frags = (uint32_t)osprey_config_int(c, "defrag.max-frags");
    df->max_trackers = (uint32_t)osprey_config_int(c, "defrag.trackers");
    const char *dp = osprey_config_str(c, "host-os-policy.default");
    enum mon_overlap_policy pol;
    if (mon_policy_from_name(dp, &pol) != 0) {
        fprintf(diag, "%s: host-os-policy.default: unknown policy '%s'\n",
                osprey_config_origin(c, "host-os-policy.default", where, sizeof where), dp);
        err = -1;
    } else {
        df->policy.dflt = pol;
    }
    struct host_collect hc = {s, diag, 0};
    osprey_config_each(c, "host-os-policy", collect_hosts, &hc);
    err |= hc.err;
    df->policy.entries = s->hosts;
    df->policy.n = s->nhosts;

    struct mon_tcp_cfg *tc = &s->tcp;
    tc->policy = df->policy;  /* one host-os-policy for fragments and segments, as Suricata */
    tc->memcap = osprey_config_size(c, "stream.reassembly.memcap");
    uint64_t depth = osprey_config_size(c, "stream.reassembly.depth");
    uint64_t bufsz = osprey_config_size(c, "stream.reassembly.buffer-size");
    if (depth > UINT32_MAX || bufsz > (1u << 30)) {
        fprintf(diag, "%s: stream.reassembly: depth must be under 4gb and buffer-size at most 1gb\n",
                osprey_config_origin(c, "stream.reassembly.depth", where, sizeof where));
        err = -1;
    }
    tc->depth = (uint32_t)depth;
    tc->buf_size = (uint32_t)bufsz;
    tc->max_frags = (uint32_t)osprey_config_int(c, "stream.reassembly.max-fragments");
    /* Suricata's raw stream chunks under ack delivery (its randomize-chunk-size is not
     * followed: the same capture gives the same alerts) */
    uint64_t cs = osprey_config_size(c, "stream.reassembly.toserver-chunk-size");
    uint64_t cc = osprey_config_size(c, "stream.reassembly.toclient-chunk-size");
    tc->ack_chunk[0] = cs > UINT32_MAX ? UINT32_MAX : (uint32_t)cs;
    tc->ack_chunk[1] = cc > UINT32_MAX ? UINT32_MAX : (uint32_t)cc;
    const char *urg = osprey_config_str(c, "stream.reassembly.urgent.policy");
    tc->urgent_policy = !strcmp(urg, "oob") ? MON_URG_OOB
                        : !strcmp(urg, "gap") ? MON_URG_GAP : MON_URG_INLINE;
    /* a stream.midstream-policy set to anything but ignore/pass-flow (auto is ignore with
     * midstream on) keeps sessions from being picked up midstream, as in Suricata */
    const char *mp = osprey_config_str(c, "stream.midstream-policy");
    bool mp_set = strcmp(osprey_config_origin(c, "stream.midstream-policy", where, sizeof where),
                         "default") != 0;
    tc->midstream = osprey_config_bool(c, "stream.midstream") &&
                    (!mp_set || !strcmp(mp, "auto") || !strcmp(mp, "ignore") ||
                     !strcmp(mp, "pass-flow"));
    tc->async_oneside = osprey_config_bool(c, "stream.async-oneside");
    tc->checksum_validation = osprey_config_bool(c, "stream.checksum-validation");
    tc->one_sided_pkts = (uint32_t)osprey_config_int(c, "stream.one-sided-packets");

    struct mon_flow_cfg *f = &s->flow;
    f->memcap = osprey_config_size(c, "flow.memcap");
    f->hash_size = (uint32_t)osprey_config_int(c, "flow.hash-size");
    f->prealloc = (uint32_t)osprey_config_int(c, "flow.prealloc");
    f->hash_seed = (uint64_t)osprey_config_int(c, "flow.hash-seed");
    static const struct { int tc; const char *key; } tmo[] = {
        {MON_TC_TCP_NEW, "flow-timeouts.tcp.new"},
        {MON_TC_TCP_EST, "flow-timeouts.tcp.established"},
        {MON_TC_TCP_CLOSED, "flow-timeouts.tcp.closed"},
        {MON_TC_UDP_NEW, "flow-timeouts.udp.new"},
        {MON_TC_UDP_EST, "flow-timeouts.udp.established"},
        {MON_TC_ICMP_NEW, "flow-timeouts.icmp.new"},
        {MON_TC_ICMP_EST, "flow-timeouts.icmp.established"},
        {MON_TC_OTHER_NEW, "flow-timeouts.default.new"},
        {MON_TC_OTHER_EST, "flow-timeouts.default.established"},
        {MON_TC_OTHER_CLOSED, "flow-timeouts.default.closed"},
    };
    for (size_t i = 0; i < sizeof tmo / sizeof tmo[0]; i++)
        f->timeout_s[tmo[i].tc] = (uint32_t)osprey_config_seconds(c, tmo[i].key);

    if (err)
        osprey_stack_cfg_release(s);
    return err ? -1 : 0;
}

void osprey_stack_cfg_engine(const struct osprey_stack_cfg *s, const char *checksums,
                             struct mon_engine_cfg *out)
{
    mon_engine_cfg_defaults(out);
    out->decode = s->decode;
    out->defrag = s->defrag;
    out->flow = s->flow;
    out->tcp = s->tcp;
    if (checksums)
        out->decode.checksum_mode = !strcmp(checksums, "all") ? MON_CSUM_ALL : MON_CSUM_NONE;
}

void osprey_stack_cfg_release(struct osprey_stack_cfg *s)
{
    free(s->hosts);
    s->hosts = NULL;
    s->nhosts = 0;
    s->defrag.policy.entries = NULL;
    s->defrag.policy.n = 0;
    s->tcp.policy.entries = NULL;
    s->tcp.policy.n = 0;
}

bool osprey_stack_cfg_ack_delivery(const struct osprey_config *c, bool ips)
{
    /* Suricata's stream.inline: auto is inline in IPS mode and its IDS model (ack delivery,
     * stack/tcp/README.md) otherwise */
    const char *v = osprey_config_str(c, "stream.inline");
    if (!strcmp(v, "auto"))
        return !ips;
    return !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0");
}

void osprey_stack_cfg_delivery(struct osprey_stack_cfg *s, const struct osprey_config *c, bool ips)
{
    s->tcp.ack_delivery = osprey_stack_cfg_ack_delivery(c, ips);
    s->tcp.inline_mode = ips; /* (Suricata's inline-only stream events) */
}
