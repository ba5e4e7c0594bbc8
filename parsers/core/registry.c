/* registry.c — the one list of protocols, and the flat id spaces computed from it.
 *
 * A protocol's id is its place in PROTOS plus 2 (0 = UNKNOWN, 1 = FAILED). Its events,
 * buffers, fields, anomaly names and counters are numbered flat, protocol after protocol, in
 * table order: ids are allocated here, never enumerated elsewhere. Adding a protocol is a
 * folder parsers/<proto>/ with its descriptor and one row below (parsers/README.md). */
#include <stddef.h>
#include <string.h>

#include "files.h"
#include "proto_def.h"

extern const struct osprey_proto_def http_proto, dns_proto, tls_proto, ssh_proto;
extern const struct osprey_proto_def sip_proto;
extern const struct osprey_proto_def mqtt_proto;
extern const struct osprey_proto_def dcerpc_proto, smb_proto;
extern const struct osprey_proto_def ftp_proto, ftp_data_proto;
extern const struct osprey_proto_def krb5_proto, ldap_proto, snmp_proto;
extern const struct osprey_proto_def http2_proto;
extern const struct osprey_proto_def smtp_proto;
extern const struct osprey_proto_def dhcp_proto, ntp_proto, ike_proto;
extern const struct osprey_proto_def irc_proto, netbios_ns_proto, netbios_dgm_proto, wins_proto,
    ssdp_proto, mysql_proto, nntp_proto;
extern const struct osprey_proto_def pop3_proto, imap_proto;
extern const struct osprey_proto_def nfs_proto;
extern const struct osprey_proto_def tftp_proto, tftp_data_proto;
extern const struct osprey_proto_def sunrpc_proto;
extern const struct osprey_proto_def websocket_proto, telnet_proto, rfb_proto, rdp_proto;
extern const struct osprey_proto_def quic_proto;
extern const struct osprey_proto_def pgsql_proto, mdns_proto, bittorrent_dht_proto;
extern const struct osprey_proto_def modbus_proto, dnp3_proto, enip_proto;
extern const struct osprey_proto_def doh2_proto;

/* The protocols, HTTP, DNS and TLS first. Detection tries the probes by each descriptor's
 * probe_rank, then in this order: the first YES wins (HTTP, then a TLS ClientHello, then
 * NetBIOS-NS and mDNS, whose traffic DNS's probe would take, then DNS and the others). */
static const struct osprey_proto_def *const PROTOS[] = {&http_proto, &dns_proto, &tls_proto,
                                                        &netbios_ns_proto, &mdns_proto,
                                                        &ssh_proto, &sip_proto, &mqtt_proto,
                                                        &dcerpc_proto, &smb_proto, &ftp_proto,
                                                        &ftp_data_proto, &krb5_proto,
                                                        &ldap_proto, &snmp_proto,
                                                        &http2_proto,
                                                        &smtp_proto, /* after FTP: both greet with 220 */
                                                        &dhcp_proto, &ntp_proto, &ike_proto,
                                                        /* recognition only (services/) */
                                                        &irc_proto, &netbios_dgm_proto,
                                                        &wins_proto, &ssdp_proto, &mysql_proto,
                                                        &nntp_proto,
                                                        &pop3_proto, &imap_proto,
                                                        &nfs_proto, &tftp_proto,
                                                        &tftp_data_proto, &sunrpc_proto,
                                                        &websocket_proto, &telnet_proto,
                                                        &rfb_proto, &rdp_proto,
                                                        &quic_proto,
                                                        &pgsql_proto, &bittorrent_dht_proto,
                                                        &modbus_proto, &dnp3_proto, &enip_proto,
                                                        /* a name for HTTP/2's DoH flows */
                                                        &doh2_proto};

#define NPROTOS (sizeof PROTOS / sizeof PROTOS[0])
#define FIRST 2 /* after UNKNOWN and FAILED */
_Static_assert(NPROTOS + FIRST <= OSPREY_APP_PROTO_MAX, "protocol ids fit osprey_app_proto_set");
_Static_assert(PROTO_N(((struct osprey_proto_def *)0)->alias) == OSPREY_APP_PROTO_ALIASES,
               "osprey_app_proto_alias covers every alias");

const struct osprey_proto_def *reg_proto(uint16_t id)
{
    return id >= FIRST && id < FIRST + NPROTOS ? PROTOS[id - FIRST] : NULL;
}

