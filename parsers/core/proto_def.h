/* proto_def.h — what a protocol registers: its descriptor (struct osprey_proto_def), defined
 * in parsers/<proto>/<proto>.c and listed once in core/registry.c. Everything the core and
 * the parsers' users know of a protocol comes from here. Internal to parsers/.
 *
 * A row's `key` is the protocol's own number for it (its enum), handed back to its getter:
 * the flat ids users see are the registry's. */
#ifndef OSPREY_PROTO_DEF_H
#define OSPREY_PROTO_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "osprey_parsers.h"

struct pflow;
struct mon_flow;
struct osprey_jw;

enum probe_verdict { DET_NEED_MORE, DET_NO, DET_YES, DET_WEAK };

/* A look at the first bytes of a flow: the client's (dir 0) or the server's (dir 1) stream
 * on TCP, the first datagram on UDP. YES, NO, or NEED_MORE while the bytes so far are a
 * prefix of a YES. f gives the ports for a probe that needs them (DNS off port 53).
 * WEAK (a server's bytes only): a greeting several protocols share (SMTP's and FTP's "220"),
 * which Suricata does not detect on: the flow waits for the client's first bytes, and takes
 * this protocol only when no probe recognises them. */
struct proto_probe {
    uint8_t l4;              /* 6 or 17 */
    uint8_t dir;             /* TCP: 0 the client's bytes, 1 the server's */
    enum probe_verdict (*probe)(const uint8_t *d, size_t n, const struct mon_flow *f);
};

/* A protocol lists its events in the order a transaction reaches them: a rule that needs the
 * buffers of two runs under the later one (its base, rules/compile). */
struct proto_event {
    const char *name;        /* "http_request" … */
    uint8_t dir;             /* 0: the client's message (to server), 1: the server's */
    const char *hook;        /* Suricata 8's rule hook it is (`tls:client_hello_done`), or
                                NULL: such a rule runs under this event */
};

/* Suricata 8's rule hooks of a protocol (its progress states, `http1:request_line`), each
 * direction's in the order a transaction reaches them. event: the event raised when the state
 * is reached; NULL for a state Osprey raises none for (`request_started`, `client_in_progress`
 * …): its rules run at the direction's next state that has one (core/hooks.c). A protocol
 * that lists none has the hooks its events name (proto_event.hook). */
struct proto_hook {
    const char *name;
    uint8_t dir;
    const char *event;
};

typedef const uint8_t *(*proto_buf_fn)(struct pflow *pf, unsigned key, uint32_t i,
                                       struct osprey_scratch *s, uint32_t *len);
struct proto_buffer {
    const char *name;        /* as rules spell it (Suricata's) */
    const char *alias[3];    /* other spellings of the same buffer (NULL-terminated) */
    uint8_t dir;             /* 0 request / to server, 1 response / to client */
    const char *event;       /* the event it is current under (a rule on it runs there) */
    bool multi;              /* a list: element i, a content list matches within one */
    bool late;               /* a request buffer read under a response event */
    bool record;             /* for records only (EVE, trace): rules do not find it */
    unsigned key;            /* handed to get */
    proto_buf_fn get;        /* element i (0 only for a single buffer); NULL: none now */
    bool fp_last;            /* its few values are in every message (http.method): a fast
                                pattern there only when the rule has no other */
};

/* How osprey-trace --app shows one of the protocol's events: the record buffers it prints
 * (their names, found with osprey_buffer_find_record in the event's direction, in this order)
 * and whether the protocol's fields go along, in an object named after it. A protocol that
 * lists views shows only the events it lists; one that lists none shows every event with
 * every buffer current under it and all its fields. */
struct proto_trace {
    const char *event;
    const char *buffers[24]; /* NULL-terminated */
    bool fields;
    const struct osprey_trace_object *object; /* what else it shows, or NULL */
};

struct proto_value {         /* a named value of a field */
    const char *name;
    int64_t value;
};
typedef bool (*proto_field_fn)(struct pflow *pf, unsigned key, uint32_t i, int64_t *out);
struct proto_field {
    const char *name;
    unsigned key;
    proto_field_fn get;      /* element i (0 only for a single field); false: absent */
    const struct proto_value *values; /* NULL or {NULL}-terminated */
};

/* The ranks probe_rank may take (drivers.c tries each in turn). */
#define PROBE_RANK_MIN (-2)
#define PROBE_RANK_MAX 0

