/* osprey_parsers.h — application-layer parsers (HTTP/1.x, DNS, TLS, SSH … : every protocol
 * parsers/core/registry.c registers) as a UDE library on libmon.
 *
 * Contract between parsers/ (which implements it) and its users: rules/compile (sticky
 * buffers, fields, app-layer rule headers) and the engine's outputs (app_proto, each
 * protocol's EVE records, counters). It uses libmon's public API and common/'s JSON writer
 * only, and knows nothing of rules or outputs.
 *
 * Model (mOS §3, UDE libraries): osprey_parsers_define() defines, on an unfrozen engine, one
 * UDE per application-layer event below libmon's built-in events (CONN_NEW_DATA for TCP, PKT_IN
 * for UDP). Protocol detection looks at content, not ports. A user hangs its own UDEs under
 * these events (mon_define_event(eng, osprey_parsers_event(p, osprey_event_find("http_request")),
 * my_filter, arg)); inside its filters and handlers, osprey_parsers_buffer() returns the current
 * transaction's buffers, found by name (osprey_buffer_find) once, read by id.
 *
 * The contract names no protocol: protocols register a descriptor in parsers/core/registry.c
 * and everything here (protocols, events, buffers, fields, anomaly names, counters) is found
 * by name and numbered from that table.
 *
 * Each application event runs once per message: three pipelined requests in one segment run
 * the http_request subtree three times, in order, each time with that request's buffers current.
 * A message split over any number of segments runs once, when complete (or when a limit or the
 * end of the flow cuts it short).
 *
 * Lifetime follows libmon's: define on the engine, freeze, then attach one worker per mon_ctx
 * (before osprey_detect_attach or any other user of the events on that context).
 */
#ifndef OSPREY_PARSERS_H
#define OSPREY_PARSERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mon.h"

/* ---- protocols ----
 * Every protocol the parsers know registers one descriptor (parsers/core/registry.c); its id
 * is its place in that table. Two ids are fixed: UNKNOWN (not decided yet) and FAILED (decided:
 * none of ours). Ids are uint16_t; sets of them are osprey_app_proto_set (OSPREY_APP_PROTO_MAX ids). */
#define OSPREY_APP_PROTO_UNKNOWN 0
#define OSPREY_APP_PROTO_FAILED 1
#define OSPREY_APP_PROTO_MAX 128
/* Ids 0 .. osprey_app_proto_count() - 1 (UNKNOWN and FAILED included). */
uint16_t osprey_app_proto_count(void);
/* "http", "dns", "tls", "failed"; NULL for UNKNOWN (EVE leaves app_proto out) or past the end. */
const char *osprey_app_proto_name(uint16_t proto);
/* Its i-th other name (header and service words: "ssl" for tls), NULL past the last one;
 * i < OSPREY_APP_PROTO_ALIASES. */
#define OSPREY_APP_PROTO_ALIASES 3
const char *osprey_app_proto_alias(uint16_t proto, unsigned i);
/* The protocol a name or alias ("tls", "ssl", "http1") means; -1: none. "failed" is FAILED. */
int osprey_app_proto_find(const char *name);
/* Its transports: 6 (TCP), 17 (UDP) or 0 (both). */
uint8_t osprey_app_proto_l4(uint16_t proto);
/* Whether its buffers each belong to one side of the flow, so that a rule without direction
 * on one of them inspects that side only (TLS: the client's hello, the server's certificate). */
bool osprey_app_proto_buffers_imply_dir(uint16_t proto);
/* The protocol whose rules also run on this one's flows (HTTP/2: HTTP's `alert http` rules,
 * and rules on the http.* buffers it registers too), 0: none. */
uint16_t osprey_app_proto_rules_of(uint16_t proto);
/* The protocol whose rules on buffers this one registers too also run on its flows (HTTP/2:
 * DNS's rules on dns.query …, DoH), 0: none. */
uint16_t osprey_app_proto_buffer_rules_of(uint16_t proto);

/* A protocol that names what another's flows are rather than being parsed itself (doh2:
 * an HTTP/2 flow carrying DNS, pflow_classify): the protocol that parses its flows; else
 * proto itself. A rule header naming it (`alert doh2`) is that protocol's rule. */