const char *osprey_app_proto_alias(uint16_t proto, unsigned i)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d && i < PROTO_N(d->alias) ? d->alias[i] : NULL;
}

uint16_t osprey_app_proto_count(void)
{
    return (uint16_t)(FIRST + NPROTOS);
}

const char *osprey_app_proto_name(uint16_t proto)
{
    if (proto == OSPREY_APP_PROTO_FAILED)
        return "failed";
    const struct osprey_proto_def *d = reg_proto(proto);
    return d ? d->name : NULL;
}

int osprey_app_proto_find(const char *name)
{
    if (!strcmp(name, "failed"))
        return OSPREY_APP_PROTO_FAILED;
    for (size_t i = 0; i < NPROTOS; i++) {
        if (!strcmp(PROTOS[i]->name, name))
            return (int)(FIRST + i);
        for (size_t a = 0; a < PROTO_N(PROTOS[i]->alias) && PROTOS[i]->alias[a]; a++)
            if (!strcmp(PROTOS[i]->alias[a], name))
                return (int)(FIRST + i);
    }
    return -1;
}

uint8_t osprey_app_proto_l4(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d ? d->l4 : 0;
}

bool osprey_app_proto_buffers_imply_dir(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d && d->buffers_imply_dir;
}

uint16_t osprey_app_proto_rules_of(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    int id = d && d->rules_of ? osprey_app_proto_find(d->rules_of) : -1;
    return id > OSPREY_APP_PROTO_FAILED ? (uint16_t)id : 0;
}

uint16_t osprey_app_proto_buffer_rules_of(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    int id = d && d->buffer_rules_of ? osprey_app_proto_find(d->buffer_rules_of) : -1;
    return id > OSPREY_APP_PROTO_FAILED ? (uint16_t)id : 0;
}

uint16_t osprey_app_proto_parsed_by(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    int id = d && d->parsed_by ? osprey_app_proto_find(d->parsed_by) : -1;
    return id > OSPREY_APP_PROTO_FAILED ? (uint16_t)id : proto;
}

/* Does descriptor of a list b's name among its equals? */
static bool lists_equal(uint16_t a, uint16_t b)
{
    const struct osprey_proto_def *d = reg_proto(a), *e = reg_proto(b);
    for (size_t i = 0; d && e && i < PROTO_N(d->equals) && d->equals[i]; i++)
        if (!strcmp(d->equals[i], e->name))
            return true;
    return false;
}

bool osprey_app_proto_equals(uint16_t sig, uint16_t flow)
{
    return sig == flow || lists_equal(flow, sig) || lists_equal(sig, flow);
}

void osprey_app_proto_set_widen(struct osprey_app_proto_set *s)
{
    struct osprey_app_proto_set in = *s;
    for (uint16_t q = FIRST; q < FIRST + NPROTOS; q++)
        for (uint16_t a = FIRST; a < FIRST + NPROTOS && !osprey_app_proto_set_has(s, q); a++)
            if (osprey_app_proto_set_has(&in, a) && osprey_app_proto_equals(a, q))
                osprey_app_proto_set_add(s, q);
}

uint16_t osprey_app_proto_home_port(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d ? d->home_port : 0;
}

bool osprey_app_proto_suricata_stats(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d && d->suricata_stats;
}

bool osprey_app_proto_eve_packet_dir(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d && d->eve_packet_dir;
}

bool osprey_app_proto_has_eve(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d && d->eve;
}

bool osprey_app_proto_carries(uint16_t host, uint16_t guest)
{
    const struct osprey_proto_def *d = reg_proto(host), *g = reg_proto(guest);
    for (size_t k = 0; d && g && k < PROTO_N(d->carries) && d->carries[k]; k++)
        if (!strcmp(d->carries[k], g->name))
            return true;
    return false;
}

const char *osprey_app_proto_eve_name(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return !d ? NULL : d->eve_name ? d->eve_name : d->name;
}

bool osprey_app_proto_eve_tx_id(uint16_t proto)
{
    const struct osprey_proto_def *d = reg_proto(proto);
    return d && d->eve_tx_id;
}

/* a protocol's settings slot: its size rounded up to the slots' alignment */
#define CFG_ALIGN 16
static size_t cfg_slot(const struct osprey_proto_def *d)
{
    return (d->cfg_size + CFG_ALIGN - 1) / CFG_ALIGN * CFG_ALIGN;
}