struct osprey_proto_def {
    const char *name;                /* "tls": EVE's app_proto, the rule header word */
    const char *flow_stat;           /* its flows' counter name: "flow.tls" */
    const char *eve_name;            /* its EVE record type when not its name ("ftp_data"
                                        for ftp-data); NULL: the name */
    const char *alias[3];            /* other header / service words ("ssl"), NULL-terminated */
    /* protocols it carries inside it, by name (SMB's named pipes carry DCERPC): their events
     * run on its flows through a guest (pflow_guest), their buffers and fields are read there,
     * and a rule whose header names this protocol may use them. NULL-terminated. */
    const char *carries[3];
    const char *rules_of;            /* another protocol whose rules also run on this one's
                                        flows (http2: `alert http` and rules on http.* buffers
                                        it registers too), NULL: none */
    const char *buffer_rules_of;     /* another protocol whose rules on buffers this one also
                                        registers run on its flows (http2: `alert dns` rules
                                        on dns.query, DoH), NULL: none */
    /* a name for another protocol's flows, not a parser (doh2: HTTP/2 carrying DNS): that
     * protocol's name; it has no probes, parser or rows of its own, its flows are the other's
     * that the parser classified (pflow_classify) */
    const char *parsed_by;
    /* Suricata's legacy equivalence (AppProtoEquals): protocols a rule naming them matches
     * this one's flows, and a rule naming this one matches theirs (doh2: dns, http2) */
    const char *equals[3];
    uint8_t l4;                      /* 6, 17 or 0 (both) */
    bool buffers_imply_dir;          /* see osprey_app_proto_buffers_imply_dir */
    bool suricata_stats;             /* see osprey_app_proto_suricata_stats */
    bool raw_trigger;                /* its messages' ends send their direction's acknowledged
                                        bytes to stream inspection at once under ack delivery
                                        (Suricata's parsers that trigger raw reassembly: HTTP/1,
                                        SMTP, TLS); others wait for a chunk (core/flow.c) */
    const struct proto_probe *probes;   /* in order of preference, ended by probe NULL */
    int8_t probe_rank;               /* when its probes run against the others': lower first;
                                        within a rank, table order (0 for most; a protocol
                                        whose traffic another's probe would also take, such
                                        as mDNS's for DNS's, ranks before it) */
    uint16_t home_port;              /* the server port its probes take as a hint (DNS: 53):
                                        a flow to one of its configured detection ports is
                                        probed as if to this one (core/drivers.c); 0: none */
    bool expected;                   /* no probes: a flow is this protocol only when another
                                        announced it (core/expect.c: ftp-data) */
    /* bytes of direction dir (TCP stream chunk, or one UDP datagram) */
    void (*parse)(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d, size_t n);
    void (*parse_dgram)(struct pflow *pf, struct mon_flow *f, int dir, const uint8_t *d,
                        size_t n);
    /* bytes of direction dir were lost: NULL = the direction is given up */
    void (*gap)(struct pflow *pf, struct mon_flow *f, int dir);
    void (*end)(struct pflow *pf, struct mon_flow *f);  /* the flow ends (NULL: nothing to do) */
    void (*state_free)(void *state);
    /* the flow was another protocol until now and becomes this one (pflow_upgrade: HTTP/1's
     * 101 to h2c): make the state such a flow starts with (NULL: as a new flow) */
    void (*upgraded)(struct pflow *pf, struct mon_flow *f);
    /* optional: the TCP connection closed (nothing more will be parsed) — drop what only
     * parsing and body inspection need (bodies, decoders), keep what EVE records read */
    void (*state_trim)(void *state);
    uint32_t (*tx_id)(const struct pflow *pf);          /* NULL: 0 */
    const struct proto_event *events; size_t nevents;
    const struct proto_hook *hooks; size_t nhooks;      /* NULL: the events' hook names */
    const struct proto_buffer *buffers; size_t nbuffers;
    const struct proto_field *fields; size_t nfields;
    const char *const *anomalies; size_t nanomalies;    /* app-layer-event names */
    const char *const *counters; size_t ncounters;      /* stats names */
    int tx_counter;                  /* the counter of transactions (-1: none) */
    /* its EVE object ("<name>": {…}) of the current transaction, written into the open record
     * w (common/'s JSON writer); false when there is none (w NULL: only say whether). NULL:
     * the protocol writes no EVE records. */
    bool (*eve)(struct pflow *pf, struct osprey_jw *w);
    bool eve_tx_id;                  /* its record has "tx_id" at the top (Suricata's http) */
    bool eve_packet_dir;             /* its records take the direction of the packet that
                                        completed the transaction (Suricata's nfs: a reply's
                                        record is from the server), not the flow's */
    /* its object inside a host's record when it is carried (a guest: pflow_guest_eve);
     * NULL: eve */
    bool (*eve_carried)(struct pflow *pf, struct osprey_jw *w);
    /* osprey-trace --app's views of its events (osprey_event_trace); none: every event, every
     * buffer */
    const struct proto_trace *trace; size_t ntrace;
    /* its configuration keys (osprey_parsers_cfg_key: where each goes in its settings) */
    const struct osprey_parsers_cfg_key *cfg_keys; size_t ncfg_keys;
    /* its settings: a struct of cfg_size bytes in the slot the registry gives it in
     * osprey_parsers_cfg (pflow_cfg reads it), set to its defaults by cfg_defaults (NULL:
     * zeros). 0: no settings (or keys whose offsets are into osprey_parsers_cfg itself). */
    size_t cfg_size;
    void (*cfg_defaults)(void *cfg);
};

#define PROTO_N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the registry (registry.c) ---- */
/* Registered protocol id (>= 2) → its descriptor; NULL for UNKNOWN / FAILED / past the end. */
const struct osprey_proto_def *reg_proto(uint16_t id);
/* Where a protocol's rows start in the flat id spaces. */
struct reg_base {
    uint16_t event, buffer, field, anomaly, counter;
    uint16_t cfg;            /* its settings' slot in osprey_parsers_cfg.proto */
};
/* The bytes of osprey_parsers_cfg.proto the registered settings take (<= CFG_BYTES: ctest). */
size_t reg_cfg_bytes(void);
struct reg_base reg_base_of(uint16_t id);
/* Flat buffer / field id → its row and protocol; NULL past the end. */
const struct proto_buffer *reg_buffer(uint16_t b, uint16_t *proto);
/* buffer_index.c: the buffers named `name` (their name or an alias), ascending ids. */
struct buffer_name {
    const char *name;
    uint16_t b;
    uint16_t proto;
    bool alias;
    const struct proto_buffer *row;
};
uint32_t buffer_names(const char *name, const struct buffer_name **out);
const struct proto_field *reg_field(uint16_t fld, uint16_t *proto);
/* Where the file layer's counters start (after every protocol's). */
uint16_t reg_files_counter_base(void);

#endif