uint16_t osprey_app_proto_parsed_by(uint16_t proto);
/* Suricata's legacy equivalence (AppProtoEquals): does a rule naming protocol sig match a flow
 * of protocol flow? sig itself, and the protocols a descriptor declares equal to it (doh2 is
 * dns and http2: `app-layer-protocol:dns` matches a doh2 flow, `app-layer-protocol:doh2` a
 * dns or http2 one). Firewall rules compare exactly instead. */
bool osprey_app_proto_equals(uint16_t sig, uint16_t flow);

struct osprey_app_proto_set {
    uint64_t w[OSPREY_APP_PROTO_MAX / 64];
};
static inline void osprey_app_proto_set_add(struct osprey_app_proto_set *s, uint16_t p)
{
    if (p < OSPREY_APP_PROTO_MAX)
        s->w[p / 64] |= (uint64_t)1 << (p % 64);
}
static inline bool osprey_app_proto_set_has(const struct osprey_app_proto_set *s, uint16_t p)
{
    return p < OSPREY_APP_PROTO_MAX && (s->w[p / 64] >> (p % 64) & 1);
}
/* Widen a rule's set of protocols to every flow protocol one of them equals
 * (osprey_app_proto_equals; not transitive). */
void osprey_app_proto_set_widen(struct osprey_app_proto_set *s);
static inline bool osprey_app_proto_set_empty(const struct osprey_app_proto_set *s)
{
    for (unsigned i = 0; i < OSPREY_APP_PROTO_MAX / 64; i++)
        if (s->w[i])
            return false;
    return true;
}

/* ---- application events ----
 * Each protocol's events ("http_request", "dns_query", "tls_client_hello" …), numbered flat
 * over all protocols (0 .. osprey_event_count() - 1). Each has a direction: 0 = to server
 * (the client's message), 1 = to client. */
uint16_t osprey_event_count(void);
int osprey_event_find(const char *name);           /* -1: none */
const char *osprey_event_name(uint16_t ev);
uint16_t osprey_event_proto(uint16_t ev);
int osprey_event_dir(uint16_t ev);
/* The event of Suricata 8's rule hook `<proto>:<hook>` (a protocol's progress state such as
 * tls:client_hello_done), -1 when the protocol registers no such hook. */
int osprey_event_find_hook(uint16_t proto, const char *hook);
/* A protocol's rule hooks as a firewall table sees them (core/hooks.c): each direction's
 * states in progress order, rank 0 the start state (`request_started`, `client_in_progress`).
 * event: the event the state's rules run at — its own, or for a state Osprey raises no event
 * for, the direction's next state's; -1: none (a state after the direction's last event). */
struct osprey_hook {
    uint16_t proto;
    uint8_t dir, rank;
    int event;
    bool own_event; /* event is the state's own */
};
int osprey_hook_find(uint16_t proto, const char *hook, struct osprey_hook *out); /* 0 / -1 */
/* The state event ev is (own_event true), -1 when it is none. */
int osprey_event_hook(uint16_t ev, struct osprey_hook *out);
/* How many states a direction has, and the name of one (NULL past the end). */
uint8_t osprey_hook_count(uint16_t proto, uint8_t dir);
const char *osprey_hook_name(uint16_t proto, uint8_t dir, uint8_t rank);
/* osprey-trace --app's view of event ev, from its protocol's descriptor: 0 not shown; 1 shown
 * with the record buffers named in *bufs (NULL-terminated; osprey_buffer_find_record in the
 * event's direction) and, when *fields, the protocol's fields; 2 shown with every buffer
 * current under it and all the protocol's fields (the protocol lists no views). */
int osprey_event_trace(uint16_t ev, const char *const **bufs, bool *fields);
/* What osprey-trace --app shows of an event's transaction besides its buffers, from the
 * protocol's descriptor: values are fields (integers) or record buffers (bytes), by name. */