struct reg_base reg_base_of(uint16_t id)
{
    struct reg_base b = {0, 0, 0, 0, (uint16_t)(FIRST + NPROTOS), 0}; /* flows come first */
    for (size_t i = 0; i < NPROTOS && FIRST + i < id; i++) {
        b.event = (uint16_t)(b.event + PROTOS[i]->nevents);
        b.buffer = (uint16_t)(b.buffer + PROTOS[i]->nbuffers);
        b.field = (uint16_t)(b.field + PROTOS[i]->nfields);
        b.anomaly = (uint16_t)(b.anomaly + PROTOS[i]->nanomalies);
        b.counter = (uint16_t)(b.counter + PROTOS[i]->ncounters);
        b.cfg = (uint16_t)(b.cfg + cfg_slot(PROTOS[i]));
    }
    return b;
}

size_t reg_cfg_bytes(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NPROTOS; i++)
        n += cfg_slot(PROTOS[i]);
    return n;
}

/* ---- configuration keys, protocol after protocol, then the core's (members of struct
 * osprey_parsers_cfg itself: the file layer's, core/files.c) ---- */
static const struct osprey_parsers_cfg_key CORE_KEYS[] = {
    {.key = "app-layer.files.memcap", .kind = OSPREY_CFG_SIZE,
     .offset = offsetof(struct osprey_parsers_cfg, files_memcap)},
};

size_t osprey_parsers_cfg_key_count(void)
{
    size_t n = PROTO_N(CORE_KEYS);
    for (size_t i = 0; i < NPROTOS; i++)
        n += PROTOS[i]->ncfg_keys;
    return n;
}

const struct osprey_parsers_cfg_key *osprey_parsers_cfg_key(size_t k)
{
    for (size_t i = 0; i < NPROTOS; i++) {
        if (k < PROTOS[i]->ncfg_keys)
            return &PROTOS[i]->cfg_keys[k];
        k -= PROTOS[i]->ncfg_keys;
    }
    return k < PROTO_N(CORE_KEYS) ? &CORE_KEYS[k] : NULL;
}

void *osprey_parsers_cfg_at(struct osprey_parsers_cfg *cfg, size_t k)
{
    for (size_t i = 0; i < NPROTOS; i++) {
        if (k < PROTOS[i]->ncfg_keys) {
            unsigned char *base = PROTOS[i]->cfg_size
                                      ? cfg->proto + reg_base_of((uint16_t)(FIRST + i)).cfg
                                      : (unsigned char *)cfg;
            return base + PROTOS[i]->cfg_keys[k].offset;
        }
        k -= PROTOS[i]->ncfg_keys;
    }
    return k < PROTO_N(CORE_KEYS) ? (unsigned char *)cfg + CORE_KEYS[k].offset : NULL;
}

/* ---- events ---- */
static const struct proto_event *event_row(uint16_t ev, uint16_t *proto)
{
    for (size_t i = 0; i < NPROTOS; i++) {
        if (ev < PROTOS[i]->nevents) {
            *proto = (uint16_t)(FIRST + i);
            return &PROTOS[i]->events[ev];
        }
        ev = (uint16_t)(ev - PROTOS[i]->nevents);
    }
    return NULL;
}

uint16_t osprey_event_count(void)
{
    return reg_base_of(FIRST + NPROTOS).event;
}

int osprey_event_find(const char *name)
{
    for (uint16_t e = 0, p, n = osprey_event_count(); e < n; e++)
        if (!strcmp(event_row(e, &p)->name, name))
            return e;
    return -1;
}

int osprey_event_find_hook(uint16_t proto, const char *hook)
{
    for (uint16_t e = 0, p = 0, n = osprey_event_count(); e < n; e++) {
        const struct proto_event *r = event_row(e, &p);
        if (r && p == proto && r->hook && !strcmp(r->hook, hook))
            return e;
    }
    return -1;
}

const char *osprey_event_name(uint16_t ev)
{
    uint16_t p;
    const struct proto_event *r = event_row(ev, &p);
    return r ? r->name : NULL;
}

uint16_t osprey_event_proto(uint16_t ev)
{
    uint16_t p = OSPREY_APP_PROTO_UNKNOWN;
    event_row(ev, &p);
    return p;
}

int osprey_event_dir(uint16_t ev)
{
    uint16_t p;
    const struct proto_event *r = event_row(ev, &p);
    return r ? r->dir : 0;
}