struct osprey_trace_value {
    const char *key;         /* its key in the line */
    const char *name;        /* the field's or the record buffer's name */
    bool buffer;
};
struct osprey_trace_object {
    /* an object named after the protocol: these values (each present, else no object) … */
    const struct osprey_trace_value *values;   /* {NULL}-terminated, or NULL */
    /* … and under `list` one object per element of the items (while every field among them
     * has that element; a record buffer without it shows as "") */
    const char *list;
    const struct osprey_trace_value *items;    /* {NULL}-terminated, or NULL */
    /* values written at the line's top level when present and not 0 (HTTP's status) */
    const struct osprey_trace_value *top;      /* {NULL}-terminated, or NULL */
};
/* The event's object, NULL when its protocol's view of it has none. */
const struct osprey_trace_object *osprey_event_trace_object(uint16_t ev);

/* ---- buffers ----
 * Each protocol's buffers, numbered flat (0 .. osprey_buffer_count() - 1): a name as rules
 * spell it ("http.uri", "dns.query", "tls.sni" …, plus aliases), a direction, the event under
 * which it is current, single or multi. A name whose bytes differ per direction
 * ("http.header", "file.data", the TLS certificate buffers) is two buffers, one per
 * direction; a request buffer also read under a response event (a to_client rule on
 * "http.uri") is its own buffer too, marked "late". Each is a byte range valid until the
 * handler/filter that asked returns (derived ones: until the scratch is reused). */
uint16_t osprey_buffer_count(void);
/* The buffer name (or alias) means in direction dir (0 to server, 1 to client): the row of
 * that direction, else the name's only row. -1: no parser has it. */
int osprey_buffer_find(const char *name, int dir);
/* The same among protocol proto's rows only (a name several protocols register: file.data
 * is HTTP's and ftp-data's), else among the protocols proto carries (SMB: DCERPC's); proto
 * 0: any protocol, as osprey_buffer_find. */
int osprey_buffer_find_in(const char *name, int dir, uint16_t proto);
/* The same for records (EVE, trace): a buffer kept for them under that name first (the
 * parser's own http.header with the cookies, the first question's dns.query …), else the
 * rules' one. */
int osprey_buffer_find_record(const char *name, int dir);
const char *osprey_buffer_name(uint16_t b);
int osprey_buffer_dir(uint16_t b);
uint16_t osprey_buffer_event(uint16_t b);          /* the event it is current under */
uint16_t osprey_buffer_proto(uint16_t b);
bool osprey_buffer_is_multi(uint16_t b);
/* A request buffer read under a response event (not two-sided: the same bytes). */
bool osprey_buffer_is_late(uint16_t b);
/* Kept for records only (EVE, osprey-trace): rules do not find it. */
bool osprey_buffer_is_record(uint16_t b);
/* Are its few values in every message (http.method), so that a rule's fast pattern is
 * better taken elsewhere? */
bool osprey_buffer_is_fp_last(uint16_t b);
/* Does the name mean different bytes in the two directions (a non-late row for each)? */
bool osprey_buffer_two_sided(const char *name);

/* Room a derived buffer (one the parsers build on demand, e.g. http.header_names) is built in:
 * the caller's, zeroed before first use, freed with osprey_scratch_free. */
struct osprey_scratch {
    uint8_t *p;
    uint32_t len, cap;
};
void osprey_scratch_free(struct osprey_scratch *s);

/* ---- integer fields ----
 * What rules and records need that is not bytes (dns.opcode, tls.version, http.status …),
 * numbered flat, read by id for the current transaction. A multi field has elements. Some
 * fields name their values (tls.state: "client_hello" …). */
uint16_t osprey_field_count(void);
int osprey_field_find(const char *name);           /* -1: none */
const char *osprey_field_name(uint16_t fld);
uint16_t osprey_field_proto(uint16_t fld);
/* The value a field gives name ("client_hello" of tls.state); false: no such name. */
bool osprey_field_value(uint16_t fld, const char *name, int64_t *out);

/* ---- application-layer anomaly events (app-layer-event:NAME, Suricata's names) ----
 * Each protocol's, numbered flat (0 .. osprey_app_event_count() - 1). */
uint16_t osprey_app_event_count(void);
const char *osprey_app_event_name(uint16_t e);
int osprey_app_event_find(const char *name);       /* -1: none */
/* Inside app_anomaly's subtree: the event being raised; -1 elsewhere. */
int osprey_parsers_anomaly(struct mon_ctx *ctx, const struct mon_flow *f);
/* Did the flow's current transaction (its protocol's tx id now) raise anomaly event code?
 * The last few raised are remembered (Suricata keeps events per transaction): a rule on the
 * transaction's buffers that names one asks here, under the buffers' event. */
bool osprey_parsers_tx_anomaly(struct mon_ctx *ctx, const struct mon_flow *f, int code);

/* The parsers' settings. No protocol has a member here: each descriptor declares its own
 * settings struct (cfg_size bytes, cfg_defaults) and the registry gives it a slot in `proto`;
 * its keys (below) say where each value goes. `mode` is every protocol's
 * app-layer.protocols.<name>.enabled, by protocol id (0: enabled). A plain value: copy it,
 * no free. */
#define OSPREY_PARSERS_CFG_BYTES 1024 /* room for every protocol's settings (ctest checks) */
enum osprey_app_mode {
    OSPREY_APP_ENABLED,        /* detected and parsed (the default) */
    OSPREY_APP_DETECTION_ONLY, /* detected (app_proto, `alert <proto>`, app-layer-protocol,
                                  flow counters), never parsed: no buffers, events, anomalies
                                  or EVE records of its own (Suricata's "detection-only") */
    OSPREY_APP_DISABLED,       /* neither: its probes and expectations are skipped, so its
                                  flows are another protocol's or failed ("no") */
};
/* A run of server ports, lo..hi (both 0: unused). */
struct osprey_detect_ports {
    uint16_t lo, hi;
};
#define OSPREY_DETECT_PORT_RANGES 8
struct osprey_parsers_cfg {
    uint8_t mode[OSPREY_APP_PROTO_MAX];             /* enum osprey_app_mode, by protocol id */
    /* Suricata's app-layer.protocols.<name>[.tcp|.udp].detection-ports.dp of a protocol whose
     * probes read the server's port as a hint (osprey_app_proto_home_port: DNS's 53): a flow
     * to one of these ports is probed as if it were to that port. By protocol id, then
     * [0] TCP, [1] UDP. */
    struct osprey_detect_ports detect_ports[OSPREY_APP_PROTO_MAX][2][OSPREY_DETECT_PORT_RANGES];
    /* the core's own (no protocol's): the file layer (core/files.c) */
    uint32_t files_memcap;           /* bytes of files kept per worker (OSPREY_FILES_STORE);
                                        default 64 MiB; past it a file's bytes are shed */
    _Alignas(16) unsigned char proto[OSPREY_PARSERS_CFG_BYTES]; /* the protocols' slots */
};
void osprey_parsers_cfg_defaults(struct osprey_parsers_cfg *cfg);
/* The configuration keys each protocol reads (its descriptor's), for whoever fills struct
 * osprey_parsers_cfg from a configuration file: the key, what it holds, where it goes. */
enum osprey_cfg_kind {
    OSPREY_CFG_SIZE,  /* a byte size ("32kb"), under 4 GiB, into a uint32_t */
    OSPREY_CFG_UINT,  /* a number, into a uint32_t */
    OSPREY_CFG_BOOL,  /* yes/no, into a bool */
    OSPREY_CFG_ENUM,  /* one of the key's names, into a uint32_t: its index */
};
struct osprey_parsers_cfg_key {
    const char *key;  /* "app-layer.protocols.http.header-limit" */
    uint8_t kind;     /* enum osprey_cfg_kind */
    size_t offset;    /* of its member in the protocol's settings struct (osprey_parsers_cfg_at
                         finds it); a descriptor without cfg_size: in struct osprey_parsers_cfg
                         (rows written before the slots) */
    uint32_t min;     /* SIZE: the smallest value allowed (0: any) */
    const char *const *names; /* ENUM: its values, NULL-terminated (the schema checks them) */
};
/* OR'd into a key's kind: another name (Suricata's) of the key before it, read only when the
 * configuration sets it (then it wins over the other) */