/* ---- buffers ---- */
const struct proto_buffer *reg_buffer(uint16_t b, uint16_t *proto)
{
    for (size_t i = 0; i < NPROTOS; i++) {
        if (b < PROTOS[i]->nbuffers) {
            *proto = (uint16_t)(FIRST + i);
            return &PROTOS[i]->buffers[b];
        }
        b = (uint16_t)(b - PROTOS[i]->nbuffers);
    }
    return NULL;
}

uint16_t osprey_buffer_count(void)
{
    return reg_base_of(FIRST + NPROTOS).buffer;
}

int osprey_buffer_find(const char *name, int dir)
{
    return osprey_buffer_find_in(name, dir, 0);
}

static int find_in(const char *name, int dir, uint16_t proto)
{
    int any = -1;
    const struct buffer_name *e;
    for (uint32_t i = 0, n = buffer_names(name, &e); i < n; i++) {
        const struct proto_buffer *r = e[i].row;
        if (r->record || (proto && e[i].proto != proto))
            continue;
        if (r->dir == dir)
            return e[i].b;
        if (any < 0)
            any = e[i].b;
    }
    return any;
}

int osprey_buffer_find_in(const char *name, int dir, uint16_t proto)
{
    int b = find_in(name, dir, proto);
    const struct osprey_proto_def *d = reg_proto(proto);
    for (size_t k = 0; b < 0 && d && k < PROTO_N(d->carries) && d->carries[k]; k++) {
        int g = osprey_app_proto_find(d->carries[k]); /* a protocol it carries: its rows */
        if (g > 0)
            b = find_in(name, dir, (uint16_t)g);
    }
    return b;
}

int osprey_buffer_find_record(const char *name, int dir)
{
    const struct buffer_name *e;
    for (uint32_t i = 0, n = buffer_names(name, &e); i < n; i++)
        if (e[i].row->record && !e[i].alias)
            return e[i].b;
    return osprey_buffer_find(name, dir);
}

bool osprey_buffer_two_sided(const char *name)
{
    bool side[2] = {false, false};
    const struct buffer_name *e;
    for (uint32_t i = 0, n = buffer_names(name, &e); i < n; i++)
        if (!e[i].row->record && !e[i].row->late)
            side[e[i].row->dir & 1] = true;
    return side[0] && side[1];
}

const char *osprey_buffer_name(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    return r ? r->name : NULL;
}

int osprey_buffer_dir(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    return r ? r->dir : 0;
}

uint16_t osprey_buffer_event(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    if (!r)
        return 0;
    const struct osprey_proto_def *d = reg_proto(p);
    for (size_t e = 0; e < d->nevents; e++)
        if (!strcmp(d->events[e].name, r->event))
            return (uint16_t)(reg_base_of(p).event + e);
    return 0; /* a descriptor names its own events (tests/test_registry checks) */
}

uint16_t osprey_buffer_proto(uint16_t b)
{
    uint16_t p = OSPREY_APP_PROTO_UNKNOWN;
    reg_buffer(b, &p);
    return p;
}

bool osprey_buffer_is_multi(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    return r && r->multi;
}

bool osprey_buffer_is_late(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    return r && r->late;
}

bool osprey_buffer_is_record(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    return r && r->record;
}

bool osprey_buffer_is_fp_last(uint16_t b)
{
    uint16_t p;
    const struct proto_buffer *r = reg_buffer(b, &p);
    return r && r->fp_last;
}

/* ---- fields ---- */
const struct proto_field *reg_field(uint16_t fld, uint16_t *proto)
{
    for (size_t i = 0; i < NPROTOS; i++) {
        if (fld < PROTOS[i]->nfields) {
            *proto = (uint16_t)(FIRST + i);
            return &PROTOS[i]->fields[fld];
        }
        fld = (uint16_t)(fld - PROTOS[i]->nfields);
    }
    return NULL;
}

uint16_t osprey_field_count(void)
{
    return reg_base_of(FIRST + NPROTOS).field;
}

int osprey_field_find(const char *name)
{
    uint16_t p;
    for (uint16_t i = 0, n = osprey_field_count(); i < n; i++)
        if (!strcmp(reg_field(i, &p)->name, name))
            return i;
    return -1;
}

const char *osprey_field_name(uint16_t fld)
{
    uint16_t p;
    const struct proto_field *r = reg_field(fld, &p);
    return r ? r->name : NULL;
}

uint16_t osprey_field_proto(uint16_t fld)
{
    uint16_t p = OSPREY_APP_PROTO_UNKNOWN;
    reg_field(fld, &p);
    return p;
}