#define OSPREY_CFG_IF_SET 0x80
size_t osprey_parsers_cfg_key_count(void);
const struct osprey_parsers_cfg_key *osprey_parsers_cfg_key(size_t i);
/* Where key i's value lives in cfg (its protocol's slot + the key's offset). */
void *osprey_parsers_cfg_at(struct osprey_parsers_cfg *cfg, size_t i);

struct osprey_parsers;
struct osprey_parsers_worker;

/* Define the events on eng (not frozen). Returns 0, or -1 (out of memory / libmon error). */
int osprey_parsers_define(struct mon_engine *eng, const struct osprey_parsers_cfg *cfg,
                          struct osprey_parsers **out);
/* The UDE of application event ev (osprey_event_find). */
mon_event_t osprey_parsers_event(const struct osprey_parsers *p, uint16_t ev);
/* The flow's protocol was decided (any outcome), and again when it became another
 * (HTTP/1 upgraded to h2c). */
mon_event_t osprey_parsers_app_detected(const struct osprey_parsers *p);
/* An anomaly event (above) happened: runs once per occurrence, osprey_parsers_anomaly() says
 * which, with the side of the direction it was seen in. */
mon_event_t osprey_parsers_app_anomaly(const struct osprey_parsers *p);
void osprey_parsers_free(struct osprey_parsers *p);

/* One per context, after mon_engine_freeze. Free the worker after mon_ctx_destroy (flows
 * that end when the context goes still finish their transactions). App events run with the
 * side of the message's receiver, as CONN_NEW_DATA: MON_SIDE_SVR for what the client sent
 * (also for UDP). */
struct osprey_parsers_worker *osprey_parsers_attach(const struct osprey_parsers *p,
                                                    struct mon_ctx *ctx);
void osprey_parsers_worker_free(struct osprey_parsers_worker *w);

/* Valid inside any filter or handler on that context (and in the flow-end callback). */
uint16_t osprey_parsers_app_proto(struct mon_ctx *ctx, const struct mon_flow *f);
/* Is the flow's payload still for content rules? Once it is encrypted its parser says no, as
 * Suricata's parsers do (its FLOW_NOPAYLOAD_INSPECTION): content rules no longer inspect its
 * packets' payload nor its stream; the protocol's own buffers stay readable. */
enum osprey_payload {
    OSPREY_PAYLOAD_INSPECTED,
    /* encrypted (TLS application data, encryption-handling default): stream bytes not yet
     * inspected are not either (Suricata turns the raw stream off) */
    OSPREY_PAYLOAD_ENCRYPTED,
    /* encrypted, and the stream takes no more bytes (SSH after both NEWKEYS, TLS with
     * encryption-handling bypass): those it took before are still inspected */
    OSPREY_PAYLOAD_UNREASSEMBLED,
};
enum osprey_payload osprey_parsers_payload(struct mon_ctx *ctx, const struct mon_flow *f);
/* The flow's app_proto as Suricata names it (EVE's app_proto, app-layer-protocol): its
 * protocol, or what its parser classified it as (doh2 for HTTP/2 carrying DNS). Its buffers,
 * events and records stay osprey_parsers_app_proto's. */
uint16_t osprey_parsers_app_proto_named(struct mon_ctx *ctx, const struct mon_flow *f);
/* Each direction's own detection (dir 0: the client's bytes, Suricata's alproto_ts; 1: the
 * server's, alproto_tc): UNKNOWN until that side's first bytes were probed; another protocol
 * than the flow's when the two sides disagree (a client talking HTTP to an SSH server); the
 * named protocol once a parser classified the flow. */
uint16_t osprey_parsers_app_proto_dir(struct mon_ctx *ctx, const struct mon_flow *f, int dir);
/* The protocol the flow had before it became another (HTTP/1 before h2c, SMTP before
 * STARTTLS: EVE's app_proto_orig); UNKNOWN when it never changed. */
uint16_t osprey_parsers_app_proto_orig(struct mon_ctx *ctx, const struct mon_flow *f);
/* The flow's TCP connection closed (mon_set_conn_closed_cb): the parser's input buffers and
 * what its protocol only needs while parsing go; its EVE objects stay readable. */
void osprey_parsers_conn_closed(struct mon_ctx *ctx, struct mon_flow *f);
/* The current transaction's buffer b, or NULL (len 0) when it has none now (or the flow is
 * another protocol's). Derived buffers are built in the worker's own scratch, valid until the
 * next call that builds one. */
const uint8_t *osprey_parsers_buffer(struct mon_ctx *ctx, const struct mon_flow *f, uint16_t b,
                                     uint32_t *len);
/* Element i (0, 1, …) of buffer b: of a multi-buffer, its i-th element; of any other buffer,
 * the buffer itself for i = 0. NULL (len 0) past the last element. s: where a derived buffer
 * is built (NULL: the worker's scratch). */
const uint8_t *osprey_parsers_buffer_at(struct mon_ctx *ctx, const struct mon_flow *f,
                                        uint16_t b, uint32_t i, struct osprey_scratch *s,
                                        uint32_t *len);
/* Element i of field fld of the current transaction into *out; false when absent. */
bool osprey_parsers_field_at(struct mon_ctx *ctx, const struct mon_flow *f, uint16_t fld,
                             uint32_t i, int64_t *out);
/* The current transaction's number in the flow (0, 1, …; 0 for a protocol without). */
uint32_t osprey_parsers_tx_id(struct mon_ctx *ctx, const struct mon_flow *f);

/* EVE: does the protocol write transaction records (its record type is its name)? does the
 * record carry "tx_id" at its top (Suricata's http does; dns has its own inside)? */
bool osprey_app_proto_has_eve(uint16_t proto);
/* Does protocol host carry protocol guest inside it (DCERPC over SMB named pipes)? Then the
 * guest's events run on host flows, its buffers and fields are read there, and a rule whose
 * header names host may use the guest's buffers (osprey_buffer_find_in finds them). */
bool osprey_app_proto_carries(uint16_t host, uint16_t guest);
/* Its EVE record type ("ftp_data" for ftp-data; else its name). */
const char *osprey_app_proto_eve_name(uint16_t proto);
bool osprey_app_proto_eve_tx_id(uint16_t proto);
struct osprey_jw;
/* The flow's current transaction's EVE object ("http": {…} …), written into the open JSON
 * object w (common/include/osprey_json_writer.h); false when the flow's protocol has none now
 * (nothing written). w NULL: only whether there is one. */
bool osprey_parsers_eve(struct mon_ctx *ctx, const struct mon_flow *f, struct osprey_jw *w);

/* ---- files (parsers/core/files.c) ----
 * What a flow carries as files: an HTTP body, an ftp-data transfer (and whatever else a
 * protocol produces through the file layer). Each file belongs to one transaction and one
 * direction (0: the client sent it, 1: the server did), has a name (possibly empty), a size,
 * a state, and, as asked with osprey_parsers_set_files, its hashes and libmagic's
 * description of its first bytes. */
enum osprey_file_state {
    OSPREY_FILE_OPEN,       /* bytes may still come */
    OSPREY_FILE_CLOSED,     /* complete: its hashes are final */
    OSPREY_FILE_TRUNCATED,  /* cut short (a body limit, a gap, the flow's end): no hashes */
};
/* What osprey_parsers_set_files asks of every file (an OR of these). */
#define OSPREY_FILES_MD5 0x1u
#define OSPREY_FILES_SHA1 0x2u
#define OSPREY_FILES_SHA256 0x4u
#define OSPREY_FILES_MAGIC 0x8u   /* libmagic on the first bytes */
#define OSPREY_FILES_STORE 0x10u  /* keep the bytes (within the memcap) for filestore */
#define OSPREY_FILES_STORE_ALL 0x20u /* every file is to be stored (force-filestore) */
struct osprey_file_info {
    uint32_t id;                  /* per flow, from 1 (EVE fileinfo.fileid) */
    uint32_t tx_id;
    uint8_t dir;
    uint8_t state;                /* enum osprey_file_state */
    bool has_md5, has_sha1, has_sha256; /* closed, and asked for */
    bool store;                   /* a filestore rule asked for it */
    bool bytes_kept;              /* all its bytes are kept (osprey_parsers_file_bytes) */
    const uint8_t *name;
    uint32_t name_len;
    const char *magic;            /* NULL: not asked, or not known yet */
    uint64_t size;                /* bytes seen */
    uint8_t md5[16], sha1[20], sha256[32];
};
/* A rule reads buffer b (a flat buffer id): a protocol that fills some buffers only when
 * something reads them (SSH's HASSH, as Suricata turns it on for a rule using it) fills it.
 * On the engine-level object before the workers are attached. */