bool osprey_field_value(uint16_t fld, const char *name, int64_t *out)
{
    uint16_t p;
    const struct proto_field *r = reg_field(fld, &p);
    for (const struct proto_value *v = r ? r->values : NULL; v && v->name; v++)
        if (!strcmp(v->name, name)) {
            *out = v->value;
            return true;
        }
    return false;
}

/* ---- anomaly events: every protocol's, then the core's generic ones (Suricata's
 * applayer_* events, no protocol's: raised by the core, pflow_generic_anomaly) ---- */
static const char *const GENERIC[] = {
    /* a protocol change announced one protocol (STARTTLS: TLS) and detection found another */
    [PGEN_UNEXPECTED_PROTOCOL] = "applayer_unexpected_protocol",
    [PGEN_NO_TLS_AFTER_STARTTLS] = "applayer_no_tls_after_starttls", /* ... TLS announced */
    /* a direction's own detection found another protocol than the flow's (drivers.c) */
    [PGEN_MISMATCH_BOTH_DIRECTIONS] = "applayer_mismatch_protocol_both_directions",
};
_Static_assert(sizeof GENERIC / sizeof GENERIC[0] == PGEN__COUNT, "a name per generic event");

bool reg_proto_is_tls(uint16_t id)
{
    const struct osprey_proto_def *d = reg_proto(id);
    return d && !strcmp(d->name, "tls");
}

uint16_t reg_generic_anomaly_base(void)
{
    return reg_base_of(FIRST + NPROTOS).anomaly;
}

uint16_t osprey_app_event_count(void)
{
    return (uint16_t)(reg_generic_anomaly_base() + PGEN__COUNT);
}

const char *osprey_app_event_name(uint16_t e)
{
    for (size_t i = 0; i < NPROTOS; i++) {
        if (e < PROTOS[i]->nanomalies)
            return PROTOS[i]->anomalies[e];
        e = (uint16_t)(e - PROTOS[i]->nanomalies);
    }
    return e < PGEN__COUNT ? GENERIC[e] : NULL;
}

int osprey_app_event_find(const char *name)
{
    for (uint16_t e = 0, n = osprey_app_event_count(); e < n; e++)
        if (!strcmp(osprey_app_event_name(e), name))
            return e;
    return -1;
}

/* ---- counters: the flows of each protocol id, then each protocol's own ---- */
uint16_t reg_files_counter_base(void)
{
    return reg_base_of(FIRST + NPROTOS).counter;
}

uint16_t osprey_parsers_stat_count(void) /* the file layer's come last (core/files.c) */
{
    return (uint16_t)(reg_files_counter_base() + PFILE_C__COUNT);
}

static const char *counter_row(uint16_t i, uint16_t *proto, bool *tx)
{
    *tx = false;
    if (i < FIRST + NPROTOS) {
        *proto = i;
        return NULL;
    }
    i = (uint16_t)(i - FIRST - NPROTOS);
    for (size_t k = 0; k < NPROTOS; k++) {
        if (i < PROTOS[k]->ncounters) {
            *proto = (uint16_t)(FIRST + k);
            *tx = PROTOS[k]->tx_counter == (int)i;
            return PROTOS[k]->counters[i];
        }
        i = (uint16_t)(i - PROTOS[k]->ncounters);
    }
    *proto = OSPREY_APP_PROTO_UNKNOWN;
    return i < PFILE_C__COUNT ? pfile_counter_names[i] : NULL;
}

const char *osprey_parsers_stat_name(uint16_t i)
{
    uint16_t p;
    bool tx;
    const char *n = counter_row(i, &p, &tx);
    if (n)
        return n;
    if (i >= FIRST + NPROTOS)
        return NULL;
    if (i < FIRST)
        return i == OSPREY_APP_PROTO_FAILED ? "flow.failed" : "flow.unknown";
    return PROTOS[i - FIRST]->flow_stat;
}

uint16_t osprey_parsers_stat_proto(uint16_t i)
{
    uint16_t p;
    bool tx;
    counter_row(i, &p, &tx);
    return p;
}

bool osprey_parsers_stat_is_tx(uint16_t i)
{
    uint16_t p;
    bool tx;
    counter_row(i, &p, &tx);
    return tx;
}

int osprey_parsers_stat_find(const char *name)
{
    for (uint16_t i = 0, n = osprey_parsers_stat_count(); i < n; i++) {
        const char *s = osprey_parsers_stat_name(i);
        if (s && !strcmp(s, name))
            return i;
    }
    return -1;
}