void osprey_parsers_want_buffer(struct osprey_parsers *p, uint16_t b);
/* Ask for hashes, magic, kept bytes (OSPREY_FILES_*), on the engine-level object before the
 * workers are attached; ORed into what was asked before. */
void osprey_parsers_set_files(struct osprey_parsers *p, unsigned flags);
/* The i-th file (0, 1, …) of the flow's current transaction in direction dir (-1: both, the
 * client's first); false past the last. The pointers are valid until the handler returns. */
bool osprey_parsers_file_at(struct mon_ctx *ctx, const struct mon_flow *f, int dir, uint32_t i,
                            struct osprey_file_info *out);
/* A filestore rule matched: store the current transaction's files of direction dir (-1:
 * both), those open now and those opened later in it; flow: every file of the flow from now
 * on. */
void osprey_parsers_file_store(struct mon_ctx *ctx, const struct mon_flow *f, int dir,
                               bool flow);
/* The kept bytes of the current transaction's file with this id (info.bytes_kept); NULL when
 * not kept. */
const uint8_t *osprey_parsers_file_bytes(struct mon_ctx *ctx, const struct mon_flow *f,
                                         uint32_t id, uint64_t *len);

/* A transaction (HTTP request+response, DNS message, TLS handshake) is complete: called once
 * for it, with its buffers current (for EVE http/dns/tls records). */
typedef void (*osprey_tx_fn)(struct mon_ctx *ctx, struct mon_flow *f, uint16_t proto, void *arg);
void osprey_parsers_set_tx_cb(struct osprey_parsers_worker *w, osprey_tx_fn fn, void *arg);

/* Counters of one worker: the flows of each protocol (index = protocol id, FAILED included),
 * then each protocol's own counters (limits hit, malformed messages, transactions …).
 * Summed as an array; names from osprey_parsers_stat_name. */
#define OSPREY_PARSERS_STATS_MAX 1024
struct osprey_parsers_stats {
    uint64_t v[OSPREY_PARSERS_STATS_MAX];
};
uint16_t osprey_parsers_stat_count(void);
/* Counter i's name: "flow.http", "flow.failed" for the flows, the protocol's own names for
 * its counters ("http_requests", "dns_malformed" …); NULL past the end. */
const char *osprey_parsers_stat_name(uint16_t i);
/* Its protocol (the flows' counters too), and whether it counts the protocol's transactions
 * (EVE's app_layer.tx.<proto>). */
uint16_t osprey_parsers_stat_proto(uint16_t i);
bool osprey_parsers_stat_is_tx(uint16_t i);
int osprey_parsers_stat_find(const char *name);    /* -1: none */
/* Does Suricata count this protocol's flows and transactions under the same stats names
 * (app_layer.flow.<proto>)? Else EVE marks them Osprey's own. */
bool osprey_app_proto_suricata_stats(uint16_t proto);
/* The server port a protocol's probes take as a hint (DNS: 53), which detection ports
 * (osprey_parsers_cfg.detect_ports) stand for; 0: its probes read no port. */
uint16_t osprey_app_proto_home_port(uint16_t proto);
/* Parse a detection-ports value ("1053", "53, 1053", "[53,1000:1010]") into out (up to
 * OSPREY_DETECT_PORT_RANGES ranges, the rest zeroed). 0, or -1 when it is not such a list. */
int osprey_port_ranges_parse(const char *s, struct osprey_detect_ports *out);
/* Do its transaction records take the direction of the packet that completed them (Suricata's
 * nfs), rather than the flow's (client to server)? */
bool osprey_app_proto_eve_packet_dir(uint16_t proto);
const struct osprey_parsers_stats *osprey_parsers_worker_stats(
    const struct osprey_parsers_worker *w);

#endif
